// The rounds view: the cursor's time ↔ round mapping, the readout, the drawing (recorded
// canvas calls) with contract-shaped test data, and the worker carrying the engine's rounds
// of a real run (wasm in Node) to the page with its chunks.
import { describe, expect, it } from 'vitest';
import type { FromWorker, RoundJson, RoundsJson } from '../engine/protocol';
import { tables } from '../engine/tables';
import { createWorkerHandler } from '../engine/workerHandler';
import { styleAt } from '../lib/styles';
import { recordingCtx } from '../test/canvas';
import { engineWasm, realEngineApi } from '../test/wasm';
import { plotLook, PROJECTOR_LOOK, setProjectorLook } from './core/plotStyle';
import {
  drawRounds,
  inUnit,
  roundIndexAt,
  roundsDescribe,
  roundsMax,
  roundsNotice,
  roundsReadout,
  roundStart,
  roundsWithin,
  roundText,
  type RoundsRun,
} from './roundsPlot';

const DEF = 'A round starts … (the engine’s sentence).';

function round(n: number, start: number, end: number | null, over: Partial<RoundJson> = {}): RoundJson {
  return {
    round: n,
    start,
    end,
    cwnd: 1000 * 2 ** (n - 1),
    ssthresh: 64000,
    mss: 1000,
    phase: 'slow_start',
    sent: 2 ** (n - 1),
    retransmitted: 0,
    events: [],
    ...over,
  };
}

/** Slow start for 4 rounds, a fast retransmit in round 4, fast recovery in round 5, a gap
 *  (retransmission timer), a timeout round 6 and an open round 7. */
const ROUNDS: RoundJson[] = [
  round(1, 1.0, 1.2),
  round(2, 1.2, 1.4),
  round(3, 1.4, 1.6),
  round(4, 1.6, 1.8, { events: ['fast_retransmit'] }),
  round(5, 1.8, 2.0, { cwnd: 5000, ssthresh: 4000, phase: 'fast_recovery', retransmitted: 1, events: ['partial_ack'] }),
  round(6, 3.0, 3.2, {
    cwnd: 1000,
    ssthresh: 2000,
    phase: 'timeout_recovery',
    sent: 1,
    retransmitted: 1,
    events: ['timeout'],
  }),
  round(7, 3.2, null, { cwnd: 2000, ssthresh: null, phase: 'congestion_avoidance' }),
];
const DATA: RoundsJson = { definition: DEF, rounds: ROUNDS };

function run(key: string, i: number, data: RoundsJson | null, now = 4): RoundsRun {
  return { key, label: key, style: styleAt(i), data, now };
}

describe('the rounds view: cursor time ↔ round', () => {
  it('maps a time to the round containing it: start inclusive, end exclusive', () => {
    expect(roundIndexAt(ROUNDS, 0.5)).toBe(-1);
    expect(roundIndexAt(ROUNDS, 1.0)).toBe(0);
    expect(roundIndexAt(ROUNDS, 1.1999)).toBe(0);
    expect(roundIndexAt(ROUNDS, 1.2)).toBe(1);
    expect(roundIndexAt(ROUNDS, 1.85)).toBe(4);
  });

  it('has no round between rounds (a retransmission timer running) and an open last round to now', () => {
    expect(roundIndexAt(ROUNDS, 2.5)).toBe(-1);
    expect(roundIndexAt(ROUNDS, 3.1)).toBe(5);
    expect(roundIndexAt(ROUNDS, 3.9, 4)).toBe(6);
    expect(roundIndexAt(ROUNDS, 4, 4)).toBe(6);
    expect(roundIndexAt(ROUNDS, 4.5, 4)).toBe(-1);
  });

  it('maps a round to its start time, and back to the same round', () => {
    for (const r of ROUNDS) {
      const t = roundStart(ROUNDS, r.round);
      expect(t).toBe(r.start);
      expect(roundIndexAt(ROUNDS, t ?? NaN, 4)).toBe(r.round - 1);
    }
    expect(roundStart(ROUNDS, 99)).toBeNull();
  });

  it('picks the rounds overlapping a time window (the shared zoom)', () => {
    expect(roundsWithin(ROUNDS, 1.25, 1.65)).toEqual([2, 4]);
    expect(roundsWithin(ROUNDS, 2.2, 2.8)).toBeNull();
    expect(roundsWithin(ROUNDS, 3.5, 3.9, 4)).toEqual([7, 7]);
  });

  it('reads a round out in segments: cwnd, ssthresh (∞ when unlimited), phase, sends, events', () => {
    expect(inUnit(4000, 1000)).toBe(4);
    expect(inUnit(4000, 1000, 'bytes')).toBe(4000);
    expect(inUnit(null, 1000)).toBeNull();
    const r6 = ROUNDS[5];
    const r7 = ROUNDS[6];
    if (!r6 || !r7) throw new Error('test data');
    expect(roundText(r6)).toBe(
      'round 6: cwnd 1, ssthresh 2 segments · Timeout recovery · 1 sent, 1 retransmitted · timeout',
    );
    expect(roundText(r7)).toContain('ssthresh ∞ segments');
    expect(roundText(r7)).toContain('still open');
    const a = run('reno', 2, DATA);
    expect(roundsReadout(a, 1.7)).toContain('round 4: cwnd 8, ssthresh 64 segments · Slow start');
    expect(roundsReadout(a, 1.7)).toContain('fast retransmit');
    expect(roundsReadout(a, 2.5)).toBe(
      'between round 5 and round 6: no round open (waiting for the retransmission timer)',
    );
    expect(roundsReadout(a, 0.2)).toContain('before round 1');
    // In bytes (`unit=bytes`): the same rounds, the engine's bytes grouped.
    expect(roundText(r6, 'bytes')).toBe(
      'round 6: cwnd 1000, ssthresh 2000 bytes · Timeout recovery · 1 sent, 1 retransmitted · timeout',
    );
    expect(roundsReadout(a, 1.7, 'bytes')).toContain('round 4: cwnd 8000, ssthresh 64\u202f000 bytes · Slow start');
    expect(roundsReadout(run('x', 0, null), 1)).toBe('no rounds yet');
    expect(roundsReadout(run('x', 0, { definition: DEF, rounds: [], unavailable: 'no sender rows' }), 1)).toBe(
      'no rounds: no sender rows',
    );
  });

  it('describes the runs for screen readers, naming the rounds with events', () => {
    const text = roundsDescribe([run('reno', 2, DATA)]);
    expect(text).toContain('reno: 7 rounds, largest cwnd 8');
    expect(text).toContain('timeout in round 6');
    expect(text).toContain('fast retransmit in round 4');
    expect(roundsMax([run('reno', 2, DATA)], 1, 3)).toBe(64);
  });
});

describe('the rounds view: drawing', () => {
  const frame = (runs: RoundsRun[], ctx: CanvasRenderingContext2D, overlay = runs.length > 1) => ({
    ctx,
    x: (r: number) => (r - 0.5) * 60,
    y: (v: number) => 300 - v * 4,
    width: 420,
    height: 300,
    r0: 1,
    r1: 7,
    runs,
    overlay,
  });

  it('draws cwnd solid, ssthresh dashed, in the run’s colour; phases named; events marked', () => {
    const { ctx, strokes, fills, texts } = recordingCtx();
    const a = run('reno', 2, DATA);
    drawRounds(frame([a], ctx));
    const mine = strokes.filter((s) => s.color === a.style.color);
    expect(mine.some((s) => s.dash.length === 0)).toBe(true);
    expect(mine.some((s) => s.dash.join() === '6,4')).toBe(true);
    // The phase names where the spans have room: 4 rounds of slow start, one of each other.
    expect(texts).toContain('Slow start');
    expect(texts.some((t) => t === 'FR' || t === 'Fast recovery')).toBe(true);
    // ▼ filled in the run's colour (fast retransmit), ✕ stroked dark (timeout), ○ partial ACK.
    expect(fills.filter((f) => f === a.style.color).length).toBeGreaterThan(0);
    expect(strokes.some((s) => s.color === '#111')).toBe(true);
  });

  it('draws one line per run in an overlay, each in its colour', () => {
    const { ctx, strokes } = recordingCtx();
    const a = run('reno', 2, DATA);
    const b = run('newreno', 3, { definition: DEF, rounds: ROUNDS.slice(0, 4) });
    drawRounds(frame([a, b], ctx));
    for (const r of [a, b]) expect(strokes.some((s) => s.color === r.style.color && s.dash.length === 0)).toBe(true);
  });

  it('shows the engine’s reason as a notice when the run kept no sender events', () => {
    const { ctx, strokes, texts } = recordingCtx();
    const why = 'rounds need the sender’s packet events (trace.events = congestion)';
    const a = run('reno', 2, { definition: DEF, rounds: [], unavailable: why });
    expect(roundsNotice([a])).toBe(`No rounds to show: ${why}.`);
    drawRounds({ ...frame([a], ctx), width: 2000 });
    expect(texts.join(' ')).toContain('No rounds to show:');
    expect(strokes).toHaveLength(0);
  });

  it('draws thicker lines and bigger text in projector mode, from one look', () => {
    const widths = () => {
      const { ctx } = recordingCtx();
      const seen: number[] = [];
      const fonts: string[] = [];
      const spy = new Proxy(ctx, {
        set(target, p, v) {
          if (p === 'lineWidth') seen.push(Number(v));
          if (p === 'font') fonts.push(String(v));
          return Reflect.set(target, p, v);
        },
      });
      drawRounds(frame([run('reno', 2, DATA)], spy));
      return { max: Math.max(...seen), fonts };
    };
    const normal = widths();
    setProjectorLook(true);
    try {
      expect(plotLook()).toBe(PROJECTOR_LOOK);
      const big = widths();
      expect(big.max).toBeCloseTo(normal.max * PROJECTOR_LOOK.line);
      expect(big.fonts[0]).not.toEqual(normal.fonts[0]);
    } finally {
      setProjectorLook(false);
    }
  });
});

describe('the worker carries the engine’s rounds', () => {
  it('sends each flow’s rounds with the last chunk: the engine’s own list and definition', async () => {
    const preset = tables.presets.find((p) => p.name === 'fall-floyd-reno-3drops');
    if (!preset) throw new Error('preset missing');
    const json = JSON.stringify(preset.scenario);
    const posted: FromWorker[] = [];
    const handler = createWorkerHandler(realEngineApi(), (msg) => posted.push(msg), {
      yieldToMessages: () => new Promise((r) => setTimeout(r, 0)),
    });
    const finish = async (rounds: boolean | undefined) => {
      posted.length = 0;
      handler.handle({ type: 'run', gen: 1, mode: 'full', runs: [{ key: 'reno', scenarioJson: json, rounds }] });
      const t0 = Date.now();
      while (!posted.some((m) => m.type === 'chunk' && m.finished)) {
        if (Date.now() - t0 > 20_000) throw new Error('timed out');
        await new Promise((r) => setTimeout(r, 1));
      }
      return posted.filter((m): m is Extract<FromWorker, { type: 'chunk' }> => m.type === 'chunk');
    };
    // Not asked for (the rounds view hidden): no rounds on the way to the plots.
    for (const asked of [undefined, false]) {
      expect((await finish(asked)).every((m) => (m.rounds ?? null) === null)).toBe(true);
    }
    const last = (await finish(true)).pop();
    const sim = new (engineWasm().Sim)(json);
    sim.run_to_end();
    const want = JSON.parse(sim.rounds_json(0)) as RoundsJson;
    sim.free();
    expect(last?.rounds).toEqual(want);
    expect(want.rounds.length).toBeGreaterThan(5);
    expect(want.definition.length).toBeGreaterThan(20);
    // Rounds are in order and each one's start maps back to it.
    want.rounds.forEach((r, i) => {
      expect(r.round).toBe(i + 1);
      expect(roundIndexAt(want.rounds, r.start, last?.now ?? Infinity)).toBe(i);
    });
    handler.dispose();
  });

  it('gives the engine’s reason when the run keeps only congestion events', () => {
    const preset = tables.presets.find((p) => p.name === 'fall-floyd-reno-3drops');
    if (!preset) throw new Error('preset missing');
    const scenario = structuredClone(preset.scenario) as Record<string, unknown>;
    scenario.trace = { ...((scenario.trace as object | undefined) ?? {}), events: 'congestion' };
    const sim = new (engineWasm().Sim)(JSON.stringify(scenario));
    sim.run_to_end();
    const got = JSON.parse(sim.rounds_json(0)) as RoundsJson;
    sim.free();
    expect(got.rounds).toEqual([]);
    expect(got.unavailable).toMatch(/trace\.events/);
    expect(roundsNotice([run('reno', 0, got)])).toContain(got.unavailable ?? '');
  });
});
