// Drawing helpers shared by the plot kinds: polylines, phase bands, hatch patterns.
import { EVENT_KINDS, type EventKindName } from '../engine/pkg/vocabulary';
import type { RunTrace } from '../engine/traceStore';
import { lowerBound, visibleRange } from '../engine/lookup';
import { drawMarker, PHASES, type PhaseStyle } from '../lib/styles';
import type { ColumnOf, TableName } from '../engine/protocol';
import { decimateLine, type Mapper, type Polyline } from './core/decimate';
import { cachedLine } from './core/lineCache';
import { fillStepStroke } from './core/stepStroke';
import { setVectorSource } from './core/vectorSource';
import type { DrawFrame } from './core/types';
import { canvasFont, lw } from './core/plotStyle';

/** Event kind code by name (the engine's codes, generated: a kind the engine does not have
 *  fails the type check). */
export const EVENT_CODE: ReadonlyMap<EventKindName, number> = new Map(EVENT_KINDS.map((n, i) => [n, i]));

/** Strokes a polyline; NaN y values lift the pen. A solid step line on a raster canvas is
 *  filled as rectangles instead, the same pixels at a third of the cost (core/stepStroke.ts). */
export function strokePolyline(ctx: CanvasRenderingContext2D, p: Polyline): void {
  if (fillStepStroke(ctx, p)) return;
  ctx.beginPath();
  let pen = false;
  for (let i = 0; i < p.n; i += 1) {
    const x = p.xs[i] ?? 0;
    const y = p.ys[i] ?? NaN;
    if (Number.isNaN(y)) {
      pen = false;
      continue;
    }
    if (pen) ctx.lineTo(x, y);
    else ctx.moveTo(x, y);
    pen = true;
  }
  ctx.stroke();
}

/** How a line is stroked. */
export interface StrokeLook {
  color: string;
  dash: number[];
  width: number;
}

/** Strokes the step line through (ts[k], vs[k]), k < n, held to `endT`, decimated per pixel
 *  column; returns the y of its end (for a name there; NaN without one). */
export function strokeStep(
  f: DrawFrame,
  ts: Float64Array,
  vs: Float64Array,
  n: number,
  endT: number,
  look: StrokeLook,
): number {
  const line = decimateLine(ts, vs, 0, n, f.xl, f.yl, { step: true, dpr: f.dpr, width: f.width, endT });
  f.ctx.strokeStyle = look.color;
  f.ctx.lineWidth = lw(look.width);
  f.ctx.setLineDash(look.dash);
  strokePolyline(f.ctx, line);
  f.ctx.setLineDash([]);
  return line.n > 0 ? (line.ys[line.n - 1] ?? NaN) : NaN;
}

/** Side of a hatch tile, CSS px. */
const HATCH_TILE = 8;

/** One tile of a phase's hatch: its colour, then the hatch lines or dots. */
function paintHatch(t: CanvasRenderingContext2D, phase: PhaseStyle): void {
  t.fillStyle = phase.fill;
  t.fillRect(0, 0, 8, 8);
  t.strokeStyle = 'rgba(0,0,0,0.35)';
  t.lineWidth = 1;
  t.beginPath();
  if (phase.hatch === 'diagonal' || phase.hatch === 'cross') {
    t.moveTo(0, 8);
    t.lineTo(8, 0);
  }
  if (phase.hatch === 'cross') {
    t.moveTo(0, 0);
    t.lineTo(8, 8);
  }
  t.stroke();
  if (phase.hatch === 'dots') {
    t.fillStyle = 'rgba(0,0,0,0.35)';
    t.fillRect(3, 3, 2, 2);
  }
  if (phase.hatch === 'vertical') {
    t.fillStyle = 'rgba(0,0,0,0.35)';
    t.fillRect(3, 0, 1, 8);
  }
  if (phase.hatch === 'horizontal') {
    t.fillStyle = 'rgba(0,0,0,0.35)';
    t.fillRect(0, 1, 8, 1);
    t.fillRect(0, 5, 8, 1);
  }
}

const patternCache = new WeakMap<CanvasRenderingContext2D, Map<string, CanvasPattern | null>>();

/** A fill for a phase: its colour, with a hatch for the recovery phases. */
function phaseFill(ctx: CanvasRenderingContext2D, phase: PhaseStyle): string | CanvasPattern {
  if (phase.hatch === 'none' || typeof document === 'undefined') return phase.fill;
  let cache = patternCache.get(ctx);
  if (!cache) {
    cache = new Map();
    patternCache.set(ctx, cache);
  }
  const key = `${phase.fill}/${phase.hatch}`;
  if (!cache.has(key)) {
    const tile = document.createElement('canvas');
    tile.width = tile.height = HATCH_TILE;
    const paint = (t: CanvasRenderingContext2D) => paintHatch(t, phase);
    const t = tile.getContext('2d');
    if (t) paint(t);
    // A vector export paints the tile again as vectors (an SVG pattern).
    setVectorSource(tile, { width: HATCH_TILE, height: HATCH_TILE, paint });
    cache.set(key, ctx.createPattern(tile, 'repeat'));
  }
  return cache.get(key) ?? phase.fill;
}

/** A phase's legend swatch at (x, y), w × h: its fill and hatch (the plots' own pattern),
 *  a frame and its short name (an export draws the legend with it). */
export function drawPhaseSwatch(
  ctx: CanvasRenderingContext2D,
  phase: PhaseStyle,
  x: number,
  y: number,
  w: number,
  h: number,
): void {
  ctx.save();
  ctx.fillStyle = phaseFill(ctx, phase);
  ctx.fillRect(x, y, w, h);
  ctx.strokeStyle = '#9aa3ad';
  ctx.lineWidth = lw(1);
  ctx.strokeRect(x + 0.5, y + 0.5, w - 1, h - 1);
  ctx.fillStyle = '#1b1f24';
  ctx.font = canvasFont(9, 700);
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(phase.short, x + w / 2, y + h / 2);
  ctx.restore();
}

/**
 * The step line of one column of a run's table over the frame's time window, decimated per
 * pixel column (cached with the trace, see lineCache).
 */
export function visibleLine<T extends TableName>(f: DrawFrame, trace: RunTrace, table: T, column: ColumnOf<T>) {
  const tb = trace.tables[table];
  const cols = tb.cols as Record<ColumnOf<T> | 't', Float64Array>; // every table has t
  const [i0, i1] = visibleRange(cols.t, tb.length, f.t0, f.t1);
  return cachedLine(trace, `${table}.${column}`, cols.t, cols[column], i0, i1, f.xl, f.dpr, f.width, true);
}

/** Spans of constant phase within [t0, t1]: [start, end, code]. */
function phaseSpans(trace: RunTrace, t0: number, t1: number): [number, number, number][] {
  const s = trace.tables.series;
  const t = s.cols.t;
  const phase = s.cols.phase;
  const [i0, i1] = visibleRange(t, s.length, t0, t1);
  const out: [number, number, number][] = [];
  let start = NaN;
  let code = -1;
  for (let i = i0; i < i1; i += 1) {
    const p = phase[i] ?? -1;
    if (p === code) continue;
    const ti = Math.max(t0, t[i] ?? t0);
    if (code >= 0 && ti > start) out.push([start, ti, code]);
    start = ti;
    code = p;
  }
  const end = Math.min(t1, trace.now);
  if (code >= 0 && end > start) out.push([start, end, code]);
  return out;
}

/**
 * Phase bands: a lane at the top (one per run when several share the plot) and, for a
 * single run, a faint band over the whole height. Lanes carry the phase's short name when
 * there is room, so phases are told apart by text and pattern as well as colour.
 */
export function drawPhaseBands(f: DrawFrame, laneH: number): void {
  const { ctx, x, runs } = f;
  runs.forEach((run, r) => {
    const spans = phaseSpans(run.trace, f.t0, f.t1);
    const laneY = r * laneH;
    for (const [a, b, code] of spans) {
      const phase = PHASES[code];
      if (!phase) continue;
      const xa = x(a);
      const w = Math.max(1, x(b) - xa);
      if (runs.length === 1) {
        // The faint full-height band is plain colour; the lane above carries the pattern.
        ctx.globalAlpha = 0.3;
        ctx.fillStyle = phase.fill;
        ctx.fillRect(xa, 0, w, f.height);
        ctx.globalAlpha = 1;
      }
      ctx.fillStyle = phaseFill(ctx, phase);
      ctx.fillRect(xa, laneY, w, laneH - 1);
      const textX = Math.max(xa + 3, runs.length > 1 ? 12 : 0);
      if (xa + w - textX > 16 && laneH >= 10) {
        ctx.fillStyle = '#222';
        ctx.font = canvasFont(9, 600);
        ctx.textBaseline = 'middle';
        // The long name (BBR's states) where the band has room for it.
        const long = phase.long !== undefined && ctx.measureText(phase.long).width + 4 < xa + w - textX;
        ctx.fillText(long ? (phase.long ?? '') : phase.short, textX, laneY + laneH / 2);
      }
    }
    // Several lanes: each starts with its algorithm's marker, so lanes are told apart
    // without relying on their order or colour.
    if (runs.length > 1 && laneH >= 8) drawMarker(ctx, run.style.marker, 6, laneY + laneH / 2, 3.5, run.style.color);
  });
}

/** The row in force just before time te (the value an event interrupted). */
export function rowBefore(t: ArrayLike<number>, length: number, te: number): number {
  return lowerBound(t, length, te) - 1;
}

const glyphCache = new Map<string, HTMLCanvasElement | null>();

/** Drop marks: `n` crosses (✕, 8 px) at (x(k), y(k)), all in one path stroked twice (a
 *  white halo, then `color`): two paint operations whatever the number of marks. The time–
 *  sequence plot's drops and the queue plots' discipline drops. */
export function strokeCrosses(
  ctx: CanvasRenderingContext2D,
  n: number,
  x: (k: number) => number,
  y: (k: number) => number,
  color: string,
): void {
  ctx.setLineDash([]);
  ctx.beginPath();
  for (let k = 0; k < n; k += 1) {
    const px = x(k);
    const py = y(k);
    ctx.moveTo(px - 4, py - 4);
    ctx.lineTo(px + 4, py + 4);
    ctx.moveTo(px + 4, py - 4);
    ctx.lineTo(px - 4, py + 4);
  }
  ctx.lineWidth = lw(4);
  ctx.strokeStyle = '#ffffff';
  ctx.stroke();
  ctx.lineWidth = lw(2);
  ctx.strokeStyle = color;
  ctx.stroke();
}

/**
 * Draws a short bold label (e.g. the R of a retransmission) centred above (x, y), with a
 * white halo. Labels are rendered once per text and colour and then copied: text
 * rendering is the slowest thing a plot does, and a run may have hundreds of these.
 */
export function drawLabel(
  ctx: CanvasRenderingContext2D,
  text: string,
  color: string,
  x: number,
  y: number,
  dpr: number,
) {
  const key = `${text}|${color}|${dpr}`;
  let glyph = glyphCache.get(key);
  if (glyph === undefined) {
    glyph = typeof document === 'undefined' ? null : document.createElement('canvas');
    if (glyph) {
      const w = 16;
      const h = 16;
      const paint = (g: CanvasRenderingContext2D) => {
        g.font = '700 11px system-ui, sans-serif';
        g.textAlign = 'center';
        g.textBaseline = 'bottom';
        g.lineWidth = 3;
        g.strokeStyle = '#ffffff';
        g.strokeText(text, w / 2, h - 1);
        g.fillStyle = color;
        g.fillText(text, w / 2, h - 1);
      };
      glyph.width = w * dpr;
      glyph.height = h * dpr;
      const g = glyph.getContext('2d');
      if (g) {
        g.scale(dpr, dpr);
        paint(g);
      }
      // A vector export writes the label as text (with its halo) instead of copying pixels.
      setVectorSource(glyph, { width: w, height: h, paint });
    }
    glyphCache.set(key, glyph);
  }
  if (glyph) ctx.drawImage(glyph, x - 8, y - 15, 16, 16);
}

/** Names at the right end of their lines (at x, y), on a white box, moved apart
 *  vertically when they would overlap; when there are more than one column of the plot's
 *  height holds (16 flows on a short plot), further columns go to the left. */
export function drawEndLabels(
  ctx: CanvasRenderingContext2D,
  labels: { text: string; color: string; x: number; y: number }[],
  f: Pick<DrawFrame, 'width' | 'height'>,
) {
  if (labels.length === 0) return;
  ctx.save();
  ctx.font = canvasFont(10, 600);
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  const h = 13;
  const perColumn = Math.max(1, Math.floor(f.height / h));
  const sorted = [...labels].sort((a, b) => a.y - b.y);
  const widest = Math.max(...sorted.map((l) => ctx.measureText(l.text).width + 6));
  const columns = Math.ceil(sorted.length / perColumn);
  // With several columns, each takes an even share of the labels (in order of height).
  const per = Math.ceil(sorted.length / columns);
  for (let c = 0; c < columns; c += 1) {
    const column = sorted.slice(c * per, (c + 1) * per);
    // Positions first (top down, each below the one above), then pushed up from the bottom
    // where they ran past it; then drawn.
    const ys: number[] = [];
    for (const l of column) {
      let y = Math.max(h / 2, Math.min(f.height - h / 2, l.y - h / 2 - 1));
      const prev = ys[ys.length - 1];
      if (prev !== undefined && y < prev + h) y = prev + h;
      ys.push(y);
    }
    for (let k = ys.length - 1; k >= 0; k -= 1) {
      const limit = k === ys.length - 1 ? f.height - h / 2 : (ys[k + 1] ?? f.height) - h;
      ys[k] = Math.max(h / 2, Math.min(ys[k] ?? 0, limit));
    }
    column.forEach((l, k) => {
      const y = ys[k] ?? h / 2;
      const w = ctx.measureText(l.text).width + 6;
      const right = Math.min(f.width - 2, l.x - 4) - c * (widest + 3);
      const x = Math.max(2, right - w);
      ctx.fillStyle = 'rgba(255,255,255,0.8)';
      ctx.fillRect(x, y - h / 2, w, h);
      ctx.fillStyle = l.color;
      ctx.fillText(l.text, x + 3, y);
    });
  }
  ctx.restore();
}

/** A grey horizontal rule across the plot at value `v`, dashed with `dash`; its y in px
 *  (null when `v` is off the scale). What the reference lines share. */
export function referenceRule(f: DrawFrame, v: number, dash: number[]): number | null {
  const { ctx } = f;
  const py = Math.round(f.y(v)) + 0.5;
  if (!Number.isFinite(py)) return null;
  ctx.save();
  ctx.setLineDash(dash);
  ctx.strokeStyle = '#555555';
  ctx.lineWidth = lw(1);
  ctx.beginPath();
  ctx.moveTo(0, py);
  ctx.lineTo(f.width, py);
  ctx.stroke();
  ctx.restore();
  return py;
}

/** A dashed horizontal reference line at value `v` with its text at the left, on a white
 *  box (below the line when it runs along the top), so the data under it cannot make it
 *  unreadable: the queue plots' buffer, the share plot's capacity, Jain's index's bounds. */
export function referenceLine(f: DrawFrame, v: number, text: string, dash: number[]) {
  const { ctx } = f;
  const py = referenceRule(f, v, dash);
  if (py === null) return;
  ctx.save();
  ctx.font = canvasFont(11);
  const tw = ctx.measureText(text).width;
  const ly = py - 15 < 1 ? py + 2 : py - 15;
  ctx.fillStyle = 'rgba(255,255,255,0.8)';
  ctx.fillRect(4, ly, tw + 6, 14);
  ctx.fillStyle = '#222222';
  ctx.textAlign = 'left';
  ctx.textBaseline = 'top';
  ctx.fillText(text, 7, ly + 1);
  ctx.restore();
}

/** The bottleneck queue's `column` as a line per run, through `toY` (once in a competition,
 *  whose flows share the bottleneck). */
export function drawQueueLines(f: DrawFrame, column: 'packets' | 'bytes', toY: Mapper): void {
  const { ctx, context } = f;
  const runs = context.competition ? f.runs.slice(0, 1) : f.runs;
  for (const run of runs) {
    const line = visibleLine(f, run.trace, 'queue', column).polyline(toY, f.xl, Math.min(run.trace.now, f.t1));
    ctx.strokeStyle = context.competition ? '#333333' : run.style.color;
    ctx.lineWidth = lw(1.5);
    ctx.setLineDash(context.overlay && !context.competition ? run.style.dash : []);
    strokePolyline(ctx, line);
    ctx.setLineDash([]);
  }
}
