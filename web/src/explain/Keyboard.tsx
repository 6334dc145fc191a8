// Page-wide keys for the explanation tools, and their help overlay on `?`. Keys typed into a
// field, a select or the plots' own keyboard area are left alone.
import { useEffect, useLayoutEffect, useRef } from 'react';
import { useApp, useAppState } from '../app/AppContext';
import { STEPS, stepAndSay } from './Inspector';
import { PRACTICE_KEYS } from '../practice/PracticePanel';
import { PROJECTOR_KEY } from '../app/Projector';

/** Keys beside the steps. */
const OTHER_KEYS: [string, string][] = [
  ['g', 'Go to a time (the field of the inspector)'],
  [PROJECTOR_KEY, 'Projector mode on or off: large type, thick lines, high contrast'],
  ['?', 'This help'],
  ['Escape', 'Close this help'],
];

/** Installs the keys; renders the help overlay when open. */
export function ExplainKeys() {
  const { controller, store } = useApp();
  const open = useAppState((s) => s.helpOpen);
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
      const el = e.target as HTMLElement | null;
      const tag = el?.tagName ?? '';
      if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || el?.isContentEditable) return;
      const s = store.getState();
      if (e.key === '?') {
        s.setHelpOpen(!s.helpOpen);
        e.preventDefault();
        return;
      }
      if (e.key === 'Escape' && s.helpOpen) {
        s.setHelpOpen(false);
        e.preventDefault();
        return;
      }
      // A practice (predict, then reveal) hides the future: the step keys would show it.
      if (s.practice !== null) return;
      if (e.key === 'g') {
        s.setExplaining(true);
        // The field appears with the inspector's tools.
        setTimeout(() => document.querySelector<HTMLInputElement>('.why-jump input')?.focus(), 0);
        e.preventDefault();
        return;
      }
      for (const step of STEPS) {
        const dir = e.key === step.keys[1] ? 1 : e.key === step.keys[0] ? -1 : 0;
        if (dir !== 0) {
          stepAndSay(controller.explainer, s.setStepMessage, dir, step.target);
          e.preventDefault();
          return;
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [controller, store]);
  // The focus moves before the browser takes the next key (Preact runs a plain effect after
  // the next paint).
  useLayoutEffect(() => {
    if (open) closeRef.current?.focus();
  }, [open]);
  if (!open) return null;
  return (
    <div className="help-backdrop" onClick={() => store.getState().setHelpOpen(false)}>
      <div
        className="help-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="help-heading"
        onClick={(e) => e.stopPropagation()}
      >
        <h2 id="help-heading">Keyboard</h2>
        <table>
          <tbody>
            {STEPS.map((s) => (
              <tr key={s.label}>
                <td>
                  <kbd>{s.keys[0]}</kbd> / <kbd>{s.keys[1]}</kbd>
                </td>
                <td>{s.what}</td>
              </tr>
            ))}
            {OTHER_KEYS.map(([k, what]) => (
              <tr key={k}>
                <td>
                  <kbd>{k}</kbd>
                </td>
                <td>{what}</td>
              </tr>
            ))}
            {PRACTICE_KEYS.map(([k, what]) => (
              <tr key={k}>
                <td>
                  <kbd>{k}</kbd>
                </td>
                <td>{what}</td>
              </tr>
            ))}
            <tr>
              <td>
                <kbd>←</kbd> <kbd>→</kbd> <kbd>[</kbd> <kbd>]</kbd>
              </td>
              <td>On a plot: move the cursor; to the previous or next marked event</td>
            </tr>
          </tbody>
        </table>
        <p className="muted">
          Upper case steps backwards (Shift), lower case forwards. During a practice the step keys and g are off (they
          would show what is to come).
        </p>
        <button type="button" ref={closeRef} onClick={() => store.getState().setHelpOpen(false)}>
          Close
        </button>
      </div>
    </div>
  );
}
