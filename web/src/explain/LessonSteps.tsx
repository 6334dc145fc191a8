// The preset's steps (engine presets carry where the explanation tools lead in them): a
// button per step that some run here takes, selecting that decision.
import { useApp, useAppState } from '../app/AppContext';
import { useTeaching } from '../engine/teaching';

/** Where the explanation tools lead in the preset loaded (its family's steps, from the engine): a button per step
 *  some run here takes (it selects that decision). */
export function LessonSteps() {
  const { controller, store } = useApp();
  const name = useAppState((s) => s.presetName ?? s.lesson);
  const steps = useTeaching(name !== null)?.steps[name ?? ''] ?? [];
  useAppState((s) => s.decisionsVersion);
  useAppState((s) => s.keys.join());
  if (steps.length === 0) return null;
  const offered = steps.filter((st) => controller.explainer.runsWith(st.rules).length > 0);
  if (offered.length === 0) return null;
  return (
    <div className="lesson-steps" role="group" aria-label="Step through the lesson">
      <h3>Steps of this preset</h3>
      <ul>
        {offered.map((st) => (
          <li key={st.label}>
            <button
              type="button"
              className="link"
              onClick={() => {
                const r = controller.explainer.stepToRules(st.rules);
                store.getState().setStepMessage(r.ok ? '' : r.message);
              }}
            >
              {st.label}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
