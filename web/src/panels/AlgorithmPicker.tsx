// Which algorithms run on the same scenario and seed.
import { useShallow } from 'zustand/react/shallow';
import { useApp, useAppState } from '../app/AppContext';
import { AlgorithmSwatch } from '../lib/AlgorithmSwatch';
import { VARIANT_NAMES, VARIANTS } from '../scenario/algorithms';

/** Checkboxes, one per algorithm, each with its line style. */
export function AlgorithmPicker() {
  const { controller } = useApp();
  const selected = useAppState(useShallow((s) => s.algorithms));
  const all = selected.length === VARIANT_NAMES.length;
  return (
    <fieldset className="algorithms">
      <legend>Compare algorithms</legend>
      <div className="algorithm-list">
        {VARIANTS.map((v) => {
          const checked = selected.includes(v.value);
          const only = checked && selected.length === 1;
          return (
            <label key={v.value} className="algorithm" title={v.help}>
              <input
                type="checkbox"
                checked={checked}
                aria-disabled={only || undefined}
                onChange={() => {
                  if (!only) controller.toggleAlgorithm(v.value);
                }}
              />
              <AlgorithmSwatch variant={v.value} width={30} />
              <span>{v.label}</span>
            </label>
          );
        })}
      </div>
      <button
        type="button"
        className="link-button"
        disabled={all}
        onClick={() => controller.setAlgorithms(VARIANT_NAMES)}
      >
        Compare all {VARIANT_NAMES.length}
      </button>
    </fieldset>
  );
}
