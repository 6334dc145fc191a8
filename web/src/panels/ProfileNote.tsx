// In the algorithm picker: which of the scenario's controls a compared algorithm's run does
// not use, and what it uses instead (a sender profile's initial window, RTOs, delayed ACK…;
// scenario/overrides.ts). Only values that differ from the controls' current ones are named;
// nothing is shown when every run uses the controls. The picker offers it after each of its
// groups; it shows after the last group holding such an algorithm, i.e. right below the
// checked boxes it is about.
import { useId } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useAppState } from '../app/AppContext';
import { catalogueEntry, GROUPS } from '../scenario/algorithms';
import { listNames, overrideGroups } from '../scenario/overrides';

/** The note, after the picker's group `after` when that is the last group with a compared
 *  algorithm that overrides a control (else nothing). */
export function ProfileNote({ after }: { after: string }) {
  const scenario = useAppState((s) => s.scenario);
  const algorithms = useAppState(useShallow((s) => s.algorithms));
  const headId = useId();
  const { groups, plain } = overrideGroups(scenario, algorithms);
  const inGroups = new Set(groups.flatMap((g) => g.names.map((n) => catalogueEntry(n)?.group)));
  const last = GROUPS.filter((g) => inGroups.has(g.name)).at(-1)?.name;
  if (groups.length === 0 || last !== after) return null;
  return (
    <section className="profile-note" aria-labelledby={headId} data-testid="profile-note">
      <h3 id={headId}>Settings an algorithm brings with it</h3>
      {groups.map((g) => (
        <div key={g.names.join(',')} className="profile-group" data-algorithms={g.names.join(',')}>
          <p>
            <strong>{listNames(g.names)}</strong>{' '}
            {g.names.length === 1 ? 'runs with its own settings:' : 'run with their own settings:'}
          </p>
          <ul className="profile-list">
            {g.overrides.map((o) => (
              <li key={o.key} data-key={o.key}>
                {o.label} <b>{o.ownText}</b> <span className="profile-control">(controls: {o.controlText})</span>
              </li>
            ))}
          </ul>
        </div>
      ))}
      <p className="profile-rest">
        {plain.length > 0
          ? `${listNames(plain)} ${plain.length === 1 ? 'runs' : 'run'} on the controls throughout; the others for every setting not listed.`
          : 'Every setting not listed runs as the controls set it.'}
      </p>
    </section>
  );
}
