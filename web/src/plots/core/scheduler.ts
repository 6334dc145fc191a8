// One animation-frame queue for every plot (d3fc's requestRedraw): requests are merged, and
// each frame measures every plot before drawing any, so many plots redrawing together
// never force a layout between draws.

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
let lastFrameMs = 0;

function frame() {
  handle = 0;
  const t0 = performance.now();
  const list = [...dirty];
  dirty.clear();
  for (const d of list) d.measure();
  for (const d of list) d.draw();
  lastFrameMs = performance.now() - t0;
  for (const cb of afterFrame) cb();
}

/** How long the last frame's measuring and drawing took, ms. */
export function lastFrameDuration(): number {
  return lastFrameMs;
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
