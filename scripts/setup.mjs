#!/usr/bin/env node
// Makes the engine's WebAssembly build available to the web app, installing what is missing:
//   1. the wasm32-unknown-unknown Rust target (rust-toolchain.toml does not add it here),
//   2. the wasm-bindgen CLI at exactly the version of the wasm-bindgen crate in Cargo.lock,
//   3. the wasm builds (cargo, incremental; profile `wasm`, tuned for size) and their JS
//      bindings: the full engine in web/src/engine/pkg, the page's first-view engine in
//      web/src/engine/pkg/lite (no export, sheet or theory functions),
//   4. web/src/engine/pkg/tables.json (schema, defaults, presets, codes, catalogue, glossary:
//      what the first view needs) and web/src/engine/pkg/teaching.json (the lessons' texts,
//      the presets' steps, the explanation rules and their kinds: loaded by the page after its
//      first view, or when a lesson or a decision needs them), read from that wasm,
//   5. web/src/engine/pkg/vocabulary.ts: the event kinds, phases, trace tables, columns and
//      limits as literal types and `as const` arrays, which the page's code is typed by.
// Run by `npm start`, `npm run build` and `npm test`; never by `npm install`.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const engineDir = join(root, 'engine');
const pkgDir = join(root, 'web', 'src', 'engine', 'pkg');
const TARGET = 'wasm32-unknown-unknown';

const say = (msg) => console.log(`\x1b[36m[setup]\x1b[0m ${msg}`);

function fail(msg) {
  console.error(`\x1b[31m[setup] ${msg}\x1b[0m`);
  process.exit(1);
}

/** Runs a command with inherited output; exits with its message if it fails. */
function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  if (res.error) fail(`could not run ${cmd}: ${res.error.message}`);
  if (res.status !== 0) fail(`${cmd} ${args.join(' ')} failed (exit ${res.status})`);
}

/** Output of a command, or null when it is missing or fails. */
function output(cmd, args) {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return null;
  }
}

/** The wasm-bindgen crate version pinned in engine/Cargo.lock (the CLI must match it). */
export function wasmBindgenVersion(lockText) {
  const m = lockText.match(/\[\[package\]\]\s*\nname = "wasm-bindgen"\s*\nversion = "([^"]+)"/);
  if (!m) throw new Error('engine/Cargo.lock has no wasm-bindgen package');
  return m[1];
}

function ensureRust() {
  if (!output('cargo', ['--version'])) {
    fail('cargo is not installed. Install Rust with rustup (https://rustup.rs), then run again.');
  }
  const installed = output('rustup', ['target', 'list', '--installed']);
  if (installed === null) {
    fail(`rustup is not installed; it is needed to add the ${TARGET} target.`);
  }
  if (installed.split(/\s+/).includes(TARGET)) {
    say(`Rust target ${TARGET}: installed`);
  } else {
    say(`Rust target ${TARGET} is missing: running rustup target add ${TARGET} (a few seconds)`);
    run('rustup', ['target', 'add', TARGET], { cwd: engineDir });
  }
}

function ensureWasmBindgen() {
  const want = wasmBindgenVersion(readFileSync(join(engineDir, 'Cargo.lock'), 'utf8'));
  const have = output('wasm-bindgen', ['--version'])?.trim().split(/\s+/)[1];
  if (have === want) {
    say(`wasm-bindgen CLI ${want}: installed`);
    return;
  }
  say(
    have
      ? `wasm-bindgen CLI is ${have} but the engine pins ${want}: reinstalling`
      : `wasm-bindgen CLI ${want} is missing: installing it`,
  );
  // No --locked: one of its pinned dependencies is missing from the crate mirror.
  say(`cargo install wasm-bindgen-cli --version ${want} (about 4 minutes on 2 cores)`);
  run('cargo', ['install', 'wasm-bindgen-cli', '--version', want]);
}

/** The cargo profile of the wasm builds (engine/Cargo.toml: release, tuned for size). */
const PROFILE = 'wasm';

/**
 * The two wasm builds, each with its JS bindings: the full engine (feature `tools`: the
 * tables setup reads, the exporters, exercise sheets, theory) in web/src/engine/pkg, used by
 * the export and sheet workers and the theory note; and the engine without those exports in
 * web/src/engine/pkg/lite, which the page loads first (the engine worker and validation).
 * wasm-ld keeps only what an export reaches, so the lite one is much smaller.
 */
export const WASM_BUILDS = [
  { name: 'full', features: [], out: pkgDir },
  { name: 'lite', features: ['--no-default-features'], out: join(pkgDir, 'lite') },
];

function buildWasm() {
  for (const build of WASM_BUILDS) {
    say(`Building the engine for wasm, ${build.name} (cargo build --profile ${PROFILE}, incremental)`);
    run('cargo', ['build', '--profile', PROFILE, '--target', TARGET, '-p', 'cwndlab-wasm', ...build.features], {
      cwd: engineDir,
    });
    say(`Generating JS bindings into ${relative(root, build.out)} (wasm-bindgen --target web)`);
    run(
      'wasm-bindgen',
      [
        '--target',
        'web',
        '--remove-name-section',
        '--remove-producers-section',
        '--out-dir',
        build.out,
        join(engineDir, 'target', TARGET, PROFILE, 'cwndlab_wasm.wasm'),
      ],
      { cwd: engineDir },
    );
  }
}

/**
 * The engine's vocabulary as a TypeScript module (web/src/engine/pkg/vocabulary.ts), so that
 * the page's tables, marks and styles are typed by it and a misspelt kind, phase, table or
 * column fails `npm run typecheck`: `as const` arrays and the literal unions read from them.
 * `codes`: `codes_json()`; `vocabulary`: `vocabulary_json()` (the page's trace tables, from
 * engine/core/src/export/vocabulary.rs, and the limits).
 */
export function vocabularyModule(codes, vocabulary) {
  const lit = (v) => JSON.stringify(v);
  const record = (entries) => `{\n${entries.map(([k, v]) => `  ${k}: ${lit(v)},`).join('\n')}\n} as const`;
  const tablesBy = (pick) => record(vocabulary.trace_tables.map((t) => [t.name, pick(t)]));
  const eventTables = vocabulary.trace_tables.filter((t) => t.source === 'events');
  for (const t of vocabulary.trace_tables) {
    for (const k of t.kinds)
      if (!codes.events.includes(k)) throw new Error(`setup: table ${t.name} has an unknown kind ${k}`);
  }
  return `// Generated by scripts/setup.mjs from the engine's codes_json() and vocabulary_json()
// (engine/core/src/trace.rs, tcp/cc, export/vocabulary.rs): never edit it, rerun
// \`node scripts/setup.mjs\`. docs/architecture.md, "One vocabulary".

/** Settings the algorithm choice owns beside those every catalogue entry sets: the
 *  controller and the loss recovery (\`SELECTOR_KEYS\`, engine/core/src/scenario/runs.rs). */
export const SELECTOR_KEYS = ${lit(vocabulary.selector_keys)} as const;

/** Event kinds, by code (\`EventKind\`). */
export const EVENT_KINDS = ${lit(codes.events)} as const;
/** An event kind's name. */
export type EventKindName = (typeof EVENT_KINDS)[number];

/** Congestion-control phases, by code (\`Phase\`; the series' phase column). */
export const PHASE_NAMES = ${lit(codes.phases)} as const;
/** A phase's name. */
export type PhaseName = (typeof PHASE_NAMES)[number];

// Column orders of the engine's reads (bit i of a column mask = column i).
export const SERIES_COLUMNS = ${lit(codes.series_columns)} as const;
export const EVENT_COLUMNS = ${lit(codes.event_columns)} as const;
export const QUEUE_COLUMNS = ${lit(codes.queue_columns)} as const;
export const VALIDATION_COLUMNS = ${lit(codes.validation_columns)} as const;
export const RECOVERY_COLUMNS = ${lit(codes.recovery_columns)} as const;
export const THROUGHPUT_COLUMNS = ${lit(codes.throughput_columns)} as const;
export const WRITE_COLUMNS = ${lit(codes.write_columns)} as const;
export const QDISC_COLUMNS = ${lit(codes.qdisc_columns)} as const;
export const TRANSFER_COLUMNS = ${lit(codes.transfer_columns)} as const;
export const PING_COLUMNS = ${lit(codes.ping_columns)} as const;

/** The summary CSV's transfer columns and the field of a flow's \`transfers\` summary each
 *  holds (\`TRANSFER_SUMMARY_COLUMNS\`, engine/core/src/summary.rs). */
export const TRANSFER_SUMMARY_COLUMNS = ${lit(codes.transfer_summary_columns)} as const;
/** The fields of a ping source's summary (\`PING_SUMMARY_FIELDS\`). */
export const PING_SUMMARY_FIELDS = ${lit(codes.ping_summary_fields)} as const;
export const DECISION_INDEX_COLUMNS = ${lit(codes.decision_index_columns)} as const;

/** The textbook round model's conventions (\`cwndlab_core::textbook::Convention\`): name,
 *  title, short name for a plot's label, and what it does after a triple duplicate ACK. */
export const TEXTBOOK_CONVENTIONS = ${lit(codes.textbook_conventions)} as const;
/** A convention's name (the link's \`tb=\`). */
export type TextbookConventionName = (typeof TEXTBOOK_CONVENTIONS)[number]['name'];

/** What a SACK flow's loss timer is armed for, by the recovery series' \`timer_kind\` code. */
export const LOSS_TIMER_KINDS = ${lit(codes.loss_timer_kinds)} as const;

/** The page's trace tables and the columns it keeps of each, in the page's order (what each
 *  column means: engine/core/src/export/vocabulary.rs). */
export const TABLES = ${tablesBy((t) => t.columns)};
/** A trace table's name. */
export type TableName = keyof typeof TABLES;

/** The engine read each table's rows come from. */
export const TABLE_SOURCES = ${tablesBy((t) => t.source)};

/** The event kinds each table read from the event log holds (kinds no table names are not
 *  sent to the page). */
export const EVENT_TABLE_KINDS = ${record(eventTables.map((t) => [t.name, t.kinds]))};
/** A table read from the event log. */
export type EventTableName = keyof typeof EVENT_TABLE_KINDS;

/** Limits the engine enforces that no schema entry states: the most flows in a scenario,
 *  and the event kinds an \`events_select\` mask can name (codes below event_mask_bits: the
 *  page adds 2 ** code, a JavaScript number exact to 2^53). */
export const LIMITS = ${lit(vocabulary.limits)} as const;
`;
}

/**
 * The engine's vocabulary, in two files. tables.json is bundled with the page's first script;
 * teaching.json is a chunk of its own (web/src/engine/teaching.ts), since the first view
 * shows no lesson text, step or rule. The engine's answers are only regrouped here, never
 * reworded: a preset keeps its lesson's `compare` list (loading a preset selects those
 * algorithms), `mode` and `sweep` (the sweep its lesson opens); the lesson's texts and the preset's steps go to teaching.json by
 * preset name. The catalogue's state machines are left out: the page reads a run's machine
 * from the engine that runs it (`Sim.machine_json`).
 */
export function splitTables({
  schema,
  defaultScenario,
  presets,
  families,
  course,
  codes,
  catalogue,
  rules,
  limits,
  sweep,
}) {
  // Every field the engine writes has a place: a new one stops the build until it has one.
  const placed = (what, entry, fields) => {
    for (const f of Object.keys(entry ?? {})) {
      if (!fields.includes(f)) throw new Error(`setup: ${what} has a field "${f}" that splitTables does not place`);
    }
  };
  const lessons = {};
  const steps = {};
  for (const p of presets) {
    placed('a preset', p, ['name', 'title', 'family', 'focus', 'description', 'scenario', 'lesson', 'steps']);
    placed('a lesson', p.lesson, ['look', 'happens', 'source', 'question', 'compare', 'mode', 'sweep']);
    if (p.lesson) {
      const { look, happens, source, question } = p.lesson;
      lessons[p.name] = { look, happens, source, question };
    }
    if (p.steps?.length) steps[p.name] = p.steps;
  }
  for (const e of catalogue)
    placed('a catalogue entry', e, ['name', 'label', 'group', 'description', 'settings', 'rules', 'machine']);
  placed('the rules table', rules, ['rules', 'kinds', 'glossary', 'units']);
  return {
    tables: {
      schema,
      defaultScenario,
      presets: presets.map(({ name, title, family, focus, description, scenario, lesson }) => ({
        name,
        title,
        family,
        focus,
        description,
        scenario,
        lesson: lesson ? { compare: lesson.compare, mode: lesson.mode, sweep: lesson.sweep } : null,
      })),
      // The menu's groups, in order: `[{name, title}]`.
      presetFamilies: families,
      // The course path (issue 41), in teaching order: `[{id, title, preset, teaches}]`.
      course: course.map((stop) => {
        placed('a course stop', stop, ['id', 'title', 'preset', 'teaches']);
        return stop;
      }),
      codes,
      catalogue: catalogue.map(({ name, label, group, description, settings, rules }) => ({
        name,
        label,
        group,
        description,
        settings,
        rules,
      })),
      glossary: rules.glossary,
      // The units windows can be shown in (the page's unit choice, `unit=`), the default first.
      units: rules.units,
      limits,
      sweep,
    },
    teaching: { lessons, steps, rules: rules.rules, kinds: rules.kinds },
  };
}

async function writeTables() {
  // The UI never retypes parameter names, units, defaults or ranges: it reads these files,
  // produced by the very wasm it will run.
  const wasm = await import(join(pkgDir, 'cwndlab_wasm.js'));
  wasm.initSync({ module: readFileSync(join(pkgDir, 'cwndlab_wasm_bg.wasm')) });
  const codes = JSON.parse(wasm.codes_json());
  const vocabulary = JSON.parse(wasm.vocabulary_json());
  const { tables, teaching } = splitTables({
    schema: JSON.parse(wasm.schema_json()),
    defaultScenario: JSON.parse(wasm.default_scenario_json()),
    presets: JSON.parse(wasm.presets_json()),
    families: JSON.parse(wasm.preset_families_json()),
    course: JSON.parse(wasm.course_json()),
    codes,
    catalogue: JSON.parse(wasm.catalogue_json()),
    // The rules every explained decision names, their kinds, and the glossary.
    rules: JSON.parse(wasm.rules_json()),
    limits: vocabulary.limits,
    // Sweeps: the metrics a sweep reports (names, labels, units) and its run limits.
    sweep: JSON.parse(wasm.sweep_vocabulary_json()),
  });
  mkdirSync(pkgDir, { recursive: true });
  writeFileSync(join(pkgDir, 'tables.json'), JSON.stringify(tables, null, 1) + '\n');
  writeFileSync(join(pkgDir, 'teaching.json'), JSON.stringify(teaching, null, 1) + '\n');
  writeFileSync(join(pkgDir, 'vocabulary.ts'), vocabularyModule(codes, vocabulary));
  say(
    `Wrote web/src/engine/pkg/tables.json (${tables.schema.params.length} parameters, ` +
      `${tables.presets.length} presets, ${tables.catalogue.length} algorithms) and teaching.json ` +
      `(${Object.keys(teaching.lessons).length} lessons, ${teaching.rules.length} rules) and vocabulary.ts ` +
      `(${codes.events.length} event kinds, ${vocabulary.trace_tables.length} trace tables)`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  ensureRust();
  ensureWasmBindgen();
  buildWasm();
  await writeTables();
  say('Engine ready.');
}
