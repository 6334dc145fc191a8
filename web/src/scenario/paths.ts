// Three spellings of one parameter:
//   schema path   flows[].app.kind      (the engine's parameter table)
//   concrete path flows[0].app.kind     (a field of one scenario; what apply_change takes)
//   URL key       f0.app.kind           (readable in a query string: no brackets to escape)
// Global parameters are spelled the same in all three.
// Also: reads of the few fields the page uses outside the controls (duration, MSS, timeline).
import { isJsonObject, type JsonObject, type JsonValue } from '../lib/json';

const FLOW_PATH = /^flows\[(\d+)\]\.(.+)$/;
const FLOW_KEY = /^f(\d+)\.(.+)$/;

/** `flows[3].x` → {flow: 3, rest: 'x'}; global paths → null. */
export function splitFlowPath(path: string): { flow: number; rest: string } | null {
  const m = FLOW_PATH.exec(path);
  return m ? { flow: Number(m[1]), rest: m[2] ?? '' } : null;
}

/** Concrete path → schema path (`flows[2].x` → `flows[].x`). */
export function schemaPathOf(path: string): string {
  const f = splitFlowPath(path);
  return f ? `flows[].${f.rest}` : path;
}

/** Schema path + flow index → concrete path. */
export function concretePath(schemaPath: string, flow: number): string {
  return schemaPath.startsWith('flows[].') ? `flows[${flow}].${schemaPath.slice('flows[].'.length)}` : schemaPath;
}

/** Concrete path → URL key (`flows[0].app.kind` → `f0.app.kind`). */
export function urlKeyOf(path: string): string {
  const f = splitFlowPath(path);
  return f ? `f${f.flow}.${f.rest}` : path;
}

/** URL key → concrete path; `f0.x` → `flows[0].x`. Leading zeros are not accepted. */
export function pathOfUrlKey(key: string): string {
  const m = FLOW_KEY.exec(key);
  if (m && String(Number(m[1])) === m[1]) return `flows[${m[1]}].${m[2] ?? ''}`;
  return key;
}

/** Reads a concrete path in a scenario object; undefined when absent. */
export function getAt(doc: JsonObject, path: string): JsonValue | undefined {
  let cur: JsonValue | undefined = doc;
  const f = splitFlowPath(path);
  if (f) {
    const flows: JsonValue | undefined = doc.flows;
    cur = Array.isArray(flows) ? flows[f.flow] : undefined;
  }
  return getIn(cur, (f ? f.rest : path).split('.'));
}

/** The value at `keys` (a path already split at its dots) inside `value`; undefined when
 *  absent. */
export function getIn(value: JsonValue | undefined, keys: readonly string[]): JsonValue | undefined {
  let cur = value;
  for (const key of keys) {
    if (!isJsonObject(cur)) return undefined;
    cur = cur[key];
  }
  return cur;
}

/** A copy of `doc` with `path` set to `value` (intermediate objects are created). */
export function setAt(doc: JsonObject, path: string, value: JsonValue): JsonObject {
  const f = splitFlowPath(path);
  if (f) {
    const flows = Array.isArray(doc.flows) ? [...doc.flows] : [];
    const flow = flows[f.flow];
    flows[f.flow] = setIn(isJsonObject(flow) ? flow : {}, f.rest.split('.'), value);
    return { ...doc, flows };
  }
  return setIn(doc, path.split('.'), value);
}

function setIn(obj: JsonObject, keys: string[], value: JsonValue): JsonObject {
  const [head, ...rest] = keys;
  if (head === undefined) return obj;
  if (rest.length === 0) return { ...obj, [head]: value };
  const child = obj[head];
  return { ...obj, [head]: setIn(isJsonObject(child) ? child : {}, rest, value) };
}

/** The scenario's duration, s; `fallback` when it has none (only an unvalidated scenario). */
export function durationOf(scenario: JsonObject, fallback = 0): number {
  const d = scenario.duration;
  return typeof d === 'number' && d > 0 ? d : fallback;
}

/** The compared flow's MSS, bytes (plots show bytes in segments). */
export function mssOf(scenario: JsonObject): number {
  const mss = getAt(scenario, 'flows[0].tcp.mss');
  return typeof mss === 'number' && mss > 0 ? mss : 1460;
}

/** Flow i's segment size (flows[i].tcp.mss), else flow 0's: a comparison runs flow 0 with
 *  each algorithm, a competition names each flow. */
export function mssOfFlow(scenario: JsonObject, i: number): number {
  const mss = getAt(scenario, `flows[${i}].tcp.mss`);
  return typeof mss === 'number' && mss > 0 ? mss : mssOf(scenario);
}

/** The timeline's changes ({at, set, value} objects). */
export function timelineOf(scenario: JsonObject): JsonObject[] {
  return Array.isArray(scenario.timeline) ? scenario.timeline.filter(isJsonObject) : [];
}
