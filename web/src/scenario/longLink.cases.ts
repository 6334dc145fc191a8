// The longest realistic scenarios, for the long-link tests and their measured lengths
// (docs/scenario-url.md "Long links"): every list long, 64 flows that differ, 16 cross-traffic
// sources (the engine's limits), long decimals. Scripted drops, scripted writes and the
// timeline have no length limit in the engine; the cases take 1 000 drops, 1 000 writes and
// 500 timeline changes as a generous "a student scripted a lot".
import { tables } from '../engine/tables';
import type { JsonObject } from '../lib/json';
import { realValidator } from '../test/wasm';
import { defaultShareState, type ShareState } from './shareState';

const validate = realValidator();

/** A small seeded generator (mulberry32): the same cases on every run. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The engine's own resolution of a partial scenario (throws with its problems). */
export function resolve(partial: JsonObject): JsonObject {
  const v = validate(JSON.stringify(partial));
  if (!v.ok) throw new Error(`case refused by the engine: ${JSON.stringify(v.problems)}`);
  return v.scenario;
}

/** A comparison of Reno and NewReno on flow 0 with these settings (drops, app, …). */
export function longState(flow0: JsonObject, extra: JsonObject = {}): ShareState {
  return {
    ...defaultShareState(),
    algorithms: ['reno', 'newreno'],
    scenario: resolve({ duration: 100, flows: [flow0], ...extra }),
  };
}

/** `n` scripted drops, every `step`-th segment from `step`. */
export function everyNth(n: number, step: number): JsonObject[] {
  return Array.from({ length: n }, (_, i) => ({ segment: step * (i + 1), attempt: 1 }));
}

/** `n` drops at random segments (increasing, gaps 1–40), attempts 1–3. */
export function randomDrops(n: number, seed: number): JsonObject[] {
  const r = random(seed);
  let seg = 0;
  return Array.from({ length: n }, () => {
    seg += 1 + Math.floor(r() * 40);
    return { segment: seg, attempt: 1 + Math.floor(r() * 3) };
  });
}

/** `n` writes every 10 ms (times summed in floating point: 0.30000000000000004, …) of
 *  random sizes from 100 to 1 500 bytes. */
export function scriptedWrites(n: number, seed: number): JsonObject[] {
  const r = random(seed);
  let at = 0;
  return Array.from({ length: n }, () => {
    at += 0.01;
    return { at, bytes: 100 + Math.floor(r() * 1400) };
  });
}

/** `n` timeline changes as a slider drag records them: one per frame (1/60 s) from 3.25 s,
 *  bandwidths in whole bit/s, every tenth change the loss rate of `flows` flows' links. */
export function sliderTimeline(n: number, seed: number): JsonObject[] {
  const r = random(seed);
  let at = 3.2500000000000004;
  return Array.from({ length: n }, (_, i) => {
    at += 1 / 60;
    return i % 10 === 9
      ? { at, set: 'network.bottleneck.loss.ber', value: Number((r() * 1e-5).toPrecision(3)) }
      : { at, set: 'network.bottleneck.bandwidth', value: 1_000_000 + Math.floor(r() * 9_000_000) };
  });
}

/** 16 cross-traffic sources (the engine's limit), every field set. */
export function crossSources(seed: number): JsonObject[] {
  const r = random(seed);
  const kinds = ['cbr', 'poisson', 'on_off'];
  return Array.from({ length: 16 }, (_, i) => ({
    kind: kinds[i % 3] ?? 'cbr',
    rate: 100_000 + Math.floor(r() * 900_000),
    packet_size: 200 + Math.floor(r() * 1300),
    start: Number((r() * 10).toFixed(3)),
    stop: 50 + i,
    on: 0.5 + i * 0.1,
    off: 0.25 + i * 0.05,
    reverse: i % 2 === 1,
  }));
}

/** 64 flows (the engine's limit) that differ: algorithms, starts, applications, access
 *  delays with long decimals, `drops` and `writes` items each. */
export function manyFlows(drops: number, writes: number, seed: number): JsonObject[] {
  const r = random(seed);
  const names = tables.catalogue.map((c) => c.name).filter((n) => n !== 'br_tcp');
  const kinds = ['bulk', 'thin', 'on_off', 'scripted'];
  return Array.from({ length: 64 }, (_, i) => {
    const kind = writes > 0 ? 'scripted' : (kinds[i % kinds.length] ?? 'bulk');
    const app: JsonObject =
      kind === 'scripted'
        ? { kind, writes: scriptedWrites(Math.max(1, writes), seed + i) }
        : kind === 'bulk'
          ? { kind }
          : { kind, write_size: 100 + i * 7, write_interval: 0.01 + i * 0.001 };
    return {
      algorithm: names[i % names.length] ?? 'newreno',
      start: Number((i * 0.37).toFixed(2)),
      access: { delay: 0.001 + i * 0.0001 },
      app,
      drops: randomDrops(drops, seed + 100 + i),
      tcp: { initial_window: 1 + Math.floor(r() * 10) },
    };
  });
}

/** A competition of these flows. */
export function competeState(flows: JsonObject[], extra: JsonObject = {}): ShareState {
  return {
    ...defaultShareState(),
    mode: 'compete',
    layout: 'overlay',
    plots: defaultShareState().plots,
    scenario: resolve({ duration: 100, flows, ...extra }),
  };
}

export interface LongCase {
  name: string;
  state: () => ShareState;
}

export const LONG_CASES: LongCase[] = [
  { name: '2 000 drops, every 5th segment', state: () => longState({ drops: everyNth(2000, 5) }) },
  { name: '1 000 drops at random segments, attempts 1–3', state: () => longState({ drops: randomDrops(1000, 1) }) },
  {
    name: '1 000 scripted writes every 10 ms, random sizes',
    state: () => longState({ app: { kind: 'scripted', writes: scriptedWrites(1000, 2) } }),
  },
  {
    name: '500 timeline changes (a slider drag, one per frame)',
    state: () => longState({}, { timeline: sliderTimeline(500, 3) }),
  },
  {
    name: '64 competing flows that differ, 16 cross sources',
    state: () => competeState(manyFlows(0, 0, 4), { cross: crossSources(5) }),
  },
  {
    name: 'everything: 64 flows × (20 drops, 20 writes), 16 cross sources, 500 timeline changes',
    state: () => competeState(manyFlows(20, 20, 6), { cross: crossSources(7), timeline: sliderTimeline(500, 8) }),
  },
];
