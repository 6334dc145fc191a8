// The sender's application as the views see it: which applications the thin-stream views
// (the write timeline and the CDFs, source 004) are about.
import type { Scenario } from '../engine/tables';
import { getAt } from './paths';
import type { PlotId } from './shareState';

/** Applications that write a stream of small or periodic writes: thin streams, CBR, Poisson
 *  and on/off. Choosing one, or loading a preset with one, shows THIN_PLOTS. (Scripted
 *  senders write too, and their plots can be ticked, but a few large writes are not a
 *  stream; bulk senders have no writes.) */
export const STREAM_APPS: ReadonlySet<string> = new Set(['thin', 'cbr', 'poisson', 'on_off']);

/** The plots about writes, in page order. */
export const THIN_PLOTS: readonly PlotId[] = ['writes', 'thin'];

/** The compared flow's application kind. */
export function appKindOf(scenario: Scenario): string {
  return String(getAt(scenario, 'flows[0].app.kind') ?? 'bulk');
}

/** True when the compared flow's application is one of STREAM_APPS. */
export function writesStream(scenario: Scenario): boolean {
  return STREAM_APPS.has(appKindOf(scenario));
}

/** Whether the scenario has short transfers (a flow whose application is `transfers`) or a
 *  ping source: choosing such an application, or loading a preset with either, shows the
 *  transfers view (plots/TransfersPlots.tsx). */
export function hasTransfers(scenario: Scenario): boolean {
  const flows = Array.isArray(scenario.flows) ? scenario.flows : [];
  const cross = Array.isArray(scenario.cross) ? scenario.cross : [];
  return (
    flows.some((_, i) => getAt(scenario, `flows[${i}].app.kind`) === 'transfers') ||
    cross.some((_, k) => getAt(scenario, `cross[${k}].kind`) === 'ping')
  );
}
