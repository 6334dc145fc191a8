// The theory toggle (throughput options) and the note under the throughput plot: each
// run's Mathis and Padhye estimates with their formulas, sources and inputs, in the engine's
// words and numbers; or why the models do not apply.
import { useShallow } from 'zustand/react/shallow';
import { useApp, useAppState } from '../app/AppContext';
import { flowIndexOf, runLabel } from '../scenario/competition';
import type { AppState } from '../state/types';
import { inputsText, mbitText, MODEL_NAMES, theoryOfRun, type Theory } from './theory';

/** The checkbox in the throughput options. */
export function TheoryToggle() {
  const { store } = useApp();
  const on = useAppState((s) => s.theory);
  return (
    <label>
      <input type="checkbox" checked={on} onChange={(e) => store.getState().setTheory(e.target.checked)} />
      Theory (Mathis, Padhye)
    </label>
  );
}

/** The runs the throughput plot shows, each with its estimates. */
function notesOf(s: AppState): { label: string; theory: Theory }[] {
  const compete = s.mode === 'compete';
  const keys = compete ? s.keys.filter((k) => !s.hidden.includes(flowIndexOf(k) ?? -1)) : s.keys;
  return keys.map((key) => ({
    label: runLabel(s.scenario, key),
    theory: theoryOfRun(s.scenario, { key, flow: flowIndexOf(key) ?? 0 }, compete),
  }));
}

/** One run's note. */
function TheoryText({ theory }: { theory: Theory }) {
  if ('unavailable' in theory) return <>no estimate: {theory.unavailable}.</>;
  return (
    <>
      {(['mathis', 'padhye'] as const).map((name) => (
        <span key={name} className="theory-model">
          {MODEL_NAMES[name]} {mbitText(theory[name].bps)} = <code>{theory[name].formula}</code> ({theory[name].source}
          );{' '}
        </span>
      ))}
      <span className="theory-inputs">inputs: {inputsText(theory.inputs)}.</span>
    </>
  );
}

/** The note under the throughput plot (theory=1). */
export function TheoryNote() {
  const on = useAppState((s) => s.theory && s.plots.includes('throughput'));
  const notes = useAppState(useShallow((s) => (s.theory ? JSON.stringify(notesOf(s)) : '')));
  if (!on || notes === '') return null;
  const list = JSON.parse(notes) as { label: string; theory: Theory }[];
  // Runs with the same estimates and inputs are named together.
  const groups = new Map<string, { labels: string[]; theory: Theory }>();
  for (const n of list) {
    const key = JSON.stringify(n.theory);
    const g = groups.get(key);
    if (g) g.labels.push(n.label);
    else groups.set(key, { labels: [n.label], theory: n.theory });
  }
  return (
    <div className="plot-note theory-note" aria-label="Theory" role="note">
      <b>Theory</b> (dashed lines; the engine’s models of a long-running Reno-style flow under random loss):
      <ul>
        {[...groups.values()].map((g) => (
          <li key={g.labels.join()}>
            {groups.size > 1 || list.length > 1 ? `${g.labels.join(', ')}: ` : ''}
            <TheoryText theory={g.theory} />
          </li>
        ))}
      </ul>
    </div>
  );
}
