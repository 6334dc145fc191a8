// The whole run in miniature with a brush: drag across it to zoom every plot to that time
// window, drag the window to pan, click outside it to show the whole run again (focus +
// context). The brush and the plots' zoom share the store's xDomain.
import { useEffect, useRef } from 'react';
import { scaleLinear, type BrushBehavior, type D3BrushEvent } from 'd3';
import { useApp } from '../app/AppContext';
import { visibleRange } from '../engine/lookup';
import type { TraceStore } from '../engine/traceStore';
import { flowIndexOf, runStyle } from '../scenario/competition';
import { zoomWindow } from '../lib/timeWindow';
import { durationOf, mssOf } from '../scenario/paths';
import type { AppStore } from '../state/store';
import { linearOf, mapLinear } from './core/decimate';
import { cachedLine } from './core/lineCache';
import { withInteraction, type Interaction } from './core/loadInteraction';
import { cancelDraw, requestDraw, type Drawable } from './core/scheduler';
import { strokePolyline } from './layers';

const PAD_X = 50;
const PAD_R = 14;

class OverviewController implements Drawable {
  private w = 0;
  private h = 0;
  private dpr = 1;
  /** d3-brush, once the interactions are loaded (core/loadInteraction.ts). */
  private brush: BrushBehavior<unknown> | null = null;
  private d3i: Interaction | null = null;
  private disposed = false;
  private unsubscribe: () => void;
  private resize: ResizeObserver | null = null;

  constructor(
    private root: HTMLElement,
    private canvas: HTMLCanvasElement,
    private g: SVGGElement,
    private store: AppStore,
    private traces: TraceStore,
  ) {
    withInteraction(
      (d3i) => this.installBrush(d3i),
      () => !this.disposed,
    );
    this.unsubscribe = store.subscribe((s, prev) => {
      if (s.xDomain !== prev.xDomain || s.drawn !== prev.drawn || s.hidden !== prev.hidden) {
        requestDraw(this);
      }
    });
    if (typeof ResizeObserver !== 'undefined') {
      this.resize = new ResizeObserver(() => requestDraw(this));
      this.resize.observe(root);
    }
    requestDraw(this);
  }

  private duration(): number {
    return durationOf(this.store.getState().scenario, 1);
  }

  /** The brush, once loaded: set up at the next draw (its extent, then the window shown). */
  private installBrush(d3i: Interaction) {
    this.d3i = d3i;
    this.brush = d3i.brushX<unknown>().on('brush end', (event: D3BrushEvent<unknown>) => {
      if (!event.sourceEvent) return; // moved by code, not by a person
      const s = this.store.getState();
      const sel = event.selection as [number, number] | null;
      if (!sel || sel[1] - sel[0] < 2) {
        if (event.type === 'end') s.setXDomain(null);
        return;
      }
      const x = this.scale();
      s.setXDomain([Math.max(0, x.invert(sel[0])), Math.min(this.duration(), x.invert(sel[1]))]);
    });
    this.brushSized = '';
    this.brushKey = '';
    requestDraw(this);
  }

  private scale() {
    return scaleLinear()
      .domain([0, this.duration()])
      .range([0, Math.max(10, this.w - PAD_X - PAD_R)]);
  }

  measure(): void {
    this.w = this.root.clientWidth;
    this.h = this.root.clientHeight;
    this.dpr = Math.max(1, window.devicePixelRatio || 1);
  }

  /** What the canvas was last sized to and drew: a brush move redraws neither. */
  private sizeKey = '';
  private dataKey = '';
  private brushKey = '';
  /** The size the brush's extent was last set for. */
  private brushSized = '';

  draw(): void {
    const { w, h, dpr } = this;
    if (w <= 0 || h <= 0) return;
    const s = this.store.getState();
    const x = this.scale();
    const pw = x.range()[1] ?? 10;
    const bw = Math.round(w * dpr);
    const bh = Math.round(h * dpr);
    const sizeKey = `${bw}x${bh}/${w}x${h}`;
    if (sizeKey !== this.sizeKey) {
      this.sizeKey = sizeKey;
      this.dataKey = '';
      this.canvas.width = bw;
      this.canvas.height = bh;
      this.canvas.style.width = `${w}px`;
      this.canvas.style.height = `${h}px`;
    }
    const { brush, d3i } = this;
    if (brush && d3i && sizeKey !== this.brushSized) {
      this.brushSized = sizeKey;
      brush.extent([
        [0, 0],
        [pw, h],
      ]);
      d3i.select(this.g).attr('transform', `translate(${PAD_X},0)`).call(brush);
    }
    const mss = mssOf(s.scenario);
    const dataKey = `${s.drawn}|${s.keys.join()}|${s.hidden.join()}|${this.duration()}|${mss}`;
    const ctx = dataKey === this.dataKey ? null : this.canvas.getContext('2d');
    if (ctx) {
      this.dataKey = dataKey;
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.fillStyle = '#f7f7f7';
      ctx.fillRect(0, 0, w, h);
      ctx.save();
      ctx.translate(PAD_X, 2);
      const xl = linearOf(x);
      // Each run's whole cwnd line, decimated and cached with its trace: a live frame visits
      // only the new rows, and the y range comes from the kept extremes.
      const shown = s.mode === 'compete' ? s.keys.filter((k) => !s.hidden.includes(flowIndexOf(k) ?? -1)) : s.keys;
      const lines = shown.flatMap((a) => {
        const trace = this.traces.get(a);
        if (!trace) return [];
        const tr = trace.tables.series;
        const [i0, i1] = visibleRange(tr.cols.t, tr.length, 0, this.duration());
        return [{ a, trace, d: cachedLine(trace, 'series.cwnd', tr.cols.t, tr.cols.cwnd, i0, i1, xl, dpr, pw, true) }];
      });
      const hi = Math.max(1, ...lines.map(({ d }) => d.max() / mss));
      const yl = linearOf(
        scaleLinear()
          .domain([0, hi])
          .range([h - 4, 0]),
      );
      for (const { a, trace, d } of lines) {
        ctx.strokeStyle = runStyle(a).color;
        ctx.lineWidth = 1;
        strokePolyline(
          ctx,
          d.polyline((v) => mapLinear(yl, v / mss), xl, trace.now),
        );
      }
      ctx.restore();
    }
    const dom = s.xDomain;
    const selection: [number, number] | null = dom ? [x(dom[0]), x(dom[1])] : null;
    const brushKey = `${sizeKey}|${selection?.join() ?? ''}`;
    if (brush && d3i && brushKey !== this.brushKey) {
      this.brushKey = brushKey;
      // A programmatic move: no sourceEvent, so the handler above ignores it.
      brush.move(d3i.select(this.g), selection);
    }
  }

  dispose() {
    cancelDraw(this);
    this.unsubscribe();
    this.resize?.disconnect();
    this.disposed = true;
    this.d3i?.select(this.g).on('.brush', null);
  }
}

/** The overview strip with its brush, and buttons that zoom by keyboard. */
export function Overview() {
  const { store, traces } = useApp();
  const root = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const svg = useRef<SVGSVGElement>(null);
  const g = useRef<SVGGElement>(null);

  useEffect(() => {
    if (!root.current || !canvas.current || !g.current) return;
    const c = new OverviewController(root.current, canvas.current, g.current, store, traces);
    return () => c.dispose();
  }, [store, traces]);

  // No minimum span here (unlike the plots' keyboard zoom).
  const zoom = (factor: number) => {
    const s = store.getState();
    s.setXDomain(zoomWindow(s.xDomain, durationOf(s.scenario, 1), factor, s.cursor, 0));
  };

  return (
    <div className="overview">
      <div className="overview-strip" ref={root}>
        <canvas ref={canvas} aria-hidden="true" />
        <svg
          ref={svg}
          className="overview-brush"
          role="img"
          aria-label="Whole run: drag to choose the time window shown"
        >
          <g ref={g} />
        </svg>
      </div>
      <div className="zoom-buttons" role="group" aria-label="Time zoom">
        <button type="button" onClick={() => zoom(2)} aria-label="Zoom in (time)">
          +
        </button>
        <button type="button" onClick={() => zoom(0.5)} aria-label="Zoom out (time)">
          −
        </button>
        <button type="button" onClick={() => store.getState().setXDomain(null)}>
          Whole run
        </button>
      </div>
    </div>
  );
}
