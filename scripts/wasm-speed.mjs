#!/usr/bin/env node
// The engine's speed in WebAssembly (Node's V8, the page's engine): times whole runs of the
// default scenario and of the netsim-newreno preset at 200 s through a wasm-bindgen
// package, and a slider step's engine work as the page does it (the scenario validated,
// then the default comparison's runs built by `Runs`, each run to its end with its summary
// and digest), to compare builds (opt-level, wasm-opt, inlining). Prints the median and
// minimum of each. Measures only. Usage: node scripts/wasm-speed.mjs [PKG_DIR ...] [--reps N]
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const args = process.argv.slice(2);
const r = args.indexOf('--reps');
const reps = r >= 0 ? Number(args.splice(r, 2)[1]) : 7;
const dirs = args.length ? args : [join(root, 'web/src/engine/pkg')];
const tables = JSON.parse(readFileSync(join(root, 'web/src/engine/pkg/tables.json'), 'utf8'));
const netsim = structuredClone(tables.presets.find((p) => p.name === 'netsim-newreno').scenario);
netsim.duration = 200;
const cases = { default: tables.defaultScenario, 'netsim-newreno 200 s': netsim };
// A step of the bottleneck's bandwidth slider, compared as the page compares by default:
// the first group of the catalogue (web/src/scenario/algorithms.ts, DEFAULT_SELECTION).
const stepScenario = structuredClone(tables.defaultScenario);
stepScenario.network.bottleneck.bandwidth = 12_000_000;
const stepJson = JSON.stringify(stepScenario);
const compared = tables.catalogue.filter((e) => e.group === tables.catalogue[0].group).map((e) => e.name);
const median = (times) => times.sort((a, b) => a - b)[times.length >> 1];

for (const dir of dirs.map((d) => resolve(d))) {
  const { initSync, Sim, Runs, validate_json } = await import(join(dir, 'cwndlab_wasm.js') + `?${dir}`);
  initSync({ module: readFileSync(join(dir, 'cwndlab_wasm_bg.wasm')) });
  const cells = [];
  for (const [name, scenario] of Object.entries(cases)) {
    const json = JSON.stringify(scenario);
    const times = [];
    let digest = '';
    for (let i = 0; i < reps + 1; i++) {
      const t0 = performance.now();
      const sim = new Sim(json);
      sim.run_to_end();
      digest = sim.digest();
      sim.free();
      if (i > 0) times.push(performance.now() - t0); // the first run warms up
    }
    cells.push(`${name}: median ${median(times).toFixed(1)} ms, min ${times[0].toFixed(1)} ms (${digest})`);
  }
  const step = () => {
    validate_json(stepJson);
    const runs = new Runs(stepJson);
    for (const name of compared) {
      const sim = runs.sim(name);
      sim.run_to_end();
      sim.summary_json();
      sim.digest();
      sim.free();
    }
    runs.free();
  };
  const times = [];
  for (let i = 0; i < 10 * reps + 5; i++) {
    const t0 = performance.now();
    step();
    if (i >= 5) times.push(performance.now() - t0); // five steps warm up
  }
  cells.push(
    `slider step (${compared.length} runs: ${compared.join(', ')}): median ${median(times).toFixed(2)} ms, min ${times[0].toFixed(2)} ms`,
  );
  console.log(`${dir}\n  ${cells.join('\n  ')}`);
}
