// SACK on the time–sequence plot and in the inspector, with the engine's own rows: blocks
// drawn in their colours only for a SACK flow, the last ACK's blocks and the recovery series
// read at an instant as the engine recorded them.
import { scaleLinear } from 'd3';
import { describe, expect, it } from 'vitest';
import { sackStateAt } from '../explain/sackState';
import { algStyle } from '../lib/styles';
import { plotContext, recordingCtx } from '../test/canvas';
import { liveTrace, presetScenario } from '../test/traces';
import type { Scenario } from '../engine/tables';
import { setAt } from '../scenario/paths';
import { linearOf } from './core/decimate';
import type { DrawFrame, PlotRun } from './core/types';
import { hasSackRows, SACK_LOOK, sackBlocksAt } from './sackMarks';
import { seqPlot } from './seqPlot';

const sackOn = (on: boolean): Scenario => {
  const s = presetScenario('fall-floyd-newreno-3drops');
  return on ? setAt(s, 'flows[0].sack', { enabled: true, rack: true, tlp: true }) : s;
};
const withSack = liveTrace(sackOn(true), 0.5);
const without = liveTrace(sackOn(false), 0.5);
const runOf = (l: typeof withSack): PlotRun => ({
  key: 'newreno',
  label: 'NewReno',
  style: algStyle('newreno'),
  trace: l.trace,
  summary: l.summary,
});

function draw(run: PlotRun, scenario: Scenario) {
  const rec = recordingCtx();
  const x = scaleLinear().domain([0, run.trace.now]).range([0, 390]);
  const [lo, hi] = seqPlot.yExtent([run], 0, run.trace.now, plotContext(scenario));
  const y = scaleLinear().domain([lo, hi]).range([300, 0]);
  const f: DrawFrame = {
    ctx: rec.ctx,
    x,
    y,
    xl: linearOf(x),
    yl: linearOf(y),
    width: 390,
    height: 300,
    dpr: 1,
    t0: 0,
    t1: run.trace.now,
    runs: [run],
    context: plotContext(scenario),
  };
  seqPlot.draw(f);
  return rec;
}

describe('SACK on the time–sequence plot', () => {
  it('draws SACK blocks in their colour for a SACK flow, and nothing of SACK for another', () => {
    expect(hasSackRows(withSack.trace)).toBe(true);
    expect(hasSackRows(without.trace)).toBe(false);
    const on = draw(runOf(withSack), sackOn(true));
    const off = draw(runOf(without), sackOn(false));
    const colours = (r: ReturnType<typeof recordingCtx>) => new Set([...r.strokes.map((s) => s.color), ...r.fills]);
    expect(colours(on).has(SACK_LOOK.sack_block.color)).toBe(true);
    expect(colours(off).has(SACK_LOOK.sack_block.color)).toBe(false);
    // The description counts the engine's rows.
    const text = seqPlot.describe([runOf(withSack)], plotContext(sackOn(true)));
    expect(text).toContain(`${withSack.trace.tables.sack_blocks.length} SACK blocks`);
    expect(seqPlot.describe([runOf(without)], plotContext(sackOn(false)))).not.toContain('SACK');
  });

  it('reads the blocks of the last ACK at or before an instant, in the option’s order', () => {
    const tb = withSack.trace.tables.sack_blocks;
    expect(tb.length).toBeGreaterThan(10);
    // An ACK with several blocks: its rows, read back at its time and a little after.
    let i = 1;
    while (i < tb.length && !(tb.cols.seg[i] === 1)) i += 1;
    const t = tb.cols.t[i] ?? 0;
    const got = sackBlocksAt(withSack.trace, t);
    expect(got?.t).toBe(t);
    expect(got?.blocks[0]).toEqual({
      seq: tb.cols.seq[i - 1],
      len: tb.cols.len[i - 1],
      dsack: tb.cols.tx[i - 1] === 1,
    });
    expect(got?.blocks[1]?.seq).toBe(tb.cols.seq[i]);
    // Before the first ACK: nothing; a plain flow's ACKs carry no blocks.
    expect(sackBlocksAt(withSack.trace, 0)).toBeNull();
    const plain = sackBlocksAt(without.trace, without.trace.now);
    expect(plain?.blocks).toEqual([]);
    const readout = seqPlot.readout([runOf(withSack)], t, plotContext(sackOn(true)));
    expect(readout[0]?.text).toContain('SACK');
  });

  it('reads the recovery series at an instant as the engine recorded it', () => {
    const r = withSack.trace.tables.recovery;
    expect(r.length).toBeGreaterThan(10);
    expect(without.trace.tables.recovery.length).toBe(0);
    expect(sackStateAt(without.trace, 5)).toBeNull();
    const k = r.col('in_recovery').findIndex((v) => v === 1);
    expect(k).toBeGreaterThan(0);
    const t = r.cols.t[k] ?? 0;
    const st = sackStateAt(withSack.trace, t);
    expect(st?.inRecovery).toBe(true);
    expect(st?.pipe).toBe(r.cols.pipe[k]);
    expect(st?.sacked).toBe(r.cols.sacked[k]);
    expect(st?.recoveryPoint).toBe(r.cols.recovery_point[k]);
    // Before that row, the row in force is the one before (not in recovery: no RecoveryPoint).
    const before = sackStateAt(withSack.trace, (r.cols.t[k - 1] ?? 0) + 1e-9);
    expect(before?.pipe).toBe(r.cols.pipe[k - 1]);
    expect(before?.recoveryPoint).toBeNull();
    // RACK on: a reordering window; the probe timer armed at some time.
    expect(st?.reoWnd).not.toBeNull();
    expect(r.col('timer_kind').some((v) => v === 2)).toBe(true);
  });
});
