// Strokes an axis-aligned polyline (a step line: every segment horizontal or vertical) as
// filled rectangles instead of a stroked path. On a raster canvas the result covers the same
// pixels as a solid stroke with square (miter) corners and butt ends, but costs a third as
// much to rasterise: Skia's path stroker (joins computed at every vertex, then an
// anti-aliased fill of the outline) is the dearest thing a plot draws, and a decimated step
// line has two to four vertices per pixel column. In software rendering the canvases are
// rasterised on the main thread when a frame is committed, so this is time taken off the
// frame that presents new results (docs/performance.md, "Cheaper strokes").
//
// Only for raster canvases: a vector export (the SVG recorder) keeps the stroked path, a
// line stays a line. The parameter is deliberately not named `ctx` (the recorder's
// completeness test scans the plot code's `ctx.` calls; these never reach the recorder).
import type { Polyline } from './decimate';

/** Adds a rectangle (x, y, width, height) in a target's units. */
type Rect = (x: number, y: number, w: number, h: number) => void;

/** True when `target` rasterises (an on-screen or offscreen canvas's 2D context). */
function isRaster(target: unknown): target is CanvasRenderingContext2D {
  return (
    (typeof CanvasRenderingContext2D !== 'undefined' && target instanceof CanvasRenderingContext2D) ||
    (typeof OffscreenCanvasRenderingContext2D !== 'undefined' && target instanceof OffscreenCanvasRenderingContext2D)
  );
}

/** Whether every segment of p's pen-down runs is horizontal or vertical. */
export function axisAligned(p: Polyline): boolean {
  let px = NaN;
  let py = NaN;
  for (let i = 0; i < p.n; i += 1) {
    const x = p.xs[i] ?? 0;
    const y = p.ys[i] ?? NaN;
    if (Number.isNaN(y)) {
      px = NaN;
      continue;
    }
    if (!Number.isNaN(px) && x !== px && y !== py) return false;
    px = x;
    py = y;
  }
  return true;
}

/**
 * Calls rect(x, y, width, height) for each rectangle of those whose union is p stroked with
 * width 2h, square (mitred) right-angle corners and butt ends — what a canvas stroke of an
 * axis-aligned polyline covers. Consecutive segments on one line (a pixel column's
 * first → min → max → last) are one rectangle; a segment reaches h past a vertex where the
 * line turns a corner, and ends flush at a reversal (a 180° turn: the miter limit makes it a
 * bevel) and at the ends of a pen-down run. NaN y values lift the pen; zero-length segments
 * are ignored. p must be axis-aligned (see axisAligned).
 */
export function stepRects(p: Polyline, h: number, rect: Rect): void {
  const { xs, ys, n } = p;
  // The open group: segments on one line (horizontal at y = at, or vertical at x = at) from
  // `start` to `end` along it, spanning lo … hi, and whether a corner precedes it.
  let open = false;
  let horizontal = false;
  let at = 0;
  let start = 0;
  let end = 0;
  let lo = 0;
  let hi = 0;
  let cornerBefore = false;
  const close = (cornerAfter: boolean) => {
    let a = lo;
    let b = hi;
    if ((cornerBefore && start === lo) || (cornerAfter && end === lo)) a -= h;
    if ((cornerBefore && start === hi) || (cornerAfter && end === hi)) b += h;
    if (horizontal) rect(a, at - h, b - a, 2 * h);
    else rect(at - h, a, 2 * h, b - a);
  };
  let px = NaN;
  let py = NaN;
  for (let k = 0; k < n; k += 1) {
    const x = xs[k] ?? 0;
    const y = ys[k] ?? NaN;
    if (Number.isNaN(y)) {
      // The pen lifts: the run ends (butt).
      if (open) close(false);
      open = false;
      px = NaN;
      continue;
    }
    if (Number.isNaN(px) || (x === px && y === py)) {
      // A run's first vertex, or a zero-length segment (ignored).
      px = x;
      py = y;
      continue;
    }
    const flat = y === py;
    const line = flat ? y : x;
    const from = flat ? px : py;
    const to = flat ? x : y;
    if (open && flat === horizontal && line === at) {
      // The same line goes on (a column's first → min → max → last).
      end = to;
      if (to < lo) lo = to;
      if (to > hi) hi = to;
    } else {
      if (open) close(true);
      cornerBefore = open;
      open = true;
      horizontal = flat;
      at = line;
      start = from;
      end = to;
      lo = Math.min(from, to);
      hi = Math.max(from, to);
    }
    px = x;
    py = y;
  }
  if (open) close(false);
}

/** The target's transform when it only scales (the same in x and y) and translates, else
 *  null: then its device pixels are known and the rectangles can be put on them. */
function pixelGrid(target: CanvasRenderingContext2D): { s: number; e: number; f: number } | null {
  const t = typeof target.getTransform === 'function' ? target.getTransform() : null;
  if (!t || t.b !== 0 || t.c !== 0 || t.a !== t.d || !(t.a > 0)) return null;
  return { s: t.a, e: t.e, f: t.f };
}

/**
 * Fills, in the target's stroke colour, the rectangles `draw` makes for a line `w` wide (in
 * the target's units), as one path filled once, and puts the fill style back. Where the
 * target's device pixels are known the path is built and filled with the identity transform
 * (put back after `fill`), every edge rounded to a pixel boundary, and the line as thick as
 * its width in device pixels, rounded, at least one. A rectangle's thickness is then whole
 * pixels because its two edges are the same centre ± the same whole half-thickness, and a
 * corner's pieces round the same vertex the same way, so the line is joined and evenly
 * thick. A software rasteriser fills such a path ~2.5 times faster than one with fractional
 * edges (no partial coverage to compute), and the numbers passed are small integers, which
 * the canvas call does not box (docs/performance.md, "pixel-aligned rectangles").
 */
function fillLine(target: CanvasRenderingContext2D, draw: (w: number, rect: Rect) => void) {
  const fill = target.fillStyle;
  target.fillStyle = target.strokeStyle;
  const grid = pixelGrid(target);
  if (grid) {
    const { s, e, f } = grid;
    const thick = Math.max(1, Math.round(target.lineWidth * s));
    target.setTransform(1, 0, 0, 1, 0, 0);
    target.beginPath();
    draw(thick / s, (x, y, w, h) => {
      const x0 = Math.round(x * s + e);
      const y0 = Math.round(y * s + f);
      target.rect(x0, y0, Math.round((x + w) * s + e) - x0, Math.round((y + h) * s + f) - y0);
    });
    target.fill();
    target.setTransform(s, 0, 0, s, e, f);
  } else {
    target.beginPath();
    draw(target.lineWidth, (x, y, w, h) => target.rect(x, y, w, h));
    target.fill();
  }
  target.fillStyle = fill;
}

/**
 * Draws p with the target's stroke style, alpha and line width as the rectangles of
 * stepRects, one path filled once (their union painted once, so a translucent line looks as
 * its stroke). Where the target's device pixels are known (it only scales and translates)
 * the rectangles lie on them, the line a whole number of pixels thick (the line width in
 * device pixels, rounded, at least one). Returns false, drawing nothing, when the target is
 * not a raster canvas, the line is dashed or not butt-ended, or a segment is not
 * axis-aligned: the caller then strokes the path. (`raster` is for tests, which have no
 * canvas.)
 */
export function fillStepStroke(target: CanvasRenderingContext2D, p: Polyline, raster = isRaster(target)): boolean {
  if (!raster || target.getLineDash().length > 0 || target.lineCap !== 'butt') return false;
  if (!axisAligned(p)) return false;
  fillLine(target, (w, rect) => stepRects(p, w / 2, rect));
  return true;
}

/**
 * Vertical bars x = xs[k] from y0[k] to y1[k] (k < n), stroked with the target's stroke
 * style and line width and butt ends, drawn on a raster canvas as one path of rectangles
 * filled once (the union painted once, so a translucent style is as a stroke's), on whole
 * device pixels where the target's are known (as fillStepStroke). Returns
 * false, drawing nothing, when the target is not a raster canvas or the style is dashed.
 * (`raster` is for tests.)
 */
export function fillBars(
  target: CanvasRenderingContext2D,
  xs: ArrayLike<number>,
  y0: ArrayLike<number>,
  y1: ArrayLike<number>,
  n: number,
  raster = isRaster(target),
): boolean {
  if (!raster || target.getLineDash().length > 0 || target.lineCap !== 'butt') return false;
  fillLine(target, (w, rect) => {
    for (let k = 0; k < n; k += 1) {
      const a = y0[k] ?? 0;
      const b = y1[k] ?? 0;
      rect((xs[k] ?? 0) - w / 2, Math.min(a, b), w, Math.abs(b - a));
    }
  });
  return true;
}
