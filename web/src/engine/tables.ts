// Typed access to the tables the engine publishes through wasm (schema, defaults, presets,
// event and phase codes). scripts/setup.mjs writes pkg/tables.json from the very wasm the
// worker runs, so names, units, defaults and ranges are never retyped in the UI.
import raw from './pkg/tables.json';
import type { JsonObject, JsonValue } from '../lib/json';

/** A parameter's value type in the engine's schema. */
export type ParamType = 'int' | 'float' | 'enum' | 'bool' | 'list';

/** One choice of an enum parameter. */
export interface EnumOption {
  value: string;
  label: string;
  help: string;
}

/** One field of a list parameter's items (scripted drops, writes, timeline entries). */
export interface ItemField {
  name: string;
  type: 'int' | 'float' | 'path' | 'value';
  unit: string;
  help: string;
  min?: number;
  max?: number;
  default?: number;
}

/** One row of the engine's parameter table. `flows[].x` paths are per-flow fields. */
export interface ParamSpec {
  path: string;
  label: string;
  group: string;
  unit: string;
  type: ParamType;
  default: JsonValue;
  help: string;
  /** True when the value may change during a run (`Sim.apply_change`). */
  live: boolean;
  min?: number;
  max?: number;
  scale?: 'linear' | 'log';
  options?: EnumOption[];
  items?: ItemField[];
  /** How to show the value: displayed = value × factor, in `unit`. */
  display?: { unit: string; factor: number };
}

/** The engine's scenario schema. */
export interface Schema {
  version: number;
  params: ParamSpec[];
}

/** A complete scenario as the engine resolves it (every setting present). */
export type Scenario = JsonObject;

/** An engine preset: a named, complete scenario. */
export interface Preset {
  name: string;
  description: string;
  scenario: Scenario;
}

/** Event kinds and congestion-control phases by numeric code. */
export interface Codes {
  events: string[];
  phases: string[];
}

/** Everything the UI reads from the engine at build time. */
export interface EngineTables {
  schema: Schema;
  defaultScenario: Scenario;
  presets: Preset[];
  codes: Codes;
}

/** The tables of the engine this build runs. */
export const tables: EngineTables = raw as unknown as EngineTables;
