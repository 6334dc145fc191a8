// Congestion window plot: cwnd, ssthresh, flight size and the inflated window over time, in
// the page's unit (segments by default), with phase bands and marks for the events a lesson is about (3rd duplicate ACK
// → fast retransmit, retransmission timeout, NewReno partial ACK); for runs with an idle
// policy also W_used and pipeACK (window-validation series), a mark for every window decay,
// restart and new-CWV phase change (read at the cursor as before → after), and a strip
// along the bottom while new CWV is in its non-validated phase; for CUBIC runs, W_max over
// each epoch and K, the time it takes to regain it; for BBR runs, the BDP its model
// estimates (BtlBw × RTprop, the `model` table) as a step line, and its state, estimates and
// pacing rate at the cursor.
import { rowAt, rowsInForce, rowsWithin, visibleRange } from '../engine/lookup';
import { U32_UNLIMITED } from '../engine/protocol';
import type { RunTrace } from '../engine/traceStore';
import { formatNumber } from '../scenario/params';
import { shownOf, type Shown } from './core/shown';
import {
  BBR_LINES,
  drawMarker,
  drawWindowEvent,
  EVENT_MARKS,
  kindsOf,
  PHASES,
  SERIES_STYLES,
  WINDOW_EVENT_MARKS,
  type WindowEventLook,
} from '../lib/styles';
import type { EventKindName } from '../engine/pkg/vocabulary';
import type { SeriesVisibility } from '../state/types';
import { mapLinear, thinMarks } from './core/decimate';
import type { DrawFrame, PlotContext, PlotDef, PlotRun } from './core/types';
import { drawEndLabels, drawPhaseBands, EVENT_CODE, rowBefore, strokePolyline, visibleLine } from './layers';
import { bbrMaxIn, bbrModelText, bbrRowAt, bbrSeries } from './bbrModel';
import { cachedLine } from './core/lineCache';
import { canvasFont, lw, markerR, textPx } from './core/plotStyle';

const SERIES_ORDER: (keyof SeriesVisibility)[] = ['flight', 'ssthresh', 'inflated', 'w_used', 'pipeack', 'cwnd'];

/** Window-event marks by event code. */
const WINDOW_EVENTS: ReadonlyMap<number, { name: string; look: WindowEventLook }> = new Map(
  kindsOf(WINDOW_EVENT_MARKS).flatMap((name) => {
    const look = WINDOW_EVENT_MARKS[name];
    const code = EVENT_CODE.get(name);
    return code === undefined ? [] : [[code, { name, look }] as const];
  }),
);

/** Codes of every kind this plot marks. */
const MARKED_CODES: ReadonlySet<number> = new Set([
  ...WINDOW_EVENTS.keys(),
  ...kindsOf(EVENT_MARKS).flatMap((n) => EVENT_CODE.get(n) ?? []),
]);

/** Height of the non-validated-phase strip of one run, CSS px. */
const NVP_H = 6;

/** Height of one phase lane, CSS px. */
export const LANE_H = 11;

/** The lane height for n runs sharing a plot: full lanes (with phase names) up to four,
 *  then thinner ones, so 16 flows' lanes take no more than about 50 px. */
export function laneHeight(n: number): number {
  return n <= 4 ? textPx(LANE_H) : Math.max(3, Math.floor(textPx(48) / n));
}

function visibleSeries(context: PlotContext): (keyof SeriesVisibility)[] {
  return SERIES_ORDER.filter((k) => context.series[k]);
}

function drawEventMarks(f: DrawFrame, run: PlotRun, u: Shown) {
  const { ctx, x, y } = f;
  const marks = run.trace.tables.marks;
  const series = run.trace.tables.series;
  const [i0, i1] = visibleRange(marks.cols.t, marks.length, f.t0, f.t1);
  const cwnd = series.cols.cwnd;
  // y of each mark: the window the event interrupted (just before it).
  const yAt = (i: number) => {
    const te = marks.cols.t[i] ?? 0;
    const r = Math.max(0, rowBefore(series.cols.t, series.length, te));
    return y((cwnd[r] ?? 0) / u.scale) - 9;
  };
  for (const name of kindsOf(EVENT_MARKS)) {
    const look = EVENT_MARKS[name];
    const code = EVENT_CODE.get(name);
    if (code === undefined) continue;
    // Rows of this kind, thinned to one mark per 7-px cell.
    const rows: number[] = [];
    for (let i = i0; i < i1; i += 1) if (marks.cols.kind[i] === code) rows.push(i);
    if (rows.length === 0) continue;
    const ts = rows.map((i) => marks.cols.t[i] ?? 0);
    const ys = rows.map((i) => yAt(i));
    const thin = thinMarks(
      ts,
      ys,
      0,
      rows.length,
      (t) => x(t),
      (v) => v,
      7,
    );
    // One path per kind and run: a few paint operations however many events there are.
    ctx.save();
    ctx.setLineDash([]);
    ctx.beginPath();
    // Glyph sizes in the look's marker scale (plotStyle.ts).
    const m = markerR(1);
    for (let k = 0; k < thin.n; k += 1) {
      const px = thin.xs[k] ?? 0;
      const py = Math.max(6 * m, thin.ys[k] ?? 0);
      if (look.glyph === 'down') {
        ctx.moveTo(px - 5 * m, py - 4 * m);
        ctx.lineTo(px + 5 * m, py - 4 * m);
        ctx.lineTo(px, py + 4 * m);
        ctx.closePath();
      } else if (look.glyph === 'x') {
        ctx.moveTo(px - 5 * m, py - 5 * m);
        ctx.lineTo(px + 5 * m, py + 5 * m);
        ctx.moveTo(px + 5 * m, py - 5 * m);
        ctx.lineTo(px - 5 * m, py + 5 * m);
      } else {
        ctx.moveTo(px + 3.5 * m, py);
        ctx.arc(px, py, 3.5 * m, 0, Math.PI * 2);
      }
    }
    if (look.glyph === 'down') {
      ctx.fillStyle = run.style.color;
      ctx.fill();
      ctx.lineWidth = lw(1);
      ctx.strokeStyle = '#111';
      ctx.stroke();
    } else if (look.glyph === 'x') {
      ctx.lineWidth = lw(3.5);
      ctx.strokeStyle = '#fff';
      ctx.stroke();
      ctx.lineWidth = lw(2);
      ctx.strokeStyle = '#111';
      ctx.stroke();
    } else {
      ctx.fillStyle = '#fff';
      ctx.fill();
      ctx.lineWidth = lw(2);
      ctx.strokeStyle = run.style.color;
      ctx.stroke();
    }
    ctx.restore();
  }
}

/** A byte count of an event row in the plot's unit ("∞" when the engine saturated it). */
function segText(v: number, u: Shown): string {
  return v >= U32_UNLIMITED || !Number.isFinite(v) ? '∞' : u.num(v, 3);
}

/** What window-event rows first…last of one kind did, from the first one's before to the
 *  last one's after: "window decay after idle ×3: cwnd 24 → 3, ssthresh 18 segments". */
function changeText(trace: RunTrace, first: number, last: number, count: number, u: Shown): string {
  const m = trace.tables.marks;
  const label = WINDOW_EVENTS.get(m.cols.kind[first] ?? -1)?.look.label ?? 'window change';
  const at = (col: Float64Array, i: number) => segText(col[i] ?? NaN, u);
  const cwnd = `cwnd ${at(m.cols.seq, first)} → ${at(m.cols.len, last)}`;
  const ssthresh =
    m.cols.seg[first] === m.cols.tx[last]
      ? `ssthresh ${at(m.cols.seg, first)}`
      : `ssthresh ${at(m.cols.seg, first)} → ${at(m.cols.tx, last)}`;
  return `${label}${count > 1 ? ` ×${count}` : ''}: ${cwnd}, ${ssthresh} ${u.label}`;
}

/** "idle decay: cwnd 12 → 6, ssthresh ∞ → 9 segments" for window-event row i. */
export function windowEventText(trace: RunTrace, i: number, u: Shown): string {
  return changeText(trace, i, i, 1, u);
}

/** Window-event rows of a run within [t0, t1]. */
function windowEventRows(trace: RunTrace, t0: number, t1: number): number[] {
  const m = trace.tables.marks;
  const [i0, i1] = rowsWithin(m.cols.t, m.length, t0, t1);
  const rows: number[] = [];
  for (let i = i0; i < i1; i += 1) if (WINDOW_EVENTS.has(m.cols.kind[i] ?? -1)) rows.push(i);
  return rows;
}

/** Decays, restarts and new-CWV phase changes: each drawn on its own (they are rare, at most
 *  one per RTO), just above the window they changed. Several of one kind at one instant (the
 *  halvings of a long silence, applied together) are one mark; different kinds at one
 *  instant stack upwards. */
function drawWindowEvents(f: DrawFrame, run: PlotRun, index: number, u: Shown) {
  const m = run.trace.tables.marks;
  let lastPx = NaN;
  let drawn = new Set<number>();
  for (const i of windowEventRows(run.trace, f.t0, f.t1)) {
    const code = m.cols.kind[i] ?? -1;
    const ev = WINDOW_EVENTS.get(code);
    if (!ev) continue;
    const px = Math.round(f.x(m.cols.t[i] ?? 0));
    if (px !== lastPx) {
      lastPx = px;
      drawn = new Set();
    }
    if (drawn.has(code)) continue;
    // New CWV's phase begins and ends change no window: they sit on the phase's strip.
    const onStrip = ev.look.onStrip === true;
    const stack = onStrip ? 0 : [...drawn].filter((c) => WINDOW_EVENTS.get(c)?.look.onStrip !== true).length;
    drawn.add(code);
    if (onStrip) {
      drawWindowEvent(f.ctx, ev.look, px, f.height - (index + 1) * NVP_H - 4, 3.5, run.style.color);
      continue;
    }
    const top = Math.max(m.cols.seq[i] ?? 0, m.cols.len[i] ?? 0);
    const py = Math.max(7, f.y(top / u.scale) - 10 - stack * 11);
    drawWindowEvent(f.ctx, ev.look, px, py, 4.5, run.style.color);
  }
}

/** What the window events at the instant of row `near` did, one line per kind: "window decay
 *  after idle ×3: cwnd 24 → 3, ssthresh 18 segments". */
function windowEventsAt(trace: RunTrace, near: number, u: Shown): string {
  const m = trace.tables.marks;
  const t = m.cols.t[near] ?? 0;
  const rows = windowEventRows(trace, t, t);
  const byKind = new Map<number, number[]>();
  for (const i of rows) {
    const k = m.cols.kind[i] ?? -1;
    byKind.set(k, [...(byKind.get(k) ?? []), i]);
  }
  return [...byKind.values()]
    .map((list) => changeText(trace, list[0] ?? near, list[list.length - 1] ?? near, list.length, u))
    .join(' · ');
}

/** Spans [from, to] in which new CWV was in its non-validated phase, within [t0, t1]. */
function nvpSpans(trace: RunTrace, t0: number, t1: number): [number, number][] {
  const v = trace.tables.validation;
  if (v.length === 0) return [];
  const [i0, i1] = visibleRange(v.cols.t, v.length, t0, t1);
  const out: [number, number][] = [];
  let start = NaN;
  for (let i = i0; i < i1; i += 1) {
    const on = v.cols.nvp[i] === 1;
    const ti = Math.max(t0, v.cols.t[i] ?? t0);
    if (on && Number.isNaN(start)) start = ti;
    if (!on && !Number.isNaN(start)) {
      if (ti > start) out.push([start, Math.min(ti, t1)]);
      start = NaN;
    }
  }
  const end = Math.min(t1, trace.now);
  if (!Number.isNaN(start) && end > start) out.push([start, end]);
  return out;
}

/** A strip along the bottom of the plot (one per run when several share it) while new CWV
 *  is in its non-validated phase. */
function drawNvpStrips(f: DrawFrame) {
  const { ctx } = f;
  f.runs.forEach((run, r) => {
    const spans = nvpSpans(run.trace, f.t0, f.t1);
    if (spans.length === 0) return;
    const y = f.height - (r + 1) * NVP_H;
    ctx.save();
    for (const [a, b] of spans) {
      const xa = f.x(a);
      const w = Math.max(1, f.x(b) - xa);
      ctx.globalAlpha = 0.07;
      ctx.fillStyle = run.style.color;
      ctx.fillRect(xa, 0, w, f.height);
      ctx.globalAlpha = 0.75;
      ctx.fillRect(xa, y, w, NVP_H - 1);
    }
    ctx.restore();
  });
}

/** Markers along a run's cwnd line, so overlaid runs differ by shape as well as colour. */
function drawIdentityMarkers(f: DrawFrame, run: PlotRun, index: number, u: Shown) {
  const s = run.trace.tables.series;
  const spacing = 110;
  for (let px = 30 + index * 26; px < f.width; px += spacing) {
    const t = f.x.invert(px);
    if (t > run.trace.now) break;
    const r = rowAt(s.cols.t, s.length, t);
    if (r < 0) continue;
    drawMarker(f.ctx, run.style.marker, px, f.y((s.cols.cwnd[r] ?? 0) / u.scale), 4, run.style.color);
  }
}

/** "f3" at the end of each flow's cwnd line (moved apart where they would overlap). */
function drawFlowNames(f: DrawFrame, u: Shown) {
  const labels = f.runs.flatMap((run) => {
    const s = run.trace.tables.series;
    const end = Math.min(run.trace.now, f.t1);
    const r = rowAt(s.cols.t, s.length, end);
    if (r < 0 || end < f.t0) return [];
    return [
      { text: `f${run.flow ?? 0}`, color: run.style.color, x: f.x(end), y: f.y((s.cols.cwnd[r] ?? 0) / u.scale) },
    ];
  });
  drawEndLabels(f.ctx, labels, f);
}

/** BR-TCP runs: the reserved rate's bandwidth-delay product (in the plot's unit), which the engine
 *  reports in the run's summary; null for other runs. */
function reservedBdp(run: PlotRun, u: Shown): number | null {
  const b = run.summary?.flows[run.flow ?? 0]?.reserved_bdp_bytes;
  return typeof b === 'number' && u.scale > 0 ? b / u.scale : null;
}

/** A dashed reference line at BR-TCP's reserved BDP, labelled, in the run's colour. */
function drawReservedBdp(f: DrawFrame, run: PlotRun, u: Shown) {
  const bdp = reservedBdp(run, u);
  if (bdp === null) return;
  const { ctx } = f;
  const py = Math.round(f.y(bdp)) + 0.5;
  ctx.save();
  ctx.setLineDash([8, 3, 2, 3]);
  ctx.strokeStyle = run.style.color;
  ctx.lineWidth = lw(1.25);
  ctx.beginPath();
  ctx.moveTo(0, py);
  ctx.lineTo(f.width, py);
  ctx.stroke();
  ctx.setLineDash([]);
  const label = `reserved BDP ${u.num(bdp * u.scale)} ${u.symbol}`;
  ctx.font = canvasFont(11);
  const tw = ctx.measureText(label).width;
  const lx = Math.max(4, f.width - tw - 10);
  ctx.fillStyle = 'rgba(255,255,255,0.75)';
  ctx.fillRect(lx - 3, py - 15, tw + 6, 14);
  ctx.fillStyle = '#222';
  ctx.textAlign = 'left';
  ctx.textBaseline = 'top';
  ctx.fillText(label, lx, py - 14);
  ctx.restore();
}

/** CUBIC's epochs (RFC 9438 §4.2, the engine's `cubic_epoch` rows): each from its start
 *  to the next loss response or epoch, with W_max (in the plot's unit) and the time K after its
 *  start at which the cubic regains W_max. */
const CUBIC_EPOCH = EVENT_CODE.get('cubic_epoch');
const EPOCH_ENDS: ReadonlySet<number> = new Set(
  (['fast_retransmit', 'timeout', 'cubic_epoch'] satisfies EventKindName[]).flatMap((n) => EVENT_CODE.get(n) ?? []),
);

interface CubicEpoch {
  t: number;
  end: number;
  wMax: number;
  k: number;
}

function cubicEpochs(run: PlotRun, t0: number, t1: number, u: Shown): CubicEpoch[] {
  if (CUBIC_EPOCH === undefined) return [];
  const m = run.trace.tables.marks;
  const out: CubicEpoch[] = [];
  // From the epoch in force at t0 (the row before the window) to the last that starts in it.
  const [i0, i1] = rowsInForce(m.cols.t, m.length, t0, t1);
  let first = i0;
  while (first > 0 && m.cols.kind[first] !== CUBIC_EPOCH) first -= 1;
  for (let i = first; i < Math.max(i1, first + 1) && i < m.length; i += 1) {
    if (m.cols.kind[i] !== CUBIC_EPOCH) continue;
    let end = run.trace.now;
    for (let j = i + 1; j < m.length; j += 1) {
      if (EPOCH_ENDS.has(m.cols.kind[j] ?? -1)) {
        end = m.cols.t[j] ?? end;
        break;
      }
    }
    const t = m.cols.t[i] ?? 0;
    if (end < t0 || t > t1) continue;
    out.push({ t, end, wMax: (m.cols.seq[i] ?? 0) / u.scale, k: (m.cols.seg[i] ?? 0) / 1e6 });
  }
  return out;
}

/** CUBIC's references: W_max as a dotted line over each epoch, and K as a tick where the
 *  cubic regains it, both labelled, in the run's colour. */
function drawCubic(f: DrawFrame, run: PlotRun, u: Shown) {
  const epochs = cubicEpochs(run, f.t0, f.t1, u);
  if (epochs.length === 0) return;
  const { ctx } = f;
  ctx.save();
  ctx.strokeStyle = run.style.color;
  ctx.fillStyle = '#222';
  ctx.font = canvasFont(10);
  ctx.textBaseline = 'bottom';
  for (const e of epochs) {
    const x0 = f.x(Math.max(e.t, f.t0));
    const x1 = f.x(Math.min(e.end, f.t1));
    const y = Math.round(f.y(e.wMax)) + 0.5;
    ctx.setLineDash([2, 3]);
    ctx.lineWidth = lw(1.25);
    ctx.beginPath();
    ctx.moveTo(x0, y);
    ctx.lineTo(x1, y);
    ctx.stroke();
    ctx.setLineDash([]);
    if (x1 - x0 > 46) ctx.fillText('W_max', x0 + 2, y - 1);
    const tk = e.t + e.k;
    if (e.k > 0 && tk <= e.end && tk >= f.t0 && tk <= f.t1) {
      const xk = Math.round(f.x(tk)) + 0.5;
      ctx.lineWidth = lw(1.5);
      ctx.beginPath();
      ctx.moveTo(xk, y - 7);
      ctx.lineTo(xk, y + 7);
      ctx.stroke();
      ctx.fillText('K', xk + 2, y - 1);
    }
  }
  ctx.restore();
}

/** BBR's estimated BDP (BtlBw × RTprop, in the plot's unit) as a step line in the run's colour,
 *  named "BDP" at its right end. */
function drawBbrBdp(f: DrawFrame, run: PlotRun, u: Shown) {
  const m = run.trace.tables.model;
  if (m.length === 0) return;
  const s = bbrSeries(run.trace);
  const [i0, i1] = visibleRange(m.cols.t, m.length, f.t0, f.t1);
  const end = Math.min(run.trace.now, f.t1);
  const line = cachedLine(run.trace, 'bbr.bdp', m.cols.t, s.bdp, i0, i1, f.xl, f.dpr, f.width, true).polyline(
    (v) => mapLinear(f.yl, v / u.scale),
    f.xl,
    end,
  );
  const { ctx } = f;
  ctx.save();
  ctx.strokeStyle = run.style.color;
  ctx.lineWidth = lw(BBR_LINES.bdp.width);
  ctx.setLineDash([...BBR_LINES.bdp.dash]);
  ctx.lineJoin = 'round';
  strokePolyline(ctx, line);
  ctx.setLineDash([]);
  const y = line.n > 0 ? (line.ys[line.n - 1] ?? NaN) : NaN;
  if (Number.isFinite(y) && end >= f.t0) {
    // Its name just above the line's end, on a white box, left of the end.
    const label = 'BDP';
    ctx.font = canvasFont(10, 600);
    const w = ctx.measureText(label).width + 6;
    // (Left of the flows' names, which a competition puts at the line ends.)
    const gap = f.context.competition && f.context.overlay ? 30 : 4;
    const x = Math.max(2, Math.min(f.width - 2, f.x(end) - gap) - w);
    const top = Math.max(0, y - 15);
    ctx.fillStyle = 'rgba(255,255,255,0.8)';
    ctx.fillRect(x, top, w, 13);
    ctx.fillStyle = run.style.color;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    ctx.fillText(label, x + 3, top + 6.5);
  }
  ctx.restore();
}

/** The window plot definition. */
export const windowPlot: PlotDef = {
  yTick: (v) => formatNumber(v, 4),

  yExtent(runs, t0, t1, context) {
    const u = shownOf(context);
    let hi = 1;
    for (const run of runs) {
      for (const name of visibleSeries(context)) {
        const tb = SERIES_STYLES[name].table === 'series' ? run.trace.tables.series : run.trace.tables.validation;
        const cols = tb.cols as Record<string, Float64Array>;
        const t = cols.t ?? new Float64Array(0);
        const col = cols[name] ?? new Float64Array(0);
        const [i0, i1] = rowsInForce(t, tb.length, t0, t1);
        for (let i = i0; i < i1; i += 1) {
          const v = col[i] ?? 0;
          if (v > hi * u.scale && Number.isFinite(v)) hi = v / u.scale;
        }
      }
    }
    for (const run of runs) hi = Math.max(hi, reservedBdp(run, u) ?? 0);
    for (const run of runs) {
      if (run.trace.tables.model.length > 0) hi = Math.max(hi, bbrMaxIn(run.trace, 'bdp', t0, t1) / u.scale);
    }
    // Room above the data for the phase lanes and event marks.
    const lanes = context.overlay ? runs.length : 1;
    return [0, hi * (1.1 + (0.05 * lanes * laneHeight(lanes)) / textPx(LANE_H))];
  },

  draw(f) {
    const { ctx, runs, context } = f;
    const u = shownOf(context);
    drawPhaseBands(f, context.overlay ? laneHeight(runs.length) : textPx(LANE_H));
    const { xl, yl } = f;
    const toY = (v: number) => mapLinear(yl, v / u.scale);
    drawNvpStrips(f);
    for (const run of runs) {
      for (const name of visibleSeries(context)) {
        const look = SERIES_STYLES[name];
        const end = Math.min(run.trace.now, f.t1);
        const decimated =
          look.table === 'series'
            ? visibleLine(f, run.trace, 'series', name as 'cwnd')
            : visibleLine(f, run.trace, 'validation', name as 'w_used');
        const line = decimated.polyline(toY, xl, end);
        ctx.strokeStyle = run.style.color;
        ctx.globalAlpha = look.alpha;
        ctx.lineWidth = lw(look.width);
        ctx.setLineDash(look.dash);
        ctx.lineJoin = 'round';
        strokePolyline(ctx, line);
      }
      ctx.globalAlpha = 1;
      ctx.setLineDash([]);
    }
    runs.forEach((run, i) => {
      drawReservedBdp(f, run, u);
      drawCubic(f, run, u);
      if (context.overlay) drawIdentityMarkers(f, run, i, u);
      drawEventMarks(f, run, u);
      drawWindowEvents(f, run, i, u);
      // (After the marks: its name stays readable among them.)
      drawBbrBdp(f, run, u);
    });
    // The flows of a competition are named at the end of their lines (f0, f1, …).
    if (context.competition && context.overlay) drawFlowNames(f, u);
  },

  readout(runs, t, context) {
    const u = shownOf(context);
    return runs.map((run) => {
      const s = run.trace.tables.series;
      const r = rowAt(s.cols.t, s.length, t);
      if (r < 0 || t > run.trace.now) {
        return { key: run.key, label: run.label, color: run.style.color, text: 'no data yet' };
      }
      const seg = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? '∞' : u.num(v));
      const look = PHASES[s.cols.phase[r] ?? -1];
      // BBR's model at the cursor: its state (which names the phase, unless the window is in
      // a recovery), BtlBw, RTprop, pacing rate and BDP.
      const b = run.trace.tables.model.length > 0 ? bbrRowAt(run.trace, t) : -1;
      const bbr = b >= 0 ? `BBR ${bbrModelText(bbrSeries(run.trace), b, u)}` : '';
      const phase =
        bbr !== '' && look?.bbr === true ? bbr : [look?.label ?? '', bbr].filter((p) => p !== '').join(' · ');
      let text =
        `cwnd ${seg(s.cols.cwnd[r])} · ssthresh ${seg(s.cols.ssthresh[r])} · ` +
        `flight ${seg(s.cols.flight[r])} · inflated ${seg(s.cols.inflated[r])} ${u.symbol} · ${phase}`;
      const v = run.trace.tables.validation;
      const vr = rowAt(v.cols.t, v.length, t);
      if (vr >= 0) {
        text += ` · W_used ${seg(v.cols.w_used[vr])}`;
        const pipeack = v.cols.pipeack[vr] ?? NaN;
        if (!Number.isNaN(pipeack)) text += ` · pipeACK ${seg(pipeack)}`;
        if (v.cols.nvp[vr] === 1) text += ' · non-validated phase';
      }
      // A decay, restart or phase change within a few pixels of the cursor: what it did.
      const tol = 6 * context.pxTime;
      let near = -1;
      for (const i of windowEventRows(run.trace, t - tol, t + tol)) {
        const ti = run.trace.tables.marks.cols.t[i] ?? Infinity;
        if (near < 0 || Math.abs(ti - t) < Math.abs((run.trace.tables.marks.cols.t[near] ?? Infinity) - t)) near = i;
      }
      if (near >= 0) text += ` · ${windowEventsAt(run.trace, near, u)}`;
      const epoch = cubicEpochs(run, t, t, u).find((e) => e.t <= t && t <= e.end);
      if (epoch) {
        text += ` · CUBIC epoch from ${formatNumber(epoch.t, 4)} s: W_max ${u.num(epoch.wMax * u.scale)} ${u.symbol}, K ${formatNumber(epoch.k, 4)} s`;
      }

      return { key: run.key, label: run.label, color: run.style.color, text };
    });
  },

  describe(runs, context) {
    const u = shownOf(context);
    const parts = runs.map((r) => {
      const f = r.summary?.flows[r.flow ?? 0];
      if (!f) return `${r.label}: running`;
      const decays = f.window_decays > 0 ? `, ${f.window_decays} window decays or restarts` : '';
      const bdp = reservedBdp(r, u);
      const reserved = bdp === null ? '' : `, reserved BDP ${u.num(bdp * u.scale)} ${u.label} (dashed line)`;
      const cubic = f.algorithm === 'cubic' ? ", CUBIC's W_max as a dotted line over each epoch and K as a tick" : '';
      const m = r.trace.tables.model;
      const bbr =
        m.length > 0
          ? `, BBR's estimated BDP (BtlBw × RTprop) as a dash-dot line, ${u.num(bbrSeries(r.trace).bdp[m.length - 1] ?? NaN)} ${u.label} at the end, and its states as phase bands`
          : '';
      return (
        `${r.label}: mean cwnd ${u.unit === 'bytes' ? u.num(f.mean_cwnd_bytes) : formatNumber(f.mean_cwnd_segments, 3)} ${u.label}, ` +
        `${f.fast_retransmits} fast retransmits, ${f.timeouts} timeouts, ${f.partial_acks} partial ACKs${decays}${reserved}${cubic}${bbr}`
      );
    });
    return (
      `Congestion window over time in ${shownOf(context).label}, with phase bands and event marks ` +
      `(] and [ step the cursor through them). ${parts.join('; ')}.`
    );
  },

  eventTimes(runs) {
    const out: number[] = [];
    for (const run of runs) {
      const m = run.trace.tables.marks;
      for (let i = 0; i < m.length; i += 1) if (MARKED_CODES.has(m.cols.kind[i] ?? -1)) out.push(m.cols.t[i] ?? 0);
    }
    return out.sort((a, b) => a - b);
  },
};
