// The short transfers of a run as the engine's summary reports them (`flows[i].transfers`,
// engine/core/src/summary.rs): its completion times sorted for the CDF, and the flow's and the
// ping sources' summaries for the transfers view's table. Nothing is computed here but the
// sort: the count, mean and percentiles shown are the engine's.
import type { CrossSummary, PingSummary, RunSummary, TransferSummary } from '../engine/protocol';
import { flowIndexOf, flowKey } from '../scenario/competition';
import { summaryShown } from '../state/selectors';
import type { AppState } from '../state/types';

/** The summary holding run `key`'s flow, and that flow's index in it: an algorithm's run
 *  (flow 0 of its own run), or flow i of the competition (whose summary is flow 0's key's). */
export function summaryOfKey(s: Pick<AppState, 'runs'>, key: string): { summary: RunSummary | null; flow: number } {
  const i = flowIndexOf(key);
  return { summary: summaryShown(s.runs[i === null ? key : flowKey(0)]), flow: i ?? 0 };
}

/** Run `key`'s transfers summary (null: none yet, or its application is not `transfers`). */
export function transfersOf(s: Pick<AppState, 'runs'>, key: string): TransferSummary | null {
  const { summary, flow } = summaryOfKey(s, key);
  return summary?.flows[flow]?.transfers ?? null;
}

/** The ping sources of run `key`'s summary (a competition's runs share one). */
export function pingsOf(s: Pick<AppState, 'runs'>, key: string): (CrossSummary & { ping: PingSummary })[] {
  const { summary } = summaryOfKey(s, key);
  return (summary?.cross ?? []).filter((c): c is CrossSummary & { ping: PingSummary } => c.ping !== undefined);
}

const sortedCache = new WeakMap<TransferSummary, Float64Array>();

/** A transfers summary's completion times, s, sorted ascending (cached per summary). */
export function sortedTimes(t: TransferSummary | null): Float64Array {
  if (!t) return new Float64Array(0);
  let v = sortedCache.get(t);
  if (!v) {
    v = Float64Array.from(t.completion_times_s).sort();
    sortedCache.set(t, v);
  }
  return v;
}
