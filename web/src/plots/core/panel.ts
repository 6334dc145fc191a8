// What every plot controller shares (PlotController: time on x; CdfController: a value on
// x): the elements React renders, the wiring (store subscription, resize and visibility
// observers, the draw queue, listeners on the hit area, dispose), the canvas sized for the
// device pixel ratio, the white background, grid and frame around the data, the SVG axes and
// the canvas label written only when they change, the cursor line and the readout. What a
// panel draws, which state redraws it and what its gestures mean stay in the controller.
import { scaleLinear, type ScaleLinear } from 'd3';
import type { TraceStore } from '../../engine/traceStore';
import type { AppStore } from '../../state/store';
import type { AppState } from '../../state/types';
import { renderAxis, type AxisSpec } from './axis';
import { plotLook } from './plotStyle';
import { cancelDraw, requestDraw, type Drawable } from './scheduler';
import type { ReadoutLine } from './types';

/** A plot's screen-reader sentence during a practice. */
export const PRACTICE_LABEL =
  'Plot of the run up to the question’s instant; its summary is hidden while you predict what comes next.';

/** The elements React renders for a plot. */
export interface PlotElements {
  root: HTMLElement;
  canvas: HTMLCanvasElement;
  svg: SVGSVGElement;
  hit: HTMLElement;
  cursor: HTMLElement;
  readout: HTMLElement;
}

/** Space around the plot area, CSS px. */
export interface Margin {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/** The sizes of one data draw, CSS px: the whole root and its plot area. */
export interface PanelSize {
  W: number;
  H: number;
  pw: number;
  ph: number;
}

/** Listeners on the hit area, by event type. */
export type HitListeners = { [K in keyof HTMLElementEventMap]?: (e: HTMLElementEventMap[K]) => void };

/** A panel an export can draw again into another context (export/figures.ts). */
export interface ExportablePanel {
  /** Draws the panel's data layers (background, grid, data, frame: everything of the canvas)
   *  into `ctx` at `dpr` device pixels per CSS px, exactly as its canvas is drawn, without
   *  touching the page; returns the panel's size (CSS px), or null before it has one. */
  renderTo(ctx: CanvasRenderingContext2D, dpr: number): PanelSize | null;
  /** Its SVG axes (drawn by the page; an export serialises them). */
  readonly axes: SVGSVGElement;
}

/** The panels on the page, by their root element (the plot body). */
const panels = new WeakMap<Element, ExportablePanel>();

/** The panel drawn in `root` (a `.plot-body`), if any. */
export function panelOf(root: Element): ExportablePanel | undefined {
  return panels.get(root);
}

/** The canvas plots are drawn ahead into (prerender.ts): one for every panel, sized per
 *  draw; its bitmap is taken after each. Null where OffscreenCanvas is not available. */
let aheadCanvas: OffscreenCanvas | null | undefined;

function offscreen(width: number, height: number): OffscreenCanvas | null {
  if (aheadCanvas === undefined) aheadCanvas = typeof OffscreenCanvas === 'function' ? new OffscreenCanvas(1, 1) : null;
  if (aheadCanvas && (aheadCanvas.width !== width || aheadCanvas.height !== height)) {
    aheadCanvas.width = width;
    aheadCanvas.height = height;
  }
  return aheadCanvas;
}

/** The readout without a cursor. */
const HINT = 'Hover, click or use the arrow keys for values';

/** Controls one panel: a canvas with SVG axes, a hit area, a cursor line and a readout. */
export abstract class Panel<Spec> implements Drawable, ExportablePanel {
  private cssW = 0;
  private cssH = 0;
  protected dpr = 1;
  /** Width of the plot area at the last data draw (0 before the panel has a size). */
  protected plotW = 0;
  /** Plot area height, CSS px (with plotW: what the last draw laid out). */
  protected plotH = 0;
  private dataDirty = true;
  protected x: ScaleLinear<number, number> = scaleLinear();
  private unsubscribe: () => void;
  private resize: ResizeObserver | null = null;
  private visibility: IntersectionObserver | null = null;
  private listeners: HitListeners = {};
  private disposed = false;

  /** True once disposed (what a late callback checks). */
  protected get isDisposed(): boolean {
    return this.disposed;
  }
  /** Whether any of the plot is in the viewport (unknown counts as in view). */
  private visible = true;
  private ctx: CanvasRenderingContext2D | null = null;
  /** While an export draws (renderTo): its context and pixel ratio; the page is not touched. */
  private target: { ctx: CanvasRenderingContext2D; dpr: number; size: PanelSize | null } | null = null;
  /** While a draw is made ahead (drawAhead): the state and runs it draws instead of the
   *  page's. */
  private world: { state: AppState; traces: TraceStore } | null = null;
  /** What the SVG axes and element styles were last set to (unchanged → untouched, so the
   *  browser has no layout or paint to redo for them). */
  protected last = { size: '', xAxis: '', yAxis: '', label: '', readout: '' };

  constructor(
    protected readonly els: PlotElements,
    protected spec: Spec,
    protected readonly store: AppStore,
    protected readonly traces: TraceStore,
  ) {
    this.unsubscribe = store.subscribe((s, prev) => {
      // Projector mode changes every width, font and margin: everything draws again.
      if (s.projector !== prev.projector) {
        this.last.xAxis = '';
        this.last.yAxis = '';
        this.invalidate();
      }
      this.stateChanged(s, prev);
    });
    panels.set(els.root, this);
    if (typeof ResizeObserver !== 'undefined') {
      // Observe the container, not the canvas, so resizing the canvas cannot feed back.
      this.resize = new ResizeObserver(() => this.invalidate());
      this.resize.observe(els.root);
    }
    if (typeof IntersectionObserver !== 'undefined') {
      // Plots out of view are drawn after those in view (see scheduler.ts).
      this.visibility = new IntersectionObserver((entries) => {
        const entry = entries[entries.length - 1];
        if (entry) this.visible = entry.isIntersecting;
      });
      this.visibility.observe(els.root);
    }
    this.invalidate();
  }

  /** Redraws what the state change touches. */
  protected abstract stateChanged(s: AppState, prev: AppState): void;

  /** Draws the data layers, the axes and the label (after a data change or a resize). */
  protected abstract drawData(): void;

  /** Moves the cursor line and writes the readout (every draw). */
  protected abstract drawOverlay(): void;

  /** Listens on the hit area until dispose (the subclass's constructor calls this once its
   *  handlers exist). */
  protected listen(listeners: HitListeners): void {
    this.listeners = listeners;
    for (const [type, fn] of Object.entries(listeners)) this.els.hit.addEventListener(type, fn as EventListener);
  }

  /** Replaces what is drawn (React props changed). */
  setSpec(spec: Spec): void {
    this.spec = spec;
    this.invalidate();
  }

  /** The data draws again in the next frame. */
  protected invalidate(): void {
    this.dataDirty = true;
    requestDraw(this);
  }

  /** Drawn with the plots in view: when it is in view, or when only its cursor and readout
   *  change (cheap DOM updates that every plot shows at once). */
  get inView(): boolean {
    return this.visible || !this.dataDirty;
  }

  measure(): void {
    const { root } = this.els;
    this.cssW = root.clientWidth;
    this.cssH = root.clientHeight;
    this.dpr = Math.max(1, window.devicePixelRatio || 1);
    // In view from the layout this frame reads anyway: before the IntersectionObserver first
    // reports (the page's first frames), every plot would otherwise count as in view and the
    // first frame would draw them all. A root without a box (not laid out) keeps what the
    // observer said.
    const r = root.getBoundingClientRect();
    if (r.width > 0 || r.height > 0) {
      this.visible = r.bottom > 0 && r.right > 0 && r.top < window.innerHeight && r.left < window.innerWidth;
    }
  }

  draw(): void {
    if (this.disposed) return;
    if (this.dataDirty) {
      this.dataDirty = false;
      this.drawData();
    }
    this.drawOverlay();
  }

  get axes(): SVGSVGElement {
    return this.els.svg;
  }

  /** A data draw is waiting for a frame. */
  protected get dataPending(): boolean {
    return this.dataDirty;
  }

  /** Whether any of the plot is in the viewport, as last measured or observed. */
  get onScreen(): boolean {
    return this.visible;
  }

  /** The state a data draw reads: the page's, or while drawing ahead the world's. */
  protected drawState(): AppState {
    return this.world?.state ?? this.store.getState();
  }

  /** The runs a data draw reads: the page's, or while drawing ahead the world's. */
  protected drawTraces(): TraceStore {
    return this.world?.traces ?? this.traces;
  }

  /** True while a draw is made ahead (drawAhead). */
  protected get drawingAhead(): boolean {
    return this.world !== null;
  }

  /**
   * Draws the data layers of `state` and `traces` (not the page's) into a bitmap of the
   * canvas's size, exactly as drawData would draw them on the canvas, without touching the
   * page; null without a size or without OffscreenCanvas.
   */
  protected drawAhead(state: AppState, traces: TraceStore): ImageBitmap | null {
    if (this.disposed || this.cssW <= 0 || this.cssH <= 0) return null;
    const canvas = offscreen(Math.round(this.cssW * this.dpr), Math.round(this.cssH * this.dpr));
    const ctx = canvas?.getContext('2d', { alpha: false });
    if (!canvas || !ctx) return null;
    // The 2D contexts of a canvas and of an OffscreenCanvas draw alike (the plots use only
    // what both have).
    const size = this.drawOff(ctx as unknown as CanvasRenderingContext2D, this.dpr, { state, traces });
    return size ? canvas.transferToImageBitmap() : null;
  }

  /** drawData into `ctx` at `dpr` (reading `world` instead of the page's state and runs, if
   *  given), leaving the page and the panel's own scales as they were; returns the draw's
   *  size, or null when it had none. */
  private drawOff(
    ctx: CanvasRenderingContext2D,
    dpr: number,
    world: { state: AppState; traces: TraceStore } | null,
  ): PanelSize | null {
    const saved = { dpr: this.dpr, x: this.x, plotW: this.plotW, plotH: this.plotH };
    this.target = { ctx, dpr, size: null };
    this.world = world;
    this.dpr = dpr;
    try {
      this.drawData();
      return this.target.size;
    } finally {
      this.target = null;
      this.world = null;
      this.dpr = saved.dpr;
      this.x = saved.x;
      this.plotW = saved.plotW;
      this.plotH = saved.plotH;
    }
  }

  /** The canvas shows `bitmap` (drawn ahead at its size); false without a context. */
  protected blit(bitmap: ImageBitmap): boolean {
    this.ctx ??= this.els.canvas.getContext('2d', { alpha: false });
    const ctx = this.ctx;
    if (!ctx) return false;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.drawImage(bitmap, 0, 0);
    return true;
  }

  /** True while an export draws the panel (renderTo): a draw must then leave the page alone. */
  protected get exporting(): boolean {
    return this.target !== null;
  }

  renderTo(ctx: CanvasRenderingContext2D, dpr: number): PanelSize | null {
    if (this.disposed) return null;
    if (this.cssW <= 0 || this.cssH <= 0) this.measure();
    return this.drawOff(ctx, dpr, null);
  }

  /** The sizes a draw would have now (nothing set); null while the root has no size. */
  protected sizeOf(margin: Margin): PanelSize | null {
    const W = this.cssW;
    const H = this.cssH;
    if (W <= 0 || H <= 0) return null;
    return { W, H, pw: Math.max(10, W - margin.left - margin.right), ph: Math.max(10, H - margin.top - margin.bottom) };
  }

  /** The sizes of this draw, the canvas (device pixels), hit area and SVG set to them when
   *  they changed; null while the root has no size. */
  protected layout(margin: Margin): PanelSize | null {
    const { canvas, svg, hit } = this.els;
    const sized = this.sizeOf(margin);
    if (!sized) return null;
    const { W, H, pw, ph } = sized;
    this.plotW = pw;
    this.plotH = ph;
    if (this.target) {
      this.target.size = { W, H, pw, ph };
      return this.target.size;
    }

    const bw = Math.round(W * this.dpr);
    const bh = Math.round(H * this.dpr);
    const size = `${bw}x${bh}/${W}x${H}/${pw}x${ph}`;
    if (size !== this.last.size) {
      this.last.size = size;
      canvas.width = bw;
      canvas.height = bh;
      canvas.style.width = `${W}px`;
      canvas.style.height = `${H}px`;
      Object.assign(hit.style, {
        left: `${margin.left}px`,
        top: `${margin.top}px`,
        width: `${pw}px`,
        height: `${ph}px`,
      });
      svg.setAttribute('width', String(W));
      svg.setAttribute('height', String(H));
      svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
      this.last.xAxis = '';
      this.last.yAxis = '';
    }
    return { W, H, pw, ph };
  }

  /** The canvas's context on a white background, scaled to CSS px; null without one. */
  protected background({ W, H }: PanelSize): CanvasRenderingContext2D | null {
    // Opaque: the plot paints its own white background, and an opaque canvas is cheaper to
    // composite.
    if (!this.target) this.ctx ??= this.els.canvas.getContext('2d', { alpha: false });
    const ctx = this.target?.ctx ?? this.ctx;
    if (!ctx) return null;
    // Reset, then scale once: never accumulate transforms across frames.
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.clearRect(0, 0, W, H);
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, W, H);
    return ctx;
  }

  /** The plot area: grid lines at `rows` (y) and `cols` (x), plot-area px, then what `paint`
   *  draws in plot-area coordinates, clipped to the area, then the frame. */
  protected plotArea(
    ctx: CanvasRenderingContext2D,
    margin: Margin,
    { pw, ph }: PanelSize,
    rows: readonly number[],
    cols: readonly number[],
    paint: () => void,
  ): void {
    ctx.save();
    ctx.translate(margin.left, margin.top);
    // Grid first, under the data (the look's colour and width: plotStyle.ts).
    const look = plotLook();
    ctx.strokeStyle = look.grid.color;
    ctx.lineWidth = look.grid.width;
    ctx.beginPath();
    for (const y of rows) {
      const py = Math.round(y) + 0.5;
      ctx.moveTo(0, py);
      ctx.lineTo(pw, py);
    }
    for (const x of cols) {
      const px = Math.round(x) + 0.5;
      ctx.moveTo(px, 0);
      ctx.lineTo(px, ph);
    }
    ctx.stroke();
    ctx.beginPath();
    ctx.rect(0, 0, pw, ph);
    ctx.clip();
    paint();
    ctx.restore();
    ctx.strokeStyle = look.frame.color;
    ctx.lineWidth = look.frame.width;
    ctx.strokeRect(margin.left + 0.5, margin.top + 0.5, pw - 1, ph - 1);
  }

  /** The x axis along the bottom of the plot area, at `ticks` (called only when it is
   *  redrawn); the last tick carries the unit, so no separate axis title takes room. The
   *  labels are the scale's tick format, or `labels` (e.g. a logarithmic CDF axis, whose
   *  positions are exponents), named by `labels.key`. */
  protected drawXAxis(
    margin: Margin,
    { pw, ph }: PanelSize,
    ticks: () => number[],
    unit: string,
    labels?: { key: string; format: (v: number) => string },
  ): void {
    const key = `${this.x.domain().join()}|${pw}|${ph}|${labels?.key ?? ''}`;
    this.axis('xAxis', key, margin.left, margin.top + ph, () => {
      const values = ticks();
      const format = labels?.format ?? this.x.tickFormat(values.length);
      return {
        orient: 'bottom',
        scale: this.x,
        range: this.x.range(),
        values,
        format: (v, i) => `${format(v)}${i === values.length - 1 ? ` ${unit}` : ''}`,
        // The format's precision follows the tick step.
        formatKey: `${labels?.key ?? ''}${(values[1] ?? 0) - (values[0] ?? 0)}`,
      };
    });
  }

  /** The y axis along the left side of the plot area, redrawn when `key` changes. */
  protected drawYAxis(key: string, margin: Margin, spec: Omit<AxisSpec, 'orient'>): void {
    this.axis('yAxis', key, margin.left, margin.top, () => ({ orient: 'left', ...spec }));
  }

  /** An axis in SVG (crisp text at any pixel ratio), redrawn only when its key changes, and
   *  then only the ticks that changed (axis.ts). */
  private axis(which: 'xAxis' | 'yAxis', key: string, left: number, top: number, spec: () => AxisSpec): void {
    const g = this.els.svg.querySelector<SVGGElement>(which === 'xAxis' ? 'g.x-axis' : 'g.y-axis');
    // An export draws the same axes the page shows (it serialises them).
    if (key === this.last[which] || !g || this.target) return;
    this.last[which] = key;
    g.setAttribute('transform', `translate(${left},${top})`);
    renderAxis(g, spec());
  }

  /** The canvas's sentence for screen readers. While a predict-then-reveal practice runs,
   *  the plots' descriptions (which summarise the whole run) would tell what comes next:
   *  they give way to a sentence that says so. */
  protected setLabel(description: string): void {
    const label = this.store.getState().practice ? PRACTICE_LABEL : description;
    if (label === this.last.label || this.target) return;
    this.last.label = label;
    this.els.canvas.setAttribute('aria-label', label);
  }

  /** The cursor line at x value `v` (moved by transform; no repaint), or hidden. */
  protected moveCursor(at: { v: number; kind: string } | null): void {
    const { cursor } = this.els;
    if (!at || this.plotW <= 0) {
      cursor.style.display = 'none';
    } else {
      cursor.style.display = 'block';
      cursor.style.transform = `translateX(${Math.round(this.x(at.v))}px)`;
      cursor.dataset.kind = at.kind;
    }
  }

  /** Writes the readout when `key` changes: a head and a line per run, or (null) the hint. */
  protected writeReadout(key: string, read: () => { head: string; lines: readonly ReadoutLine[] } | null): void {
    if (key === this.last.readout) return;
    this.last.readout = key;
    const { readout } = this.els;
    const shown = read();
    readout.replaceChildren();
    if (!shown) {
      readout.textContent = HINT;
      readout.dataset.empty = 'true';
      return;
    }
    delete readout.dataset.empty;
    const head = document.createElement('span');
    head.className = 'readout-t';
    head.textContent = shown.head;
    readout.append(head);
    for (const line of shown.lines) {
      const el = document.createElement('span');
      el.className = 'readout-line';
      const sw = document.createElement('b');
      sw.style.color = line.color;
      sw.textContent = `${line.label} `;
      el.append(sw, line.text);
      readout.append(el);
    }
  }

  /** The x value under a pointer, within the axis. */
  protected xAt(clientX: number): number {
    const r = this.els.hit.getBoundingClientRect();
    const [d0 = 0, d1 = 1] = this.x.domain();
    return Math.min(d1, Math.max(d0, this.x.invert(clientX - r.left)));
  }

  /** Removes listeners and observers. */
  dispose(): void {
    this.disposed = true;
    cancelDraw(this);
    if (panels.get(this.els.root) === this) panels.delete(this.els.root);
    this.unsubscribe();
    this.resize?.disconnect();
    this.visibility?.disconnect();
    for (const [type, fn] of Object.entries(this.listeners))
      this.els.hit.removeEventListener(type, fn as EventListener);
  }
}
