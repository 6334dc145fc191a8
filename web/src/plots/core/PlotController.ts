// The imperative half of a plot (React renders the elements, this owns their pixels):
// computes the time scales, draws the data layers on canvas and the axes in SVG, interprets
// gestures into the store's shared time window, and moves the cursor overlay. The canvas
// sizing, frame, axis caching, readout and wiring are shared with CdfController (panel.ts).
//
//   ┌ root (position: relative, size from CSS) ─────────────────────┐
//   │ canvas: whole root, device pixels   svg: axes, same box       │
//   │   ┌ hit (plot area; pointer, keyboard and zoom target) ─┐     │
//   │   │  cursor line (moved by transform; no repaint)       │     │
//   │   └─────────────────────────────────────────────────────┘     │
//   └───────────────────────────────────────────────────────────────┘
//
// The store's xDomain is the one truth for the time window: gestures write it, and every
// plot (this one included) redraws from it. Zoom events the code itself causes carry no
// sourceEvent and are ignored, so linked plots never echo each other (d3/d3-zoom#40).
import { scaleLinear, type D3ZoomEvent, type ScaleLinear, type Selection, type ZoomBehavior } from 'd3';
import type { AlgorithmName } from '../../scenario/algorithms';
import { flowIndexOf, runLabel, runStyle } from '../../scenario/competition';
import { durationOf } from '../../scenario/paths';
import { sameDomain, zoomWindow } from '../../lib/timeWindow';
import { withInteraction, type Interaction } from './loadInteraction';
import type { TraceStore } from '../../engine/traceStore';
import { summaryShown } from '../../state/selectors';
import type { AppStore } from '../../state/store';
import type { AppState } from '../../state/types';
import { linearOf } from './decimate';
import { DrawnAheadCache, jsonOf, type DrawKey } from './drawnAhead';
import { Panel, type PanelSize, type PlotElements } from './panel';
import { NORMAL_LOOK, plotLook, plotMargin } from './plotStyle';
import {
  currentWorlds,
  prerenderStale,
  prerenderUsed,
  registerPrerender,
  unregisterPrerender,
  type Prerenderable,
  type World,
} from './prerender';
import { requestDraw } from './scheduler';
import type { PlotContext, PlotDef, PlotRun } from './types';

/** What to draw. */
export interface PlotSpec {
  def: PlotDef;
  /** Runs drawn here. */
  keys: AlgorithmName[];
  /** Runs whose data sets the y range (all compared runs, so small multiples share y). */
  extentKeys: AlgorithmName[];
  /** Short name for the keyboard help ("congestion window"). */
  name: string;
}

/** Space around the plot area for axes, CSS px (the normal look's; projector mode has
 *  more: plotMargin()). */
export const MARGIN = NORMAL_LOOK.margin;

/** Smallest time window a zoom may show, s. */
const MIN_SPAN_S = 1e-4;

/**
 * y ranges already computed for this data and window: small multiples share one range over
 * every run, so the first plot computes it and the others reuse it.
 */
const extentMemo = new WeakMap<object, Map<string, [number, number]>>();

type ZoomEvent = D3ZoomEvent<HTMLElement, unknown>;

/** What a draw made ahead computed besides pixels. */
interface AheadOut {
  extent: [number, number];
  description: string;
}

/** Controls one plot. */
export class PlotController extends Panel<PlotSpec> implements Prerenderable {
  private xFull: ScaleLinear<number, number> = scaleLinear();
  /** d3-zoom on the hit area, once the interactions are loaded (core/loadInteraction.ts). */
  private zoomer: ZoomBehavior<HTMLElement, unknown> | null = null;
  private hitSel: Selection<HTMLElement, unknown, null, undefined> | null = null;
  private d3i: Interaction | null = null;
  /** The first divergence of the compared runs this plot shows (a labelled dashed line). */
  private marker: HTMLElement;
  /** Plots of comparisons computed ahead, drawn in background tasks (prerender.ts). */
  private ahead = new DrawnAheadCache();
  /** What the draw being made ahead computed besides pixels. */
  private aheadOut: AheadOut | null = null;

  constructor(els: PlotElements, spec: PlotSpec, store: AppStore, traces: TraceStore) {
    super(els, spec, store, traces);
    this.marker = document.createElement('div');
    this.marker.className = 'divergence-line';
    this.marker.innerHTML = '<span>first divergence</span>';
    this.marker.style.display = 'none';
    els.hit.appendChild(this.marker);
    withInteraction(
      (d3i) => this.installZoom(d3i),
      () => !this.isDisposed,
    );
    registerPrerender(this);
    this.listen({
      pointermove: this.onPointerMove,
      pointerleave: this.onPointerLeave,
      click: this.onClick,
      dblclick: this.onDblClick,
      keydown: this.onKey,
    });
  }

  protected stateChanged(s: AppState, prev: AppState) {
    // New results redraw when the controller says they are complete (`drawn`), not per
    // arriving run: one frame per comparison.
    const dataChanged =
      s.drawn !== prev.drawn ||
      s.xDomain !== prev.xDomain ||
      s.series !== prev.series ||
      s.layout !== prev.layout ||
      s.throughputBin !== prev.throughputBin ||
      s.throughputColumn !== prev.throughputColumn ||
      s.unit !== prev.unit ||
      s.theory !== prev.theory;
    if (dataChanged) {
      this.invalidate();
    } else if (
      s.cursor !== prev.cursor ||
      s.hover !== prev.hover ||
      s.time !== prev.time ||
      s.live !== prev.live ||
      s.divergence !== prev.divergence
    ) {
      requestDraw(this);
    }
  }

  private runs(keys: AlgorithmName[], s = this.drawState(), traces = this.drawTraces()): PlotRun[] {
    const out: PlotRun[] = [];
    for (const key of keys) {
      const trace = traces.get(key);
      // While a run computes, its previous result stays on screen (trace and summary alike).
      const summary = summaryShown(s.runs[key]);
      const flow = flowIndexOf(key);
      if (trace) {
        out.push({
          key,
          label: runLabel(s.scenario, key),
          style: runStyle(key),
          trace,
          summary,
          flow: flow ?? 0,
        });
      }
    }
    return out;
  }

  private context(s: AppState): PlotContext {
    const [d0 = 0, d1 = 0] = this.x.domain();
    const pxTime = this.plotW > 0 ? (d1 - d0) / this.plotW : 0;
    return {
      scenario: s.scenario,
      series: s.series,
      overlay: this.spec.keys.length > 1,
      competition: s.mode === 'compete',
      pxTime,
      throughputBin: s.throughputBin,
      throughputColumn: s.throughputColumn,
      unit: s.unit,
      theory: s.theory,
    };
  }

  /** The cursor on the previous or next marked event of this plot's runs (keyboard). */
  private stepToEvent(s: AppState, cur: number, dir: 1 | -1): void {
    const times = this.spec.def.eventTimes?.(this.runs(this.spec.keys)) ?? [];
    // A hair beyond the cursor, so a cursor on an event moves on to the next one.
    const eps = 1e-9 * Math.max(1, Math.abs(cur));
    let next: number | undefined;
    for (const t of times) {
      if (dir > 0 && t > cur + eps && (next === undefined || t < next)) next = t;
      if (dir < 0 && t < cur - eps && (next === undefined || t > next)) next = t;
    }
    if (next !== undefined) s.setCursor(next);
  }

  private duration(s: AppState): number {
    return durationOf(s.scenario, 1);
  }

  protected drawData(): void {
    const t0 = performance.now();
    this.drawPlot();
    // Read by the benchmark page: how long this plot's last data draw took.
    if (!this.exporting) this.els.root.dataset.drawMs = (performance.now() - t0).toFixed(2);
  }

  private drawPlot() {
    const s = this.drawState();
    const margin = plotMargin();
    const { yTickPx, xTickPx } = plotLook();
    const size = this.layout(margin);
    if (!size) return;
    const { pw, ph } = size;

    const duration = this.duration(s);
    const dom = s.xDomain ?? [0, duration];
    this.x = scaleLinear().domain(dom).range([0, pw]);
    // (A draw made ahead leaves the gestures' scales alone: the page still shows its own.)
    if (!this.drawingAhead) {
      this.xFull = scaleLinear().domain([0, duration]).range([0, pw]);
      this.syncZoom(pw, ph, duration);
    }

    const def = this.spec.def;
    const context = this.context(s);
    const runs = this.runs(this.spec.keys);
    const extentRuns = this.runs(this.spec.extentKeys);
    const memoKey = `${this.spec.name}|${this.spec.extentKeys.join()}|${s.drawn}|${dom.join()}|${JSON.stringify(s.series)}|${s.throughputBin}|${s.throughputColumn}|${s.unit}|${s.theory}|${extentRuns.map((r) => r.trace.version).join()}`;
    let memo = extentMemo.get(s.scenario);
    if (!memo) {
      memo = new Map();
      extentMemo.set(s.scenario, memo);
    }
    // A plot drawn ahead for exactly what this draw reads is copied, not drawn again.
    // (A draw made ahead has its key from `prerender`, which computed it before drawing.)
    const live = !this.drawingAhead && !this.exporting;
    const drawKey = live && this.ahead.count > 0 ? this.drawKey(s, size, dom, runs, extentRuns) : null;
    let drawn = drawKey ? this.ahead.match(drawKey) : undefined;
    let extent = drawn?.extent ?? memo.get(memoKey);
    if (!extent) {
      extent = def.yExtent(extentRuns, dom[0] ?? 0, dom[1] ?? duration, context);
      if (memo.size > 64) memo.clear();
      memo.set(memoKey, extent);
    }
    const [lo, hi] = extent;
    const top = hi > lo ? hi + (hi - lo) * 0.06 : lo + 1;
    const y = scaleLinear()
      .domain([lo, top])
      .range([ph, 0])
      .nice(Math.max(2, Math.round(ph / yTickPx)));

    const yTicks = y.ticks(Math.max(2, Math.round(ph / yTickPx)));
    if (drawn && this.blit(drawn.bitmap)) {
      prerenderUsed();
      this.els.root.dataset.drawnAhead = 'true';
    } else {
      const ctx = this.background(size);
      if (!ctx) return;
      drawn = undefined;
      if (!this.exporting) delete this.els.root.dataset.drawnAhead;
      this.plotArea(
        ctx,
        margin,
        size,
        yTicks.map((v) => y(v)),
        [],
        () =>
          def.draw({
            ctx,
            x: this.x,
            y,
            xl: linearOf(this.x),
            yl: linearOf(y),
            width: pw,
            height: ph,
            dpr: this.dpr,
            t0: dom[0] ?? 0,
            t1: dom[1] ?? duration,
            runs,
            context,
          }),
      );
    }
    const description = drawn?.description ?? def.describe(runs, context);
    if (this.drawingAhead) {
      this.aheadOut = { extent, description };
      return;
    }
    // Time ticks, about one per 80 px (130 in projector mode).
    this.drawXAxis(margin, size, () => this.x.ticks(Math.max(2, Math.floor(pw / xTickPx))), 's');
    this.drawYAxis(`${y.domain().join()}|${ph}|${yTicks.join()}`, margin, {
      scale: y,
      range: y.range(),
      values: yTicks,
      format: (v) => def.yTick(v),
    });
    this.setLabel(description);
    if (!this.exporting) {
      // Bitmaps of worlds no longer drawn ahead served their step (or none): let go of after
      // this frame (freeing them is not the frame's work). The view may have changed (a
      // zoom, a resize): what is drawn ahead is looked at again.
      if (this.ahead.count > 0) setTimeout(() => this.ahead.drop(currentWorlds()), 0);
      prerenderStale();
    }
  }

  /** What a data draw of `s` reads, spelled out (null: not drawn ahead, e.g. a run still
   *  arriving in several chunks, or the theory lines, which wait for the full engine). */
  private drawKey(s: AppState, size: PanelSize, dom: number[], runs: PlotRun[], extentRuns: PlotRun[]): DrawKey | null {
    if (s.theory) return null;
    const sources: unknown[] = [];
    for (const r of [...runs, ...extentRuns]) {
      if (!r.trace.source) return null;
      sources.push(r.trace.source, r.summary);
    }
    const key = [
      `${size.W}x${size.H}/${size.pw}x${size.ph}@${this.dpr}`,
      s.projector,
      dom.join(),
      JSON.stringify(s.series),
      s.throughputBin,
      s.throughputColumn,
      s.unit,
      s.mode,
      runs.map((r) => r.key).join(),
      extentRuns.map((r) => r.key).join(),
      jsonOf(s.scenario),
    ].join('|');
    return { key, spec: this.spec, sources };
  }

  get prerenderedCount(): number {
    return this.ahead.count;
  }

  get prerenderedBytes(): number {
    return this.ahead.bytes;
  }

  prerender(world: World): number | null {
    const state = { ...this.store.getState(), ...world.patch };
    const size = this.sizeOf(plotMargin());
    if (!size) return null;
    const dom = state.xDomain ?? [0, this.duration(state)];
    const want = this.drawKey(
      state,
      size,
      dom,
      this.runs(this.spec.keys, state, world.traces),
      this.runs(this.spec.extentKeys, state, world.traces),
    );
    if (!want) return null;
    if (this.ahead.holds(world, want)) return 0;
    this.aheadOut = null;
    const bitmap = this.drawAhead(state, world.traces);
    const out = this.aheadOut as AheadOut | null;
    this.aheadOut = null;
    if (!bitmap || !out) {
      bitmap?.close();
      return null;
    }
    this.ahead.set(world, { drawKey: want, bitmap, extent: out.extent, description: out.description });
    return bitmap.width * bitmap.height * 4;
  }

  dropPrerendered(keep: ReadonlySet<World>): void {
    // A data draw still to come may copy one (it lets go of the rest when it has drawn).
    if (!this.dataPending) this.ahead.drop(keep);
  }

  /** Wheel, drag and pinch through d3-zoom, once it is loaded; then lined up with the window
   *  the plot shows. */
  private installZoom(d3i: Interaction) {
    this.d3i = d3i;
    this.hitSel = d3i.select(this.els.hit);
    this.zoomer = d3i
      .zoom<HTMLElement, unknown>()
      // Plain wheel scrolls the page (a lab page is a long stack of plots); Ctrl/⌘+wheel
      // zooms. Mouse drag pans. On touch screens only a two-finger pinch is taken, so one
      // finger still scrolls the page.
      .filter((event: Event) => {
        if (event.type === 'wheel') return (event as WheelEvent).ctrlKey || (event as WheelEvent).metaKey;
        if (event.type.startsWith('touch')) return (event as TouchEvent).touches.length >= 2;
        return (event as MouseEvent).button === 0;
      })
      .on('zoom', (event: ZoomEvent) => this.zoomed(event));
    this.hitSel.call(this.zoomer).on('dblclick.zoom', null);
    if (this.plotW > 0) this.syncZoom(this.plotW, this.plotH, this.duration(this.store.getState()));
  }

  /** Puts d3-zoom's stored transform in line with the store's window (no events). */
  private syncZoom(pw: number, ph: number, duration: number) {
    const d3i = this.d3i;
    if (!this.zoomer || !d3i) return;
    this.zoomer
      .extent([
        [0, 0],
        [pw, ph],
      ])
      .translateExtent([
        [0, 0],
        [pw, ph],
      ])
      .scaleExtent([1, Math.max(1, duration / MIN_SPAN_S)]);
    const dom = this.x.domain();
    const current = d3i.zoomTransform(this.els.hit).rescaleX(this.xFull).domain();
    // Within a billionth of the window: rescaleX's rounding is not a change.
    const tol = 1e-9 * (Math.abs((dom[1] ?? 0) - (dom[0] ?? 0)) || 1);
    if (sameDomain(current, dom, tol)) return;
    const k = duration / Math.max(1e-12, (dom[1] ?? duration) - (dom[0] ?? 0));
    const t = d3i.zoomIdentity.translate(-k * this.xFull(dom[0] ?? 0), 0).scale(k);
    // Assigning the transform the way d3-zoom stores it avoids emitting zoom events.
    (this.els.hit as HTMLElement & { __zoom: typeof t }).__zoom = t;
  }

  private zoomed(event: ZoomEvent) {
    if (!event.sourceEvent) return; // caused by code, not by a person
    const s = this.store.getState();
    const duration = this.duration(s);
    const dom = event.transform.rescaleX(this.xFull).domain();
    const a = Math.max(0, dom[0] ?? 0);
    const b = Math.min(duration, dom[1] ?? duration);
    s.setXDomain(event.transform.k <= 1.000001 ? null : [a, b]);
  }

  private onPointerMove = (e: PointerEvent) => {
    if (e.buttons !== 0 && e.pointerType === 'mouse') return; // panning
    this.store.getState().setHover(this.xAt(e.clientX));
  };

  private onPointerLeave = () => {
    this.store.getState().setHover(null);
  };

  private onClick = (e: MouseEvent) => {
    // A click explains the decision it lands on: within 6 px of one, that one (a mark), else
    // the one in force there (a point of a line). The plot of one run says which run.
    const [d0 = 0, d1 = 0] = this.x.domain();
    const tol = this.plotW > 0 ? (6 * (d1 - d0)) / this.plotW : 0;
    const key = this.spec.keys.length === 1 ? (this.spec.keys[0] ?? null) : null;
    this.store.getState().pickAt(this.xAt(e.clientX), tol, key, e.clientY, this.spec.def.explains);
  };

  private onDblClick = () => {
    this.store.getState().setXDomain(null);
  };

  private zoomBy(factor: number, around: number | null) {
    const s = this.store.getState();
    s.setXDomain(zoomWindow(s.xDomain, this.duration(s), factor, around, MIN_SPAN_S));
  }

  private onKey = (e: KeyboardEvent) => {
    const s = this.store.getState();
    const duration = this.duration(s);
    const [d0 = 0, d1 = duration] = s.xDomain ?? [0, duration];
    const span = d1 - d0;
    const cur = s.cursor ?? (d0 + d1) / 2;
    const step = span * (e.shiftKey ? 0.1 : 0.01);
    let handled = true;
    switch (e.key) {
      case 'ArrowRight':
        s.setCursor(Math.min(duration, cur + step));
        break;
      case 'ArrowLeft':
        s.setCursor(Math.max(0, cur - step));
        break;
      case 'Home':
        s.setCursor(d0);
        break;
      case 'End':
        s.setCursor(d1);
        break;
      case '+':
      case '=':
        this.zoomBy(2, s.cursor);
        break;
      case '-':
      case '_':
        this.zoomBy(0.5, s.cursor);
        break;
      case '0':
        s.setXDomain(null);
        break;
      case 'Escape':
        s.setCursor(null);
        break;
      case ']':
        this.stepToEvent(s, s.cursor ?? d0 - 1e-6, 1);
        break;
      case '[':
        this.stepToEvent(s, s.cursor ?? d1 + 1e-6, -1);
        break;
      default:
        handled = false;
    }
    if (handled) e.preventDefault();
  };

  /** The instant the readouts show: hover, else the pinned cursor, else the play head. */
  private shownTime(s: AppState): { t: number; kind: 'hover' | 'pinned' | 'play' } | null {
    if (s.hover !== null) return { t: s.hover, kind: 'hover' };
    if (s.cursor !== null) return { t: s.cursor, kind: 'pinned' };
    if (s.live) return { t: s.time, kind: 'play' };
    return null;
  }

  protected drawOverlay(): void {
    const s = this.store.getState();
    const shown = this.shownTime(s);
    const [d0 = 0, d1 = 0] = this.x.domain();
    this.moveCursor(!shown || shown.t < d0 || shown.t > d1 ? null : { v: shown.t, kind: shown.kind });
    // The divergence of the pair compared, on the plots that show either run.
    const div = s.divergence?.status === 'done' ? s.divergence : null;
    const dt = div?.result?.t;
    const mine = div !== null && this.spec.keys.some((k) => div.pair.includes(k));
    if (dt !== undefined && mine && dt >= d0 && dt <= d1) {
      this.marker.style.display = 'block';
      this.marker.style.transform = `translateX(${Math.round(this.x(dt))}px)`;
      this.marker.dataset.t = String(dt);
    } else {
      this.marker.style.display = 'none';
    }
    // Without a cursor the readout is a fixed hint: new data does not touch it.
    const key = shown
      ? `${shown.t}|${s.drawn}|${this.spec.keys.join()}|${s.throughputBin}|${s.throughputColumn}|${s.unit}`
      : 'hint';
    this.writeReadout(key, () =>
      shown
        ? {
            head: `t = ${shown.t.toFixed(3)} s`,
            lines: this.spec.def.readout(this.runs(this.spec.keys), shown.t, this.context(s)),
          }
        : null,
    );
  }

  /** Removes listeners, observers and the zoom behaviour. */
  override dispose(): void {
    super.dispose();
    unregisterPrerender(this);
    this.ahead.drop(new Set());
    this.hitSel?.on('.zoom', null);
  }
}
