// Every other engine parameter of the scenario and of the compared flow, grouped as the
// engine groups them, generated from the schema. The settings the algorithm catalogue
// controls (the variant, the idle policy, the growth gate, …) belong to the algorithm
// picker: they are shown only while "custom" is compared, and then edit what custom runs.
import { useState } from 'react';
import { useAppState } from '../app/AppContext';
import type { JsonValue } from '../lib/json';
import { algorithmLabel, CONTROLLED_PATHS, CUSTOM, flowSettingOf } from '../scenario/algorithms';
import { flowsOf } from '../scenario/competition';
import { appliesWith, formatValue, PARAMS, requireSpec, settingsDependingOn, specOf } from '../scenario/params';
import { concretePath } from '../scenario/paths';
import { effectiveValue } from '../state/selectors';
import { ParamControl } from './ParamControl';

/** Shown elsewhere (main controls, algorithm picker, timeline) or not a setting. */
const ELSEWHERE = new Set([
  'version',
  'timeline',
  'flows[].algorithm',
  'duration',
  'seed',
  'network.bottleneck.bandwidth',
  'network.bottleneck.delay',
  'network.bottleneck.delay_variation',
  'network.bottleneck.queue_packets',
  'network.bottleneck.loss.model',
  'network.bottleneck.loss.ber',
  'network.bottleneck.loss.probability',
  'network.bottleneck.scheduler',
  'network.bottleneck.borrow',
  // The data direction's discipline and every discipline's parameters: under Path.
  'network.bottleneck.qdisc',
  ...settingsDependingOn('network.bottleneck.qdisc'),
  'flows[].ecn',
  'cross',
  'flows[].reserved_bandwidth',
  'flows[].app.kind',
  'flows[].app.bytes',
  'flows[].app.write_size',
  'flows[].app.write_interval',
  'flows[].app.on',
  'flows[].app.off',
  'flows[].app.writes',
]);

/** Flow settings the competition's flow list edits per flow. */
const FLOW_LIST = new Set(['flows[].start', 'flows[].access.delay']);

const GROUP_TITLES: Record<string, string> = {
  run: 'Run and trace',
  network: 'Network',
  flow: 'Flow and access links',
  tcp: 'TCP sender and receiver',
  cc: 'Congestion control details',
  rto: 'Retransmission timer',
  receiver: 'Receiver',
  app: 'Application',
};

/** The “All settings” section. */
export function AdvancedControls() {
  // In a competition the flow list chooses each flow's algorithm; these set every flow.
  const compete = useAppState((s) => s.mode === 'compete');
  const custom = useAppState((s) => s.mode === 'compare' && s.algorithms.includes(CUSTOM));
  const rest = PARAMS.filter(
    (p) => !ELSEWHERE.has(p.path) && (custom || !CONTROLLED_PATHS.has(p.path)) && !(compete && FLOW_LIST.has(p.path)),
  );
  const groups = [...new Set(rest.map((p) => p.group))];
  // Its ~450 elements are made when it is first opened, not for the first view (a phone's
  // main thread renders the page faster); once made they stay.
  const [shown, setShown] = useState(false);
  return (
    <details className="advanced" onToggle={(e) => e.currentTarget.open && setShown(true)}>
      <summary>All settings ({rest.length} more)</summary>
      {shown && <AllSettings rest={rest} groups={groups} compete={compete} />}
    </details>
  );
}

/** What a setting that acts only under a condition says while no run of the page meets it:
 *  which setting and values it waits for (the engine's `applies_when`); null otherwise. A
 *  compared run's condition is its algorithm's (`flowSettingOf`), a competing flow's its own. */
function useConditionNote(path: string): string | null {
  const cond = specOf(path)?.applies_when;
  const acts = useAppState((s) => {
    if (!cond) return true;
    const flowPath = cond.path.startsWith(FLOW) ? cond.path.slice(FLOW.length) : null;
    const values: (JsonValue | undefined)[] =
      flowPath === null
        ? [cond.path, ...(cond.also ?? [])].map((p) => effectiveValue(s, p))
        : s.mode === 'compare'
          ? s.algorithms.map((a) => flowSettingOf(s.scenario, a, flowPath))
          : flowsOf(s.scenario).map((_, i) => effectiveValue(s, concretePath(cond.path, i)));
    return values.some((v) => appliesWith(path, v));
  });
  if (!cond || acts) return null;
  const when = requireSpec(cond.path);
  const values = cond.values.map((v: JsonValue) => formatValue(when, v)).join(' or ');
  const owner = CONTROLLED_PATHS.has(cond.path) ? ', which the algorithm choice sets' : '';
  const labels = [cond.path, ...(cond.also ?? [])].map((p) => `“${requireSpec(p).label}”`).join(' or ');
  return `No effect in these runs: it acts only when ${labels} is ${values}${owner}.`;
}

const FLOW = 'flows[].';

/** One setting of the list, with its notes. */
function Setting({ path, compete }: { path: string; compete: boolean }) {
  const condition = useConditionNote(path);
  const notes = [
    CONTROLLED_PATHS.has(path) ? `Set by each compared algorithm; here, what “${algorithmLabel(CUSTOM)}” runs.` : null,
    condition,
  ].filter((n) => n !== null);
  return (
    <ParamControl
      path={concretePath(path, 0)}
      variant="number"
      allFlows={compete && path.startsWith('flows[].')}
      note={notes.length > 0 ? notes.join(' ') : undefined}
    />
  );
}

function AllSettings({ rest, groups, compete }: { rest: typeof PARAMS; groups: string[]; compete: boolean }) {
  return (
    <>
      <p className="control-help">
        Every parameter of the engine, with its unit and allowed range.{' '}
        {compete
          ? 'In a competition a flow setting here applies to every flow (shown: flow 0’s value).'
          : 'Settings under “flows” apply to the compared flow.'}
      </p>
      {groups.map((g) => (
        <section key={g} className="control-group" aria-label={GROUP_TITLES[g] ?? g}>
          <h3>{GROUP_TITLES[g] ?? g}</h3>
          {rest
            .filter((p) => p.group === g)
            .map((p) => (
              <Setting key={p.path} path={p.path} compete={compete} />
            ))}
        </section>
      ))}
    </>
  );
}
