// Cross traffic (the scenario's `cross` list of non-reactive UDP sources) and the traffic
// classes of the throughput table, as the page names them. Field names, kinds, units,
// defaults and ranges come from the engine's schema (`cross`'s item fields).
import type { ItemField, ParamSpec } from '../engine/tables';
import { isJsonObject, type JsonObject, type JsonValue } from '../lib/json';
import { formatNumber, requireSpec } from './params';

/** The schema's `cross` parameter (a list). */
export const CROSS_SPEC: ParamSpec = requireSpec('cross');

/** The fields of a cross-traffic source, in the schema's order. */
export const CROSS_FIELDS: readonly ItemField[] = CROSS_SPEC.items ?? [];

/** A field of a source by name (undefined if the engine has no such field). */
export function crossField(name: string): ItemField | undefined {
  return CROSS_FIELDS.find((f) => f.name === name);
}

/** The scenario's cross-traffic sources. */
export function crossOf(scenario: JsonObject): JsonObject[] {
  return Array.isArray(scenario.cross) ? scenario.cross.filter(isJsonObject) : [];
}

/** A new source: every field at the engine's default. */
export function newCrossSource(): JsonObject {
  const out: JsonObject = {};
  for (const f of CROSS_FIELDS) if (f.default !== undefined) out[f.name] = structuredClone(f.default);
  return out;
}

/** The label of a source kind ("CBR", "On/off"), from the schema. */
export function crossKindLabel(kind: JsonValue | undefined): string {
  const options = crossField('kind')?.options ?? [];
  return options.find((o) => o.value === kind)?.label ?? String(kind ?? '');
}

/** "cross 0 (UDP CBR 100 Mbit/s)": a source as the summary, the plot and the controls name it. */
export function crossLabel(index: number, source: JsonObject | undefined): string {
  if (!source) return `cross ${index}`;
  const rate = typeof source.rate === 'number' ? ` ${formatNumber(source.rate / 1e6, 4)} Mbit/s` : '';
  const back = source.reverse === true ? ', ACK direction' : '';
  return `cross ${index} (UDP ${crossKindLabel(source.kind)}${rate}${back})`;
}

/** A class of the throughput table: a TCP flow or a cross-traffic source. */
export interface TrafficClass {
  kind: 'flow' | 'cross';
  /** Flow or source index. */
  index: number;
  /** The engine's name ("flow 0", "cross 1"). */
  name: string;
}

/** Reads the engine's class names ("flow 0", "cross 1"); an unknown name counts as a flow. */
export function trafficClasses(names: readonly string[]): TrafficClass[] {
  return names.map((name, i) => {
    const m = /^(flow|cross) (\d+)$/.exec(name);
    return m ? { kind: m[1] as 'flow' | 'cross', index: Number(m[2]), name } : { kind: 'flow', index: i, name };
  });
}
