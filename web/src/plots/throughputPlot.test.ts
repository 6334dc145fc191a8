// The throughput plot with the engine's own data: what it says to screen readers and at the
// cursor agrees with the summary, and what it draws is one line per traffic class.
import { scaleLinear } from 'd3';
import { describe, expect, it } from 'vitest';
import { algStyle } from '../lib/styles';
import { formatNumber } from '../scenario/params';
import { plotContext, recordingCtx } from '../test/canvas';
import { engineThroughput, presetScenario, throughputTrace } from '../test/traces';
import { linearOf } from './core/decimate';
import type { DrawFrame, PlotContext, PlotRun } from './core/types';
import { throughputPlot } from './throughputPlot';

const scenario = presetScenario('br-tcp-komuro', { duration: 10 });

function runOf(key: string, label: string, stopAt?: number): PlotRun {
  const s = structuredClone(scenario) as typeof scenario & { flows: Record<string, unknown>[] };
  const flow = s.flows[0];
  if (flow) {
    flow.algorithm = key;
    delete flow.variant;
  }
  const e = engineThroughput(s, stopAt);
  return { key, label, style: algStyle(key), trace: throughputTrace(e, 3), summary: e.summary };
}

const context = (over: Partial<PlotContext> = {}): PlotContext => plotContext(scenario, over);

describe('the throughput plot', () => {
  const runs = [runOf('newreno', 'NewReno'), runOf('br_tcp', 'BR-TCP')];

  it('tells screen readers each class’s mean rate: the compared flow’s is the summary’s goodput', () => {
    const text = throughputPlot.describe(runs, context());
    expect(text).toMatch(/^Throughput over time in Mbit\/s, bytes delivered \(goodput\) per 1 s bin/);
    for (const run of runs) {
      const goodput = formatNumber((run.summary?.flows[0]?.goodput_bps ?? 0) / 1e6, 4);
      const udp = formatNumber((run.summary?.cross[0]?.delivered_bps ?? 0) / 1e6, 4);
      expect(text).toContain(`${run.label}: flow 0 mean ${goodput} Mbit/s, cross 0 (UDP CBR) mean ${udp} Mbit/s`);
    }
    expect(throughputPlot.describe(runs, context({ throughputBin: 0.1, throughputColumn: 'bottleneck' }))).toMatch(
      /bytes across the bottleneck per 100 ms bin/,
    );
  });

  it('reads every class’s rate in the bin under the cursor, and covers the y range of the data', () => {
    const [line] = throughputPlot.readout(runs.slice(1), 5.5, context());
    expect(line?.text).toMatch(/^flow 0 [\d.]+ · cross 0 (59\.9\d|60(\.0\d)?) Mbit\/s \(bin 5–6 s\)$/);
    const [, hi] = throughputPlot.yExtent(runs, 0, 10, context());
    expect(hi).toBeGreaterThanOrEqual(60);
    expect(hi).toBeLessThanOrEqual(100);
  });

  it('draws one line per class and run, names them, and shows a run in progress up to its last closed bin', () => {
    const frame = (rs: PlotRun[], overlay: boolean) => {
      const rec = recordingCtx();
      const x = scaleLinear().domain([0, 10]).range([0, 500]);
      const y = scaleLinear().domain([0, 100]).range([200, 0]);
      const f: DrawFrame = {
        ctx: rec.ctx,
        x,
        y,
        xl: linearOf(x),
        yl: linearOf(y),
        width: 500,
        height: 200,
        dpr: 1,
        t0: 0,
        t1: 10,
        runs: rs,
        context: context({ overlay }),
      };
      throughputPlot.draw(f);
      return rec;
    };
    const one = frame(runs.slice(0, 1), false);
    expect(one.strokes).toHaveLength(2);
    // Cross traffic first, in its own dark colour and dash; the flow on top in its algorithm's.
    expect(one.strokes[1]?.color).toBe(algStyle('newreno').color);
    expect(one.strokes[0]?.dash.length).toBeGreaterThan(0);
    expect(one.texts.sort()).toEqual(['cross 0', 'flow 0']);
    // Overlaid: the flows are told apart by the legend; the UDP source is named once.
    const both = frame(runs, true);
    expect(both.strokes).toHaveLength(4);
    expect(both.texts).toEqual(['cross 0']);
    // Live: 4.234 s simulated, the bins up to 4.23 s are closed.
    const live = runOf('br_tcp', 'BR-TCP', 4.234);
    expect(throughputPlot.readout([live], 4.25, context())[0]?.text).toBe('no data yet');
    expect(throughputPlot.readout([live], 4.1, context())[0]?.text).toMatch(/\(bin 4–4\.23 s\)$/);
    // At the play head (beyond the last closed bin) the readout shows that last bin.
    expect(throughputPlot.readout([live], 4.234, context())[0]?.text).toMatch(/\(bin 4–4\.23 s\)$/);
  });
});
