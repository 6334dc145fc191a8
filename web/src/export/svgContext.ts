// A recording 2D context that writes SVG: the plots' own draw code, given this as
// `DrawFrame.ctx`, draws vectors instead of pixels, so an exported SVG is drawn by the very
// code that draws the canvas. It implements the subset of CanvasRenderingContext2D the plot
// code uses (checked by grep, see svgContext.test.ts): paths (moveTo, lineTo, rect, arc,
// closePath), stroke and fill, fillRect, strokeRect, clearRect, fillText, strokeText,
// measureText, lineWidth, lineJoin, strokeStyle, fillStyle (colours, and patterns made by
// createPattern), setLineDash, globalAlpha, font, textAlign, textBaseline, save and restore,
// translate, scale and setTransform, clip, and drawImage of images that recorded how they
// were painted (plots/core/vectorSource.ts: they are painted again as vectors; other images
// are embedded as PNG when they can be read). Anything else throws, so a plot that starts
// using a new call fails its export test instead of exporting something wrong.
//
// Coordinates are mapped through the current transform as the canvas does (a path point by
// the transform when it is added, a line width by the transform when it is stroked) and then
// by `outputScale`: a plot that sets a device-pixel transform (setTransform(dpr, …)) comes
// out in CSS pixels with outputScale = 1 / dpr.
import { vectorSourceOf } from '../plots/core/vectorSource';

type Matrix = [number, number, number, number, number, number];

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

function multiply(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[2] * n[1],
    m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3],
    m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4],
    m[1] * n[4] + m[3] * n[5] + m[5],
  ];
}

/** A number as SVG text: at most two decimals (a hundredth of a CSS pixel). */
export function num(v: number): string {
  if (!Number.isFinite(v)) return '0';
  const r = Math.round(v * 100) / 100;
  return Object.is(r, -0) ? '0' : String(r);
}

/** Text and attribute values escaped for XML. */
export function xmlEscape(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

/** A CSS colour split into an opaque colour and its alpha (SVG 1.1 readers do not all take
 *  rgba()). Unknown forms pass through with alpha 1. */
export function splitColor(color: string): { color: string; alpha: number } {
  const c = color.trim();
  const rgba = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)\s*(?:[,/]\s*([\d.]+%?))?\s*\)$/i.exec(c);
  if (rgba) {
    const a = rgba[4] === undefined ? 1 : rgba[4].endsWith('%') ? parseFloat(rgba[4]) / 100 : parseFloat(rgba[4]);
    return { color: `rgb(${rgba[1]},${rgba[2]},${rgba[3]})`, alpha: Number.isFinite(a) ? a : 1 };
  }
  const hex = /^#([0-9a-f]{4}|[0-9a-f]{8})$/i.exec(c);
  if (hex?.[1]) {
    const h = hex[1];
    const long = h.length === 4 ? [...h].map((x) => x + x).join('') : h;
    return { color: `#${long.slice(0, 6)}`, alpha: parseInt(long.slice(6, 8), 16) / 255 };
  }
  if (c.toLowerCase() === 'transparent') return { color: '#000000', alpha: 0 };
  return { color: c, alpha: 1 };
}

/** A CSS font shorthand ("600 9px system-ui, sans-serif") as SVG attributes. */
export function fontAttrs(font: string): { family: string; size: number; weight: string; style: string } {
  const parts = font.trim().split(/\s+/);
  let weight = 'normal';
  let style = 'normal';
  let size = 10;
  let i = 0;
  for (; i < parts.length; i += 1) {
    const p = parts[i] ?? '';
    const m = /^([\d.]+)px(?:\/\S+)?$/.exec(p);
    if (m) {
      size = parseFloat(m[1] ?? '10');
      i += 1;
      break;
    }
    if (/^(bold|bolder|lighter|\d00)$/.test(p)) weight = p;
    else if (/^(italic|oblique)$/.test(p)) style = p;
  }
  const family = parts.slice(i).join(' ') || 'sans-serif';
  return { family, size, weight, style };
}

/** Width of `text` in `font` (CSS px). */
export type TextMeasure = (font: string, text: string) => number;

let measureCtx: CanvasRenderingContext2D | null | undefined;

/** The browser's own text metrics where there is a canvas (so layouts that measure text
 *  place it exactly as on screen); elsewhere an estimate from the font size. */
export const defaultMeasure: TextMeasure = (font, text) => {
  if (measureCtx === undefined) {
    try {
      measureCtx = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
    } catch {
      measureCtx = null;
    }
  }
  if (measureCtx) {
    measureCtx.font = font;
    return measureCtx.measureText(text).width;
  }
  const { size, weight } = fontAttrs(font);
  return text.length * size * (weight === 'normal' || weight === '400' ? 0.55 : 0.6);
};

/** A pattern made by createPattern. */
class SvgPattern {
  constructor(
    readonly image: unknown,
    readonly repetition: string | null,
  ) {}
}

type Paint = string | SvgPattern;

interface State {
  fill: Paint;
  stroke: Paint;
  lineWidth: number;
  lineJoin: CanvasLineJoin;
  alpha: number;
  font: string;
  textAlign: CanvasTextAlign;
  textBaseline: CanvasTextBaseline;
  dash: number[];
  m: Matrix;
  /** The clip in force (a clipPath id), or null. */
  clip: string | null;
}

/** What a recorder produces: definitions (patterns, clips) and the drawing. */
export interface SvgFragment {
  defs: string;
  body: string;
}

export interface SvgContextOptions {
  /** Prefix of the ids this recorder defines (unique within one document or page). */
  idPrefix?: string;
  /** Output units per transformed unit (1 / dpr after a device-pixel transform). */
  outputScale?: number;
  /** The surface's size in output units (what clearRect of everything means). */
  width?: number;
  height?: number;
  measure?: TextMeasure;
}

/** The recording context. Use `asContext()` where a CanvasRenderingContext2D is wanted. */
export class SvgContext {
  private state: State = {
    fill: '#000000',
    stroke: '#000000',
    lineWidth: 1,
    lineJoin: 'miter',
    alpha: 1,
    font: '10px sans-serif',
    textAlign: 'start',
    textBaseline: 'alphabetic',
    dash: [],
    m: [...IDENTITY],
    clip: null,
  };
  private stack: State[] = [];
  /** The current path, in output units. */
  private path: string[] = [];
  private cur: [number, number] | null = null;
  private subpathStart: [number, number] | null = null;
  private elements: { clip: string | null; markup: string }[] = [];
  private defs: string[] = [];
  private patternIds = new Map<string, string>();
  private ids = 0;
  private readonly prefix: string;
  private readonly out: number;
  private readonly measureFn: TextMeasure;
  private readonly w: number;
  private readonly h: number;

  constructor(opts: SvgContextOptions = {}) {
    this.prefix = opts.idPrefix ?? 'c';
    this.out = opts.outputScale ?? 1;
    this.measureFn = opts.measure ?? defaultMeasure;
    this.w = opts.width ?? Infinity;
    this.h = opts.height ?? Infinity;
  }

  /** This recorder typed as the canvas context the draw code expects. */
  asContext(): CanvasRenderingContext2D {
    return this as unknown as CanvasRenderingContext2D;
  }

  // ---- state ----

  get fillStyle(): string | CanvasPattern {
    return this.state.fill as string | CanvasPattern;
  }
  set fillStyle(v: string | CanvasGradient | CanvasPattern) {
    if (typeof v === 'string' || v instanceof SvgPattern) this.state.fill = v;
  }
  get strokeStyle(): string | CanvasPattern {
    return this.state.stroke as string | CanvasPattern;
  }
  set strokeStyle(v: string | CanvasGradient | CanvasPattern) {
    if (typeof v === 'string' || v instanceof SvgPattern) this.state.stroke = v;
  }
  get lineWidth(): number {
    return this.state.lineWidth;
  }
  set lineWidth(v: number) {
    if (Number.isFinite(v) && v > 0) this.state.lineWidth = v;
  }
  get lineJoin(): CanvasLineJoin {
    return this.state.lineJoin;
  }
  set lineJoin(v: CanvasLineJoin) {
    this.state.lineJoin = v;
  }
  get globalAlpha(): number {
    return this.state.alpha;
  }
  set globalAlpha(v: number) {
    if (Number.isFinite(v) && v >= 0 && v <= 1) this.state.alpha = v;
  }
  get font(): string {
    return this.state.font;
  }
  set font(v: string) {
    this.state.font = v;
  }
  get textAlign(): CanvasTextAlign {
    return this.state.textAlign;
  }
  set textAlign(v: CanvasTextAlign) {
    this.state.textAlign = v;
  }
  get textBaseline(): CanvasTextBaseline {
    return this.state.textBaseline;
  }
  set textBaseline(v: CanvasTextBaseline) {
    this.state.textBaseline = v;
  }

  setLineDash(segments: number[]): void {
    if (segments.some((s) => !Number.isFinite(s) || s < 0)) return;
    this.state.dash = segments.length % 2 === 1 ? [...segments, ...segments] : [...segments];
  }

  getLineDash(): number[] {
    return [...this.state.dash];
  }

  save(): void {
    this.stack.push({ ...this.state, dash: [...this.state.dash], m: [...this.state.m] as Matrix });
  }

  restore(): void {
    const s = this.stack.pop();
    if (s) this.state = s;
  }

  // ---- transform ----

  translate(x: number, y: number): void {
    this.state.m = multiply(this.state.m, [1, 0, 0, 1, x, y]);
  }

  scale(x: number, y: number): void {
    this.state.m = multiply(this.state.m, [x, 0, 0, y, 0, 0]);
  }

  setTransform(a: number, b: number, c: number, d: number, e: number, f: number): void {
    this.state.m = [a, b, c, d, e, f];
  }

  private pt(x: number, y: number): [number, number] {
    const m = this.state.m;
    return [(m[0] * x + m[2] * y + m[4]) * this.out, (m[1] * x + m[3] * y + m[5]) * this.out];
  }

  /** How much the transform scales lengths (its determinant's square root), with the output
   *  scale. */
  private lengthScale(): number {
    const m = this.state.m;
    return Math.sqrt(Math.abs(m[0] * m[3] - m[1] * m[2])) * this.out;
  }

  // ---- paths ----

  beginPath(): void {
    this.path = [];
    this.cur = null;
    this.subpathStart = null;
  }

  moveTo(x: number, y: number): void {
    if (!Number.isFinite(x) || !Number.isFinite(y)) return;
    const p = this.pt(x, y);
    this.path.push(`M${num(p[0])} ${num(p[1])}`);
    this.cur = p;
    this.subpathStart = p;
  }

  lineTo(x: number, y: number): void {
    if (!Number.isFinite(x) || !Number.isFinite(y)) return;
    if (!this.cur) {
      this.moveTo(x, y);
      return;
    }
    const p = this.pt(x, y);
    this.path.push(`L${num(p[0])} ${num(p[1])}`);
    this.cur = p;
  }

  closePath(): void {
    if (!this.cur) return;
    this.path.push('Z');
    this.cur = this.subpathStart;
  }

  rect(x: number, y: number, w: number, h: number): void {
    if (![x, y, w, h].every(Number.isFinite)) return;
    this.moveTo(x, y);
    this.lineTo(x + w, y);
    this.lineTo(x + w, y + h);
    this.lineTo(x, y + h);
    this.closePath();
    // A rectangle leaves a new subpath at its corner (as the canvas does).
    this.moveTo(x, y);
  }

  arc(x: number, y: number, r: number, a0: number, a1: number, ccw = false): void {
    if (![x, y, r, a0, a1].every(Number.isFinite) || r < 0) return;
    let sweep = ccw ? a0 - a1 : a1 - a0;
    const full = sweep >= 2 * Math.PI;
    if (!full) sweep = ((sweep % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
    const start = this.pt(x + r * Math.cos(a0), y + r * Math.sin(a0));
    if (this.cur) this.path.push(`L${num(start[0])} ${num(start[1])}`);
    else this.path.push(`M${num(start[0])} ${num(start[1])}`);
    if (!this.subpathStart) this.subpathStart = start;
    const rr = r * this.lengthScale();
    const flag = ccw ? 0 : 1;
    if (full) {
      // Two half circles (one arc command cannot end where it starts).
      const mid = this.pt(x + r * Math.cos(a0 + Math.PI), y + r * Math.sin(a0 + Math.PI));
      this.path.push(`A${num(rr)} ${num(rr)} 0 1 ${flag} ${num(mid[0])} ${num(mid[1])}`);
      this.path.push(`A${num(rr)} ${num(rr)} 0 1 ${flag} ${num(start[0])} ${num(start[1])}`);
      this.cur = start;
      return;
    }
    const a = ccw ? a0 - sweep : a0 + sweep;
    const end = this.pt(x + r * Math.cos(a), y + r * Math.sin(a));
    this.path.push(`A${num(rr)} ${num(rr)} 0 ${sweep > Math.PI ? 1 : 0} ${flag} ${num(end[0])} ${num(end[1])}`);
    this.cur = end;
  }

  // ---- painting ----

  private newId(kind: string): string {
    this.ids += 1;
    return `${this.prefix}-${kind}${this.ids}`;
  }

  /** fill= / stroke= attributes (and their opacity) for a paint. */
  private paintAttrs(paint: Paint, which: 'fill' | 'stroke'): string {
    if (paint instanceof SvgPattern) {
      const id = this.pattern(paint);
      const opacity = this.state.alpha < 1 ? ` ${which}-opacity="${num(this.state.alpha)}"` : '';
      return id ? ` ${which}="url(#${id})"${opacity}` : ` ${which}="none"`;
    }
    const { color, alpha } = splitColor(paint);
    const a = alpha * this.state.alpha;
    return ` ${which}="${xmlEscape(color)}"${a < 1 ? ` ${which}-opacity="${Math.round(a * 1000) / 1000}"` : ''}`;
  }

  /** The stroke's width, dash and join (scaled by the transform now in force). */
  private strokeAttrs(): string {
    const k = this.lengthScale();
    let s = ` stroke-width="${num(this.state.lineWidth * k)}"`;
    if (this.state.dash.length > 0) s += ` stroke-dasharray="${this.state.dash.map((d) => num(d * k)).join(' ')}"`;
    if (this.state.lineJoin !== 'miter') s += ` stroke-linejoin="${this.state.lineJoin}"`;
    return s;
  }

  /** A pattern definition for `p` as the current transform places it; its id, or null when
   *  the image cannot be drawn as vectors or read. */
  private pattern(p: SvgPattern): string | null {
    const m = this.state.m.map((v) => v * this.out) as Matrix;
    const source = vectorSourceOf(p.image);
    const key = `${this.patternKey(p)}|${m.map(num).join(',')}`;
    const known = this.patternIds.get(key);
    if (known) return known;
    let w: number;
    let h: number;
    let content: string;
    if (source) {
      const sub = new SvgContext({ idPrefix: this.newId('t'), measure: this.measureFn });
      source.paint(sub.asContext());
      const frag = sub.fragment();
      if (frag.defs) this.defs.push(frag.defs);
      w = source.width;
      h = source.height;
      content = frag.body;
    } else {
      const img = imageData(p.image);
      if (!img) return null;
      w = img.width;
      h = img.height;
      content = `<image href="${img.url}" width="${num(w)}" height="${num(h)}"/>`;
    }
    const id = this.newId('p');
    this.defs.push(
      `<pattern id="${id}" patternUnits="userSpaceOnUse" width="${num(w)}" height="${num(h)}" ` +
        `patternTransform="matrix(${m.map((v) => String(Math.round(v * 1e4) / 1e4)).join(' ')})">${content}</pattern>`,
    );
    this.patternIds.set(key, id);
    return id;
  }

  private patternObjects = new WeakMap<SvgPattern, number>();
  private patternCount = 0;
  /** A key per pattern object (one pattern used under several transforms gets one
   *  definition per transform). */
  private patternKey(p: SvgPattern): string {
    let n = this.patternObjects.get(p);
    if (n === undefined) {
      this.patternCount += 1;
      n = this.patternCount;
      this.patternObjects.set(p, n);
    }
    return String(n);
  }

  private emit(markup: string): void {
    this.elements.push({ clip: this.state.clip, markup });
  }

  stroke(): void {
    if (this.path.length === 0) return;
    this.emit(
      `<path d="${this.path.join('')}" fill="none"${this.paintAttrs(this.state.stroke, 'stroke')}${this.strokeAttrs()}/>`,
    );
  }

  fill(rule: CanvasFillRule = 'nonzero'): void {
    if (this.path.length === 0) return;
    const r = rule === 'evenodd' ? ' fill-rule="evenodd"' : '';
    this.emit(`<path d="${this.path.join('')}"${this.paintAttrs(this.state.fill, 'fill')}${r}/>`);
  }

  /** A rectangle in output units: a <rect> where the transform keeps it one, else a path. */
  private rectMarkup(x: number, y: number, w: number, h: number): string | null {
    if (![x, y, w, h].every(Number.isFinite)) return null;
    const m = this.state.m;
    if (m[1] === 0 && m[2] === 0) {
      const [ax, ay] = this.pt(x, y);
      const [bx, by] = this.pt(x + w, y + h);
      return (
        `<rect x="${num(Math.min(ax, bx))}" y="${num(Math.min(ay, by))}" ` +
        `width="${num(Math.abs(bx - ax))}" height="${num(Math.abs(by - ay))}"`
      );
    }
    const pts = [this.pt(x, y), this.pt(x + w, y), this.pt(x + w, y + h), this.pt(x, y + h)];
    return `<path d="M${pts.map(([px, py]) => `${num(px)} ${num(py)}`).join('L')}Z"`;
  }

  fillRect(x: number, y: number, w: number, h: number): void {
    const r = this.rectMarkup(x, y, w, h);
    if (r) this.emit(`${r}${this.paintAttrs(this.state.fill, 'fill')}/>`);
  }

  strokeRect(x: number, y: number, w: number, h: number): void {
    const r = this.rectMarkup(x, y, w, h);
    if (r) this.emit(`${r} fill="none"${this.paintAttrs(this.state.stroke, 'stroke')}${this.strokeAttrs()}/>`);
  }

  /** Clearing the whole surface forgets what was drawn; clearing part of it paints it white
   *  (the plots' canvases are opaque and white underneath). */
  clearRect(x: number, y: number, w: number, h: number): void {
    const [ax, ay] = this.pt(x, y);
    const [bx, by] = this.pt(x + w, y + h);
    const all =
      this.state.clip === null &&
      Math.min(ax, bx) <= 0 &&
      Math.min(ay, by) <= 0 &&
      Math.max(ax, bx) >= this.w &&
      Math.max(ay, by) >= this.h;
    if (all) {
      this.elements = [];
      return;
    }
    const r = this.rectMarkup(x, y, w, h);
    if (r) this.emit(`${r} fill="#ffffff"/>`);
  }

  clip(): void {
    const id = this.newId('clip');
    const parent = this.state.clip ? ` clip-path="url(#${this.state.clip})"` : '';
    this.defs.push(`<clipPath id="${id}"${parent}><path d="${this.path.join('')}"/></clipPath>`);
    this.state.clip = id;
  }

  // ---- text ----

  private textMarkup(text: string, x: number, y: number, paint: string): string {
    const f = fontAttrs(this.state.font);
    const m = this.state.m;
    const anchor = {
      start: '',
      left: '',
      center: ' text-anchor="middle"',
      right: ' text-anchor="end"',
      end: ' text-anchor="end"',
    }[this.state.textAlign];
    const baseline = {
      alphabetic: '',
      top: ' dominant-baseline="text-before-edge"',
      hanging: ' dominant-baseline="hanging"',
      middle: ' dominant-baseline="central"',
      ideographic: ' dominant-baseline="ideographic"',
      bottom: ' dominant-baseline="text-after-edge"',
    }[this.state.textBaseline];
    const fontA =
      ` font-family="${xmlEscape(f.family)}"` +
      (f.weight !== 'normal' ? ` font-weight="${f.weight}"` : '') +
      (f.style !== 'normal' ? ` font-style="${f.style}"` : '');
    if (m[1] === 0 && m[2] === 0 && m[0] === m[3] && m[0] > 0) {
      const [px, py] = this.pt(x, y);
      return (
        `<text x="${num(px)}" y="${num(py)}" font-size="${num(f.size * m[0] * this.out)}"${fontA}${anchor}${baseline}` +
        `${paint}>${xmlEscape(text)}</text>`
      );
    }
    const t = m.map((v) => v * this.out);
    return (
      `<text transform="matrix(${t.map(num).join(' ')})" x="${num(x)}" y="${num(y)}" font-size="${num(f.size)}"` +
      `${fontA}${anchor}${baseline}${paint}>${xmlEscape(text)}</text>`
    );
  }

  fillText(text: string, x: number, y: number): void {
    if (!Number.isFinite(x) || !Number.isFinite(y)) return;
    this.emit(this.textMarkup(String(text), x, y, this.paintAttrs(this.state.fill, 'fill')));
  }

  /** Outlined text (a label's halo). */
  strokeText(text: string, x: number, y: number): void {
    if (!Number.isFinite(x) || !Number.isFinite(y)) return;
    const paint =
      ` fill="none"${this.paintAttrs(this.state.stroke, 'stroke')}${this.strokeAttrs()}` +
      (this.state.lineJoin === 'miter' ? ' stroke-linejoin="round"' : '');
    this.emit(this.textMarkup(String(text), x, y, paint));
  }

  measureText(text: string): TextMetrics {
    return { width: this.measureFn(this.state.font, String(text)) } as TextMetrics;
  }

  // ---- images and patterns ----

  createPattern(image: unknown, repetition: string | null): CanvasPattern {
    return new SvgPattern(image, repetition) as unknown as CanvasPattern;
  }

  drawImage(image: unknown, x: number, y: number, w?: number, h?: number): void {
    const source = vectorSourceOf(image);
    if (source) {
      this.save();
      this.translate(x, y);
      this.scale((w ?? source.width) / source.width, (h ?? source.height) / source.height);
      source.paint(this.asContext());
      this.restore();
      return;
    }
    const img = imageData(image);
    if (!img) return;
    const m = this.state.m.map((v) => v * this.out);
    this.emit(
      `<image href="${img.url}" x="${num(x)}" y="${num(y)}" width="${num(w ?? img.width)}" ` +
        `height="${num(h ?? img.height)}" transform="matrix(${m.map((v) => String(Math.round(v * 1e4) / 1e4)).join(' ')})"/>`,
    );
  }

  // ---- output ----

  /** The definitions and the drawing (consecutive elements under one clip in one group). */
  fragment(): SvgFragment {
    const body: string[] = [];
    let open: string | null = null;
    for (const e of this.elements) {
      if (e.clip !== open) {
        if (open !== null) body.push('</g>');
        if (e.clip !== null) body.push(`<g clip-path="url(#${e.clip})">`);
        open = e.clip;
      }
      body.push(e.markup);
    }
    if (open !== null) body.push('</g>');
    return { defs: this.defs.join(''), body: body.join('') };
  }

  /** Number of elements drawn so far. */
  get size(): number {
    return this.elements.length;
  }
}

/** An image's pixels as a data URL, when it is a readable canvas. */
function imageData(image: unknown): { url: string; width: number; height: number } | null {
  const c = image as { toDataURL?: (type?: string) => string; width?: number; height?: number };
  if (typeof c?.toDataURL !== 'function') return null;
  try {
    return { url: c.toDataURL('image/png'), width: c.width ?? 0, height: c.height ?? 0 };
  } catch {
    return null;
  }
}
