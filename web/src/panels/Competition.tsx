// Comparison or competition, and the competition's flows. In comparison mode the algorithm
// picker chooses what runs on flow 0; in competition mode a compact list edits every flow of
// the one run: its algorithm (the engine's catalogue, names and descriptions from it), its
// application (kind and main parameters, from the schema), start time, reservation and
// access delay. Flows are added (a copy of the last) and removed here; the engine's flow
// limit is said when it is reached.
import { useId, useState, type ReactNode } from 'react';
import { useApp, useAppState } from '../app/AppContext';
import type { ParamSpec } from '../engine/tables';
import { AlgorithmSwatch } from '../lib/AlgorithmSwatch';
import type { JsonValue } from '../lib/json';
import { algorithmDescription, algorithmLabel, CUSTOM, GROUPS } from '../scenario/algorithms';
import { flowAlgorithm, flowsOf, flowStyle, MAX_FLOWS, maxFlowsText, MODES, type Mode } from '../scenario/competition';
import { displayUnit, requireSpec, settingsUnder } from '../scenario/params';
import { effectiveValue } from '../state/selectors';
import { AlgorithmPicker } from './AlgorithmPicker';
import { NumberBox, SpecControl } from './ParamControl';

const MODE_LABEL: Record<Mode, { label: string; help: string }> = {
  compare: {
    label: 'Compare algorithms',
    help: 'The same scenario and seed run once per algorithm; each has the path to itself.',
  },
  compete: {
    label: 'Compete on one path',
    help: 'One run: several flows share the bottleneck, each with its own algorithm, application and start.',
  },
};

/** The two modes as radio buttons. */
export function ModeSwitch() {
  const { controller } = useApp();
  const mode = useAppState((s) => s.mode);
  const name = useId();
  const helpId = useId();
  return (
    <fieldset className="mode-switch" aria-describedby={helpId}>
      <legend>Mode</legend>
      <div className="mode-options">
        {MODES.map((m) => (
          <label key={m} className="mode-option">
            <input type="radio" name={name} checked={mode === m} onChange={() => controller.setMode(m)} />
            {MODE_LABEL[m].label}
          </label>
        ))}
      </div>
      <p id={helpId} className="control-help">
        {MODE_LABEL[mode].help}
      </p>
    </fieldset>
  );
}

/** The mode switch, then the algorithm picker (comparison) or the flow list (competition). */
export function ModePanel() {
  const compete = useAppState((s) => s.mode === 'compete');
  return (
    <>
      <ModeSwitch />
      {compete ? <FlowTable /> : <AlgorithmPicker />}
    </>
  );
}

/** An application kind's fields, relative to the flow (the engine's `applies_when`). */
function appFields(kind: string): string[] {
  return settingsUnder('flows[].app.kind', kind).map((p) => p.slice('flows[].'.length));
}

/** Per-flow settings beside the algorithm and application. */
const FLOW_FIELDS = ['start', 'reserved_bandwidth', 'access.delay'];

/** Short labels for the compact rows (the schema's label is the accessible name's start). */
const SHORT: Record<string, string> = {
  start: 'Start',
  reserved_bandwidth: 'Reserved',
  'access.delay': 'Access delay',
  'app.bytes': 'Bytes (0: no end)',
  'app.write_size': 'Write size',
  'app.write_interval': 'Interval',
  'app.on': 'On',
  'app.off': 'Off',
};

const ALGORITHM_SPEC = requireSpec('flows[].algorithm');
const APP_KIND_SPEC = requireSpec('flows[].app.kind');
const ECN_SPEC = requireSpec('flows[].ecn');

/** One number of one flow: a short visible label, the exact-value box and the unit. */
function FlowNumber({ flow, field }: { flow: number; field: string }) {
  const { controller } = useApp();
  const path = `flows[${flow}].${field}`;
  const spec: ParamSpec = requireSpec(path);
  const value = useAppState((s) => effectiveValue(s, path));
  const id = useId();
  const helpId = useId();
  const unit = displayUnit(spec);
  const v = typeof value === 'number' ? value : Number(spec.default);
  return (
    <div className="flow-field" data-path={path}>
      <label htmlFor={id} title={spec.help}>
        {SHORT[field] ?? spec.label}
      </label>
      <div className="control-row">
        <NumberBox
          spec={spec}
          value={v}
          id={id}
          disabled={false}
          describedBy={helpId}
          ariaLabel={`${spec.label} of flow ${flow}${unit ? ` in ${unit}` : ''}`}
          onCommit={(x) => controller.setParam(path, x)}
        />
        {unit && <span className="unit">{unit}</span>}
      </div>
      <span id={helpId} className="visually-hidden">
        {spec.help}
      </span>
    </div>
  );
}

/** A list field (scripted writes): the generated control. */
function FlowList({ flow, field }: { flow: number; field: string }) {
  const { controller } = useApp();
  const path = `flows[${flow}].${field}`;
  const spec = requireSpec(path);
  const value = useAppState((s) => effectiveValue(s, path));
  return (
    <SpecControl
      spec={{ ...spec, label: `${spec.label} of flow ${flow}` }}
      value={value}
      onChange={(v: JsonValue) => controller.setParam(path, v)}
      dataPath={path}
      variant="number"
    />
  );
}

function FlowSelect({
  label,
  id,
  value,
  describedBy,
  onChange,
  children,
}: {
  label: string;
  id: string;
  value: string;
  describedBy?: string;
  onChange: (v: string) => void;
  children: ReactNode;
}) {
  return (
    <div className="flow-field flow-select">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} aria-describedby={describedBy} onChange={(e) => onChange(e.target.value)}>
        {children}
      </select>
    </div>
  );
}

/** One flow: its look and name, algorithm, application, numbers, and Remove. */
function FlowRow({ flow, count, describe }: { flow: number; count: number; describe: boolean }) {
  const { controller } = useApp();
  const algorithm = useAppState((s) => flowAlgorithm(s.scenario, flow));
  const kind = useAppState((s) => String(effectiveValue(s, `flows[${flow}].app.kind`) ?? 'bulk'));
  const algId = useId();
  const appId = useId();
  const ecnId = useId();
  const ecn = useAppState((s) => String(effectiveValue(s, `flows[${flow}].ecn`) ?? ECN_SPEC.default));
  const descId = useId();
  const headId = useId();
  const fields = appFields(kind);
  return (
    <li className="flow-row" data-flow={flow}>
      <section aria-labelledby={headId}>
        <div className="flow-head">
          <h3 id={headId} className="flow-name">
            <AlgorithmSwatch algorithm={algorithm} style={flowStyle(flow)} width={30} />
            Flow {flow}
          </h3>
          <button
            type="button"
            className="link-button flow-remove"
            disabled={count <= 1}
            aria-label={`Remove flow ${flow}`}
            onClick={() => controller.removeFlow(flow)}
          >
            Remove
          </button>
        </div>
        <div className="flow-fields">
          <FlowSelect
            label="Algorithm"
            id={algId}
            value={algorithm}
            describedBy={descId}
            onChange={(v) => controller.setFlowAlgorithm(flow, v)}
          >
            {GROUPS.map((g) => (
              <optgroup key={g.name} label={g.name}>
                {g.entries.map((e) => (
                  <option key={e.name} value={e.name} title={e.description}>
                    {e.label}
                  </option>
                ))}
              </optgroup>
            ))}
            {algorithm === CUSTOM && <option value={CUSTOM}>{algorithmLabel(CUSTOM)} (its own settings)</option>}
          </FlowSelect>
          <FlowSelect
            label={APP_KIND_SPEC.label}
            id={appId}
            value={kind}
            onChange={(v) => controller.setParam(`flows[${flow}].app.kind`, v)}
          >
            {(APP_KIND_SPEC.options ?? []).map((o) => (
              <option key={o.value} value={o.value} title={o.help}>
                {o.label}
              </option>
            ))}
          </FlowSelect>
          <FlowSelect
            label={ECN_SPEC.label}
            id={ecnId}
            value={ecn}
            onChange={(v) => controller.setParam(`flows[${flow}].ecn`, v)}
          >
            {(ECN_SPEC.options ?? []).map((o) => (
              <option key={o.value} value={o.value} title={o.help}>
                {o.label}
              </option>
            ))}
          </FlowSelect>
          {fields.map((f) =>
            f === 'app.writes' ? (
              <FlowList key={f} flow={flow} field={f} />
            ) : (
              <FlowNumber key={f} flow={flow} field={f} />
            ),
          )}
          {FLOW_FIELDS.map((f) => (
            <FlowNumber key={f} flow={flow} field={f} />
          ))}
        </div>
        <p id={descId} className="algorithm-help flow-alg-help" hidden={!describe}>
          {algorithmLabel(algorithm)}: {algorithmDescription(algorithm)}
        </p>
      </section>
    </li>
  );
}

/** The flows of the competition. */
export function FlowTable() {
  const { controller } = useApp();
  const count = useAppState((s) => flowsOf(s.scenario).length);
  const [describe, setDescribe] = useState(false);
  const headId = useId();
  const limitId = useId();
  const full = count >= MAX_FLOWS;
  const flows = Array.from({ length: count }, (_, i) => i);
  return (
    <section className="flows-panel" aria-labelledby={headId} data-testid="flows">
      <div className="algorithms-head">
        <h2 id={headId}>Competing flows</h2>
        <button type="button" className="link-button" aria-expanded={describe} onClick={() => setDescribe((d) => !d)}>
          {describe ? 'Hide descriptions' : 'Describe each'}
        </button>
      </div>
      <p className="control-help">
        {ALGORITHM_SPEC.label}s come from the engine’s catalogue; each flow’s application, start and reservation are its
        own. The path, cross traffic and run settings below are shared; “All settings” sets every flow at once.
      </p>
      <ol className="flow-list">
        {flows.map((i) => (
          <FlowRow key={i} flow={i} count={count} describe={describe} />
        ))}
      </ol>
      <div className="flow-actions">
        <button
          type="button"
          className="flow-add"
          aria-disabled={full || undefined}
          aria-describedby={limitId}
          onClick={() => {
            // At the limit the controller says why instead of adding.
            controller.addFlow();
          }}
        >
          Add a flow{count > 0 ? ` (a copy of flow ${count - 1})` : ''}
        </button>
        <p id={limitId} className={`flow-count${full ? ' flow-limit' : ''}`} role="status">
          {count} flow{count === 1 ? '' : 's'}
          {` of at most ${MAX_FLOWS}`}
          {full ? `. ${maxFlowsText()} Remove a flow to add another.` : '.'}
        </p>
      </div>
    </section>
  );
}
