// How long a comparison took, phase by phase: from the request (a key press, a preset) to the
// engine's results, to the frame that drew the plots in view, to every plot drawn. The
// controller feeds it; the benchmark page and the status line read the Timing it makes.
import type { FrameReport } from '../plots/core/scheduler';
import type { Timing } from './types';

/** What one result chunk reports about its run's phases (ms; times on the epoch clock). */
export interface ChunkPhases {
  key: string;
  computeMs: number;
  readMs: number;
  summaryMs: number;
  receivedAt: number;
  postedAt: number;
  /** The run was computed ahead of the request (its engine time was spent before it). */
  ahead?: boolean;
  /** Finished ahead of the request (posted before it; start and transfer do not apply). */
  aheadOf?: string;
}

/** The run-level facts a finished Timing carries. */
export interface TimingMeta {
  gen: number;
  runs: number;
  workers: number;
  /** When the last result arrived (performance.now()). */
  resultsAt: number;
}

export class RequestTiming {
  /** When the request was posted: performance.now() and the epoch clock. */
  at = 0;
  private epoch = 0;
  private computeMs = new Map<string, number>();
  private ahead = new Set<string>();
  private readMs = new Map<string, number>();
  private summaryMs = 0;
  private startMs = 0;
  private transferMs = 0;
  /** Start of the frame that drew the plots in view, request to the end of their drawing,
   *  and that drawing's JavaScript time. */
  private frameAt: number | null = null;
  private drawnAt: number | null = null;
  private drawMs: number | null = null;
  private plotsInView = 0;
  private plots = 0;

  /** A new request, posted now. */
  start(at: number, epoch: number): void {
    Object.assign(this, new RequestTiming());
    this.at = at;
    this.epoch = epoch;
  }

  /** A chunk of results arrived at `arrived` (epoch clock). */
  chunk(c: ChunkPhases, arrived: number): void {
    this.computeMs.set(c.key, c.computeMs);
    if (c.ahead) this.ahead.add(c.key);
    this.readMs.set(c.key, (this.readMs.get(c.key) ?? 0) + c.readMs);
    this.summaryMs = Math.max(this.summaryMs, c.summaryMs);
    if (c.aheadOf !== undefined) return;
    this.startMs = Math.max(this.startMs, c.receivedAt - this.epoch);
    this.transferMs = Math.max(this.transferMs, arrived - c.postedAt);
  }

  /**
   * A frame drew `r.drawn` plots. The first frame that leaves no plot in view pending is
   * the one that carried the results (`inView` is called then); returns true once no plot
   * at all is pending.
   */
  frame(r: FrameReport, now: number, inView: () => void): boolean {
    this.plots += r.drawn;
    if (this.drawnAt === null) {
      this.plotsInView += r.drawn;
      if (r.pendingInView > 0) return false;
      this.frameAt = r.start;
      this.drawnAt = now;
      this.drawMs = r.burstMs;
      inView();
    }
    return r.pending === 0;
  }

  /** The request's Timing, every plot drawn at `now` by a last burst of `allDrawMs`. */
  timing(meta: TimingMeta, now: number, allDrawMs: number): Timing {
    const max = (m: Map<string, number>) => Math.max(0, ...m.values());
    const since = (t: number | null) => (t === null ? null : t - this.at);
    return {
      gen: meta.gen,
      at: this.at,
      runs: meta.runs,
      workers: meta.workers,
      computeMs: max(this.computeMs),
      aheadRuns: this.ahead.size,
      readMs: max(this.readMs),
      summaryMs: this.summaryMs,
      startMs: this.startMs,
      transferMs: this.transferMs,
      resultsMs: meta.resultsAt - this.at,
      frameMs: since(this.frameAt),
      drawnMs: since(this.drawnAt),
      drawMs: this.drawMs,
      plotsInView: this.plotsInView,
      plots: this.plots,
      allDrawnMs: now - this.at,
      allDrawMs,
    };
  }
}
