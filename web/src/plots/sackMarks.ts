// SACK on the time–sequence plot, drawn as tcptrace and Wireshark's stream graph draw it: at
// each ACK's time, one short vertical bar per SACK block from its left to its right edge
// (above the ACK line, since a block is data held beyond the cumulative ACK), D-SACK blocks
// in a colour of their own; segments SACK loss recovery deemed lost (`marked_lost`) and tail
// loss probes (`tail_loss_probe`) as labels of their own, like the R of a retransmission.
// Only the engine's rows are drawn (tables sack_blocks and loss_marks, which only flows with
// SACK on fill): nothing changes for other flows.
import { rowAt, visibleRange } from '../engine/lookup';
import type { RunTrace } from '../engine/traceStore';
import { mapLinear, thinMarks } from './core/decimate';
import { cachedSpans } from './core/lineCache';
import { lw } from './core/plotStyle';
import { fillBars } from './core/stepStroke';
import type { DrawFrame, PlotRun } from './core/types';
import { drawLabel, EVENT_CODE } from './layers';
import type { Shown } from './core/shown';

/** How the SACK marks look (the legend draws the same); `term`: the engine glossary's id. */
export const SACK_LOOK = {
  sack_block: { color: '#7b3294', label: 'SACK block (data held beyond the ACK)', term: 'sack_block' },
  dsack: { color: '#e66101', label: 'D-SACK block (a duplicate arrived)', term: 'dsack' },
  marked_lost: { color: '#8c2d04', glyph: 'L', label: 'marked lost by SACK recovery', term: 'islost' },
  tail_loss_probe: { color: '#1b7837', glyph: 'P', label: 'tail loss probe', term: 'tlp' },
} as const;

const LOST = EVENT_CODE.get('marked_lost') ?? -1;
const PROBE = EVENT_CODE.get('tail_loss_probe') ?? -1;

/** True when the run has rows of SACK's own (blocks, lost marks or probes) so far. */
export function hasSackRows(trace: RunTrace): boolean {
  return trace.tables.sack_blocks.length > 0 || trace.tables.loss_marks.length > 0;
}

/** One SACK block: left edge and bytes (sequence numbers in bytes), D-SACK or not. */
export interface SackBlock {
  seq: number;
  len: number;
  dsack: boolean;
}

/** The SACK blocks of the last ACK at or before `t` (in the option's order) and that ACK's
 *  time: no blocks when it carried none; null before the first ACK. */
export function sackBlocksAt(trace: RunTrace, t: number): { t: number; blocks: SackBlock[] } | null {
  const acks = trace.tables.acks;
  const ack = rowAt(acks.cols.t, acks.length, t);
  if (ack < 0) return null;
  const at = acks.cols.t[ack] ?? 0;
  const tb = trace.tables.sack_blocks;
  const last = rowAt(tb.cols.t, tb.length, at);
  const blocks: SackBlock[] = [];
  if (last < 0 || tb.cols.t[last] !== at) return { t: at, blocks };
  // The blocks of one ACK are consecutive rows at its instant, positions 0, 1, …
  let first = last;
  while (first > 0 && tb.cols.t[first - 1] === at && (tb.cols.seg[first] ?? 0) > 0) first -= 1;
  for (let i = first; i <= last; i += 1) {
    blocks.push({ seq: tb.cols.seq[i] ?? 0, len: tb.cols.len[i] ?? 0, dsack: tb.cols.tx[i] === 1 });
  }
  return { t: at, blocks };
}

function drawBlocks(f: DrawFrame, run: PlotRun, u: Shown) {
  const tb = run.trace.tables.sack_blocks;
  if (tb.length === 0) return;
  const [i0, i1] = visibleRange(tb.cols.t, tb.length, f.t0, f.t1);
  const spans = cachedSpans(run.trace, 'sack_blocks', tb.cols.t, tb.cols.seq, tb.cols.len, i0, i1, f.xl, f.dpr).spans(
    (v) => mapLinear(f.yl, v / u.scale),
  );
  const { ctx } = f;
  const n = spans.n;
  const top = new Float64Array(n);
  const bottom = new Float64Array(n);
  for (let k = 0; k < n; k += 1) {
    const a = spans.y0[k] ?? 0;
    top[k] = a - 0.5;
    bottom[k] = Math.max(spans.y1[k] ?? 0, a + 1) + 0.5;
  }
  ctx.setLineDash([]);
  ctx.strokeStyle = SACK_LOOK.sack_block.color;
  ctx.fillStyle = SACK_LOOK.sack_block.color;
  ctx.lineWidth = lw(1.5);
  if (!fillBars(ctx, spans.xs, top, bottom, n)) {
    ctx.beginPath();
    for (let k = 0; k < n; k += 1) {
      ctx.moveTo(spans.xs[k] ?? 0, top[k] ?? 0);
      ctx.lineTo(spans.xs[k] ?? 0, bottom[k] ?? 0);
    }
    ctx.stroke();
  }
  // D-SACK blocks (rare) over them, each in its own colour, a little wider.
  ctx.strokeStyle = SACK_LOOK.dsack.color;
  ctx.lineWidth = lw(3);
  ctx.beginPath();
  for (let i = i0; i < i1; i += 1) {
    if (tb.cols.tx[i] !== 1) continue;
    const x = f.x(tb.cols.t[i] ?? 0);
    const a = f.y((tb.cols.seq[i] ?? 0) / u.scale);
    const b = f.y(((tb.cols.seq[i] ?? 0) + (tb.cols.len[i] ?? 0)) / u.scale);
    ctx.moveTo(x, Math.max(a, b) + 0.5);
    ctx.lineTo(x, Math.min(a, b, Math.max(a, b) - 1) - 0.5);
  }
  ctx.stroke();
}

function drawLossMarks(f: DrawFrame, run: PlotRun, u: Shown, code: number, look: { color: string; glyph: string }) {
  const tb = run.trace.tables.loss_marks;
  if (tb.length === 0) return;
  const [i0, i1] = visibleRange(tb.cols.t, tb.length, f.t0, f.t1);
  const ts: number[] = [];
  const ys: number[] = [];
  for (let i = i0; i < i1; i += 1) {
    if (tb.cols.kind[i] !== code) continue;
    ts.push(tb.cols.t[i] ?? 0);
    ys.push((tb.cols.seq[i] ?? 0) + (tb.cols.len[i] ?? 0));
  }
  const marks = thinMarks(
    ts,
    ys,
    0,
    ts.length,
    (t) => f.x(t),
    (v) => f.y(v / u.scale),
    12,
  );
  for (let k = 0; k < marks.n; k += 1) {
    drawLabel(f.ctx, look.glyph, look.color, (marks.xs[k] ?? 0) + (code === LOST ? -7 : 7), marks.ys[k] ?? 0, f.dpr);
  }
}

/** Draws a run's SACK blocks, lost marks and probes (nothing for a run without them). */
export function drawSack(f: DrawFrame, run: PlotRun, u: Shown): void {
  drawBlocks(f, run, u);
  drawLossMarks(f, run, u, LOST, SACK_LOOK.marked_lost);
  drawLossMarks(f, run, u, PROBE, SACK_LOOK.tail_loss_probe);
}

/** What the readout adds for a run with SACK: the last ACK's blocks, in the plot's unit. */
export function sackReadout(trace: RunTrace, t: number, u: Shown): string {
  const at = sackBlocksAt(trace, t);
  if (!at || at.blocks.length === 0) return '';
  const list = at.blocks.map((b) => `${b.dsack ? 'D-SACK ' : ''}${u.num(b.seq, 6)}–${u.num(b.seq + b.len, 6)}`);
  return ` · SACK ${list.join(', ')}`;
}

/** The run's SACK rows counted, for the plot's description: blocks (D-SACK among them),
 *  segments marked lost, probes. */
export function sackCounts(trace: RunTrace): string {
  const b = trace.tables.sack_blocks;
  let dsack = 0;
  for (let i = 0; i < b.length; i += 1) if (b.cols.tx[i] === 1) dsack += 1;
  const m = trace.tables.loss_marks;
  let lost = 0;
  let probes = 0;
  for (let i = 0; i < m.length; i += 1) {
    if (m.cols.kind[i] === LOST) lost += 1;
    else if (m.cols.kind[i] === PROBE) probes += 1;
  }
  return `${b.length} SACK blocks (${dsack} D-SACK), ${lost} marked lost, ${probes} tail loss probes`;
}
