// The numbers of competition mode, as small pure functions over the engine's tables:
// Jain's fairness index, which flows are active in a bin, each class's share of the
// bottleneck's capacity per bin, and data packets and retransmissions counted per bin.
//
//   plotted bin j = [j·w, (j+1)·w)   (w a whole number of the engine's throughput bins)
//   flow i active in bin j  ⇔  start_i < (j+1)·w  and  end_i > j·w
//                               (end_i = when its finite transfer completed, else ∞)
import type { RunSummary } from '../engine/protocol';
import type { Scenario } from '../engine/tables';
import type { GrowTable, RunTrace } from '../engine/traceStore';
import { flowsOf } from '../scenario/competition';
import { getAt, timelineOf } from '../scenario/paths';
import { cachedFor, type ThroughputBins } from './throughputBins';

/**
 * Jain's fairness index of the amounts x₁…xₙ (Jain, Chiu and Hawe 1984):
 *
 *   J = (Σ xᵢ)² / (n · Σ xᵢ²),   1/n ≤ J ≤ 1
 *
 * 1 when every flow got the same, 1/n when one flow got everything. Defined cases:
 *   - no flows (n = 0): NaN, there is nothing to compare;
 *   - every amount 0: NaN, no flow got anything, so there are no shares to compare (a plot
 *     shows a gap, a table a dash) — not 1, which would call a stalled link fair;
 *   - any amount negative, NaN or infinite: NaN (amounts are bytes or rates).
 * One flow with something gives 1.
 */
export function jainIndex(xs: ArrayLike<number>): number {
  const n = xs.length;
  if (n === 0) return NaN;
  let sum = 0;
  let squares = 0;
  for (let i = 0; i < n; i += 1) {
    const x = xs[i] ?? NaN;
    if (!(x >= 0) || !Number.isFinite(x)) return NaN;
    sum += x;
    squares += x * x;
  }
  if (sum === 0) return NaN;
  return (sum * sum) / (n * squares);
}

/** When a flow is active: from its start until its finite transfer completed (∞ while it
 *  has not, and for applications without an end). */
export interface FlowSpan {
  start: number;
  end: number;
}

/** Every flow's span: start from the scenario, end from the summary's completion time. */
export function flowSpans(scenario: Scenario, summary: RunSummary | null): FlowSpan[] {
  return flowsOf(scenario).map((f, i) => {
    const start = typeof f.start === 'number' ? f.start : 0;
    const done = summary?.flows[i]?.completion_time_s;
    return { start, end: typeof done === 'number' ? done : Infinity };
  });
}

/** True when a flow with `span` is active for some of [a, b). */
export function activeIn(span: FlowSpan, a: number, b: number): boolean {
  return span.start < b && span.end > a;
}

/**
 * Jain's index in plotted bin j over the flows active in it, of their bytes in `bins`
 * (`flowClass[i]` is flow i's class index in the throughput table). NaN when no flow is
 * active or none moved a byte. A flow that starts or completes inside the bin counts with
 * the bytes it moved there, so its first and last bins lower the index; wider bins smooth
 * that out.
 */
export function jainInBin(
  bins: ThroughputBins,
  flowClass: readonly number[],
  spans: readonly FlowSpan[],
  j: number,
): number {
  const a = bins.start(j);
  const b = bins.start(j + 1);
  const xs: number[] = [];
  spans.forEach((span, i) => {
    const c = flowClass[i];
    if (c !== undefined && activeIn(span, a, b)) xs.push(bins.at(c, j));
  });
  return jainIndex(xs);
}

/** The bottleneck's bandwidth (bit/s) over time: the scenario's value, then each timeline
 *  change of it, as [from, bandwidth] steps in time order. */
export function bandwidthSteps(scenario: Scenario): [number, number][] {
  const base = getAt(scenario, 'network.bottleneck.bandwidth');
  const steps: [number, number][] = [[0, typeof base === 'number' ? base : 0]];
  for (const e of timelineOf(scenario)) {
    if (e.set === 'network.bottleneck.bandwidth' && typeof e.at === 'number' && typeof e.value === 'number') {
      steps.push([e.at, e.value]);
    }
  }
  return steps.sort((x, y) => x[0] - y[0]);
}

/** The bytes the bottleneck can carry in [a, b): its bandwidth (with the timeline's
 *  changes) integrated over the interval, / 8. */
export function capacityBytes(steps: readonly [number, number][], a: number, b: number): number {
  let bits = 0;
  steps.forEach(([from, bw], k) => {
    const to = steps[k + 1]?.[0] ?? Infinity;
    const lo = Math.max(a, from);
    const hi = Math.min(b, to);
    if (hi > lo) bits += bw * (hi - lo);
  });
  return bits / 8;
}

/**
 * Class c's share of the bottleneck's capacity in plotted bin j: its bytes across the
 * bottleneck (wire bytes, retransmissions included) over what the link could carry in the
 * part of the bin the data covers. The classes' shares add up to the link's utilisation
 * (≤ 1 up to a packet at the bin's edges); NaN for a bin not covered at all.
 */
export function shareOfCapacity(
  bins: ThroughputBins,
  c: number,
  j: number,
  covered: number,
  steps: readonly [number, number][],
): number {
  const a = bins.start(j);
  const b = Math.min(bins.start(j + 1), covered);
  if (!(b > a)) return NaN;
  const cap = capacityBytes(steps, a, b);
  return cap > 0 ? bins.at(c, j) / cap : NaN;
}

/** Data packets (first transmissions and retransmissions) and retransmissions per plotted
 *  bin of one flow, folded in incrementally from its `sends` and `retx` tables. */
export class PacketBins {
  /** sent[j]: data packets sent in bin j (both kinds); retx[j]: retransmissions. */
  sent = new Float64Array(64);
  retx = new Float64Array(64);
  /** Bins with a row so far (last + 1). */
  bins = 0;
  private sendsUpTo = 0;
  private retxUpTo = 0;

  constructor(readonly width: number) {}

  private bump(col: 'sent' | 'retx', t: number) {
    const j = Math.max(0, Math.floor(t / this.width + 1e-9));
    if (j >= this.sent.length) {
      const cap = Math.max(j + 1, 2 * this.sent.length);
      const grow = (a: Float64Array) => {
        const g = new Float64Array(cap);
        g.set(a);
        return g;
      };
      this.sent = grow(this.sent);
      this.retx = grow(this.retx);
    }
    this[col][j] = (this[col][j] ?? 0) + 1;
    if (col === 'retx') this.sent[j] = (this.sent[j] ?? 0) + 1;
    if (j + 1 > this.bins) this.bins = j + 1;
  }

  /** Adds the rows that arrived since the last call. */
  update(sends: GrowTable<'sends'>, retx: GrowTable<'retx'>): this {
    for (let i = this.sendsUpTo; i < sends.length; i += 1) this.bump('sent', sends.cols.t[i] ?? 0);
    for (let i = this.retxUpTo; i < retx.length; i += 1) this.bump('retx', retx.cols.t[i] ?? 0);
    this.sendsUpTo = sends.length;
    this.retxUpTo = retx.length;
    return this;
  }

  /** Data packets sent in bin j. */
  sentAt(j: number): number {
    return j < this.bins ? (this.sent[j] ?? 0) : 0;
  }

  /** Retransmissions in bin j. */
  retxAt(j: number): number {
    return j < this.bins ? (this.retx[j] ?? 0) : 0;
  }
}

const packetCache = new WeakMap<object, Map<number, PacketBins>>();

/** A trace's packet counts per bin of `width` s, brought up to date. */
export function packetBins(trace: RunTrace, width: number): PacketBins {
  const b = cachedFor(packetCache, trace, width, () => new PacketBins(width));
  return b.update(trace.tables.sends, trace.tables.retx);
}

/** The retransmitted fraction: retransmissions over data packets sent (NaN when none). */
export function retransmittedFraction(retransmits: number, sent: number): number {
  return sent > 0 ? retransmits / sent : NaN;
}

/** The whole run's retransmitted fraction per flow and in total, from the summary. */
export function retransmittedFractions(summary: RunSummary): { flows: number[]; total: number } {
  let retx = 0;
  let sent = 0;
  const flows = summary.flows.map((f) => {
    retx += f.retransmits;
    sent += f.data_packets_sent;
    return retransmittedFraction(f.retransmits, f.data_packets_sent);
  });
  return { flows, total: retransmittedFraction(retx, sent) };
}

/** The whole run's Jain index: the engine's (`jain_index`, over each flow's goodput over its
 *  own active time, its start to its completion or to now, so staggered starts and finite
 *  transfers do not count as unfairness); NaN when nothing was delivered (null). The
 *  scenario is unused now that every engine the page ships with computes it. */
export function runJainIndex(_scenario: Scenario, summary: RunSummary): number {
  return summary.jain_index ?? NaN;
}
