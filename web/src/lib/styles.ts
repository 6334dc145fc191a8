// How things look, in one place. Algorithm colours start with the Okabe–Ito palette
// (distinct for the common colour-vision deficiencies) and continue with Paul Tol's; every
// algorithm also has its own combination of dash pattern and marker shape, so identity never
// depends on colour alone, however many algorithms the catalogue holds.
import { ALGORITHM_NAMES, type AlgorithmName } from '../scenario/algorithms';
import { type EventKindName, PHASE_NAMES, type PhaseName } from '../engine/pkg/vocabulary';
import { lw, markerR } from '../plots/core/plotStyle';

/** A marker shape. */
export type MarkerShape = 'circle' | 'square' | 'triangle' | 'diamond' | 'plus' | 'triangle_down' | 'star' | 'cross';

/** How one algorithm is drawn. */
export interface AlgStyle {
  color: string;
  dash: number[];
  marker: MarkerShape;
}

/** Twelve colours, told apart by lightness as well as hue. */
const COLORS = [
  '#009E73', // bluish green
  '#CC79A7', // reddish purple
  '#D55E00', // vermillion
  '#0072B2', // blue
  '#E69F00', // orange
  '#882255', // wine
  '#6B5B00', // olive
  '#332288', // indigo
  '#56B4E9', // sky blue
  '#661100', // brown
  '#999933', // khaki
  '#555555', // grey
];
/** Seven dash patterns and eight markers: lengths 7 and 8 are coprime with each other, so
 *  (dash, marker) never repeats within 56 algorithms, nor (colour, dash, marker) within 168. */
const DASHES: number[][] = [[2, 3], [10, 3, 2, 3], [7, 4], [], [14, 4], [8, 3, 2, 3, 2, 3], [1, 2]];
const MARKERS: MarkerShape[] = ['triangle', 'diamond', 'square', 'circle', 'triangle_down', 'star', 'plus', 'cross'];

/** The style of the i-th algorithm of the display order. */
export function styleAt(i: number): AlgStyle {
  const k = Math.max(0, i);
  return {
    color: COLORS[k % COLORS.length] ?? '#555555',
    dash: DASHES[k % DASHES.length] ?? [],
    marker: MARKERS[k % MARKERS.length] ?? 'circle',
  };
}

/** The style of an algorithm (by its position in the display order: the catalogue, then
 *  custom; unknown names share the last). */
export function algStyle(a: AlgorithmName): AlgStyle {
  const i = ALGORITHM_NAMES.indexOf(a);
  return styleAt(i < 0 ? ALGORITHM_NAMES.length : i);
}

/** A window line: which table and column it comes from and how it is stroked (the algorithm
 *  adds colour and marker). */
export interface SeriesStyle {
  label: string;
  /** The trace table holding it: the window series, or the window-validation series (only
   *  runs with an idle policy have one). */
  table: 'series' | 'validation';
  width: number;
  dash: number[];
  alpha: number;
}

/** Window series: each has its own line style. */
export const SERIES_STYLES = {
  cwnd: { label: 'cwnd', table: 'series', width: 2, dash: [], alpha: 1 },
  ssthresh: { label: 'ssthresh', table: 'series', width: 1.5, dash: [6, 4], alpha: 0.9 },
  flight: { label: 'flight size', table: 'series', width: 1, dash: [], alpha: 0.45 },
  inflated: { label: 'inflated window', table: 'series', width: 1.5, dash: [1.5, 2.5], alpha: 0.9 },
  w_used: { label: 'W_used (window used)', table: 'validation', width: 1.5, dash: [9, 3, 2, 3], alpha: 0.95 },
  pipeack: { label: 'pipeACK (new CWV)', table: 'validation', width: 1.25, dash: [3, 2, 3, 6], alpha: 0.9 },
} as const satisfies Record<string, SeriesStyle>;

/** The lines only runs with an idle policy have (from the window-validation series). */
export const VALIDATION_SERIES = ['w_used', 'pipeack'] as const;
/** The line only new CWV (RFC 7661) runs have. */
export const NEW_CWV_SERIES = ['pipeack'] as const;

/** A congestion-control phase's look: a fill colour and a pattern, plus a short label. */
export interface PhaseStyle {
  name: PhaseName;
  label: string;
  /** The lane's text where a band is narrow, and the legend swatch's. */
  short: string;
  /** The lane's text where the band is wide enough for it (else `short`). */
  long?: string;
  fill: string;
  hatch: 'none' | 'diagonal' | 'cross' | 'dots' | 'vertical' | 'horizontal';
  /** Only BBR runs have it: the legend lists it only when a BBR run is shown. */
  bbr?: boolean;
}

type PhaseLook = Omit<PhaseStyle, 'name' | 'label' | 'short'> & Partial<Pick<PhaseStyle, 'label' | 'short'>>;

// BBR's four states share a run with fast and timeout recovery (and the handshake): their
// fills are chosen to stay apart from those and from each other under the three common
// colour-vision deficiencies (CIELAB ΔE ≥ 12 after simulation), and Drain and ProbeRTT,
// the short ones, carry a pattern too. ProbeBW, the steady state that fills most of a run,
// is the palest.
const PHASE_LOOK: Record<PhaseName, PhaseLook> = {
  handshake: { fill: '#d9d9d9', hatch: 'dots' },
  slow_start: { fill: '#c6dbef', hatch: 'none' },
  congestion_avoidance: { fill: '#c7e9c0', hatch: 'none' },
  fast_recovery: { fill: '#fdd0a2', hatch: 'diagonal' },
  timeout_recovery: { fill: '#fcbba1', hatch: 'cross' },
  bbr_startup: { label: 'BBR Startup', short: 'SU', long: 'Startup', fill: '#cab2d6', hatch: 'none', bbr: true },
  bbr_drain: { label: 'BBR Drain', short: 'DR', long: 'Drain', fill: '#ffed6f', hatch: 'vertical', bbr: true },
  bbr_probe_bw: { label: 'BBR ProbeBW', short: 'BW', long: 'ProbeBW', fill: '#ffffcc', hatch: 'none', bbr: true },
  bbr_probe_rtt: {
    label: 'BBR ProbeRTT',
    short: 'RTT',
    long: 'ProbeRTT',
    fill: '#969696',
    hatch: 'horizontal',
    bbr: true,
  },
};

function labelOf(name: string): string {
  const words = name.split('_');
  return words.map((w, i) => (i === 0 ? w.charAt(0).toUpperCase() + w.slice(1) : w)).join(' ');
}

/** Phase styles by engine code (every phase of the engine has a look: PHASE_LOOK is keyed
 *  by the generated `PhaseName`, so a phase added to the engine fails the type check here
 *  until it has one). */
export const PHASES: PhaseStyle[] = PHASE_NAMES.map((name) => ({
  name,
  label: labelOf(name),
  short: name
    .split('_')
    .map((w) => w.charAt(0).toUpperCase())
    .join(''),
  ...PHASE_LOOK[name],
}));

/** BBR's model lines (in the run's colour): its BDP estimate on the window plot, BtlBw and
 *  the pacing rate on the model plot. */
export const BBR_LINES = {
  bdp: { label: 'BDP estimate (BBR: BtlBw × RTprop)', dash: [7, 3, 1.5, 3], width: 1.5 },
  btlBw: { label: 'BtlBw, the bottleneck-bandwidth estimate', dash: [], width: 2 },
  pacing: { label: 'pacing rate', dash: [5, 3], width: 1.5 },
} as const;

/**
 * A style table keyed by event kinds: `byKind<Look>()({ kind: look, … })`. A key that is not
 * one of the engine's kinds (generated `EventKindName`) fails the type check; the table's
 * type keeps exactly its keys.
 */
export function byKind<V>(): <K extends EventKindName>(table: Record<K, V>) => Readonly<Record<K, V>> {
  return (table) => table;
}

/** The kinds a style table names (its keys, typed: byKind checked them). */
export function kindsOf<K extends EventKindName>(table: Readonly<Record<K, unknown>>): K[] {
  return Object.keys(table) as K[];
}

/** How a frequent congestion event is marked on the window plot. */
export interface EventMark {
  glyph: 'down' | 'x' | 'ring';
  label: string;
}

/** Event marks on the window plot drawn as one batched path per kind (frequent kinds). */
export const EVENT_MARKS = byKind<EventMark>()({
  fast_retransmit: { glyph: 'down', label: '3rd dup ACK → fast retransmit' },
  timeout: { glyph: 'x', label: 'retransmission timeout' },
  partial_ack: { glyph: 'ring', label: 'partial ACK' },
});

/** A point of a shape drawn in a box of radius 1 (y down). */
type Pt = readonly [number, number];
/** A shape: closed polygons (a circle is special). */
type Shape = 'circle' | readonly (readonly Pt[])[];

const rect = (x0: number, y0: number, x1: number, y1: number): Pt[] => [
  [x0, y0],
  [x1, y0],
  [x1, y1],
  [x0, y1],
];
const rotate = (poly: readonly Pt[], a: number): Pt[] =>
  poly.map(([x, y]) => [x * Math.cos(a) - y * Math.sin(a), x * Math.sin(a) + y * Math.cos(a)] as const);
const star: Pt[] = Array.from({ length: 10 }, (_, i) => {
  const a = -Math.PI / 2 + (i * Math.PI) / 5;
  const r = i % 2 === 0 ? 1.35 : 0.6;
  return [r * Math.cos(a), r * Math.sin(a)] as const;
});

const MARKER_SHAPES: Record<MarkerShape, Shape> = {
  circle: 'circle',
  square: [rect(-1, -1, 1, 1)],
  triangle: [
    [
      [0, -1.2],
      [1.1, 0.8],
      [-1.1, 0.8],
    ],
  ],
  triangle_down: [
    [
      [0, 1.2],
      [1.1, -0.8],
      [-1.1, -0.8],
    ],
  ],
  diamond: [
    [
      [0, -1.3],
      [1.1, 0],
      [0, 1.3],
      [-1.1, 0],
    ],
  ],
  plus: [rect(-1, -1 / 3, 1, 1 / 3), rect(-1 / 3, -1, 1 / 3, 1)],
  cross: [rotate(rect(-1.2, -0.3, 1.2, 0.3), Math.PI / 4), rotate(rect(-1.2, -0.3, 1.2, 0.3), -Math.PI / 4)],
  star: [star],
};

/** Adds a shape centred at (x, y), scaled by r, to the context's current path. */
function traceShape(ctx: CanvasRenderingContext2D, shape: Shape, x: number, y: number, r: number): void {
  if (shape === 'circle') {
    ctx.moveTo(x + r, y);
    ctx.arc(x, y, r, 0, Math.PI * 2);
    return;
  }
  for (const poly of shape) {
    poly.forEach(([px, py], i) => (i === 0 ? ctx.moveTo(x + px * r, y + py * r) : ctx.lineTo(x + px * r, y + py * r)));
    ctx.closePath();
  }
}

/** SVG path data of a shape centred at (0, 0), scaled by r. */
function shapePath(shape: Shape, r: number): string {
  if (shape === 'circle') return `M${-r},0a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0`;
  const n = (v: number) => Number((v * r).toFixed(2));
  return shape.map((poly) => poly.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${n(x)},${n(y)}`).join('') + 'Z').join('');
}

/** Fills and outlines a shape centred at (x, y). */
function drawShape(
  ctx: CanvasRenderingContext2D,
  shape: Shape,
  x: number,
  y: number,
  r: number,
  paint: { fill: string; stroke: string; width: number },
): void {
  ctx.save();
  ctx.setLineDash([]);
  ctx.beginPath();
  // The look's marker size (projector mode draws them bigger).
  traceShape(ctx, shape, x, y, markerR(r));
  ctx.fillStyle = paint.fill;
  ctx.fill();
  ctx.lineWidth = lw(paint.width);
  ctx.strokeStyle = paint.stroke;
  ctx.stroke();
  ctx.restore();
}

/** Draws a marker centred at (x, y). */
export function drawMarker(
  ctx: CanvasRenderingContext2D,
  shape: MarkerShape,
  x: number,
  y: number,
  r: number,
  color: string,
): void {
  drawShape(ctx, MARKER_SHAPES[shape], x, y, r, { fill: color, stroke: '#ffffff', width: 1 });
}

/** SVG path data of a marker centred at (0, 0), for legends. */
export function markerPath(shape: MarkerShape, r: number): string {
  return shapePath(MARKER_SHAPES[shape], r);
}

/** How a window-validation event is marked: its own outline shape, drawn hollow (white
 *  inside, the run's colour around) or filled (the run's colour inside, dark around). */
export interface WindowEventLook {
  shape: Shape;
  filled: boolean;
  /** What the mark means (legend, readout, screen-reader text). */
  label: string;
  /** Drawn at the ends of the non-validated-phase strip rather than at the window (events
   *  that change no window). */
  onStrip?: boolean;
  /** Only new CWV (RFC 7661) has it: the legend lists it only when such a run is compared. */
  newCwv?: boolean;
}

const bracket = (open: boolean): Pt[] => {
  const s = open ? 1 : -1;
  return [
    [0.6 * s, -1.2],
    [-0.5 * s, -1.2],
    [-0.5 * s, 1.2],
    [0.6 * s, 1.2],
    [0.6 * s, 0.75],
    [-0.05 * s, 0.75],
    [-0.05 * s, -0.75],
    [0.6 * s, -0.75],
  ];
};

/** Marks for the window decays, restarts and new-CWV phase changes (rare events: each is
 *  drawn on its own and can be read at the cursor with its before → after values). */
export const WINDOW_EVENT_MARKS = byKind<WindowEventLook>()({
  idle_decay: { shape: MARKER_SHAPES.triangle_down, filled: false, label: 'window decay after idle' },
  app_limited_decay: { shape: MARKER_SHAPES.diamond, filled: false, label: 'window decay, application-limited' },
  idle_restart: { shape: MARKER_SHAPES.square, filled: false, label: 'restart after idle' },
  nvp_enter: { shape: [bracket(true)], filled: true, label: 'non-validated phase begins', onStrip: true, newCwv: true },
  nvp_exit: { shape: [bracket(false)], filled: true, label: 'non-validated phase ends', onStrip: true, newCwv: true },
  nvp_expiry: {
    shape: [
      [
        [-1, -1.2],
        [1, -1.2],
        [0, 0],
        [1, 1.2],
        [-1, 1.2],
        [0, 0],
      ],
    ],
    filled: false,
    label: 'non-validated phase time limit',
    newCwv: true,
  },
  nvp_loss_response: {
    shape: MARKER_SHAPES.star,
    filled: true,
    label: 'loss in the non-validated phase',
    newCwv: true,
  },
});

/** Draws a window-event mark centred at (x, y) in a run's colour. */
export function drawWindowEvent(
  ctx: CanvasRenderingContext2D,
  look: WindowEventLook,
  x: number,
  y: number,
  r: number,
  color: string,
): void {
  drawShape(ctx, look.shape, x, y, r, {
    fill: look.filled ? color : '#ffffff',
    stroke: look.filled ? '#111111' : color,
    width: look.filled ? 1 : 2,
  });
}

/** SVG path data of a window-event mark centred at (0, 0), for the legend. */
export function windowEventPath(look: WindowEventLook, r: number): string {
  return shapePath(look.shape, r);
}

/** How a traffic class other than the compared flow is drawn in the throughput plot. */
export interface ClassStyle {
  color: string;
  dash: number[];
}

/** Cross-traffic sources: dark neutral colours (never an algorithm's line) with their own
 *  dash patterns; each line also carries its name, so colour is never the only cue. */
const CROSS_STYLES: ClassStyle[] = [
  { color: '#3d3d3d', dash: [7, 3] },
  { color: '#7a5c3a', dash: [2, 2] },
  { color: '#5a6e7a', dash: [10, 3, 2, 3] },
  { color: '#6d4c6d', dash: [4, 4] },
];

/** The style of cross-traffic source i. */
export function crossStyle(i: number): ClassStyle {
  return CROSS_STYLES[Math.max(0, i) % CROSS_STYLES.length] ?? { color: '#3d3d3d', dash: [] };
}

/** Flows other than the compared one (they run their own algorithm): grey, dotted. */
export const OTHER_FLOW_STYLE: ClassStyle = { color: '#8a8a8a', dash: [1.5, 2.5] };
