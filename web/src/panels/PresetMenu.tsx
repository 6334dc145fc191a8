// The engine's presets by family (one <optgroup> per family, its title) and by title, in the
// engine's order; the chosen preset's name (for the command line and links) and description
// under the menu, and whether the scenario has changed since it was loaded.
import { useMemo } from 'react';
import { useApp, useAppState } from '../app/AppContext';
import { tables, type Preset, type Scenario } from '../engine/tables';
import { jsonEqual } from '../lib/json';
import { presetNamed, type PresetStatus } from '../scenario/presets';
import { usePresetStatus } from './usePresetStatus';

interface Group {
  name: string;
  title: string;
  presets: Preset[];
}

/** The presets grouped by family, families in the engine's order. */
export function groupPresets(presets: readonly Preset[]): Group[] {
  const groups = new Map(tables.presetFamilies.map((f) => [f.name, { ...f, presets: [] as Preset[] }]));
  for (const p of presets) {
    let g = groups.get(p.family);
    if (!g) {
      g = { name: p.family, title: p.family, presets: [] };
      groups.set(p.family, g);
    }
    g.presets.push(p);
  }
  return [...groups.values()].filter((g) => g.presets.length > 0);
}

let grouped: Group[] | null = null;
/** The engine's presets, grouped once (they never change; a render that is restarted, as a
 *  hydration in slices can be, would otherwise group them again). */
function presetGroups(): Group[] {
  grouped ??= groupPresets(tables.presets);
  return grouped;
}

/** "changed from the preset (Bottleneck bandwidth)", or why it is no longer the preset. */
export function statusText(status: PresetStatus): string {
  if (status.kind === 'same') return '';
  if (status.kind === 'changed') return `Changed from the preset: ${status.settings.join(', ')}.`;
  return `No longer this preset: ${status.why}.`;
}

/** The menu's first entry: a dash under a preset; otherwise whether the scenario is the
 *  engine's default one (as the page first opens) or one of the user's own. */
export function placeholderLabel(underPreset: boolean, scenario: Scenario): string {
  if (underPreset) return '—';
  return jsonEqual(scenario, tables.defaultScenario) ? 'Default scenario' : 'Custom scenario';
}

/** The presets menu. */
export function PresetMenu() {
  const { controller } = useApp();
  const preset = presetNamed(useAppState((s) => s.preset));
  const scenario = useAppState((s) => s.scenario);
  const status = usePresetStatus(preset);
  const shown = preset && status?.kind !== 'gone' ? preset : undefined;
  const placeholder = useMemo(() => placeholderLabel(shown !== undefined, scenario), [shown, scenario]);
  const groups = presetGroups();
  return (
    <div className="presets">
      <label>
        <span>Preset</span>
        <select value={shown?.name ?? ''} onChange={(e) => e.target.value && controller.loadPreset(e.target.value)}>
          <option value="">{placeholder}</option>
          {groups.map((g) => (
            <optgroup key={g.name} label={g.title}>
              {g.presets.map((p) => (
                <option key={p.name} value={p.name} title={`${p.name}: ${p.description}`}>
                  {p.title}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </label>
      {preset && status && (
        <p className="preset-description">
          {shown && (
            <>
              <code className="preset-name">{shown.name}</code> · {shown.description}{' '}
            </>
          )}
          {status.kind !== 'same' && (
            <span className="preset-changed">
              {statusText(status)}{' '}
              <button type="button" className="link" onClick={() => controller.loadPreset(preset.name)}>
                Load the preset again
              </button>
            </span>
          )}
        </p>
      )}
    </div>
  );
}
