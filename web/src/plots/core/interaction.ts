// The pointer interactions of the plots: d3-zoom (Ctrl/⌘+wheel zoom, drag to pan, a
// two-finger pinch) on every time plot and d3-brush on the overview strip, with
// d3-selection, which both act through. They come as a chunk of their own
// (`loadInteraction`), loaded once the first view is drawn: the first view draws without
// them, and until they arrive a plot answers its keyboard keys (+, −, 0, arrows: no d3) but
// not yet a wheel or a drag.
export { brushX, select, zoom, zoomIdentity, zoomTransform } from 'd3';
