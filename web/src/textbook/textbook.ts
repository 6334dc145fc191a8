// The textbook round model beside a per-packet run, as the engine writes it
// (`textbook_beside_json`, engine/wasm/src/textbook.rs): the model's rounds in a convention,
// replayed on the run's losses, and the first round where the two part with the engine's
// sentence saying why. The page draws and shows these; it computes none of them.
import { isJsonObject, type JsonObject, type JsonValue } from '../lib/json';

/** One round of the model (windows in segments; null: no limit). */
export interface TextbookRound {
  round: number;
  cwnd: number;
  ssthresh: number | null;
  phase: string;
  first_segment: number;
  last_segment: number;
  ended_by: string | null;
  rule: string;
  why: string;
}

/** Where the model and the per-packet run part. */
export interface TextbookDivergence {
  round: number;
  perPacket: { cwnd: number | null; ssthresh: number | null; phase: string };
  textbook: { cwnd: number | null; ssthresh: number | null; rule: string };
  /** The engine's sentence. */
  why: string;
}

/** The model beside a run. */
export interface TextbookBeside {
  convention: string;
  label: string;
  short: string;
  /** The model in one line (the engine's `describe`). */
  model: string;
  rounds: TextbookRound[];
  divergence: TextbookDivergence | null;
  /** Every round where they part anew (the first is `divergence`). */
  partings: TextbookDivergence[];
}

const str = (o: JsonObject, k: string): string => (typeof o[k] === 'string' ? o[k] : '');
const num = (o: JsonObject, k: string): number => (typeof o[k] === 'number' ? o[k] : NaN);
const numOrNull = (o: JsonObject, k: string): number | null => (typeof o[k] === 'number' ? o[k] : null);
const obj = (v: JsonValue | undefined): JsonObject => (v !== undefined && isJsonObject(v) ? v : {});

/** Parses the engine's JSON (throws when it is not the model). */
export function parseBeside(json: string): TextbookBeside {
  const raw = JSON.parse(json) as JsonValue;
  if (!isJsonObject(raw) || !Array.isArray(raw.rounds)) throw new Error('the engine returned no textbook model');
  const rounds = raw.rounds.filter(isJsonObject).map((r) => ({
    round: num(r, 'round'),
    cwnd: num(r, 'cwnd'),
    ssthresh: numOrNull(r, 'ssthresh'),
    phase: str(r, 'phase'),
    first_segment: num(r, 'first_segment'),
    last_segment: num(r, 'last_segment'),
    ended_by: typeof r.ended_by === 'string' ? r.ended_by : null,
    rule: str(r, 'rule'),
    why: str(r, 'why'),
  }));
  const parting = (d: JsonValue | undefined): TextbookDivergence | null =>
    d !== undefined && isJsonObject(d)
      ? {
          round: num(d, 'round'),
          perPacket: {
            cwnd: numOrNull(obj(d.per_packet), 'cwnd'),
            ssthresh: numOrNull(obj(d.per_packet), 'ssthresh'),
            phase: str(obj(d.per_packet), 'phase'),
          },
          textbook: {
            cwnd: numOrNull(obj(d.textbook), 'cwnd'),
            ssthresh: numOrNull(obj(d.textbook), 'ssthresh'),
            rule: str(obj(d.textbook), 'rule'),
          },
          why: str(d, 'why'),
        }
      : null;
  const divergence = parting(raw.divergence);
  const partings = (Array.isArray(raw.partings) ? raw.partings : []).flatMap((d) => parting(d) ?? []);
  return {
    convention: str(raw, 'convention'),
    label: str(raw, 'label'),
    short: str(raw, 'short'),
    model: str(raw, 'model'),
    rounds,
    divergence,
    partings,
  };
}

/** The model's rounds numbered r0…r1 as [round, cwnd] points (segments). */
export function textbookPoints(m: TextbookBeside, r0: number, r1: number): [number, number][] {
  return m.rounds.filter((r) => r.round >= r0 && r.round <= r1).map((r) => [r.round, r.cwnd]);
}

/** The largest window (cwnd, finite ssthresh) of the model's rounds numbered r0…r1. */
export function textbookMax(m: TextbookBeside, r0: number, r1: number): number {
  let hi = 0;
  for (const r of m.rounds) {
    if (r.round < r0 || r.round > r1) continue;
    hi = Math.max(hi, r.cwnd, r.ssthresh ?? 0);
  }
  return hi;
}
