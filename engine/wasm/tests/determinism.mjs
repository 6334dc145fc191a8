// Native == wasm: runs every preset in the wasm build and compares its trace digest with
// engine/core/tests/golden/digests.json, which the native test suite checks against the
// native build. Usage: node engine/wasm/tests/determinism.mjs [PKG_DIR]
// (PKG_DIR holds wasm-bindgen's --target web output; default web/src/engine/pkg).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../../..');
const pkg = resolve(process.argv[2] ?? join(root, 'web/src/engine/pkg'));
const { initSync, Sim, presets_json } = await import(join(pkg, 'cwndlab_wasm.js'));
initSync({ module: readFileSync(join(pkg, 'cwndlab_wasm_bg.wasm')) });

const golden = JSON.parse(readFileSync(join(root, 'engine/core/tests/golden/digests.json'), 'utf8'));
const goldenValidation = JSON.parse(
  readFileSync(join(root, 'engine/core/tests/golden/validation-digests.json'), 'utf8'),
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
const missing = Object.keys(golden).filter((n) => !presets.some((p) => p.name === n));
for (const n of missing) console.error(`MISSING in wasm presets: ${n}`);
if (failures || missing.length || presets.length === 0) process.exit(1);
console.log(
  `native == wasm: ${presets.length} preset digests identical, ${Object.keys(goldenValidation).length} window-validation digests, and ${presets.length} explained-decision digests`,
);
