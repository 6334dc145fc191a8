// What an export or a printed handout calls the run: the scenario's name (its preset, or
// "custom scenario") and the scenario in one line, from the engine's schema (labels, units)
// and the store; and the engine runs behind the page's view (one per compared algorithm, or
// the one run of a competition), each with the scenario it simulates.
import type { Scenario } from '../engine/tables';
import { algorithmLabel, runScenario, type AlgorithmName } from '../scenario/algorithms';
import { flowLabel, flowsOf } from '../scenario/competition';
import { formatValue, specOf } from '../scenario/params';
import { getAt, timelineOf } from '../scenario/paths';
import type { AppState } from '../state/types';

/** The view's name: its preset, or "custom scenario". */
export function scenarioName(s: Pick<AppState, 'presetName' | 'lesson'>): string {
  return s.presetName ?? s.lesson ?? 'custom scenario';
}

/** A setting as the page shows it ("10 Mbit/s"), or null when the schema lacks it. */
function shown(scenario: Scenario, path: string): string | null {
  const spec = specOf(path);
  const v = getAt(scenario, path);
  return spec && v !== undefined ? formatValue(spec, v) : null;
}

/** The scenario in one line: the runs, the bottleneck, the duration, the seed and the live
 *  changes. */
export function scenarioLine(s: Pick<AppState, 'scenario' | 'mode' | 'algorithms'>): string {
  const sc = s.scenario;
  const runs =
    s.mode === 'compete'
      ? `${flowsOf(sc).length} flows sharing the bottleneck: ${flowsOf(sc)
          .map((_, i) => flowLabel(sc, i))
          .join(', ')}`
      : s.algorithms.map((a) => algorithmLabel(a)).join(' vs ');
  const path = ['network.bottleneck.bandwidth', 'network.bottleneck.delay', 'network.bottleneck.queue_packets']
    .map((p) => shown(sc, p))
    .filter((x): x is string => x !== null);
  // The delay variation (a path that reorders) only when there is one.
  const variation = Number(getAt(sc, 'network.bottleneck.delay_variation') ?? 0) > 0;
  const varied = variation ? shown(sc, 'network.bottleneck.delay_variation') : null;
  if (varied) path.push(`delay variation ${varied}`);
  const parts = [runs];
  if (path.length > 0) parts.push(`bottleneck ${path.join(', ')}`);
  const duration = shown(sc, 'duration');
  if (duration) parts.push(duration);
  const seed = getAt(sc, 'seed');
  if (seed !== undefined) parts.push(`seed ${String(seed)}`);
  const changes = timelineOf(sc).length;
  if (changes > 0) parts.push(`${changes} change${changes === 1 ? '' : 's'} on the timeline`);
  return parts.join(' · ');
}

/** One engine run behind the view: where its files go in an archive ('' = the top) and the
 *  complete scenario it simulates. */
export interface ExportRun {
  folder: string;
  /** The run key (an algorithm, or `compete`). */
  key: string;
  scenarioJson: string;
}

/** The view's engine runs, as the controller starts them: one per compared algorithm (each
 *  in a folder named after it when there are several), or the competition's one run. */
export function exportRuns(s: Pick<AppState, 'scenario' | 'mode' | 'algorithms'>): ExportRun[] {
  if (s.mode === 'compete') return [{ folder: '', key: 'compete', scenarioJson: JSON.stringify(s.scenario) }];
  const several = s.algorithms.length > 1;
  return s.algorithms.map((key: AlgorithmName) => ({
    folder: several ? key : '',
    key,
    scenarioJson: JSON.stringify(runScenario(s.scenario, key)),
  }));
}

/** A file-name part from free text: lower case, letters, digits and dashes. */
export function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'cwndlab'
  );
}
