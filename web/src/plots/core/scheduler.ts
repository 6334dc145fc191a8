// One animation-frame queue for every plot (d3fc's requestRedraw): requests are merged, and
// each frame measures every plot before drawing any, so many plots redrawing together
// never force a layout between draws. A frame stops drawing once it has used its budget;
// the remaining plots are drawn in the next frames, so a huge run never blocks the page for
// longer than about one plot's draw.

/** Something drawn in frames. */
export interface Drawable {
  /** Reads layout (sizes). */
  measure(): void;
  /** Writes pixels. */
  draw(): void;
}

const dirty = new Set<Drawable>();
const afterFrame = new Set<() => void>();
let handle = 0;
let burstMs = 0;
let lastBurstMs = 0;

/** Drawing time a frame may use before leaving the remaining plots to the next one, ms. */
export const FRAME_BUDGET_MS = 24;

function frame() {
  handle = 0;
  const t0 = performance.now();
  const list = [...dirty];
  dirty.clear();
  for (const d of list) d.measure();
  let i = 0;
  // At least one plot per frame, then as many as fit in the budget.
  for (; i < list.length; i += 1) {
    if (i > 0 && performance.now() - t0 > FRAME_BUDGET_MS) break;
    list[i]?.draw();
  }
  for (; i < list.length; i += 1) {
    const d = list[i];
    if (d) dirty.add(d);
  }
  burstMs += performance.now() - t0;
  if (dirty.size > 0) {
    handle = requestAnimationFrame(frame);
  } else {
    lastBurstMs = burstMs;
    burstMs = 0;
  }
  for (const cb of afterFrame) cb();
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
export function onAfterFrame(cb: () => void): () => void {
  afterFrame.add(cb);
  return () => afterFrame.delete(cb);
}

/** Plots waiting for a frame. */
export function pendingDraws(): number {
  return dirty.size + (handle ? 1 : 0);
}
