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

/** The runs of a page (mode, compared algorithms, scenario) that are BBR. */
export function bbrKeys(mode: Mode, algorithms: readonly AlgorithmName[], scenario: Scenario): string[] {
  return runKeysOf(mode, algorithms, scenario).filter((k) => runIsBbr(scenario, k));
}

/** True when some run of the page is BBR. */
export function anyBbr(mode: Mode, algorithms: readonly AlgorithmName[], scenario: Scenario): boolean {
  return bbrKeys(mode, algorithms, scenario).length > 0;
}
