// Which algorithms run on the same scenario and seed.
import { useShallow } from 'zustand/react/shallow';
import { useApp, useAppState } from '../app/AppContext';
import { algStyle, markerPath } from '../lib/styles';
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
          const st = algStyle(v.value);
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
              <svg width="30" height="14" aria-hidden="true">
                <line
                  x1="1"
                  y1="7"
                  x2="29"
                  y2="7"
                  stroke={st.color}
                  strokeWidth="2.5"
                  strokeDasharray={st.dash.join(' ')}
                />
                <path transform="translate(15,7)" d={markerPath(st.marker, 4)} fill={st.color} stroke="#fff" />
              </svg>
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
