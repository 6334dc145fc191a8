// Native == wasm: runs every preset in the wasm build and compares its trace digest with
// engine/core/tests/golden/digests.json, which the native test suite checks against the
// native build. Usage: node engine/wasm/tests/determinism.mjs [PKG_DIR]
// (PKG_DIR holds wasm-bindgen's --target web output; default web/src/engine/pkg).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../../..');
const pkg = resolve(process.argv[2] ?? join(root, 'web/src/engine/pkg'));
const { initSync, Sim, presets_json, catalogue_json } = await import(join(pkg, 'cwndlab_wasm.js'));
initSync({ module: readFileSync(join(pkg, 'cwndlab_wasm_bg.wasm')) });

const golden = JSON.parse(readFileSync(join(root, 'engine/core/tests/golden/digests.json'), 'utf8'));
const goldenValidation = JSON.parse(
  readFileSync(join(root, 'engine/core/tests/golden/validation-digests.json'), 'utf8'),
);
const goldenComparisons = JSON.parse(
  readFileSync(join(root, 'engine/core/tests/golden/comparison-digests.json'), 'utf8'),
);
const goldenDecisions = JSON.parse(
  readFileSync(join(root, 'engine/core/tests/golden/decision-digests.json'), 'utf8'),
);
const presets = JSON.parse(presets_json());
let failures = 0;
for (const p of presets) {
  const sim = new Sim(JSON.stringify(p.scenario));
  sim.run_to_end();
  const d = sim.digest();
  const v = sim.validation_digest();
  sim.free();
  if (d !== golden[p.name]) {
    failures++;
    console.error(`MISMATCH ${p.name}: wasm ${d}, native ${golden[p.name]}`);
  }
  if (v !== (goldenValidation[p.name] ?? '')) {
    failures++;
    console.error(`MISMATCH ${p.name} (window validation): wasm ${v}, native ${goldenValidation[p.name]}`);
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
// The runs a lesson compares, built as the page builds them: each algorithm's settings
// written onto flow 0 of the resolved preset.
const catalogue = new Map(JSON.parse(catalogue_json()).map((e) => [e.name, e]));
let comparisons = 0;
for (const p of presets) {
  if (!p.lesson || p.lesson.mode !== 'compare') continue;
  for (const alg of p.lesson.compare) {
    const s = structuredClone(p.scenario);
    for (const [path, value] of Object.entries(catalogue.get(alg)?.settings ?? {})) {
      let o = s.flows[0];
      const keys = path.split('.');
      for (const k of keys.slice(0, -1)) o = o[k];
      o[keys.at(-1)] = value;
    }
    s.flows[0].algorithm = alg;
    const sim = new Sim(JSON.stringify(s));
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
}
if (comparisons !== Object.keys(goldenComparisons).length) {
  failures++;
  console.error(`comparison runs: wasm ${comparisons}, native ${Object.keys(goldenComparisons).length}`);
}
const missing = Object.keys(golden).filter((n) => !presets.some((p) => p.name === n));
for (const n of missing) console.error(`MISSING in wasm presets: ${n}`);
if (failures || missing.length || presets.length === 0) process.exit(1);
console.log(
  `native == wasm: ${presets.length} preset digests identical, ${comparisons} lesson comparison runs, ${Object.keys(goldenValidation).length} window-validation digests, and ${presets.length} explained-decision digests`,
);
