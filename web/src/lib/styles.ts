// How things look, in one place: colours are from the Okabe–Ito palette (distinct for the
// common colour-vision deficiencies), and every algorithm also has its own dash pattern and
// marker shape, so identity never depends on colour alone.
import { VARIANT_NAMES, type Variant } from '../scenario/algorithms';
import { tables } from '../engine/tables';

/** A marker shape. */
export type MarkerShape = 'circle' | 'square' | 'triangle' | 'diamond' | 'plus';

/** How one algorithm is drawn. */
export interface AlgStyle {
  color: string;
  dash: number[];
  marker: MarkerShape;
}

const ALG_STYLES: AlgStyle[] = [
  { color: '#009E73', dash: [2, 3], marker: 'triangle' }, // Old Tahoe: bluish green, dotted
  { color: '#CC79A7', dash: [10, 3, 2, 3], marker: 'diamond' }, // Tahoe: reddish purple, dash-dot
  { color: '#D55E00', dash: [7, 4], marker: 'square' }, // Reno: vermillion, dashed
  { color: '#0072B2', dash: [], marker: 'circle' }, // NewReno: blue, solid
  { color: '#6B5B00', dash: [1, 2], marker: 'plus' }, // any later variant
];

/** The style of an algorithm (by its position in the engine's list). */
export function algStyle(v: Variant): AlgStyle {
  const i = VARIANT_NAMES.indexOf(v);
  return ALG_STYLES[Math.min(i < 0 ? ALG_STYLES.length - 1 : i, ALG_STYLES.length - 1)] as AlgStyle;
}

/** Window series: each has its own line style (the algorithm adds colour and marker). */
export const SERIES_STYLES = {
  cwnd: { label: 'cwnd', width: 2, dash: [] as number[], alpha: 1 },
  ssthresh: { label: 'ssthresh', width: 1.5, dash: [6, 4], alpha: 0.9 },
  flight: { label: 'flight size', width: 1, dash: [] as number[], alpha: 0.45 },
  inflated: { label: 'inflated window', width: 1.5, dash: [1.5, 2.5], alpha: 0.9 },
} as const;

/** A congestion-control phase's look: a fill colour and a pattern, plus a short label. */
export interface PhaseStyle {
  name: string;
  label: string;
  short: string;
  fill: string;
  hatch: 'none' | 'diagonal' | 'cross' | 'dots';
}

const PHASE_LOOK: Record<string, Omit<PhaseStyle, 'name' | 'label' | 'short'>> = {
  handshake: { fill: '#d9d9d9', hatch: 'dots' },
  slow_start: { fill: '#c6dbef', hatch: 'none' },
  congestion_avoidance: { fill: '#c7e9c0', hatch: 'none' },
  fast_recovery: { fill: '#fdd0a2', hatch: 'diagonal' },
  timeout_recovery: { fill: '#fcbba1', hatch: 'cross' },
};

function labelOf(name: string): string {
  const words = name.split('_');
  return words.map((w, i) => (i === 0 ? w.charAt(0).toUpperCase() + w.slice(1) : w)).join(' ');
}

/** Phase styles by engine code. */
export const PHASES: PhaseStyle[] = tables.codes.phases.map((name) => ({
  name,
  label: labelOf(name),
  short: name
    .split('_')
    .map((w) => w.charAt(0).toUpperCase())
    .join(''),
  ...(PHASE_LOOK[name] ?? { fill: '#eeeeee', hatch: 'none' }),
}));

/** Event marks on the window plot: glyph and label by event name. */
export const EVENT_MARKS: Record<string, { glyph: 'down' | 'x' | 'ring' | 'bar'; label: string }> = {
  fast_retransmit: { glyph: 'down', label: '3rd dup ACK → fast retransmit' },
  timeout: { glyph: 'x', label: 'retransmission timeout' },
  partial_ack: { glyph: 'ring', label: 'partial ACK' },
};

/** Draws a marker centred at (x, y). */
export function drawMarker(
  ctx: CanvasRenderingContext2D,
  shape: MarkerShape,
  x: number,
  y: number,
  r: number,
  color: string,
): void {
  ctx.save();
  ctx.fillStyle = color;
  ctx.strokeStyle = '#ffffff';
  ctx.lineWidth = 1;
  ctx.setLineDash([]);
  ctx.beginPath();
  switch (shape) {
    case 'circle':
      ctx.arc(x, y, r, 0, Math.PI * 2);
      break;
    case 'square':
      ctx.rect(x - r, y - r, 2 * r, 2 * r);
      break;
    case 'triangle':
      ctx.moveTo(x, y - r * 1.2);
      ctx.lineTo(x + r * 1.1, y + r * 0.8);
      ctx.lineTo(x - r * 1.1, y + r * 0.8);
      ctx.closePath();
      break;
    case 'diamond':
      ctx.moveTo(x, y - r * 1.3);
      ctx.lineTo(x + r * 1.1, y);
      ctx.lineTo(x, y + r * 1.3);
      ctx.lineTo(x - r * 1.1, y);
      ctx.closePath();
      break;
    case 'plus':
      ctx.rect(x - r, y - r / 3, 2 * r, (2 * r) / 3);
      ctx.rect(x - r / 3, y - r, (2 * r) / 3, 2 * r);
      break;
  }
  ctx.fill();
  ctx.stroke();
  ctx.restore();
}

/** SVG path data of a marker centred at (0, 0), for legends. */
export function markerPath(shape: MarkerShape, r: number): string {
  switch (shape) {
    case 'circle':
      return `M${-r},0a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0`;
    case 'square':
      return `M${-r},${-r}h${2 * r}v${2 * r}h${-2 * r}z`;
    case 'triangle':
      return `M0,${-r * 1.2}L${r * 1.1},${r * 0.8}L${-r * 1.1},${r * 0.8}z`;
    case 'diamond':
      return `M0,${-r * 1.3}L${r * 1.1},0L0,${r * 1.3}L${-r * 1.1},0z`;
    case 'plus':
      return `M${-r},${-r / 3}h${2 * r}v${(2 * r) / 3}h${-2 * r}zM${-r / 3},${-r}h${(2 * r) / 3}v${2 * r}h${(-2 * r) / 3}z`;
  }
}
