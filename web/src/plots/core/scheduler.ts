// One animation-frame queue for every plot (d3fc's requestRedraw): requests are merged, and
// each frame measures the plots waiting before drawing any, so many plots redrawing
// together never force a layout between draws. What is in view is decided from that
// measurement (the page's first frames come before any IntersectionObserver report).
//
// Plots in view come first: a frame that has plots in view to draw draws only those (the
// new run reaches the screen as soon as possible, and that frame's canvas uploads are only
// the visible ones); plots scrolled out of view are drawn in the following frames. A plot's
// first draw has a frame of its own. A frame
// stops drawing once it has used its budget and leaves the rest to the next one, so a huge
// run never blocks the page for longer than about one plot's draw. Nothing is skipped: the
// page is idle only once every plot is drawn.

/** Something drawn in frames. */
export interface Drawable {
  /** Reads layout (sizes). */
  measure(): void;
  /** Writes pixels. */
  draw(): void;
  /** False while it is scrolled out of view (then it is drawn after those in view). */
  readonly inView?: boolean;
}

/** What the frames since the last complete redraw did (ms, performance.now() clock). */
export interface FrameReport {
  /** Start of this frame's callback. */
  start: number;
  /** Plots in view still waiting to be drawn. */
  pendingInView: number;
  /** Plots still waiting, in view or not. */
  pending: number;
  /** Plots drawn in this frame. */
  drawn: number;
  /** JavaScript drawing in this frame. */
  drawMs: number;
  /** JavaScript drawing since the redraw began (this frame and the ones before it). */
  burstMs: number;
}

const dirty = new Set<Drawable>();
const afterFrame = new Set<(report: FrameReport) => void>();
/** Each plot's last draw, ms. */
const cost = new WeakMap<Drawable, number>();
let handle = 0;
let burstMs = 0;
let lastBurstMs = 0;

/** Drawing time a frame may use before leaving the remaining plots to the next one, ms. */
export const FRAME_BUDGET_MS = 24;
/** Drawing time a frame may use for plots out of view, ms (keeps the page responsive while
 *  they catch up). */
export const OUT_OF_VIEW_BUDGET_MS = 10;

function inView(d: Drawable): boolean {
  return d.inView !== false;
}

function frame() {
  handle = 0;
  const t0 = performance.now();
  const all = [...dirty];
  // Every waiting plot is measured before any is drawn (one layout), and what is in view is
  // decided from that layout.
  for (const d of all) d.measure();
  const visible = all.filter(inView);
  const list = visible.length > 0 ? visible : all;
  const budget = visible.length > 0 ? FRAME_BUDGET_MS : OUT_OF_VIEW_BUDGET_MS;
  let i = 0;
  // At least one plot per frame, then as many as fit in the budget. A plot never drawn
  // before (its cost unknown: the page's start, a view just opened) is drawn only first in
  // its frame, so the page's first frames take one plot each, never a long task of several
  // (on a slow phone a first draw alone is a few tens of milliseconds). Out of view, a plot is
  // drawn after another only when its last draw fits in what is left.
  for (; i < list.length; i += 1) {
    const d = list[i];
    if (!d) continue;
    if (i > 0) {
      const used = performance.now() - t0;
      const last = cost.get(d);
      if (used > budget || last === undefined || (visible.length === 0 && used + last >= budget)) break;
    }
    dirty.delete(d);
    const s = performance.now();
    d.draw();
    cost.set(d, performance.now() - s);
  }
  const drawMs = performance.now() - t0;
  burstMs += drawMs;
  const report: FrameReport = {
    start: t0,
    pendingInView: [...dirty].filter(inView).length,
    pending: dirty.size,
    drawn: i,
    drawMs,
    burstMs,
  };
  if (dirty.size > 0) {
    handle = requestAnimationFrame(frame);
  } else {
    lastBurstMs = burstMs;
    burstMs = 0;
  }
  for (const cb of afterFrame) cb(report);
}

/** Drawing time of the last complete redraw (over one or more frames), ms. */
export function lastFrameDuration(): number {
  return lastBurstMs;
}

/** Draws `d` in the next frame (or just runs a frame when `d` is omitted). */
export function requestDraw(d?: Drawable): void {
  if (d) dirty.add(d);
  if (!handle) handle = requestAnimationFrame(frame);
}

/** Forgets a plot that is going away. */
export function cancelDraw(d: Drawable): void {
  dirty.delete(d);
}

/** Calls `cb` after every frame; returns the unsubscribe function. */
export function onAfterFrame(cb: (report: FrameReport) => void): () => void {
  afterFrame.add(cb);
  return () => afterFrame.delete(cb);
}

let holds = 0;

/** Keeps the page from counting as drawn (pendingDraws > 0) until the returned function is
 *  called (once; later calls do nothing): parts of the page that mount after the first paint
 *  (app/AfterPaint.tsx) and then draw. */
export function holdIdle(): () => void {
  holds += 1;
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    holds -= 1;
    // The frame after the release reports again (start.tsx's idle signal).
    requestDraw();
  };
}

/** Plots waiting for a frame (and parts of the page still to mount, holdIdle). */
export function pendingDraws(): number {
  return dirty.size + (handle ? 1 : 0) + holds;
}
