// The bottleneck's queue discipline under Path: the engine's choices as a row of buttons
// (one tap picks one, on a phone too), the chosen discipline's help, and the parameters
// the engine says act under it (`applies_when`: a discipline's own settings, for either
// direction's choice). Choices, labels, help texts and parameters all come from the schema.
import { useId } from 'react';
import { useApp, useAppState } from '../app/AppContext';
import { requireSpec, settingsUnder } from '../scenario/params';
import { PLOT_IDS } from '../scenario/shareState';
import { effectiveValue } from '../state/selectors';
import { ParamControl } from './ParamControl';

export const QDISC = 'network.bottleneck.qdisc';
const REVERSE_QDISC = 'network.bottleneck.reverse_qdisc';
const SPEC = requireSpec(QDISC);

/** The discipline's choice (data direction), as radio buttons. */
function DisciplineChoice() {
  const { controller, store } = useApp();
  const value = useAppState((s) => String(effectiveValue(s, QDISC)));
  // A discipline's target, sojourn and dropping state are on the queueing-delay plot: the
  // first managed discipline shows it.
  const choose = (v: string) => {
    const plots = store.getState().plots;
    const show = v !== SPEC.default && value === SPEC.default && !plots.includes('qdelay');
    controller.setParam(QDISC, v, show ? { plots: PLOT_IDS.filter((p) => p === 'qdelay' || plots.includes(p)) } : {});
  };
  const id = useId();
  const options = SPEC.options ?? [];
  const chosen = options.find((o) => o.value === value);
  return (
    <fieldset className="control control-choices" data-path={QDISC} aria-describedby={`${id}-help`}>
      <legend className="control-label">{SPEC.label}</legend>
      <div className="choice-row">
        {options.map((o) => (
          <label key={o.value} className={`choice${o.value === value ? ' is-chosen' : ''}`} title={o.help}>
            <input
              type="radio"
              name={id}
              value={o.value}
              checked={o.value === value}
              onChange={() => choose(o.value)}
            />
            <span>{o.label}</span>
          </label>
        ))}
      </div>
      <p id={`${id}-help`} className="control-help">
        {chosen ? chosen.help : SPEC.help}
      </p>
    </fieldset>
  );
}

/** The parameters of the disciplines in force (either direction), in the engine's order. */
function useDisciplineSettings(): string[] {
  const fwd = useAppState((s) => String(effectiveValue(s, QDISC)));
  const rev = useAppState((s) => String(effectiveValue(s, REVERSE_QDISC)));
  return [...new Set([...settingsUnder(QDISC, fwd), ...settingsUnder(REVERSE_QDISC, rev)])];
}

/** The discipline's choice and its parameters. */
export function QueueDiscipline() {
  const settings = useDisciplineSettings();
  return (
    <div className="qdisc-controls">
      <DisciplineChoice />
      {settings.map((p) => (
        <ParamControl key={p} path={p} variant={requireSpec(p).type === 'bool' ? 'slider' : 'number'} />
      ))}
    </div>
  );
}
