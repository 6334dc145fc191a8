#!/usr/bin/env node
// Whole-process wall times of several commands, run in turn (A, B, C, A, B, C, ...) so
// that a load that drifts during the measurement hits every command alike. Prints the
// median and the 10th percentile of each. docs/performance.md quotes its medians when
// comparing two builds of cwndlab, whose difference is a few per cent.
//
//   node engine/bench/interleaved.mjs ROUNDS 'command A' 'command B' ...
//
// Commands are split on spaces (no shell, so no quoting inside them); their output is
// discarded, and a command that fails stops the measurement.
import { spawnSync } from 'node:child_process';

const [roundsArg, ...commands] = process.argv.slice(2);
const rounds = Number(roundsArg);
if (!Number.isInteger(rounds) || rounds < 1 || commands.length === 0) {
  console.error("usage: node engine/bench/interleaved.mjs ROUNDS 'command A' ['command B' ...]");
  console.error('ROUNDS: how many times each command runs (a whole number, at least 1)');
  process.exit(2);
}
const argv = commands.map((c) => c.trim().split(/\s+/));
const times = commands.map(() => []);
for (let r = 0; r < rounds; r++) {
  argv.forEach(([program, ...args], k) => {
    const start = process.hrtime.bigint();
    const run = spawnSync(program, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (run.error || run.status !== 0) {
      console.error(`failed: ${commands[k]}\n${run.error ?? run.stderr}`);
      process.exit(1);
    }
    times[k].push(ms);
  });
}
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const median = (sorted) => {
  const n = sorted.length;
  return n % 2 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
};
console.log(
  `${rounds} rounds, load average ${(await import('node:os'))
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
commands.forEach((c, k) => {
  const s = [...times[k]].sort((a, b) => a - b);
  console.log(
    `median ${median(s).toFixed(2).padStart(8)} ms   p10 ${quantile(s, 0.1).toFixed(2).padStart(8)} ms   ${c}`,
  );
});
