// How heavily the plots draw, in one place: line widths, canvas text, marker sizes and the
// room around the plot area, for the page as it is and for projector mode (large type, thick
// lines and high contrast for the back row of a lecture hall; `projector=1` in the link, the
// `p` key). The drawing code never scales a constant of its own: it asks here (`lw`,
// `canvasFont`, `markerR`, `plotMargin`), so both looks come from these two tables. The
// page's own text (titles, readouts, axis labels, which are SVG) follows the root's
// `projector` class in styles.css.

/** A look of the plots. */
export interface PlotLook {
  name: 'normal' | 'projector';
  /** Factor on every line width. */
  line: number;
  /** Factor on every canvas font size. */
  text: number;
  /** Factor on every marker and event glyph size. */
  marker: number;
  /** Grid and frame colours and widths, CSS px. */
  grid: { color: string; width: number };
  frame: { color: string; width: number };
  /** Space around the plot area of time plots, CSS px (room for the axes' text). */
  margin: { top: number; right: number; bottom: number; left: number };
  /** Axis tick text, CSS px (the SVG axes; styles.css sets the same through the class). */
  tickPx: number;
  /** Pixels per y tick and per x tick (bigger text, fewer ticks). */
  yTickPx: number;
  xTickPx: number;
}

/** The page as it is. */
export const NORMAL_LOOK: PlotLook = {
  name: 'normal',
  line: 1,
  text: 1,
  marker: 1,
  grid: { color: '#e6e6e6', width: 1 },
  frame: { color: '#8a8a8a', width: 1 },
  margin: { top: 10, right: 14, bottom: 24, left: 50 },
  tickPx: 11,
  yTickPx: 40,
  xTickPx: 80,
};

/** Projector mode: lines twice as thick, text and marks 1.6× (a 11 px label becomes 18 px,
 *  readable from the back of a hall at 1920 px), darker grid and frame. */
export const PROJECTOR_LOOK: PlotLook = {
  name: 'projector',
  line: 2,
  text: 1.6,
  marker: 1.6,
  grid: { color: '#c4c4c4', width: 1.5 },
  frame: { color: '#333333', width: 2 },
  margin: { top: 14, right: 22, bottom: 38, left: 76 },
  tickPx: 18,
  yTickPx: 60,
  xTickPx: 130,
};

let current: PlotLook = NORMAL_LOOK;

/** The look the plots draw with now. */
export function plotLook(): PlotLook {
  return current;
}

/** Switches projector mode on or off (the store's `projector`; the panels redraw). */
export function setProjectorLook(on: boolean): void {
  current = on ? PROJECTOR_LOOK : NORMAL_LOOK;
}

/** A line width of the normal look, in the current look. */
export function lw(width: number): number {
  return width * current.line;
}

/** A marker or glyph radius of the normal look, in the current look. */
export function markerR(r: number): number {
  return r * current.marker;
}

/** A canvas font: `px` of the normal look (scaled), optional weight. */
export function canvasFont(px: number, weight?: number): string {
  const size = Math.round(px * current.text * 10) / 10;
  return `${weight === undefined ? '' : `${weight} `}${size}px system-ui, sans-serif`;
}

/** A length tied to text (a lane's height, a label box), in the current look. */
export function textPx(px: number): number {
  return px * current.text;
}

/** The margin of time plots in the current look. */
export function plotMargin(): PlotLook['margin'] {
  return current.margin;
}

// Marks the legend draws too (Legend.tsx), here so that the legend does not pull in the plots
// that are loaded when first shown (core/lazyModule.ts).

/** The bottleneck's reference line on BBR's model plot (dash). */
export const BOTTLENECK_DASH = [2, 4];
/** Height of the write timeline's sojourn bar and width of its delivery line, CSS px. */
export const SOJOURN_WIDTH = 5;
export const NETWORK_WIDTH = 1.5;
