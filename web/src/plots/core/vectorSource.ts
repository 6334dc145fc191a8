// Offscreen canvases the plots paint once and then copy (a hatch tile for a pattern, a label
// glyph for drawImage) can say how they were painted, so a recording context that writes
// vectors (export/svgContext.ts) paints the same thing again as vectors instead of copying
// pixels. The canvas code path is unchanged: the registry is only read by the recorder.

/** How an offscreen image was painted: its size in the units it is drawn at, and the
 *  painting, replayable into any 2D context. */
export interface VectorSource {
  width: number;
  height: number;
  paint(ctx: CanvasRenderingContext2D): void;
}

const sources = new WeakMap<object, VectorSource>();

/** Records how `image` was painted. */
export function setVectorSource(image: object, source: VectorSource): void {
  sources.set(image, source);
}

/** How `image` was painted, if it was recorded. */
export function vectorSourceOf(image: unknown): VectorSource | undefined {
  return typeof image === 'object' && image !== null ? sources.get(image) : undefined;
}
