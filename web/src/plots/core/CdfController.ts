// The imperative half of a CDF panel (cdfPlot.ts; React renders the elements, this owns
// their pixels), the value-axis sibling of PlotController: sizes the canvas, draws every
// compared run's CDF and the axes, and keeps a value cursor of its own (pointer or arrow
// keys) whose readout gives each run's share at or below that value. The x axis is a value,
// not time, so the panel is not on the shared time cursor; it follows the shared time
// window instead (the samples are those of the zoomed window).
//
//   ┌ root ──────────────────────────────────────────────┐
//   │ canvas + svg axes (whole root)                       │
//   │   ┌ hit (plot area; pointer and keyboard) ──────┐    │
//   │   │  value cursor line (moved by transform)      │    │
//   │   └──────────────────────────────────────────────┘    │
//   └──────────────────────────────────────────────────────┘
import { scaleLinear, type ScaleLinear } from 'd3';
import type { TraceStore } from '../../engine/traceStore';
import { algStyle } from '../../lib/styles';
import { algorithmLabel, type AlgorithmName } from '../../scenario/algorithms';
import { formatNumber } from '../../scenario/params';
import { durationOf } from '../../scenario/paths';
import type { AppStore } from '../../state/store';
import type { AppState } from '../../state/types';
import { CDF_KINDS, cdfRange, describeCdf, drawCdf, readCdf, tailNote, type CdfRun } from '../cdfPlot';
import { thinSamples, type ThinKind } from '../thinSamples';
import { renderAxis } from './axis';
import { linearOf } from './decimate';
import { cancelDraw, requestDraw, type Drawable } from './scheduler';
import type { PlotElements } from './PlotController';

/** What a panel shows. */
export interface CdfSpec {
  kind: ThinKind;
  /** Runs drawn (every compared algorithm). */
  keys: AlgorithmName[];
}

/** Space around the plot area, CSS px. */
export const CDF_MARGIN = { top: 16, right: 26, bottom: 24, left: 44 };

/** Space between the frame and the ends of both axes, CSS px. */
const INSET = 6;

/** Shares on the y axis. */
const Y_TICKS = [0, 0.25, 0.5, 0.75, 1];

/** Controls one CDF panel. */
export class CdfController implements Drawable {
  private cssW = 0;
  private cssH = 0;
  private dpr = 1;
  private plotW = 0;
  private dataDirty = true;
  private x: ScaleLinear<number, number> = scaleLinear();
  /** The value under the cursor (shown units), or null. */
  private value: number | null = null;
  private runsNow: CdfRun[] = [];
  private unsubscribe: () => void;
  private resize: ResizeObserver | null = null;
  private visibility: IntersectionObserver | null = null;
  private visible = true;
  private disposed = false;
  private ctx: CanvasRenderingContext2D | null = null;
  private last = { size: '', xAxis: '', yAxis: '', label: '', readout: '' };

  constructor(
    private readonly els: PlotElements,
    private spec: CdfSpec,
    private readonly store: AppStore,
    private readonly traces: TraceStore,
  ) {
    els.hit.addEventListener('pointermove', this.onPointerMove);
    els.hit.addEventListener('pointerleave', this.onPointerLeave);
    els.hit.addEventListener('click', this.onPointerMove);
    els.hit.addEventListener('keydown', this.onKey);
    this.unsubscribe = store.subscribe((s, prev) => this.stateChanged(s, prev));
    if (typeof ResizeObserver !== 'undefined') {
      this.resize = new ResizeObserver(() => this.invalidate());
      this.resize.observe(els.root);
    }
    if (typeof IntersectionObserver !== 'undefined') {
      this.visibility = new IntersectionObserver((entries) => {
        const entry = entries[entries.length - 1];
        if (entry) this.visible = entry.isIntersecting;
      });
      this.visibility.observe(els.root);
    }
    this.invalidate();
  }

  /** Replaces what is drawn (React props changed). */
  setSpec(spec: CdfSpec): void {
    this.spec = spec;
    this.invalidate();
  }

  private invalidate() {
    this.dataDirty = true;
    requestDraw(this);
  }

  private stateChanged(s: AppState, prev: AppState) {
    if (s.drawn !== prev.drawn || s.xDomain !== prev.xDomain) this.invalidate();
  }

  /** Every compared run's sorted samples of this panel's measurement. */
  private runs(s: AppState): CdfRun[] {
    const out: CdfRun[] = [];
    for (const key of this.spec.keys) {
      const trace = this.traces.get(key);
      if (!trace) continue;
      const sorted = thinSamples(trace, s.xDomain)[this.spec.kind];
      out.push({ run: { key, label: algorithmLabel(key), style: algStyle(key) }, sorted });
    }
    return out;
  }

  get inView(): boolean {
    return this.visible || !this.dataDirty;
  }

  measure(): void {
    this.cssW = this.els.root.clientWidth;
    this.cssH = this.els.root.clientHeight;
    this.dpr = Math.max(1, window.devicePixelRatio || 1);
  }

  draw(): void {
    if (this.disposed) return;
    if (this.dataDirty) {
      this.dataDirty = false;
      this.drawData();
    }
    this.drawOverlay();
  }

  private drawData() {
    const s = this.store.getState();
    const { canvas, svg, hit } = this.els;
    const W = this.cssW;
    const H = this.cssH;
    if (W <= 0 || H <= 0) return;
    const M = CDF_MARGIN;
    const pw = Math.max(10, W - M.left - M.right);
    const ph = Math.max(10, H - M.top - M.bottom);
    this.plotW = pw;
    const bw = Math.round(W * this.dpr);
    const bh = Math.round(H * this.dpr);
    const size = `${bw}x${bh}/${W}x${H}`;
    if (size !== this.last.size) {
      this.last.size = size;
      canvas.width = bw;
      canvas.height = bh;
      canvas.style.width = `${W}px`;
      canvas.style.height = `${H}px`;
      Object.assign(hit.style, { left: `${M.left}px`, top: `${M.top}px`, width: `${pw}px`, height: `${ph}px` });
      svg.setAttribute('width', String(W));
      svg.setAttribute('height', String(H));
      svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
      this.last.xAxis = '';
      this.last.yAxis = '';
    }
    const kind = this.spec.kind;
    const spec = CDF_KINDS[kind];
    const runs = this.runs(s);
    this.runsNow = runs;
    const { hi } = cdfRange(kind, runs);
    // Labels such as "1,200 ms" need room: a tick per 90 px or so.
    const xTickCount = Math.max(2, Math.floor(pw / 90));
    // A few pixels inside the frame on every side: a CDF that jumps at 0 or at the axis's
    // end, or runs along 0 % or 100 %, is not hidden under the frame. The end is rounded
    // finely (nice with twice the ticks: 1460 B → 1500, not 2000).
    this.x = scaleLinear()
      .domain([0, hi])
      .range([INSET, pw - INSET])
      .nice(2 * xTickCount);
    const y = scaleLinear()
      .domain([0, 1])
      .range([ph - INSET, INSET]);

    this.ctx ??= canvas.getContext('2d', { alpha: false });
    const ctx = this.ctx;
    if (!ctx) return;
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, W, H);
    ctx.save();
    ctx.translate(M.left, M.top);
    const xTicks = this.x.ticks(xTickCount);
    ctx.strokeStyle = '#e6e6e6';
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (const v of Y_TICKS) {
      const py = Math.round(y(v)) + 0.5;
      ctx.moveTo(0, py);
      ctx.lineTo(pw, py);
    }
    for (const v of xTicks) {
      const px = Math.round(this.x(v)) + 0.5;
      ctx.moveTo(px, 0);
      ctx.lineTo(px, ph);
    }
    ctx.stroke();
    ctx.beginPath();
    ctx.rect(0, 0, pw, ph);
    ctx.clip();
    drawCdf({ ctx, xl: linearOf(this.x), yl: linearOf(y), width: pw, height: ph, dpr: this.dpr, kind, runs });
    ctx.restore();
    ctx.strokeStyle = '#8a8a8a';
    ctx.strokeRect(M.left + 0.5, M.top + 0.5, pw - 1, ph - 1);
    // Lines that run off the right end: the longest value, above the frame (never on data).
    const note = tailNote(kind, runs, this.x.domain()[1] ?? hi);
    if (note) {
      ctx.font = '10px system-ui, sans-serif';
      ctx.fillStyle = '#444';
      ctx.textAlign = 'right';
      ctx.textBaseline = 'alphabetic';
      ctx.fillText(note, M.left + pw, M.top - 4);
    }

    const xKey = `${this.x.domain().join()}|${pw}|${ph}`;
    const xAxis = svg.querySelector<SVGGElement>('g.x-axis');
    if (xKey !== this.last.xAxis && xAxis) {
      this.last.xAxis = xKey;
      const fmt = this.x.tickFormat(xTicks.length);
      xAxis.setAttribute('transform', `translate(${M.left},${M.top + ph})`);
      // The last tick carries the unit, as on the time plots.
      renderAxis(xAxis, {
        orient: 'bottom',
        scale: this.x,
        range: this.x.range(),
        values: xTicks,
        format: (v, i) => `${fmt(v)}${i === xTicks.length - 1 ? ` ${spec.unit}` : ''}`,
        formatKey: String((xTicks[1] ?? 0) - (xTicks[0] ?? 0)),
      });
    }
    const yKey = `${ph}`;
    const yAxis = svg.querySelector<SVGGElement>('g.y-axis');
    if (yKey !== this.last.yAxis && yAxis) {
      this.last.yAxis = yKey;
      yAxis.setAttribute('transform', `translate(${M.left},${M.top})`);
      renderAxis(yAxis, {
        orient: 'left',
        scale: y,
        range: y.range(),
        values: Y_TICKS,
        format: (v) => `${Math.round(v * 100)}%`,
      });
    }
    // A run still going (playing, or computing) has samples only up to where it is.
    const duration = durationOf(s.scenario, Infinity);
    let soFar = Infinity;
    for (const key of this.spec.keys) soFar = Math.min(soFar, this.traces.get(key)?.now ?? Infinity);
    const label = describeCdf(kind, runs, s.xDomain, soFar < duration ? soFar : null);
    if (label !== this.last.label) {
      this.last.label = label;
      canvas.setAttribute('aria-label', label);
    }
    this.last.readout = '';
  }

  private drawOverlay() {
    const { cursor, readout } = this.els;
    const v = this.value;
    const [d0 = 0, d1 = 1] = this.x.domain();
    if (v === null || this.plotW <= 0) {
      cursor.style.display = 'none';
    } else {
      cursor.style.display = 'block';
      cursor.style.transform = `translateX(${Math.round(this.x(Math.min(d1, Math.max(d0, v))))}px)`;
      cursor.dataset.kind = 'pinned';
    }
    const key = v === null ? 'hint' : `${v}|${this.last.label}`;
    if (key === this.last.readout) return;
    this.last.readout = key;
    readout.replaceChildren();
    if (v === null) {
      readout.textContent = 'Hover, click or use the arrow keys for values';
      readout.dataset.empty = 'true';
      return;
    }
    delete readout.dataset.empty;
    const spec = CDF_KINDS[this.spec.kind];
    const head = document.createElement('span');
    head.className = 'readout-t';
    head.textContent = `≤ ${formatNumber(v, 4)} ${spec.unit}`;
    readout.append(head);
    for (const line of readCdf(this.spec.kind, this.runsNow, v)) {
      const el = document.createElement('span');
      el.className = 'readout-line';
      const sw = document.createElement('b');
      sw.style.color = line.color;
      sw.textContent = `${line.label} `;
      el.append(sw, line.text);
      readout.append(el);
    }
  }

  private setValue(v: number | null) {
    if (v === this.value) return;
    this.value = v;
    requestDraw(this);
  }

  private valueAt(clientX: number): number {
    const r = this.els.hit.getBoundingClientRect();
    const [d0 = 0, d1 = 1] = this.x.domain();
    return Math.min(d1, Math.max(d0, this.x.invert(clientX - r.left)));
  }

  private onPointerMove = (e: MouseEvent) => {
    this.setValue(this.valueAt(e.clientX));
  };

  private onPointerLeave = () => {
    this.setValue(null);
  };

  private onKey = (e: KeyboardEvent) => {
    const [d0 = 0, d1 = 1] = this.x.domain();
    const span = d1 - d0;
    const cur = this.value ?? d0;
    const step = span * (e.shiftKey ? 0.1 : 0.01);
    let handled = true;
    switch (e.key) {
      case 'ArrowRight':
        this.setValue(Math.min(d1, this.value === null ? d0 : cur + step));
        break;
      case 'ArrowLeft':
        this.setValue(Math.max(d0, this.value === null ? d1 : cur - step));
        break;
      case 'Home':
        this.setValue(d0);
        break;
      case 'End':
        this.setValue(d1);
        break;
      case 'Escape':
        this.setValue(null);
        break;
      default:
        handled = false;
    }
    if (handled) e.preventDefault();
  };

  /** Removes listeners and observers. */
  dispose(): void {
    this.disposed = true;
    cancelDraw(this);
    this.unsubscribe();
    this.resize?.disconnect();
    this.visibility?.disconnect();
    const hit = this.els.hit;
    hit.removeEventListener('pointermove', this.onPointerMove);
    hit.removeEventListener('pointerleave', this.onPointerLeave);
    hit.removeEventListener('click', this.onPointerMove);
    hit.removeEventListener('keydown', this.onKey);
  }
}
