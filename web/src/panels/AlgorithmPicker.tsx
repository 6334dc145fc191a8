// Which algorithms run on the same scenario and seed: every entry of the engine's catalogue,
// under its group's heading, and "custom" (the scenario's own flow-0 settings) when the
// scenario has them. Descriptions are always the checkboxes' accessible descriptions and can
// be shown as text (a phone or a keyboard has no hover).
import { useId, useState, type CSSProperties } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useApp, useAppState } from '../app/AppContext';
import type { Scenario } from '../engine/tables';
import { AlgorithmSwatch } from '../lib/AlgorithmSwatch';
import {
  algorithmDescription,
  algorithmLabel,
  CONTROLLED_KEYS,
  CUSTOM,
  GROUPS,
  isCustomFlow,
  type AlgorithmName,
} from '../scenario/algorithms';
import { formatValue, requireSpec } from '../scenario/params';
import { getAt } from '../scenario/paths';
import { ProfileNote } from './ProfileNote';

/** "Algorithm: Reno · Idle / application-limited policy: CWV (RFC 2861) · …": what custom runs. */
function customSettingsText(scenario: Scenario): string {
  return CONTROLLED_KEYS.map((k) => {
    const spec = requireSpec(`flows[].${k}`);
    return `${spec.label}: ${formatValue(spec, getAt(scenario, `flows[0].${k}`))}`;
  }).join(' · ');
}

/** Columns as wide as the group's longest label needs (checkbox, swatch, text on one
 *  line): short labels share a row, long ones get a row each, at any width. */
function columnWidth(labels: readonly string[]): CSSProperties {
  const longest = Math.max(0, ...labels.map((l) => l.length));
  return { '--alg-col': `${Math.max(8.6, 4.3 + 0.52 * longest)}rem` } as CSSProperties;
}

function Entry({
  name,
  label,
  description,
  describe,
  selected,
  onToggle,
}: {
  name: AlgorithmName;
  label: string;
  description: string;
  describe: boolean;
  selected: readonly AlgorithmName[];
  onToggle: (name: AlgorithmName) => void;
}) {
  const descId = useId();
  const checked = selected.includes(name);
  const only = checked && selected.length === 1;
  return (
    <li className="algorithm-entry">
      <label className="algorithm" title={description}>
        <input
          type="checkbox"
          checked={checked}
          aria-disabled={only || undefined}
          aria-describedby={descId}
          onChange={() => {
            if (!only) onToggle(name);
          }}
        />
        <AlgorithmSwatch algorithm={name} width={30} />
        <span>{label}</span>
      </label>
      {/* Hidden text still describes the checkbox to assistive technology. */}
      <p id={descId} className="algorithm-help" hidden={!describe}>
        {description}
      </p>
    </li>
  );
}

/** Checkboxes, one per algorithm with its line style, grouped as the catalogue groups them. */
export function AlgorithmPicker() {
  const { controller } = useApp();
  const selected = useAppState(useShallow((s) => s.algorithms));
  const customText = useAppState((s) => (isCustomFlow(s.scenario) ? customSettingsText(s.scenario) : null));
  const [describe, setDescribe] = useState(false);
  const headId = useId();
  const toggle = (name: AlgorithmName) => controller.toggleAlgorithm(name);
  const showCustom = customText !== null || selected.includes(CUSTOM);
  return (
    <section className={`algorithms${describe ? ' describing' : ''}`} aria-labelledby={headId}>
      <div className="algorithms-head">
        <h2 id={headId}>Compare algorithms</h2>
        <button type="button" className="link-button" aria-expanded={describe} onClick={() => setDescribe((d) => !d)}>
          {describe ? 'Hide descriptions' : 'Describe each'}
        </button>
      </div>
      {showCustom && (
        <fieldset className="algorithm-group">
          <legend>This scenario</legend>
          <ul className="algorithm-list">
            <Entry
              name={CUSTOM}
              label={`${algorithmLabel(CUSTOM)} (this scenario’s own settings)`}
              description={customText ?? algorithmDescription(CUSTOM)}
              describe={describe}
              selected={selected}
              onToggle={toggle}
            />
          </ul>
        </fieldset>
      )}
      {GROUPS.map((g) => {
        const names = g.entries.map((e) => e.name);
        const onlyThese = selected.length === names.length && names.every((n) => selected.includes(n));
        const allIn = names.every((n) => selected.includes(n));
        return (
          <fieldset key={g.name} className="algorithm-group">
            <legend>{g.name}</legend>
            <ul className="algorithm-list" style={columnWidth(g.entries.map((e) => e.label))}>
              {g.entries.map((e) => (
                <Entry
                  key={e.name}
                  name={e.name}
                  label={e.label}
                  description={e.description}
                  describe={describe}
                  selected={selected}
                  onToggle={toggle}
                />
              ))}
            </ul>
            {names.length > 1 && (
              <div className="group-actions">
                <button
                  type="button"
                  className="link-button"
                  disabled={onlyThese}
                  aria-label={`Compare only these: ${g.name}`}
                  onClick={() => controller.setAlgorithms(names)}
                >
                  Compare only these
                </button>
                <button
                  type="button"
                  className="link-button"
                  disabled={allIn}
                  aria-label={`Add all ${names.length}: ${g.name}`}
                  onClick={() => controller.setAlgorithms([...selected, ...names])}
                >
                  Add all {names.length}
                </button>
              </div>
            )}
            {/* Below the checked algorithms whose runs do not use every control. */}
            <ProfileNote after={g.name} />
          </fieldset>
        );
      })}
    </section>
  );
}
