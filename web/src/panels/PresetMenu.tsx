// The engine's presets, grouped: presets whose scenarios differ only in the algorithm (the
// named algorithm and the settings the catalogue controls) form a group (the same experiment
// run with each algorithm).
import { useApp, useAppState } from '../app/AppContext';
import { tables, type Preset } from '../engine/tables';
import { CATALOGUE, withDefaultAlgorithm } from '../scenario/algorithms';

interface Group {
  label: string;
  presets: Preset[];
}

/** Groups presets by their scenario without the algorithm. */
export function groupPresets(presets: readonly Preset[]): Group[] {
  const groups = new Map<string, Group>();
  // The algorithms' names as name tokens, longest first, each compiled once (not once per
  // group: this runs in the page's first render).
  const tokens = CATALOGUE.map((e) => e.name.replace(/_/g, '-'))
    .sort((a, b) => b.length - a.length)
    .map((t) => new RegExp(`(^|-)${t}(-|$)`));
  for (const p of presets) {
    const key = JSON.stringify(withDefaultAlgorithm(p.scenario));
    let g = groups.get(key);
    if (!g) {
      // "fall-floyd-reno-3drops" → "fall-floyd-3drops": the name without the algorithm.
      let label = p.name;
      for (const t of tokens) label = label.replace(t, '$1').replace(/-$/, '');
      g = { label, presets: [] };
      groups.set(key, g);
    }
    g.presets.push(p);
  }
  return [...groups.values()];
}

let grouped: Group[] | null = null;
/** The engine's presets, grouped once (they never change; a render that is restarted, as a
 *  hydration in slices can be, would otherwise group them again). */
function presetGroups(): Group[] {
  grouped ??= groupPresets(tables.presets);
  return grouped;
}

/** The presets menu. */
export function PresetMenu() {
  const { controller } = useApp();
  const presetName = useAppState((s) => s.presetName);
  const groups = presetGroups();
  const description = tables.presets.find((p) => p.name === presetName)?.description;
  return (
    <div className="presets">
      <label>
        <span>Preset</span>
        <select value={presetName ?? ''} onChange={(e) => e.target.value && controller.loadPreset(e.target.value)}>
          <option value="">{presetName ? '—' : 'Custom scenario'}</option>
          {groups.map((g) => (
            <optgroup key={g.label} label={g.label}>
              {g.presets.map((p) => (
                <option key={p.name} value={p.name} title={p.description}>
                  {p.name}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </label>
      {description && <p className="preset-description">{description}</p>}
    </div>
  );
}
