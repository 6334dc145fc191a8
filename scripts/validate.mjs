#!/usr/bin/env node
// Regenerates the engine-computed tables of docs/validation.md (issue 26).
//
// Every block between `<!-- validate:begin NAME -->` and `<!-- validate:end NAME -->` is
// rewritten from fresh runs: engine/core/examples/validate.rs makes the runs (presets, several
// seeds where the experiment is random, the theory grid with cwndlab_core::theory) and prints
// the Markdown; the block br-tcp-sweeps (figures 13 and 14 of source 002, with its data file
// and SVGs) is scripts/br-tcp-sweeps.mjs. Prose outside the markers is never touched.
// External references (the sources' figures, ns-2 and ns-3 outputs) are stored numbers: the
// generator prints them as they are, next to our regenerated columns.
//
// Usage: node scripts/validate.mjs [--only NAME[,NAME…]] [--check] [--list]
//   --only   regenerate these blocks only
//   --check  write nothing; exit 1 (naming the blocks) when the file would change
//   --list   print the block names
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const engine = join(root, 'engine');
const docPath = join(root, 'docs', 'validation.md');

const ENGINE_BLOCKS = [
  'netsim',
  'netsim-steady',
  'cwv-underutilized',
  'cwv-classroom',
  'br-tcp-figures',
  'thin-seed1',
  'thin-seeds',
  'jacobson-startup',
  'jacobson-timers',
  'jacobson-four',
  'cubic-bufferbloat',
  'sharing',
  'theory-runs',
  'theory-grid',
];
const SWEEP_BLOCK = 'br-tcp-sweeps';
const ALL = [...ENGINE_BLOCKS, SWEEP_BLOCK];
// Files scripts/br-tcp-sweeps.mjs writes besides the doc.
const SWEEP_FILES = [
  'docs/data/br-tcp-sweeps.csv',
  'docs/images/br-tcp-fig13.svg',
  'docs/images/br-tcp-fig14-lab.svg',
  'docs/images/br-tcp-fig14-ns2.svg',
];

const args = process.argv.slice(2);
let only = null;
let check = false;
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--check') check = true;
  else if (a === '--list') {
    console.log(ALL.join('\n'));
    process.exit(0);
  } else if (a === '--only') only = (args[++i] ?? '').split(',').filter(Boolean);
  else if (a.startsWith('--only=')) only = a.slice(7).split(',').filter(Boolean);
  else {
    console.error(`unknown argument ${a}\nusage: node scripts/validate.mjs [--only NAME[,NAME…]] [--check] [--list]`);
    process.exit(2);
  }
}
const wanted = only ?? ALL;
for (const w of wanted) {
  if (!ALL.includes(w)) {
    console.error(`unknown block ${w}; blocks: ${ALL.join(', ')}`);
    process.exit(2);
  }
}

const t0 = Date.now();
const original = readFileSync(docPath, 'utf8');
let text = original;
const changed = [];

// Figures 13 and 14: the existing generator writes the doc and its files itself. In --check
// mode its outputs are compared and the originals put back.
if (wanted.includes(SWEEP_BLOCK)) {
  const before = Object.fromEntries(SWEEP_FILES.map((f) => [f, readFileSync(join(root, f), 'utf8')]));
  // Its stdout repeats the tables; only errors are shown.
  execFileSync('node', [join(root, 'scripts', 'br-tcp-sweeps.mjs')], { stdio: ['ignore', 'ignore', 'inherit'] });
  const after = readFileSync(docPath, 'utf8');
  const filesChanged = SWEEP_FILES.filter((f) => readFileSync(join(root, f), 'utf8') !== before[f]);
  if (after !== original || filesChanged.length)
    changed.push(`${SWEEP_BLOCK} (${['doc', ...filesChanged].join(', ')})`);
  if (check) {
    writeFileSync(docPath, original);
    for (const f of SWEEP_FILES) writeFileSync(join(root, f), before[f]);
  } else text = after;
}

const engineWanted = ENGINE_BLOCKS.filter((b) => wanted.includes(b));
if (engineWanted.length) {
  execFileSync('cargo', ['build', '--release', '-q', '-p', 'cwndlab-core', '--example', 'validate'], {
    cwd: engine,
    stdio: 'inherit',
  });
  const bin = join(engine, 'target', 'release', 'examples', 'validate');
  const blocks = JSON.parse(
    execFileSync(bin, engineWanted, { encoding: 'utf8', maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'inherit'] }),
  );
  for (const name of engineWanted) {
    const md = blocks[name];
    if (md === undefined) throw new Error(`the generator made no block ${name}`);
    const begin = `<!-- validate:begin ${name} -->`;
    const end = `<!-- validate:end ${name} -->`;
    const a = text.indexOf(begin);
    const b = text.indexOf(end);
    if (a < 0 || b < a) throw new Error(`docs/validation.md lacks the markers ${begin} … ${end}`);
    const next = `${text.slice(0, a)}${begin}\n\n${md.trimEnd()}\n\n${text.slice(b)}`;
    if (next !== text) changed.push(name);
    text = next;
  }
}

const secs = ((Date.now() - t0) / 1000).toFixed(0);
if (check) {
  if (changed.length) {
    console.error(`docs/validation.md would change (${secs} s): ${changed.join(', ')}`);
    process.exit(1);
  }
  console.log(`docs/validation.md is up to date (${wanted.length} blocks, ${secs} s)`);
} else {
  if (text !== readFileSync(docPath, 'utf8')) writeFileSync(docPath, text);
  console.log(
    changed.length
      ? `docs/validation.md: rewrote ${changed.join(', ')} (${secs} s)`
      : `docs/validation.md unchanged (${wanted.length} blocks, ${secs} s)`,
  );
}
