// The imperative half of a CDF panel (cdfPlot.ts; React renders the elements, this owns
// their pixels), the value-axis sibling of PlotController: sizes the canvas, draws every
// compared run's CDF and the axes, and keeps a value cursor of its own (pointer or arrow
// keys) whose readout gives each run's share at or below that value. The x axis is a value,
// not time, so the panel is not on the shared time cursor; it follows the shared time
// window instead (the samples are those of the zoomed window). What it shares with
// PlotController (sizing, frame, axis caching, readout, wiring) is in panel.ts.
// With a logarithmic x axis (`cdfScale`, cdfx=log) the scale `x` maps exponents (log10 of the
// shown value) to pixels, so the cursor, the pointer and the keys work on positions along the
// axis; the cursor's value stays in shown units (10^position).
//
//   ┌ root ──────────────────────────────────────────────┐
//   │ canvas + svg axes (whole root)                       │
//   │   ┌ hit (plot area; pointer and keyboard) ──────┐    │
//   │   │  value cursor line (moved by transform)      │    │
//   │   └──────────────────────────────────────────────┘    │
//   └──────────────────────────────────────────────────────┘
import { scaleLinear } from 'd3';
import type { TraceStore } from '../../engine/traceStore';
import type { AlgorithmName } from '../../scenario/algorithms';
import { runLabel, runStyle } from '../../scenario/competition';
import { formatNumber } from '../../scenario/params';
import { durationOf } from '../../scenario/paths';
import type { AppStore } from '../../state/store';
import type { AppState } from '../../state/types';
import {
  CDF_KINDS,
  cdfLogAxis,
  cdfRange,
  describeCdf,
  drawCdf,
  logAxisText,
  logPosition,
  logTickLabel,
  logTicks,
  readCdf,
  startNote,
  tailNote,
  type CdfKind,
  type CdfRun,
} from '../cdfPlot';
import { thinSamples } from '../thinSamples';
import { sortedTimes, transfersOf } from '../transferSamples';
import { linearOf } from './decimate';
import { Panel, type PlotElements } from './panel';
import { requestDraw } from './scheduler';
import { canvasFont } from './plotStyle';

/** What a panel shows. */
export interface CdfSpec {
  kind: CdfKind;
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
export class CdfController extends Panel<CdfSpec> {
  /** The value under the cursor (shown units), or null. */
  private value: number | null = null;
  private runsNow: CdfRun[] = [];
  /** Shown value ↔ position on the x axis (the identity on a linear axis; log10 and 10^x on
   *  a logarithmic one). */
  private toPos: (v: number) => number = (v) => v;
  private fromPos: (p: number) => number = (p) => p;

  constructor(els: PlotElements, spec: CdfSpec, store: AppStore, traces: TraceStore) {
    super(els, spec, store, traces);
    this.listen({
      pointermove: this.onPointerMove,
      pointerleave: this.onPointerLeave,
      click: this.onPointerMove,
      keydown: this.onKey,
    });
  }

  protected stateChanged(s: AppState, prev: AppState) {
    if (s.drawn !== prev.drawn || s.xDomain !== prev.xDomain || s.cdfScale !== prev.cdfScale) this.invalidate();
    // The transfers' completion times come with the runs' summaries.
    else if (this.spec.kind === 'transfer' && s.runs !== prev.runs) this.invalidate();
  }

  /** The time window the samples are taken over: the zoomed one for the thin-stream
   *  measurements; the whole run (so far) for the transfers, which the summary gives. */
  private window(s: AppState) {
    return this.spec.kind === 'transfer' ? null : s.xDomain;
  }

  /** Every compared run's sorted samples of this panel's measurement. */
  private runs(s: AppState): CdfRun[] {
    const out: CdfRun[] = [];
    const kind = this.spec.kind;
    for (const key of this.spec.keys) {
      const trace = this.traces.get(key);
      if (!trace) continue;
      const sorted = kind === 'transfer' ? sortedTimes(transfersOf(s, key)) : thinSamples(trace, s.xDomain)[kind];
      // An algorithm of a comparison, or a flow of a competition.
      out.push({ run: { key, label: runLabel(s.scenario, key), style: runStyle(key) }, sorted });
    }
    return out;
  }

  protected drawData(): void {
    const s = this.store.getState();
    const M = CDF_MARGIN;
    const size = this.layout(M);
    if (!size) return;
    const { pw, ph } = size;
    const kind = this.spec.kind;
    const spec = CDF_KINDS[kind];
    const runs = this.runs(s);
    this.runsNow = runs;
    const log = s.cdfScale === 'log' ? cdfLogAxis(kind, runs) : null;
    let xTicks: number[];
    let note: string | null;
    if (log) {
      // Positions are exponents (log10 of the shown value), from the axis start to its end.
      this.x = scaleLinear()
        .domain([log.lo, log.hi])
        .range([INSET, pw - INSET]);
      this.toPos = logPosition(log.start);
      this.fromPos = (p) => 10 ** p;
      xTicks = logTicks(log.lo, log.hi, pw - 2 * INSET);
      // Values drawn at the start (zeros): said above the frame, at the left.
      note = startNote(kind, log);
    } else {
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
      this.toPos = (v) => v;
      this.fromPos = (p) => p;
      xTicks = this.x.ticks(xTickCount);
      // Lines that run off the right end: the longest value, above the frame (never on data).
      note = tailNote(kind, runs, this.x.domain()[1] ?? hi);
    }
    const y = scaleLinear()
      .domain([0, 1])
      .range([ph - INSET, INSET]);

    const ctx = this.background(size);
    if (!ctx) return;
    const axis = this.toPos;
    this.plotArea(
      ctx,
      M,
      size,
      Y_TICKS.map((v) => y(v)),
      xTicks.map((v) => this.x(v)),
      () =>
        drawCdf({ ctx, xl: linearOf(this.x), yl: linearOf(y), width: pw, height: ph, dpr: this.dpr, kind, runs, axis }),
    );
    if (note) {
      ctx.font = canvasFont(10);
      ctx.fillStyle = '#444';
      ctx.textAlign = log ? 'left' : 'right';
      ctx.textBaseline = 'alphabetic';
      ctx.fillText(note, log ? M.left : M.left + pw, M.top - 4);
    }

    this.drawXAxis(M, size, () => xTicks, spec.unit, log ? { key: 'log', format: logTickLabel } : undefined);
    this.drawYAxis(`${ph}`, M, {
      scale: y,
      range: y.range(),
      values: Y_TICKS,
      format: (v) => `${Math.round(v * 100)}%`,
    });
    // A run still going (playing, or computing) has samples only up to where it is.
    const duration = durationOf(s.scenario, Infinity);
    let soFar = Infinity;
    for (const key of this.spec.keys) soFar = Math.min(soFar, this.traces.get(key)?.now ?? Infinity);
    if (this.exporting) return;
    this.setLabel(
      describeCdf(kind, runs, this.window(s), soFar < duration ? soFar : null, log ? logAxisText(kind, log) : ''),
    );
    this.last.readout = '';
  }

  protected drawOverlay(): void {
    const v = this.value;
    const [d0 = 0, d1 = 1] = this.x.domain();
    this.moveCursor(v === null ? null : { v: Math.min(d1, Math.max(d0, this.toPos(v))), kind: 'pinned' });
    this.writeReadout(v === null ? 'hint' : `${v}|${this.last.label}`, () =>
      v === null
        ? null
        : {
            head: `≤ ${formatNumber(v, 4)} ${CDF_KINDS[this.spec.kind].unit}`,
            lines: readCdf(this.spec.kind, this.runsNow, v),
          },
    );
  }

  private setValue(v: number | null) {
    if (v === this.value) return;
    this.value = v;
    requestDraw(this);
  }

  private onPointerMove = (e: MouseEvent) => {
    this.setValue(this.fromPos(this.xAt(e.clientX)));
  };

  private onPointerLeave = () => {
    this.setValue(null);
  };

  private onKey = (e: KeyboardEvent) => {
    // Steps are along the axis: on a logarithmic one, by a constant factor.
    const [d0 = 0, d1 = 1] = this.x.domain();
    const span = d1 - d0;
    const cur = this.value === null ? d0 : this.toPos(this.value);
    const step = span * (e.shiftKey ? 0.1 : 0.01);
    const at = (p: number) => this.setValue(this.fromPos(p));
    let handled = true;
    switch (e.key) {
      case 'ArrowRight':
        at(Math.min(d1, this.value === null ? d0 : cur + step));
        break;
      case 'ArrowLeft':
        at(Math.max(d0, this.value === null ? d1 : cur - step));
        break;
      case 'Home':
        at(d0);
        break;
      case 'End':
        at(d1);
        break;
      case 'Escape':
        this.setValue(null);
        break;
      default:
        handled = false;
    }
    if (handled) e.preventDefault();
  };
}
