// Which run the textbook model is made of: the run the preset's lesson is about, else the
// first run of the view (as the exercise sheet asks about), and its scenario for the engine.
import { exportRuns } from '../export/describe';
import { presetFocus } from '../scenario/presets';
import type { AppState } from '../state/types';

/** The focused run's key and scenario, or null in a competition (its flows share a run). */
export function textbookInput(
  s: Pick<AppState, 'scenario' | 'mode' | 'algorithms' | 'lesson' | 'preset'>,
): { runKey: string; scenarioJson: string } | null {
  if (s.mode === 'compete') return null;
  const runs = exportRuns(s);
  const focus = presetFocus(
    s.preset ?? s.lesson,
    runs.map((r) => r.key),
  );
  const run = runs.find((r) => r.key === focus) ?? runs[0];
  return run ? { runKey: run.key, scenarioJson: run.scenarioJson } : null;
}
