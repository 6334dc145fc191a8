// Typed access to the tables the engine publishes through wasm (schema, defaults, presets,
// event and phase codes). scripts/setup.mjs writes pkg/tables.json from the very wasm the
// worker runs, so names, units, defaults and ranges are never retyped in the UI. What the
// first view never shows (the lessons' texts, the presets' steps, the explanation rules) is
// in pkg/teaching.json, loaded later (./teaching.ts).
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

/** One field of a list parameter's items (scripted drops, writes, timeline entries, cross
 *  traffic sources). */
export interface ItemField {
  name: string;
  type: 'int' | 'float' | 'enum' | 'bool' | 'path' | 'value';
  unit: string;
  help: string;
  min?: number;
  max?: number;
  /** The value the engine uses when an item leaves the field out. */
  default?: JsonValue;
  /** The choices of an enum field. */
  options?: EnumOption[];
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
  /** For a setting that acts only under a condition: the setting it depends on and that
   *  setting's values under which it acts (the engine's `schema::Applies`). */
  /** The engine's condition: the setting acts only while `path` (or one of `also`) has one
   *  of `values`. */
  applies_when?: { path: string; values: JsonValue[]; also?: string[] };
}

/** The engine's scenario schema. */
export interface Schema {
  version: number;
  params: ParamSpec[];
}

/** A complete scenario as the engine resolves it (every setting present). */
export type Scenario = JsonObject;

/** What a preset teaches, shown in the app beside the summary (its text, in teaching.json). */
export interface Lesson {
  /** What to look at. */
  look: string;
  /** What happens, and why. */
  happens: string;
  /** The source and section it reproduces. */
  source: string;
  /** One question for the class. */
  question: string;
}

/** What the first view knows of a preset's lesson: that it has one, and what it compares. */
export interface LessonHead {
  /** Catalogue names to compare on it (loading the preset selects them); empty in
   *  competition mode. */
  compare: string[];
  /** `compare`: run once per algorithm of `compare`; `compete`: run once, the flows competing. */
  mode: 'compare' | 'compete';
  /** The link keys of a sweep the lesson opens on its scenario (`sweep=PATH:…&sweepm=…`,
   *  web/src/sweep/link.ts), or null. */
  sweep: string | null;
}

/** Where the explanation tools lead in a preset: a label and the rules whose first
 *  decision it steps to. */
export interface LessonStep {
  label: string;
  /** Rule ids (`RuleSpec.id`). */
  rules: string[];
}

/** An engine preset: a named, complete scenario, and its lesson if it has one (the lesson's
 *  text and the preset's steps are in teaching.json, by the preset's name). */
export interface Preset {
  /** Name on the command line and in links (`preset=`, `lesson=`). */
  name: string;
  /** What a lecturer calls it ("Reno against NewReno: three drops in one window"). */
  title: string;
  /** Its family's name (`Tables.presetFamilies`). */
  family: string;
  /** The run its lesson is about: a catalogue name (`custom`: the preset's own flow-0
   *  settings) or `flow<i>` in a competition; null: no one run. */
  focus: string | null;
  description: string;
  scenario: Scenario;
  lesson: LessonHead | null;
}

/** A family of presets (one source's experiments): a group in the menu. */
export interface PresetFamily {
  name: string;
  /** "Fall & Floyd 1996: the four variants under drops". */
  title: string;
}

/** One named algorithm of the engine's catalogue (`catalogue_json()`). */
export interface CatalogueEntry {
  /** Name in scenarios (`flows[].algorithm`), links (`alg=`) and on the command line. */
  name: string;
  label: string;
  /** Heading it is listed under in the picker. */
  group: string;
  /** One line on what it is. */
  description: string;
  /** Flow settings it implies: path inside a flow (`cc.idle_policy`) → value. */
  settings: Record<string, JsonValue>;
  /** Those of its settings that make it an algorithm (the ones that differ from the
   *  defaults; none for an operating system's profile): a flow that has every one carries
   *  the algorithm, and a comparison's run of another entry takes its settings off
   *  (`carriedAlgorithms`, engine `catalogue::carried`). */
  rules: Record<string, JsonValue>;
}

/** Event kinds and congestion-control phases by numeric code, and each table's columns in
 *  the engine's order (bit i of a column mask = column i). */
export interface Codes {
  events: string[];
  phases: string[];
  series_columns: string[];
  event_columns: string[];
  validation_columns: string[];
  /** Columns of a SACK flow's loss-recovery series (`Sim.recovery_cols`). */
  recovery_columns: string[];
  /** Columns of the throughput table (`Sim.throughput_cols`). */
  throughput_columns: string[];
  /** Columns of a flow's write table (`Sim.writes_cols`). */
  write_columns: string[];
  /** Columns of a flow's transfers table (`Sim.transfers_cols`). */
  transfer_columns: string[];
  /** Columns of a ping source's samples (`Sim.pings_cols`). */
  ping_columns: string[];
  /** The summary CSV's transfer columns, each with the transfers summary field it holds. */
  transfer_summary_columns: [string, string][];
  /** A ping source's summary fields. */
  ping_summary_fields: string[];
  /** Columns of a flow's decision index (`Sim.decisions_index`). */
  decision_index_columns: string[];
  /** Columns of a queue's occupancy (`Sim.queue_cols`). */
  queue_columns: string[];
  /** Columns of the data direction's queue-discipline series (`Sim.qdisc_cols`). */
  qdisc_columns: string[];
}

/** A state of an algorithm's machine: a phase (its code, as in the series' phase column). */
export interface MachineState {
  code: number;
  id: string;
  description: string;
}

/** A transition: from any of `from` (phase codes) to `to` (null: a self-loop). */
export interface MachineTransition {
  from: number[];
  to: number | null;
  label: string;
  /** Rule ids whose decisions take it. */
  rules: string[];
}

/** New CWV's validated / non-validated overlay (ids rather than phase codes). */
export interface MachineOverlay {
  states: { id: string; description: string }[];
  transitions: { from: string; to: string; label: string; rules: string[] }[];
}

/** An algorithm's congestion-control states and transitions (the engine's machine.rs). */
export interface Machine {
  states: MachineState[];
  transitions: MachineTransition[];
  overlay: MachineOverlay | null;
}

/** One explanation rule (`rules_json()`): what it decides, its source and formula, and the
 *  names and units of its inputs and outputs. */
export interface RuleSpec {
  id: string;
  kind: string;
  title: string;
  source: string;
  formula: string;
  inputs: { name: string; unit: string }[];
  outputs: { name: string; unit: string }[];
}

/** A kind of explanation rule (`rules_json().kinds`). */
export interface RuleKind {
  id: string;
  description: string;
}

/** A term of the glossary (`rules_json().glossary`). */
export interface GlossaryEntry {
  term: string;
  label: string;
  definition: string;
}

/** A unit windows and byte counts can be shown in (`rules_json().units`, the engine's
 *  `ShownUnit`): the page's unit choice, `unit=` in its links. */
export interface ShownUnitEntry {
  /** "segments", "bytes" (in links and `cwndlab exercise --unit`). */
  name: string;
  label: string;
  /** The word for one ("segment"). */
  singular: string;
  /** After a number ("seg", "B"). */
  symbol: string;
  description: string;
}

/** Limits the engine enforces that no schema entry states (`vocabulary_json().limits`; the
 *  page's code reads them typed from pkg/vocabulary.ts, `LIMITS`). */
export interface Limits {
  /** Most flows in one scenario. */
  max_flows: number;
  /** Event kinds an `events_select` mask can name (a u32: 32). */
  event_mask_bits: number;
}

/** A metric a sweep reports (a per-flow summary field; `cwndlab_core::sweep`). */
export interface SweepMetric {
  name: string;
  label: string;
  /** "" for a count or a ratio. */
  unit: string;
}

/** Sweeps (`sweep_vocabulary_json()`): the metrics, the run limits, what the spread is. */
export interface SweepTables {
  metrics: SweepMetric[];
  max_runs: number;
  /** Most runs of a sweep in the page. */
  page_max_runs: number;
  /** What the std, min and max of a point are over. */
  spread: string;
}

/** A stop on the course path (the engine's `presets::course`): the lessons in a teaching
 *  order. */
export interface CourseStop {
  /** Stable id, in links (`course=<id>`) and in the saved progress. */
  id: string;
  title: string;
  /** The preset it opens (`Preset.name`). */
  preset: string;
  /** One line on what it teaches. */
  teaches: string;
}

/** Everything the UI reads from the engine at build time. */
export interface EngineTables {
  schema: Schema;
  defaultScenario: Scenario;
  presets: Preset[];
  /** The presets' families, in menu order (`preset_families_json()`). */
  presetFamilies: PresetFamily[];
  /** The course path, in teaching order (`course_json()`). */
  course: CourseStop[];
  codes: Codes;
  catalogue: CatalogueEntry[];
  /** The glossary of the terms on screen (the rules themselves are in teaching.json). */
  glossary: GlossaryEntry[];
  /** The units windows can be shown in, the default first. */
  units: ShownUnitEntry[];
  limits: Limits;
  sweep: SweepTables;
}

/** The tables of the engine this build runs. */
export const tables: EngineTables = raw as unknown as EngineTables;
