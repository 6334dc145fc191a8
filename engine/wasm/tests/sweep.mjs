// The page's sweep = `cwndlab sweep`: plans a sweep with the wasm build (sweep_plan_json),
// runs every run alone in reverse order (sweep_run_json, as the page's workers do, each in
// its own call) and renders the output (sweep_output); the CSV and the JSON must be the
// bytes the CLI prints for the same settings. Usage: node engine/wasm/tests/sweep.mjs [PKG_DIR]
// (default web/src/engine/pkg: the full build; the lite build has no sweep functions).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadWasm } from './load-wasm.mjs';

const root = resolve(import.meta.dirname, '../../..');
const pkg = resolve(process.argv[2] ?? join(root, 'web/src/engine/pkg'));
const wasm = await loadWasm(pkg);
const cli = [join(root, 'engine/target/debug/cwndlab'), join(root, 'engine/target/release/cwndlab')].find(existsSync);
if (!cli) {
  console.error('sweep.mjs: build the CLI first (cargo build -p cwndlab-cli)');
  process.exit(1);
}

const dir = mkdtempSync(join(tmpdir(), 'cwndlab-sweep-'));
const file = join(dir, 'base.json');
// A lossy path and a thin stream: goodput against BER, and a second sweep over an integer
// parameter with a seed list and the flow's own algorithm.
const cases = [
  {
    base: { duration: 3, network: { bottleneck: { bandwidth: 2000000 } } },
    def: {
      param: 'network.bottleneck.loss.ber',
      range: '1e-6:1e-4:4:log',
      algorithms: ['reno', 'newreno', 'cubic'],
      seeds: 2,
    },
    args: [
      '--param',
      'network.bottleneck.loss.ber',
      '--range',
      '1e-6:1e-4:4:log',
      '--algorithms',
      'reno,newreno,cubic',
      '--seeds',
      '2',
    ],
  },
  {
    base: { duration: 2 },
    def: {
      param: 'network.bottleneck.queue_packets',
      values: ['4', '16', '64'],
      seed_list: [7, 9],
      metrics: ['goodput_bps', 'timeouts'],
    },
    args: [
      '--param',
      'network.bottleneck.queue_packets',
      '--values',
      '4,16,64',
      '--seed-list',
      '7,9',
      '--metrics',
      'goodput_bps,timeouts',
    ],
  },
];
let failures = 0;
for (const [n, c] of cases.entries()) {
  writeFileSync(file, JSON.stringify(c.base));
  const def = JSON.stringify({ ...c.def, source: file });
  const base = JSON.stringify(c.base);
  const plan = JSON.parse(wasm.sweep_plan_json(def, base));
  if (!plan.ok) throw new Error(`case ${n}: ${plan.message}`);
  const rows = [];
  for (const r of [...plan.runs].reverse()) {
    const out = JSON.parse(wasm.sweep_run_json(def, base, r.index));
    if (out.error) throw new Error(`case ${n} run ${r.index}: ${out.error}`);
    rows.push(...out.rows);
  }
  for (const format of ['csv', 'json']) {
    const want = execFileSync(cli, ['sweep', file, ...c.args, '--format', format, '--quiet'], { encoding: 'utf8' });
    const got = wasm.sweep_output(def, base, JSON.stringify(rows), format);
    if (got !== want.trimEnd()) {
      failures++;
      console.error(`MISMATCH case ${n} (${format}): wasm and CLI outputs differ`);
    }
  }
}
// A bad definition names its field and what is allowed.
const bad = JSON.parse(wasm.sweep_plan_json(JSON.stringify({ param: 'seed', range: '0:5:3:log' }), '{}'));
if (bad.ok || bad.field !== 'range' || !bad.message.includes('above 0')) {
  failures++;
  console.error(`a log range from 0 was not refused by name: ${JSON.stringify(bad)}`);
}
rmSync(dir, { recursive: true, force: true });
if (failures) process.exit(1);
console.log(`sweep: ${cases.length} sweeps, CSV and JSON identical to cwndlab sweep (${pkg})`);
