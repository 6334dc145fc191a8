// The thin-stream CDF panels with the engine's own data: what they tell screen readers
// (counts and percentiles, the window), what they draw (one line per run in its style,
// percentile markers, the note on a cut tail) and what they read at a value.
import { scaleLinear } from 'd3';
import { describe, expect, it } from 'vitest';
import { cdfLevelAt, recordingCtx } from '../test/canvas';
import { algStyle } from '../lib/styles';
import { formatNumber } from '../scenario/params';
import { liveTrace, lossyThinScenario } from '../test/traces';
import { linearOf, mapLinear } from './core/decimate';
import {
  CDF_KINDS,
  cdfLogAxis,
  cdfRange,
  describeCdf,
  drawCdf,
  LOG_DECADES,
  logAxisText,
  logPosition,
  logTickLabel,
  logTicks,
  readCdf,
  startNote,
  tailNote,
  type CdfRun,
} from './cdfPlot';
import { cdfAt, cdfPolyline, nearestRank, THIN_KINDS, thinSamples, type ThinKind } from './thinSamples';

const runs = [
  { key: 'newreno', label: 'NewReno' },
  { key: 'reno', label: 'Reno' },
].map(({ key, label }) => ({
  run: { key, label, style: algStyle(key) },
  trace: liveTrace(lossyThinScenario(key, 12), 2).trace,
}));

const cdfRuns = (kind: ThinKind, window: readonly [number, number] | null = null): CdfRun[] =>
  runs.map(({ run, trace }) => ({ run, sorted: thinSamples(trace, window)[kind] }));

describe('the thin-stream CDF panels', () => {
  it('tell screen readers each run’s count and percentiles, exactly, and over what', () => {
    for (const kind of THIN_KINDS) {
      const rs = cdfRuns(kind);
      const text = describeCdf(kind, rs, null);
      const spec = CDF_KINDS[kind];
      expect(text).toMatch(new RegExp(`^CDF of the .*, in ${spec.unit}, over the whole run\\. NewReno: \\d+ `));
      for (const { run, sorted } of rs) {
        const v = (p: number) => `${formatNumber(nearestRank(sorted, p) * spec.factor, 6)} ${spec.unit}`;
        expect(text).toContain(
          `${run.label}: ${sorted.length} ${spec.items}, median ${v(50)}, 90th percentile ${v(90)}, 99th percentile ${v(99)}`,
        );
      }
    }
    expect(describeCdf('latency', cdfRuns('latency', [2, 4.5]), [2, 4.5])).toContain(
      'from 2 to 4.5 s (the zoomed time window)',
    );
    // A run still playing: the samples so far.
    expect(describeCdf('itt', cdfRuns('itt'), null, 4.5)).toContain('in ms, over the run so far (to 4.5 s).');
    expect(describeCdf('sojourn', [{ run: runs[0]!.run, sorted: new Float64Array(0) }], null)).toContain(
      'NewReno: no writes',
    );
  });

  it('read each run’s share at or below a value', () => {
    const rs = cdfRuns('itt');
    const lines = readCdf('itt', rs, 10);
    expect(lines.map((l) => l.label)).toEqual(['NewReno', 'Reno']);
    rs.forEach(({ sorted }, i) => {
      expect(lines[i]?.text).toBe(`${formatNumber(cdfAt(sorted, 0.01 * (1 + 1e-12)) * 100, 4)} %`);
    });
    // Most gaps of a 10 ms stream are 10 ms: well over half are at or below it.
    expect(Number.parseFloat(lines[0]?.text ?? '')).toBeGreaterThan(50);
  });

  it('end the axis at the largest 99th percentile, draw a line per run with its markers, and name the tail', () => {
    const rs = cdfRuns('latency');
    const { hi, max } = cdfRange('latency', rs);
    expect(hi).toBe(Math.max(...rs.map(({ sorted }) => nearestRank(sorted, 99) * 1e3)));
    expect(max).toBeGreaterThan(hi);
    const draw = (list: CdfRun[], end: number) => {
      const rec = recordingCtx();
      const x = scaleLinear().domain([0, end]).range([0, 300]);
      const y = scaleLinear().domain([0, 1]).range([150, 0]);
      drawCdf({
        ctx: rec.ctx,
        xl: linearOf(x),
        yl: linearOf(y),
        width: 300,
        height: 150,
        dpr: 1,
        kind: 'latency',
        runs: list,
      });
      return rec;
    };
    const both = draw(rs, hi);
    expect(both.strokes.slice(0, 2)).toEqual(rs.map(({ run }) => ({ color: run.style.color, dash: run.style.dash })));
    // Two percentile markers per run, in its colour.
    expect(both.fills.filter((c) => c === rs[0]?.run.style.color)).toHaveLength(2);
    expect(both.fills.filter((c) => c === rs[1]?.run.style.color)).toHaveLength(2);
    expect(both.texts).toEqual([]);
    // The tail beyond the axis is named above the panel.
    expect(tailNote('latency', rs, hi)).toBe(`longest ${formatNumber(max, 4)} ms →`);
    expect(tailNote('latency', rs, max)).toBeNull();
    // One run alone: a solid line.
    const one = draw(rs.slice(0, 1), max * 1.01);
    expect(one.strokes[0]?.dash).toEqual([]);
  });
});

/** A run of given samples (engine units). */
const runOf = (key: string, values: number[]): CdfRun => ({
  run: { key, label: key, style: algStyle(key) },
  sorted: Float64Array.from(values).sort(),
});

describe('the CDF panels on a logarithmic x axis (cdfx=log)', () => {
  it('span whole decades from the smallest value above 0 to the largest, and say where zeros go', () => {
    // The engine's sojourn times: many writes leave at once (0), the others wait µs to ms.
    const sojourn = cdfRuns('sojourn');
    expect(sojourn.some(({ sorted }) => sorted[0] === 0)).toBe(true);
    const positives = sojourn.flatMap(({ sorted }) => Array.from(sorted).filter((v) => v > 0));
    const minPos = Math.min(...positives) * 1e3;
    const max = Math.max(...positives) * 1e3;
    const ax = cdfLogAxis('sojourn', sojourn);
    // The end: the smallest of 1, 2, 5 × 10^k at or above the largest value.
    const nice = [-9, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6]
      .flatMap((k) => [1, 2, 5].map((m) => m * 10 ** k))
      .filter((v) => v >= max);
    expect(10 ** ax.hi).toBeCloseTo(Math.min(...nice), 9);
    const top = Math.ceil(ax.hi);
    expect(ax.lo).toBe(Math.max(top - LOG_DECADES, Math.floor(Math.log10(minPos))));
    expect(ax.start).toBe(10 ** ax.lo);
    expect(ax.start).toBeLessThan(minPos);
    expect(ax.clamped).toBe(true);
    expect(startNote('sojourn', ax)).toBe(
      ax.zerosOnly ? '← 0 ms drawn at the axis start' : `← 0 to ${logTickLabel(ax.lo)} ms drawn at the axis start`,
    );
    // Latency is never 0 (the path's delay): nothing at the start, no note.
    const latency = cdfLogAxis('latency', cdfRuns('latency'));
    expect(latency.clamped).toBe(false);
    expect(startNote('latency', latency)).toBeNull();
    expect(logAxisText('latency', latency)).toBe(
      `The x axis is logarithmic, ${logTickLabel(latency.lo)} to ${logTickLabel(latency.hi)} ms.`,
    );
  });

  it('end at 10 for a largest value of 10 with float noise, keep at most LOG_DECADES decades, and cope with no value above 0', () => {
    // 10 ms written as 0.010000000000000009 s (a difference of two times).
    expect(cdfLogAxis('itt', [runOf('a', [0.002, 0.010000000000000009])])).toMatchObject({ lo: 0, hi: 1 });
    // A value 10⁻⁶ ms beside 1000 ms: the axis keeps six decades; the tiny value and the 0
    // are drawn at its start, and the note says both.
    const wide = cdfLogAxis('itt', [runOf('a', [0, 1e-9, 0.5]), runOf('b', [1])]);
    expect(wide).toEqual({
      lo: 3 - LOG_DECADES,
      hi: 3,
      start: 10 ** (3 - LOG_DECADES),
      clamped: true,
      zerosOnly: false,
    });
    expect(startNote('itt', wide)).toBe(`← 0 to ${logTickLabel(3 - LOG_DECADES)} ms drawn at the axis start`);
    expect(logAxisText('itt', wide)).toBe(
      `The x axis is logarithmic, 0.001 to 1000 ms; values from 0 to 0.001 ms are drawn at its start.`,
    );
    // One value, a power of ten: one decade below it.
    expect(cdfLogAxis('payload', [runOf('a', [100, 100])])).toMatchObject({ lo: 1, hi: 2, clamped: false });
    // Full-sized packets: the axis ends at 2000 B, not 10 000.
    const payload = cdfLogAxis('payload', [runOf('a', [20, 50, 1460])]);
    expect(payload).toMatchObject({ lo: 1, clamped: false });
    expect(logTickLabel(payload.hi)).toBe('2000');
    // Only zeros (a sender whose writes all leave at once), or nothing: one decade from 1.
    expect(cdfLogAxis('sojourn', [runOf('a', [0, 0])])).toEqual({
      lo: 0,
      hi: 1,
      start: 1,
      clamped: true,
      zerosOnly: true,
    });
    expect(cdfLogAxis('sojourn', [runOf('a', [])]).clamped).toBe(false);
  });

  it('put ticks on decades (2 and 5 between when there is room), the end always labelled', () => {
    expect(logTicks(-2, 3, 400)).toEqual([-2, -1, 0, 1, 2, 3]);
    expect(logTicks(-2, 3, 400).map(logTickLabel)).toEqual(['0.01', '0.1', '1', '10', '100', '1000']);
    // An end between decades is labelled; a decade too close below it is not.
    expect(logTicks(1, Math.log10(2000), 120).map(logTickLabel)).toEqual(['10', '100', '2000']);
    expect(logTicks(1, Math.log10(2000), 300).map(logTickLabel)).toEqual([
      '10',
      '20',
      '50',
      '100',
      '200',
      '500',
      '1000',
      '2000',
    ]);
    // Narrow: every other decade, counted back from the end.
    const narrow = logTicks(-4, 3, 200);
    expect(narrow.at(-1)).toBe(3);
    expect(narrow.length).toBeLessThan(8);
    for (let i = 1; i < narrow.length; i += 1) expect((narrow[i] ?? 0) - (narrow[i - 1] ?? 0)).toBeGreaterThan(1);
    // Two decades with room: 1, 2, 5, 10, 20, 50, 100.
    expect(logTicks(0, 2, 600).map(logTickLabel)).toEqual(['1', '2', '5', '10', '20', '50', '100']);
  });

  it('draw each staircase on the log axis within a device pixel, zeros rising at the start, and read values there', () => {
    const rs = cdfRuns('sojourn');
    const ax = cdfLogAxis('sojourn', rs);
    const pos = logPosition(ax.start);
    expect(pos(0)).toBe(ax.lo);
    expect(pos(ax.start)).toBe(ax.lo);
    expect(pos(10 ** ax.hi)).toBeCloseTo(ax.hi, 12);
    const x = scaleLinear().domain([ax.lo, ax.hi]).range([0, 400]);
    const y = scaleLinear().domain([0, 1]).range([100, 0]);
    const xl = linearOf(x);
    const yl = linearOf(y);
    for (const { sorted } of rs) {
      const zeros = cdfAt(sorted, 0);
      for (const dpr of [1, 2]) {
        const line = cdfPolyline(sorted, 1e3, xl, yl, dpr, 400, pos);
        // Starts at the axis start at 0 and rises there by the share of zeros (at least).
        expect([line.xs[0], line.ys[0]]).toEqual([0, 100]);
        expect(line.xs[1]).toBe(0);
        expect(1 - (line.ys[2] ?? 0) / 100).toBeGreaterThanOrEqual(zeros - 1e-12);
        const slack = 1 / dpr;
        for (let px = 0.5; px < 400; px += 3.7) {
          const lo = cdfAt(sorted, (10 ** x.invert(px - slack - 1e-9) / 1e3) * (1 - 1e-12));
          const hi = cdfAt(sorted, (10 ** x.invert(px + slack) / 1e3) * (1 + 1e-12));
          const got = cdfLevelAt(line, px);
          expect(got, `x=${10 ** x.invert(px)} ms`).toBeGreaterThanOrEqual(lo - 1e-12);
          expect(got, `x=${10 ** x.invert(px)} ms`).toBeLessThanOrEqual(hi + 1e-12);
        }
      }
    }
    // The percentile markers sit where the values are on the log axis.
    const rec = recordingCtx();
    drawCdf({ ctx: rec.ctx, xl, yl, width: 400, height: 100, dpr: 1, kind: 'sojourn', runs: rs, axis: pos });
    expect(rec.fills.length).toBe(2 * rs.length);
    const p90 = nearestRank(rs[0]!.sorted, 90) * 1e3;
    expect(mapLinear(xl, pos(p90))).toBeCloseTo(x(Math.log10(Math.max(p90, ax.start))), 9);
    // The readout at the axis start counts the zeros drawn there; at the end, everything.
    const atStart = readCdf('sojourn', rs, ax.start);
    rs.forEach(({ sorted }, i) => {
      expect(atStart[i]?.text).toBe(`${formatNumber(cdfAt(sorted, (ax.start / 1e3) * (1 + 1e-12)) * 100, 4)} %`);
      // (Four significant digits.)
      expect(Number.parseFloat(atStart[i]?.text ?? '')).toBeGreaterThanOrEqual(cdfAt(sorted, 0) * 100 - 0.005);
    });
    expect(readCdf('sojourn', rs, 10 ** ax.hi).map((l) => l.text)).toEqual(rs.map(() => '100 %'));
    // Screen readers are told the axis too, after the numbers.
    const text = describeCdf('sojourn', rs, null, null, logAxisText('sojourn', ax));
    expect(text).toMatch(
      /^CDF of the sojourn time .* The x axis is logarithmic, [\d.]+ to [\d.]+ ms; values of 0 are drawn at its start\.$/,
    );
  });
});
