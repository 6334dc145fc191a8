// The engine's presets as the page loads them: the scenario, the runs and the plots a preset
// brings (the menu and a `preset=` link give the same view), whether the scenario is still
// the preset's (and if not, which settings changed), and the run its lesson is about.
import { tables, type Preset, type Scenario } from '../engine/tables';
import { jsonEqual } from '../lib/json';
import { hasTransfers, THIN_PLOTS, writesStream } from './apps';
import { CUSTOM, isAlgorithm, orderAlgorithms, presetBase, type AlgorithmName } from './algorithms';
import { anyBbr, BBR_PLOTS } from './bbr';
import { flowsOf, toCompetition, type Mode } from './competition';
import { crossOf } from './cross';
import { PARAMS } from './params';
import { concretePath, getAt, timelineOf } from './paths';
import type { PlotId } from './shareState';

/** A scenario that differs from its preset in more settings than this is no longer called
 *  the preset (docs/scenario-url.md, `preset`). */
export const MAX_PRESET_CHANGES = 3;

const BY_NAME = new Map(tables.presets.map((p) => [p.name, p]));

/** The engine's preset of that name. */
export function presetNamed(name: string | null): Preset | undefined {
  return name === null ? undefined : BY_NAME.get(name);
}

/** What loading a preset makes of the page. */
export interface PresetView {
  mode: Mode;
  scenario: Scenario;
  algorithms: AlgorithmName[];
  /** Plots the preset's runs are about (cross traffic: throughput; a sender that writes:
   *  the write timeline and the CDFs; a BBR run: BBR's model and the queueing delay). */
  plots: PlotId[];
}

/**
 * A preset as the page loads it, from the page's `mode` and `algorithms`: a preset with
 * several flows is a competition, run as the preset has them; a one-flow preset compares its
 * lesson's algorithms and its own flow-0 algorithm (`custom` for settings of its own), or, in
 * a competition, competes with itself, one flow per algorithm.
 */
export function presetView(preset: Preset, mode: Mode, algorithms: readonly AlgorithmName[]): PresetView {
  let view: Omit<PresetView, 'plots'>;
  if (flowsOf(preset.scenario).length > 1) {
    view = { mode: 'compete', scenario: structuredClone(preset.scenario), algorithms: [...algorithms] };
  } else {
    const { own, base } = presetBase(preset.scenario);
    // Without a lesson the selection stays (its custom belonged to the old scenario).
    const kept = preset.lesson ? preset.lesson.compare.filter(isAlgorithm) : algorithms.filter((a) => a !== CUSTOM);
    const selection = orderAlgorithms([...kept, own]);
    const scenario = mode === 'compete' ? toCompetition(structuredClone(base), selection) : structuredClone(base);
    view = { mode, scenario, algorithms: selection };
  }
  const plots: PlotId[] = [];
  if (crossOf(view.scenario).length > 0) plots.push('throughput');
  if (writesStream(view.scenario)) plots.push(...THIN_PLOTS);
  if (hasTransfers(view.scenario)) plots.push('transfers');
  if (anyBbr(view.mode, view.algorithms, view.scenario)) plots.push(...BBR_PLOTS);
  return { ...view, plots };
}

/** The scenario as loading `preset` gives it, for the page's mode and algorithms. */
function presetScenario(preset: Preset, mode: Mode, algorithms: readonly AlgorithmName[]): Scenario {
  if (flowsOf(preset.scenario).length > 1) return preset.scenario;
  const { base } = presetBase(preset.scenario);
  return mode === 'compete' ? toCompetition(base, algorithms) : base;
}

/** How far a scenario is from its preset. */
export type PresetStatus =
  | { kind: 'same' }
  /** Still recognisable: the settings changed (their labels, at most MAX_PRESET_CHANGES). */
  | { kind: 'changed'; settings: string[] }
  /** No longer the preset: other flows, another mode, or more settings changed. */
  | { kind: 'gone'; why: string };

/** Whether `scenario` is still `preset`'s, for the page's mode and algorithms. */
export function presetStatus(
  preset: Preset,
  scenario: Scenario,
  mode: Mode,
  algorithms: readonly AlgorithmName[],
): PresetStatus {
  const several = flowsOf(preset.scenario).length > 1;
  if (several && mode !== 'compete')
    return { kind: 'gone', why: 'it compares algorithms, the preset lets flows compete' };
  const expected = presetScenario(preset, mode, algorithms);
  if (jsonEqual(scenario, expected)) return { kind: 'same' };
  const flows = flowsOf(scenario).length;
  if (flows !== flowsOf(expected).length) return { kind: 'gone', why: `it has ${flows} flows` };
  const settings: string[] = [];
  for (const spec of PARAMS) {
    const paths = spec.path.startsWith('flows[].')
      ? flowsOf(scenario).map((_, i) => concretePath(spec.path, i))
      : spec.path === 'timeline' || spec.path === 'version'
        ? []
        : [spec.path];
    if (paths.some((p) => !jsonEqual(getAt(scenario, p) ?? null, getAt(expected, p) ?? null))) {
      settings.push(spec.label);
    }
  }
  if (!jsonEqual(timelineOf(scenario), timelineOf(expected))) settings.push('the timeline');
  // Something no parameter names (the engine's own fields): one change.
  if (settings.length === 0) settings.push('its settings');
  if (settings.length > MAX_PRESET_CHANGES) {
    return { kind: 'gone', why: `${settings.length} settings differ from it` };
  }
  return { kind: 'changed', settings };
}

/** The run the preset's lesson is about, when the page shows it (a run key: an algorithm
 *  compared, or `flow<i>` in a competition); null: none (the page starts at its first run). */
export function presetFocus(name: string | null, keys: readonly string[]): string | null {
  const focus = presetNamed(name)?.focus ?? null;
  return focus !== null && keys.includes(focus) ? focus : null;
}
