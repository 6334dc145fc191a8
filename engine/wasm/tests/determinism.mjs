// Native == wasm: runs every preset in the wasm build and compares its trace digest with
// engine/core/tests/golden/digests.json, which the native test suite checks against the
// native build. Usage: node engine/wasm/tests/determinism.mjs [PKG_DIR]
// (PKG_DIR holds wasm-bindgen's --target web output; default web/src/engine/pkg).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadWasm } from './load-wasm.mjs';

const root = resolve(import.meta.dirname, '../../..');
const pkg = resolve(process.argv[2] ?? join(root, 'web/src/engine/pkg'));
const wasm = await loadWasm(pkg);
const { Sim, Runs, Exporter } = wasm;

const golden = JSON.parse(readFileSync(join(root, 'engine/core/tests/golden/digests.json'), 'utf8'));
const goldenValidation = JSON.parse(
  readFileSync(join(root, 'engine/core/tests/golden/validation-digests.json'), 'utf8'),
);
const goldenRecovery = JSON.parse(readFileSync(join(root, 'engine/core/tests/golden/recovery-digests.json'), 'utf8'));
const goldenComparisons = JSON.parse(
  readFileSync(join(root, 'engine/core/tests/golden/comparison-digests.json'), 'utf8'),
);
const goldenDecisions = JSON.parse(readFileSync(join(root, 'engine/core/tests/golden/decision-digests.json'), 'utf8'));
const goldenSummaries = JSON.parse(readFileSync(join(root, 'engine/core/tests/golden/summary-digests.json'), 'utf8'));
/** FNV-1a (64 bits) of a text's UTF-8 bytes, as engine/core/tests/golden.rs hashes the summary. */
const fnv1a = (text) => {
  let h = 0xcbf29ce484222325n;
  for (const b of Buffer.from(text, 'utf8')) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return h.toString(16).padStart(16, '0');
};
// The lite build (PKG_DIR web/src/engine/pkg/lite) has neither the tables nor the exporter:
// its presets and catalogue come from the full build's tables.json.
const tables = wasm.presets_json
  ? { presets: JSON.parse(wasm.presets_json()), catalogue: JSON.parse(wasm.catalogue_json()) }
  : JSON.parse(readFileSync(join(root, 'web/src/engine/pkg/tables.json'), 'utf8'));
const presets = tables.presets;
let failures = 0;
for (const p of presets) {
  const sim = new Sim(JSON.stringify(p.scenario));
  sim.run_to_end();
  const d = sim.digest();
  const v = sim.validation_digest();
  const r = sim.recovery_digest();
  const summary = fnv1a(sim.summary_json());
  sim.free();
  if (d !== golden[p.name]) {
    failures++;
    console.error(`MISMATCH ${p.name}: wasm ${d}, native ${golden[p.name]}`);
  }
  if (v !== (goldenValidation[p.name] ?? '')) {
    failures++;
    console.error(`MISMATCH ${p.name} (window validation): wasm ${v}, native ${goldenValidation[p.name]}`);
  }
  if (summary !== goldenSummaries[p.name]) {
    failures++;
    console.error(`MISMATCH ${p.name} (summary): wasm ${summary}, native ${goldenSummaries[p.name]}`);
  }
  if (r !== (goldenRecovery[p.name] ?? '')) {
    failures++;
    console.error(`MISMATCH ${p.name} (SACK recovery): wasm ${r}, native ${goldenRecovery[p.name]}`);
  }
  // The same run with every decision explained: the same decisions as natively.
  const why = new Sim(JSON.stringify(p.scenario));
  why.set_explain(true);
  why.run_to_end();
  const e = why.decisions_digest();
  const count = why.decisions_len();
  why.free();
  if (e !== goldenDecisions[p.name] || count === 0) {
    failures++;
    console.error(`MISMATCH ${p.name} (decisions): wasm ${e} (${count}), native ${goldenDecisions[p.name]}`);
  }
}
// The runs a lesson compares, built as the page builds them (`Runs`: the engine writes each
// algorithm's settings onto flow 0, the settings the algorithm choice owns, SACK's among
// them, back to their defaults first).
const catalogue = new Map(tables.catalogue.map((e) => [e.name, e]));
let comparisons = 0;
for (const p of presets) {
  if (!p.lesson || p.lesson.mode !== 'compare') continue;
  const runs = new Runs(JSON.stringify(p.scenario));
  for (const alg of p.lesson.compare) {
    const sim = runs.sim(alg);
    sim.run_to_end();
    const d = sim.digest();
    sim.free();
    comparisons++;
    const key = `${p.name}@${alg}`;
    if (d !== goldenComparisons[key]) {
      failures++;
      console.error(`MISMATCH ${key}: wasm ${d}, native ${goldenComparisons[key]}`);
    }
  }
  runs.free();
}
if (comparisons !== Object.keys(goldenComparisons).length) {
  failures++;
  console.error(`comparison runs: wasm ${comparisons}, native ${Object.keys(goldenComparisons).length}`);
}
// Exports: the bytes the page downloads (wasm Exporter) equal what the native CLI writes
// (--out tables, --pcap at each point, --qlog) for the same scenario.
const cli = [join(root, 'engine/target/debug/cwndlab'), join(root, 'engine/target/release/cwndlab')].find(existsSync);
let exportFiles = 0;
if (!Exporter) {
  console.log(`${pkg}: no Exporter in this build; exports are compared with the full build`);
} else if (!cli) {
  failures++;
  console.error('no native cwndlab binary (engine/target/debug/cwndlab): build it with `cargo build -p cwndlab-cli`');
} else {
  const dir = mkdtempSync(join(tmpdir(), 'cwndlab-export-'));
  const viaWasm = (scenario, request) => {
    const ex = new Exporter(JSON.stringify(scenario), JSON.stringify(request));
    const names = JSON.parse(ex.file_names()).map((f) => f.name);
    const parts = names.map(() => []);
    for (;;) {
      const done = ex.step(20000);
      names.forEach((_, i) => parts[i].push(ex.take(i)));
      if (done) break;
    }
    ex.free();
    return new Map(names.map((n, i) => [n, Buffer.concat(parts[i])]));
  };
  const same = (label, a, b) => {
    exportFiles++;
    if (!a || !b || Buffer.compare(a, b) !== 0) {
      failures++;
      console.error(
        `MISMATCH export ${label}: wasm ${a?.length ?? 'missing'} bytes, native ${b?.length ?? 'missing'} bytes`,
      );
    }
  };
  const cases = [
    ['netsim-reno', 10, {}],
    ['br-tcp-komuro', 5, {}],
    ['thin-50b-10ms', 5, {}],
    ['cubic-bufferbloat', 5, { algorithm: 'bbr' }],
    // SACK with RACK-TLP and a handshake: the pcap's SACK options, the qlog's blocks and losses.
    ['fall-floyd-newreno-3drops', 10, { sack: true }],
  ];
  for (const [name, duration, change] of cases) {
    const p = presets.find((q) => q.name === name);
    const s = structuredClone(p.scenario);
    s.duration = duration;
    if (change.algorithm) {
      for (const [path, value] of Object.entries(catalogue.get(change.algorithm).settings)) {
        let o = s.flows[0];
        const keys = path.split('.');
        for (const k of keys.slice(0, -1)) o = o[k];
        o[keys.at(-1)] = value;
      }
      s.flows[0].algorithm = change.algorithm;
    }
    if (change.sack) {
      for (const f of s.flows) {
        f.sack = { ...f.sack, enabled: true, rack: true, tlp: true };
        f.tcp = { ...f.tcp, syn: true };
      }
    }
    const file = join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify(s));
    const out = join(dir, `${name}-out`);
    execFileSync(cli, [
      'run',
      file,
      '-q',
      '--out',
      out,
      '--pcap',
      join(dir, `${name}.pcap`),
      '--qlog',
      join(dir, `${name}.sqlog`),
    ]);
    const tables = viaWasm(s, {
      format: 'csv',
      tables: ['series', 'events', 'queues', 'validation', 'recovery', 'writes', 'throughput', 'rounds'],
    });
    for (const f of readdirSync(out).filter((f) => f.endsWith('.csv'))) {
      same(`${name} ${f}`, tables.get(f), readFileSync(join(out, f)));
    }
    same(
      `${name} sender.pcap`,
      viaWasm(s, { format: 'pcap' }).get('sender.pcap'),
      readFileSync(join(dir, `${name}.pcap`)),
    );
    same(
      `${name} flow0.sqlog`,
      viaWasm(s, { format: 'qlog', flow: 0 }).get('flow0.sqlog'),
      readFileSync(join(dir, `${name}.sqlog`)),
    );
    const bn = join(dir, `${name}-bn.pcap`);
    execFileSync(cli, ['run', file, '-q', '--pcap', bn, '--pcap-point', 'bottleneck', '--snaplen', '80']);
    same(
      `${name} bottleneck.pcap`,
      viaWasm(s, { format: 'pcap', point: 'bottleneck', snaplen: 80 }).get('bottleneck.pcap'),
      readFileSync(bn),
    );
  }
  rmSync(dir, { recursive: true, force: true });
}
const missing = Object.keys(golden).filter((n) => !presets.some((p) => p.name === n));
for (const n of missing) console.error(`MISSING in wasm presets: ${n}`);
if (failures || missing.length || presets.length === 0) process.exit(1);
console.log(
  `native == wasm: ${presets.length} preset digests and summaries identical, ${comparisons} lesson comparison runs, ${Object.keys(goldenValidation).length} window-validation digests, ${Object.keys(goldenRecovery).length} SACK-recovery digests, ${presets.length} explained-decision digests, and ${exportFiles} exported files byte for byte`,
);
