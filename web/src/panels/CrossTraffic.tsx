// "Competing traffic": the non-reactive UDP sources that share the bottleneck (the
// scenario's `cross` list) and how the bottleneck shares itself out (the scheduler, and
// whether classes may borrow idle capacity). Every field's name, unit, range, default and
// help comes from the schema's `cross` item fields; values the engine refuses (too many
// sources, reservations above the bandwidth) are not applied and its message is shown.
import { useMemo } from 'react';
import { useApp, useAppState } from '../app/AppContext';
import type { ParamSpec } from '../engine/tables';
import { isJsonObject, type JsonObject, type JsonValue } from '../lib/json';
import { CROSS_FIELDS, CROSS_SPEC, crossLabel, newCrossSource } from '../scenario/cross';
import { itemSpec, requireSpec } from '../scenario/params';
import { PLOT_IDS } from '../scenario/shareState';
import { effectiveValue } from '../state/selectors';
import { ParamControl, SpecControl } from './ParamControl';

/** Fields that apply to one kind of source only (the schema's help says so). */
const ONLY_FOR_KIND: Record<string, string> = { on: 'on_off', off: 'on_off', interval: 'ping' };

/** Fields shown first; the rest are under "More". */
const MAIN_FIELDS = new Set(['kind', 'rate', 'on', 'off', 'interval']);

/** The scheduler choice that enforces reservations, and its label in the schema. */
const RESERVATION = 'reservation';
const RESERVATION_LABEL =
  requireSpec('network.bottleneck.scheduler').options?.find((o) => o.value === RESERVATION)?.label ?? RESERVATION;

/** The item fields as control specs, by name. */
const FIELD_SPECS: ReadonlyMap<string, ParamSpec> = new Map(CROSS_FIELDS.map((f) => [f.name, itemSpec(CROSS_SPEC, f)]));

function CrossSource({
  index,
  source,
  onChange,
  onRemove,
}: {
  index: number;
  source: JsonObject;
  onChange: (name: string, value: JsonValue) => void;
  onRemove: () => void;
}) {
  const applies = (name: string) => {
    const kind = ONLY_FOR_KIND[name];
    return kind === undefined || source.kind === kind;
  };
  const control = (name: string) => {
    const spec = FIELD_SPECS.get(name);
    if (!spec) return null;
    return (
      <SpecControl
        key={name}
        spec={spec}
        value={source[name] ?? spec.default}
        onChange={(v) => onChange(name, v)}
        dataPath={`cross[${index}].${name}`}
        variant={name === 'rate' ? 'slider' : 'number'}
      />
    );
  };
  const names = CROSS_FIELDS.map((f) => f.name).filter(applies);
  const legendId = `cross-src-${index}`;
  return (
    <fieldset className="cross-source" aria-labelledby={legendId}>
      <legend id={legendId}>{crossLabel(index, source)}</legend>
      {names.filter((n) => MAIN_FIELDS.has(n)).map(control)}
      <details className="cross-more">
        <summary>More settings of cross {index}</summary>
        {names.filter((n) => !MAIN_FIELDS.has(n)).map(control)}
      </details>
      <button type="button" className="cross-remove" onClick={onRemove}>
        Remove cross {index}
      </button>
    </fieldset>
  );
}

/** The "Competing traffic" group of the controls. */
export function CrossTraffic() {
  const { controller } = useApp();
  const raw = useAppState((s) => effectiveValue(s, 'cross'));
  const shown = useAppState((s) => s.plots);
  const scheduler = useAppState((s) => String(effectiveValue(s, 'network.bottleneck.scheduler')));
  const sources = useMemo(() => (Array.isArray(raw) ? raw.filter(isJsonObject) : []), [raw]);
  const set = (next: JsonObject[], showThroughput = false) =>
    controller.setParam(
      'cross',
      next,
      // Adding competing traffic shows what it does: the throughput plot.
      showThroughput && !shown.includes('throughput')
        ? { plots: PLOT_IDS.filter((p) => p === 'throughput' || shown.includes(p)) }
        : {},
    );
  return (
    <section className="control-group" aria-labelledby="grp-cross">
      <h2 id="grp-cross">Competing traffic</h2>
      <p className="control-help">{CROSS_SPEC.help}</p>
      {sources.length === 0 && <p className="cross-none">No cross traffic: the flow has the bottleneck to itself.</p>}
      {sources.map((source, i) => (
        <CrossSource
          key={i}
          index={i}
          source={source}
          onChange={(name, value) => set(sources.map((s, j) => (j === i ? { ...s, [name]: value } : s)))}
          onRemove={() => set(sources.filter((_, j) => j !== i))}
        />
      ))}
      <button type="button" className="cross-add" onClick={() => set([...sources, newCrossSource()], true)}>
        Add a UDP source
      </button>
      <ParamControl path="network.bottleneck.scheduler" />
      <ParamControl
        path="network.bottleneck.borrow"
        disabled={scheduler !== RESERVATION}
        note={scheduler !== RESERVATION ? `Used with the “${RESERVATION_LABEL}” scheduler.` : undefined}
      />
    </section>
  );
}
