// The rounds view's panel: x is the round number (1, 2, 3, …), not time, but it sits on the
// shared time cursor. The cursor's instant (hover, pinned, or the play head) maps to the
// round containing it in each run, which is highlighted and read out; hovering a round
// moves the hover cursor to the round's start, a click pins it there, and the arrow keys
// step from round to round. The shared time window (zoom) picks the rounds shown: those
// overlapping it.
import { scaleLinear } from 'd3';
import { runLabel, runStyle } from '../../scenario/competition';
import type { AppState } from '../../state/types';
import type { AlgorithmName } from '../../scenario/algorithms';
import { Panel, type PlotElements } from './panel';
import { plotLook, plotMargin } from './plotStyle';
import { requestDraw } from './scheduler';
import type { AppStore } from '../../state/store';
import type { TraceStore } from '../../engine/traceStore';
import type { ReadoutLine } from './types';
import {
  drawRounds,
  lastStartingBy,
  roundIndexAt,
  roundsDescribe,
  roundsLaneHeight,
  roundsMax,
  roundsReadout,
  roundStart,
  roundsWithin,
  type RoundsRun,
} from '../roundsPlot';
import { formatNumber } from '../../scenario/params';
import { textbookLabel } from '../../textbook/link';
import { textbookMax, textbookPoints } from '../../textbook/textbook';
import { textbookResult } from '../../textbook/textbookResult';
import type { TextbookLine } from '../roundsPlot';
import { unitLabel, unitScale } from '../../lib/units';
import { mssOf } from '../../scenario/paths';

/** What a rounds panel draws. */
export interface RoundsSpec {
  /** Runs drawn here. */
  keys: AlgorithmName[];
  /** Runs whose rounds set the axes (every shown run, so small multiples compare). */
  extentKeys: AlgorithmName[];
}

/** Controls one rounds panel. */
export class RoundsController extends Panel<RoundsSpec> {
  /** One highlight per run drawn (the round at the cursor), inside the hit area. */
  private highlights: HTMLElement[] = [];
  /** Rounds shown, inclusive (from the last data draw). */
  private shown: [number, number] = [1, 1];

  /** Stops listening to the textbook model. */
  private unsubscribeTextbook: () => void;

  constructor(els: PlotElements, spec: RoundsSpec, store: AppStore, traces: TraceStore) {
    super(els, spec, store, traces);
    // The textbook model arrives from its worker: redraw with it.
    this.unsubscribeTextbook = textbookResult.subscribe(() => this.invalidate());
    // The shared cursor is drawn as the highlighted round, not as a line.
    els.cursor.style.display = 'none';
    this.listen({
      pointermove: this.onPointerMove,
      pointerleave: this.onPointerLeave,
      click: this.onClick,
      keydown: this.onKey,
    });
  }

  protected stateChanged(s: AppState, prev: AppState): void {
    if (
      s.drawn !== prev.drawn ||
      s.xDomain !== prev.xDomain ||
      s.layout !== prev.layout ||
      s.mode !== prev.mode ||
      s.unit !== prev.unit ||
      s.textbook !== prev.textbook
    ) {
      this.invalidate();
    } else if (s.cursor !== prev.cursor || s.hover !== prev.hover || s.time !== prev.time || s.live !== prev.live) {
      requestDraw(this);
    }
  }

  /** The runs of `keys` with their rounds (as the worker last read them). */
  runs(keys: readonly AlgorithmName[]): RoundsRun[] {
    const s = this.store.getState();
    return keys.flatMap((key) => {
      const trace = this.traces.get(key);
      if (!trace) return [];
      return [{ key, label: runLabel(s.scenario, key), style: runStyle(key), data: trace.rounds, now: trace.now }];
    });
  }

  /** The textbook model of the same losses, when it is on and of a run drawn here. */
  private textbook(s: AppState) {
    const t = textbookResult.getState();
    if (s.textbook === null || t.status !== 'ready' || !t.model || t.model.convention !== s.textbook) return null;
    return t.runKey !== null && this.spec.keys.includes(t.runKey) ? t.model : null;
  }

  /** The rounds shown: those overlapping the time window, over every run of the extent. */
  private range(s: AppState, runs: readonly RoundsRun[]): [number, number] {
    let lo = Infinity;
    let hi = -Infinity;
    for (const run of runs) {
      const rounds = run.data?.rounds ?? [];
      const w = s.xDomain ? roundsWithin(rounds, s.xDomain[0], s.xDomain[1], run.now) : null;
      const first = w ? w[0] : (rounds[0]?.round ?? Infinity);
      const last = w ? w[1] : (rounds[rounds.length - 1]?.round ?? -Infinity);
      lo = Math.min(lo, first);
      hi = Math.max(hi, last);
    }
    return Number.isFinite(lo) && Number.isFinite(hi) ? [lo, hi] : [1, 1];
  }

  protected drawData(): void {
    const s = this.store.getState();
    const margin = plotMargin();
    const look = plotLook();
    const size = this.layout(margin);
    if (!size) return;
    const { pw, ph } = size;
    const runs = this.runs(this.spec.keys);
    const extent = this.runs(this.spec.extentKeys);
    const [r0, r1] = this.range(s, extent);
    this.shown = [r0, r1];
    this.x = scaleLinear()
      .domain([r0 - 0.5, r1 + 0.5])
      .range([0, pw]);
    const model = this.textbook(s);
    const unit = s.unit;
    // The textbook model counts segments: drawn in bytes of flow 0's segments under `unit=bytes`.
    const mss = mssOf(s.scenario);
    const tb = mss / unitScale(unit, mss);
    const hi = Math.max(1, roundsMax(extent, r0, r1, unit), model ? textbookMax(model, r0, r1) * tb : 0);
    const line: TextbookLine | null =
      model && s.textbook
        ? {
            points: textbookPoints(model, r0, r1).map(([r, v]): [number, number] => [r, v * tb]),
            label: textbookLabel(s.textbook),
          }
        : null;
    // Room above the data for the phase lanes and the event marks.
    const lanes = roundsLaneHeight(runs.length) * Math.max(1, runs.length);
    const room = Math.min(0.5, (lanes + 26) / Math.max(1, ph));
    const y = scaleLinear()
      .domain([0, hi / (1 - room)])
      .range([ph, 0])
      .nice(Math.max(2, Math.round(ph / look.yTickPx)));
    const ctx = this.background(size);
    if (!ctx) return;
    const yTicks = y.ticks(Math.max(2, Math.round(ph / look.yTickPx)));
    const x = this.x;
    this.plotArea(
      ctx,
      margin,
      size,
      yTicks.map((v) => y(v)),
      [],
      () =>
        drawRounds({
          ctx,
          x: (r) => x(r),
          y: (v) => y(v),
          width: pw,
          height: ph,
          r0,
          r1,
          runs,
          overlay: runs.length > 1,
          unit,
          textbook: line,
        }),
    );
    // Whole rounds only, about one tick per xTickPx / 1.5.
    this.drawXAxis(
      margin,
      size,
      () => x.ticks(Math.max(2, Math.floor(pw / (look.xTickPx / 1.5)))).filter((v) => Number.isInteger(v) && v >= r0),
      'round',
      { key: 'round', format: (v) => String(v) },
    );
    this.drawYAxis(`${y.domain().join()}|${ph}|${yTicks.join()}`, margin, {
      scale: y,
      range: y.range(),
      values: yTicks,
      format: (v) => formatNumber(v, 4),
    });
    this.setLabel(
      roundsDescribe(runs, unit) +
        (line && model
          ? ` Dashed: ${line.label}, the textbook round model of the same losses (${model.label}), cwnd ${line.points.map((p) => formatNumber(p[1], 6)).join(', ')} ${unitLabel(unit)}.`
          : ''),
    );
  }

  /** The instant the readouts show: hover, else the pinned cursor, else the play head. */
  private shownTime(s: AppState): number | null {
    if (s.hover !== null) return s.hover;
    if (s.cursor !== null) return s.cursor;
    return s.live ? s.time : null;
  }

  protected drawOverlay(): void {
    const s = this.store.getState();
    const t = this.shownTime(s);
    const runs = this.runs(this.spec.keys);
    // The round at the cursor, one highlight per run (in an overlay each run has its own
    // rounds: the same instant can be a different round in each).
    while (this.highlights.length < runs.length) {
      const el = document.createElement('div');
      el.className = 'round-highlight';
      this.els.hit.appendChild(el);
      this.highlights.push(el);
    }
    const [r0, r1] = this.shown;
    this.highlights.forEach((el, i) => {
      const run = runs[i];
      const rounds = run?.data?.rounds ?? [];
      const k = t === null || !run ? -1 : roundIndexAt(rounds, t, run.now);
      const r = rounds[k];
      if (!run || !r || r.round < r0 || r.round > r1 || this.plotW <= 0) {
        el.style.display = 'none';
        delete el.dataset.round;
        return;
      }
      const xa = this.x(r.round - 0.5);
      el.style.display = 'block';
      el.style.transform = `translateX(${Math.round(xa)}px)`;
      el.style.width = `${Math.max(2, Math.round(this.x(r.round + 0.5) - xa))}px`;
      el.style.borderColor = run.style.color;
      el.dataset.round = String(r.round);
      el.dataset.key = run.key;
    });
    const key = t === null ? 'hint' : `${t}|${s.drawn}|${this.spec.keys.join()}|${s.unit}`;
    this.writeReadout(key, () =>
      t === null
        ? null
        : {
            head: `t = ${t.toFixed(3)} s`,
            lines: runs.map((run): ReadoutLine => ({
              key: run.key,
              label: run.label,
              color: run.style.color,
              text: roundsReadout(run, t, s.unit),
            })),
          },
    );
  }

  /** The round number under a pointer. */
  private roundAt(clientX: number): number {
    const [r0, r1] = this.shown;
    return Math.min(r1, Math.max(r0, Math.round(this.xAt(clientX))));
  }

  /** The start of round n in the first run that has it (the time a round moves the cursor to). */
  private startOf(n: number): number | null {
    for (const run of this.runs(this.spec.keys)) {
      const t = roundStart(run.data?.rounds ?? [], n);
      if (t !== null) return t;
    }
    return null;
  }

  private onPointerMove = (e: PointerEvent) => {
    const t = this.startOf(this.roundAt(e.clientX));
    if (t !== null) this.store.getState().setHover(t);
  };

  private onPointerLeave = () => {
    this.store.getState().setHover(null);
  };

  private onClick = (e: MouseEvent) => {
    const t = this.startOf(this.roundAt(e.clientX));
    if (t !== null) this.store.getState().setCursor(t);
  };

  private onKey = (e: KeyboardEvent) => {
    const s = this.store.getState();
    const rounds = this.runs(this.spec.keys)[0]?.data?.rounds ?? [];
    const cur = s.cursor ?? s.hover;
    // The round the cursor is in, or the last one before it (between rounds).
    const at = cur === null ? -1 : lastStartingBy(rounds, cur);
    const step = e.shiftKey ? 10 : 1;
    const go = (i: number) => {
      const r = rounds[Math.max(0, Math.min(rounds.length - 1, i))];
      if (r) s.setCursor(r.start);
    };
    let handled = true;
    switch (e.key) {
      case 'ArrowRight':
        go(at < 0 ? 0 : at + step);
        break;
      case 'ArrowLeft':
        go(at < 0 ? 0 : at - step);
        break;
      case 'Home':
        go(0);
        break;
      case 'End':
        go(rounds.length - 1);
        break;
      case '0':
        s.setXDomain(null);
        break;
      case 'Escape':
        s.setCursor(null);
        break;
      default:
        handled = false;
    }
    if (handled) e.preventDefault();
  };

  override dispose(): void {
    super.dispose();
    this.unsubscribeTextbook();
    for (const el of this.highlights) el.remove();
    this.highlights = [];
  }
}
