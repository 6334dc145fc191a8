// How the scenario stands against a preset (the same, changed and still recognisable, or
// no longer it), recomputed only when the scenario, the mode or the algorithms change: the
// preset menu and the lesson box both say it.
import { useMemo } from 'react';
import { useAppState } from '../app/AppContext';
import type { Preset } from '../engine/tables';
import { presetStatus, type PresetStatus } from '../scenario/presets';

/** The scenario's standing against `preset` (null without one). */
export function usePresetStatus(preset: Preset | undefined): PresetStatus | null {
  const scenario = useAppState((s) => s.scenario);
  const mode = useAppState((s) => s.mode);
  const algorithms = useAppState((s) => s.algorithms);
  return useMemo(
    () => (preset ? presetStatus(preset, scenario, mode, algorithms) : null),
    [preset, scenario, mode, algorithms],
  );
}
