// Native == wasm on fuzzed scenarios (issue 25), not only presets: the fuzzing driver
// (engine/fuzz, `cwndlab-fuzz --emit`) draws scenarios from the whole parameter table and
// writes those that finish within an event budget with their native trace and decisions
// digests; each runs here in the full and the lite wasm builds, plainly and explained, and
// the digests must be the same.
// Usage: node engine/wasm/tests/fuzz-determinism.mjs [--scenarios N] [--seed S]
//          [--budget EVENTS] [--release]
// (--release builds the driver with the `fuzz` profile; default: the `test` profile, which
// `cargo test` has built already in `npm test`.)
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadWasm } from './load-wasm.mjs';

const root = resolve(import.meta.dirname, '../../..');
const { values: opt } = parseArgs({
  options: {
    scenarios: { type: 'string', default: '300' },
    seed: { type: 'string', default: '1' },
    budget: { type: 'string', default: '20000' },
    release: { type: 'boolean', default: false },
  },
});
const n = Number(opt.scenarios);
const profile = opt.release ? 'fuzz' : 'test';
execFileSync('cargo', ['build', '-q', '-p', 'cwndlab-fuzz', '--profile', profile], {
  cwd: join(root, 'engine'),
  stdio: 'inherit',
});
const driver = join(root, 'engine/target', opt.release ? 'fuzz' : 'debug', 'cwndlab-fuzz');
const dir = mkdtempSync(join(tmpdir(), 'cwndlab-fuzz-wasm-'));
const file = join(dir, 'scenarios.jsonl');
const started = performance.now();
execFileSync(driver, ['--emit', String(n), file, '--seed', opt.seed, '--budget', opt.budget], { stdio: 'inherit' });
const cases = readFileSync(file, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l));
rmSync(dir, { recursive: true, force: true });

/** Runs a scenario to its end in small slices (as the page does), at most `limit` events. */
function run(Sim, json, explain, limit) {
  const sim = new Sim(json);
  try {
    if (explain) sim.set_explain(true);
    let events = 0;
    while (!sim.run_events(5000)) {
      events += 5000;
      if (events > limit) return { unfinished: true };
    }
    return { digest: sim.digest(), decisions: explain ? sim.decisions_digest() : undefined };
  } finally {
    sim.free();
  }
}

// The page does not start a run the engine estimates above its limit (MAX_PACKETS in
// web/src/state/runSize.ts, read from there): such a case — a window of millions of tiny
// segments sent at once — does not fit a tab's 32-bit memory, so it is not compared.
const runSize = readFileSync(join(root, 'web/src/state/runSize.ts'), 'utf8');
const MAX_PACKETS = Number(/export const MAX_PACKETS = ([0-9e.]+);/.exec(runSize)?.[1]);
if (!(MAX_PACKETS > 0)) throw new Error('web/src/state/runSize.ts: MAX_PACKETS not found');

let failures = 0;
const report = [];
for (const pkg of [join(root, 'web/src/engine/pkg'), join(root, 'web/src/engine/pkg/lite')]) {
  const { Sim, validate_json } = await loadWasm(pkg);
  let same = 0;
  let refused = 0;
  for (const c of cases) {
    const json = JSON.stringify(c.scenario);
    if (JSON.parse(validate_json(json)).estimated_packets >= MAX_PACKETS) {
      refused++;
      continue;
    }
    const plain = run(Sim, json, false, c.events + 10000);
    const why = run(Sim, json, true, c.events + 10000);
    const problems = [];
    if (plain.digest !== c.digest)
      problems.push(`trace digest wasm ${plain.digest ?? 'unfinished'}, native ${c.digest}`);
    if (why.digest !== c.digest) problems.push(`explained run's digest wasm ${why.digest ?? 'unfinished'}`);
    if (why.decisions !== c.decisions) {
      problems.push(`decisions digest wasm ${why.decisions ?? 'unfinished'}, native ${c.decisions}`);
    }
    if (problems.length === 0) {
      same++;
      continue;
    }
    failures++;
    const out = join(root, 'fuzz-failures');
    mkdirSync(out, { recursive: true });
    const path = join(out, `wasm-seed${c.seed}-case${c.case}.json`);
    writeFileSync(path, JSON.stringify(c.scenario, null, 2) + '\n');
    console.error(`MISMATCH ${pkg} seed ${c.seed} case ${c.case}: ${problems.join('; ')}\n  scenario: ${path}`);
  }
  report.push(
    `${pkg.slice(root.length + 1)}: ${same} of ${cases.length - refused} identical` +
      (refused ? ` (${refused} the page refuses as too large, not run)` : ''),
  );
  if (refused > cases.length / 10) {
    failures++;
    console.error(`${refused} of ${cases.length} cases refused as too large: the draw no longer tests the page's runs`);
  }
}
const secs = ((performance.now() - started) / 1000).toFixed(1);
if (cases.length < n) {
  failures++;
  console.error(`only ${cases.length} of ${n} scenarios emitted`);
}
const events = cases.reduce((a, c) => a + c.events, 0);
console.log(
  `native == wasm on ${cases.length} fuzzed scenarios (seed ${opt.seed}, cases 0..${cases.at(-1)?.case ?? 0}, ${events} events natively; ` +
    `trace and explained-decision digests, plain and explained runs) in ${secs} s: ${report.join('; ')}`,
);
if (failures) process.exit(1);
