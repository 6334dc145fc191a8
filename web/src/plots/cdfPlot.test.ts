// The thin-stream CDF panels with the engine's own data: what they tell screen readers
// (counts and percentiles, the window), what they draw (one line per run in its style,
// percentile markers, the note on a cut tail) and what they read at a value.
import { scaleLinear } from 'd3';
import { describe, expect, it } from 'vitest';
import { recordingCtx } from '../test/canvas';
import { algStyle } from '../lib/styles';
import { formatNumber } from '../scenario/params';
import { liveTrace, lossyThinScenario } from '../test/traces';
import { linearOf } from './core/decimate';
import { CDF_KINDS, cdfRange, describeCdf, drawCdf, readCdf, tailNote, type CdfRun } from './cdfPlot';
import { cdfAt, nearestRank, THIN_KINDS, thinSamples, type ThinKind } from './thinSamples';

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
