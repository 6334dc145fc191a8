// Which runs are BBR (their flow's `cc.controller` is the BBR model), and the views that go
// with BBR: its model plot and the queueing delay it is meant to keep low.
import type { Scenario } from '../engine/tables';
import { runScenario, type AlgorithmName } from './algorithms';
import { flowIndexOf, runKeysOf, type Mode } from './competition';
import { getAt } from './paths';
import type { PlotId } from './shareState';

/** The `cc.controller` value of BBR v1. */
export const BBR_CONTROLLER = 'bbr';

/** The plots a preset or comparison with a BBR run shows (added to those already shown), in
 *  page order: the queueing delay and BBR's model. */
export const BBR_PLOTS: readonly PlotId[] = ['qdelay', 'bbr'];

/** True when the run `key` (an algorithm of a comparison on `scenario`, or `flow<i>` of a
 *  competition) runs BBR. */
export function runIsBbr(scenario: Scenario, key: string): boolean {
  const i = flowIndexOf(key);
  const controller =
    i === null
      ? getAt(runScenario(scenario, key), 'flows[0].cc.controller')
      : getAt(scenario, `flows[${i}].cc.controller`);
  return controller === BBR_CONTROLLER;
}

let last: { mode: Mode; algorithms: readonly AlgorithmName[]; scenario: Scenario; keys: readonly string[] } | null =
  null;

/** The runs of a page (mode, compared algorithms, scenario) that are BBR. The last answer is
 *  kept: the plot stack asks on every store update (a selector), and each ask builds every
 *  run's scenario (~1.2 ms per slider step); the state's objects are never changed in place,
 *  so the same three objects give the same runs. */
export function bbrKeys(mode: Mode, algorithms: readonly AlgorithmName[], scenario: Scenario): readonly string[] {
  if (last === null || last.mode !== mode || last.algorithms !== algorithms || last.scenario !== scenario) {
    last = {
      mode,
      algorithms,
      scenario,
      keys: runKeysOf(mode, algorithms, scenario).filter((k) => runIsBbr(scenario, k)),
    };
  }
  return last.keys;
}

/** True when some run of the page is BBR. */
export function anyBbr(mode: Mode, algorithms: readonly AlgorithmName[], scenario: Scenario): boolean {
  return bbrKeys(mode, algorithms, scenario).length > 0;
}
