#!/usr/bin/env node
// Browser benchmark of the web app (npm run bench; needs `npm run build` first).
// Serves dist/ with vite preview, drives Debian's Chromium with Playwright and reads the
// timings the app records for every comparison (window.__cwndlab.timings):
//   compute  slowest run's engine time in its worker (ms)
//   read     slowest run's column extraction in its worker (ms)
//   results  input → last result received on the page (ms)
//   drawn    input → end of the frame that drew every result (ms)
//   draw     that frame's drawing of every plot (ms)
// It measures; it asserts nothing. Options: --steps N (default 40), --port P.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { findChromium } from './ensure-chromium.mjs';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const STEPS = arg('steps', 40);
const PORT = arg('port', 4179);

if (!existsSync(join(root, 'dist', 'index.html'))) {
  console.error('No dist/: run `npm run build` first.');
  process.exit(1);
}
const executablePath = findChromium();
if (!executablePath) {
  console.error('No Chromium: run `node scripts/ensure-chromium.mjs`.');
  process.exit(1);
}

const server = spawn(
  join(root, 'node_modules', '.bin', 'vite'),
  ['preview', '--config', 'web/vite.config.ts', '--host', '127.0.0.1', '--strictPort', '--port', String(PORT)],
  { cwd: root, stdio: 'ignore' },
);
const base = `http://127.0.0.1:${PORT}/`;
for (let i = 0; ; i += 1) {
  try {
    if ((await fetch(base)).ok) break;
  } catch {
    // not up yet
  }
  if (i > 100) throw new Error('vite preview did not start');
  await new Promise((r) => setTimeout(r, 100));
}

const browser = await chromium.launch({
  executablePath,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};
const fmt = (x) => (Number.isFinite(x) ? x.toFixed(1) : '—');

async function idle(page, timeout = 120_000) {
  await page.waitForFunction(() => document.documentElement.dataset.render === 'idle', null, { timeout });
}

/** Re-runs a comparison `STEPS` times by keyboard on the bandwidth slider. */
async function rerun(name, query, viewport = { width: 1280, height: 900 }) {
  const page = await browser.newPage({ viewport });
  await page.goto(base + query);
  await idle(page);
  const slider = page.getByRole('slider', { name: 'Bottleneck bandwidth' });
  for (let i = 0; i < STEPS; i += 1) {
    const n = await page.evaluate(() => window.__cwndlab.timings.length);
    await slider.focus();
    await page.keyboard.press(i % 2 ? 'ArrowLeft' : 'ArrowRight');
    await page.waitForFunction((k) => window.__cwndlab.timings.length > k, n);
    await idle(page);
  }
  const timings = await page.evaluate(() => window.__cwndlab.timings.slice(1));
  const workers = await page.evaluate(() => window.__cwndlab.workers);
  const plots = await page.locator('figure.plot').count();
  await page.close();
  const col = (k) => timings.map((t) => t[k]);
  return {
    name,
    plots,
    workers,
    runs: timings[0]?.runs,
    n: timings.length,
    stats: Object.fromEntries(
      ['computeMs', 'readMs', 'resultsMs', 'drawnMs', 'drawMs'].map((k) => [
        k,
        { median: quantile(col(k), 0.5), p90: quantile(col(k), 0.9), min: Math.min(...col(k)) },
      ]),
    ),
  };
}

/** Loads a long run and records how often the page painted while it computed. */
async function longRun(name, query) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const t0 = Date.now();
  await page.goto(base + query);
  const gaps = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const out = [];
        let last = performance.now();
        const loop = () => {
          const now = performance.now();
          out.push(now - last);
          last = now;
          if (document.documentElement.dataset.render === 'idle' && out.length > 10) resolve(out);
          else requestAnimationFrame(loop);
        };
        requestAnimationFrame(loop);
      }),
  );
  const wall = Date.now() - t0;
  const timing = await page.evaluate(() => window.__cwndlab.timings[0]);
  const draws = await page.evaluate(() =>
    [...document.querySelectorAll('.plot-body')].map((p) => Number(p.dataset.drawMs)),
  );
  // Redraw after a zoom: the decimated redraw of every plot.
  const plot = page.getByRole('group', { name: /Congestion window.*cursor and zoom/ }).first();
  await plot.focus();
  await page.keyboard.press('+');
  await idle(page);
  const zoomDraws = await page.evaluate(() =>
    [...document.querySelectorAll('.plot-body')].map((p) => Number(p.dataset.drawMs)),
  );
  await page.close();
  return {
    name,
    wall,
    frames: gaps.length,
    maxGap: Math.max(...gaps),
    p95Gap: quantile(gaps, 0.95),
    timing,
    draws,
    zoomDraws,
  };
}

/** Plays live for a few seconds and records frame intervals. */
async function live(name, query) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(base + query);
  await idle(page);
  await page.getByRole('button', { name: 'Play from the start' }).click();
  const gaps = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const out = [];
        let last = performance.now();
        const t0 = last;
        const loop = () => {
          const now = performance.now();
          out.push(now - last);
          last = now;
          if (now - t0 > 4000) resolve(out);
          else requestAnimationFrame(loop);
        };
        requestAnimationFrame(loop);
      }),
  );
  const simTime = await page.evaluate(() => parseFloat(document.querySelector('.position output')?.textContent ?? '0'));
  await page.close();
  return { name, frames: gaps.length, medianGap: quantile(gaps, 0.5), p95Gap: quantile(gaps, 0.95), simTime };
}

const version = await browser.version();
const results = [];
results.push(await rerun('4 algorithms, one plot per algorithm (12 plots)', '?v=1&alg=old_tahoe,tahoe,reno,newreno'));
results.push(await rerun('4 algorithms, overlay (3 plots)', '?v=1&alg=old_tahoe,tahoe,reno,newreno&layout=overlay'));
results.push(await rerun('2 algorithms, one plot per algorithm (6 plots)', '?v=1&alg=reno,newreno'));
const long = await longRun('1000-s run, 4 algorithms', '?v=1&duration=1000');
const play = await live('live playback, 4 algorithms, 1×', '?v=1');

server.kill();
await browser.close();

const load = loadavg()
  .map((x) => x.toFixed(2))
  .join(' ');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
console.log(`\ncwndlab ${pkg.version} web benchmark — ${new Date().toISOString()}`);
console.log(
  `${cpus().length} cores (${cpus()[0]?.model ?? '?'}), load average ${load}, Chromium ${version} headless, --disable-gpu\n`,
);
console.log('| case | plots | workers | n | compute | read | results | on screen | draw |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const r of results) {
  const s = r.stats;
  const cell = (k) => `${fmt(s[k].median)} (p90 ${fmt(s[k].p90)}, min ${fmt(s[k].min)})`;
  console.log(
    `| ${r.name} | ${r.plots} | ${r.workers} | ${r.n} | ${cell('computeMs')} | ${cell('readMs')} | ${cell('resultsMs')} | ${cell('drawnMs')} | ${cell('drawMs')} |`,
  );
}
console.log('\n(ms; median, 90th percentile and minimum over the re-runs)\n');
console.log(
  `${long.name}: first results on screen after ${fmt(long.timing?.drawnMs)} ms (engine ${fmt(long.timing?.computeMs)} ms, ` +
    `column reads ${fmt(long.timing?.readMs)} ms, wall ${long.wall} ms including page load); the page painted ` +
    `${long.frames} frames meanwhile, longest gap ${fmt(long.maxGap)} ms, p95 ${fmt(long.p95Gap)} ms; ` +
    `plot draws ${long.draws.map(fmt).join(', ')} ms; after a zoom ${long.zoomDraws.map(fmt).join(', ')} ms.`,
);
console.log(
  `${play.name}: ${play.frames} frames in 4 s, median frame interval ${fmt(play.medianGap)} ms, p95 ${fmt(play.p95Gap)} ms; ` +
    `simulated time reached ${play.simTime} s.`,
);
