#!/usr/bin/env node
// Measures a long, fast run in the page (issue 24: "a 1 000 s run at 100 Mbit/s opens and
// draws without freezing the page, within 300 MB"). Needs a build (`npm run build:site`, or
// --dist DIR). Serves it with vite preview as scripts/bench.mjs does, opens the link for the
// run in Debian's Chromium (Playwright, headless), waits until every run has finished and the
// page has drawn it, and prints:
//
//   first chunk      navigation → the first trace chunk from a worker reaches the page
//   first picture    navigation → the end of the first animation frame after it in which a
//                    plot drew (plots redraw with a long run's progress)
//   drawn            navigation → every run finished and the page idle (data-render=idle)
//   longest task     the main thread's longest task while the page opened, computed and drew
//                    (PerformanceObserver 'longtask': tasks over 50 ms; count over 200 ms)
//   memory           the whole browser (every Chromium process of this one-page browser:
//                    browser, renderer, GPU, utility; workers live in the renderer): the sum
//                    of each process's PSS (/proc/PID/smaps_rollup, shared pages split
//                    between the processes sharing them) and of RSS, sampled every 250 ms:
//                    after the page loaded the default short run ("before"), the peak while the
//                    long run computed and drew, and at the end.
//
// It measures; it asserts nothing.
//
// Options: --duration S (1000), --bandwidth BIT_S (100000000), --alg a,b (default: the
//   page's default four), --mode compare|compete, --dist DIR (dist), --port P (4181),
//   --timeout S (600), --json FILE (raw numbers), --query Q (extra link parameters).
// (Functions passed to page.evaluate run in the browser.)
/* global window, document, crossOriginIsolated */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { cliOptions, requireBuild, requireChromium, root, vitePreview } from './page-tools.mjs';
import { serveStatic } from './static-server.mjs';

const { argv, opt } = cliOptions();
const DURATION = Number(opt('duration', 1000));
const BANDWIDTH = Number(opt('bandwidth', 100_000_000));
const ALG = opt('alg', '');
const MODE = opt('mode', '');
const PORT = Number(opt('port', 4181));
const DIST = resolve(root, opt('dist', 'dist'));
const TIMEOUT_S = Number(opt('timeout', 600));
const JSON_OUT = opt('json', '');
const EXTRA = opt('query', '');

requireBuild(DIST);
const executablePath = requireChromium();

// --isolated: serve the build from here with cross-origin isolation (COOP + COEP), so that
// the page may call performance.measureUserAgentSpecificMemory() (the memory of the page and
// of each of its workers, as Chromium attributes it); else vite preview, as bench.mjs does.
const ISOLATED = argv.includes('--isolated');
const server = ISOLATED
  ? await serveStatic(DIST, {
      compress: false,
      headers: { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' },
    })
  : await vitePreview(DIST, PORT);
const base = server.url;

// A marker on the browser's command line: its process, then every descendant, is this
// browser (and nothing else on the machine).
const MARKER = `--cwndlab-long-run=${process.pid}`;
const browser = await chromium.launch({
  executablePath,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    // measureUserAgentSpecificMemory() answers at once instead of at the next GC.
    '--enable-blink-features=ForceEagerMeasureMemory',
    MARKER,
  ],
});

/** Every process of this browser: the one whose command line has the marker, and its descendants. */
function browserPids() {
  const parent = new Map();
  let top = null;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parent.set(Number(name), ppid);
      if (top === null && readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').includes(MARKER))
        top = Number(name);
    } catch {
      // gone
    }
  }
  if (top === null) return [];
  const out = [];
  for (const pid of parent.keys()) {
    for (let p = pid; p > 1; p = parent.get(p) ?? 0) {
      if (p === top) {
        out.push(pid);
        break;
      }
    }
  }
  return out;
}

/** Sum of PSS and RSS over the browser's processes, MB, and PSS by process type (the
 *  renderer holds the page: its main thread, its workers and their wasm memories). */
function memory() {
  let pss = 0;
  let rss = 0;
  const byType = {};
  const pids = browserPids();
  for (const pid of pids) {
    try {
      const roll = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      const p = Number(/^Pss:\s+(\d+) kB/m.exec(roll)?.[1] ?? 0);
      pss += p;
      rss += Number(/^Rss:\s+(\d+) kB/m.exec(roll)?.[1] ?? 0);
      // (Chromium's children rewrite their command line: spaces, not NULs.)
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      const type = `${/--type=([\w-]+)/.exec(cmd)?.[1] ?? 'browser'}${/--utility-sub-type=([\w.]+)/.exec(cmd)?.[1]?.replace(/^.*\./, ':') ?? ''}`;
      byType[type] = (byType[type] ?? 0) + p / 1024;
    } catch {
      // gone
    }
  }
  return { pssMB: pss / 1024, rssMB: rss / 1024, processes: pids.length, byType };
}
/** The renderer's largest memory mappings by resident size (top 8: a wasm memory is one
 *  read-write mapping as large as its linear memory — the page's instance and each worker's —
 *  of which only the pages the engine touched are resident; V8's heaps are other mappings),
 *  MB, from /proc/PID/smaps. */
function largestMappings() {
  const out = [];
  for (const pid of browserPids()) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')) continue;
      const text = readFileSync(`/proc/${pid}/smaps`, 'utf8');
      for (const block of text.split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/)) {
        out.push({
          sizeMB: Number(/^Size:\s+(\d+) kB/m.exec(block)?.[1] ?? 0) / 1024,
          rssMB: Number(/^Rss:\s+(\d+) kB/m.exec(block)?.[1] ?? 0) / 1024,
          perm: /^[0-9a-f]+-[0-9a-f]+ (\S+)/.exec(block)?.[1] ?? '',
        });
      }
    } catch {
      // gone
    }
  }
  return out.sort((x, y) => y.rssMB - x.rssMB).slice(0, 8);
}
const mappingText = (list) => list.map((c) => `${c.rssMB.toFixed(0)} of ${c.sizeMB.toFixed(0)} (${c.perm})`).join(', ');

const types = (m) =>
  Object.entries(m.byType)
    .map(([k, v]) => `${k} ${v.toFixed(0)}`)
    .join(', ');

// In the page before the app loads: long tasks, the first chunk from a worker, and the end
// of each animation frame in which a plot drew (data-draw-ms changes on a plot body).
const INIT = () => {
  const m = { longtasks: [], firstChunk: null, firstPicture: null, draws: 0 };
  window.__longRun = m;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) m.longtasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  const NativeWorker = window.Worker;
  window.Worker = class extends NativeWorker {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (e) => {
        if (m.firstChunk === null && e.data?.type === 'chunk') m.firstChunk = performance.now();
      });
    }
  };
  const raf = window.requestAnimationFrame.bind(window);
  let seen = '';
  window.requestAnimationFrame = (cb) =>
    raf((ts) => {
      cb(ts);
      const now = [...document.querySelectorAll('.plot-body')].map((p) => p.dataset.drawMs ?? '').join(',');
      if (now !== seen) {
        seen = now;
        m.draws += 1;
        if (m.firstPicture === null && m.firstChunk !== null && now.replace(/,/g, '') !== '')
          m.firstPicture = performance.now();
      }
    });
};

// (Isolated: no service worker, whose cached responses would lack the isolation headers.)
const context = await browser.newContext({
  viewport: { width: 1280, height: 900 },
  ...(ISOLATED ? { serviceWorkers: 'block' } : {}),
});
const page = await context.newPage();
await page.addInitScript(INIT);

// "Before": the page with its default (short) comparison, drawn and idle.
await page.goto(base);
await page.waitForFunction(
  () => window.__cwndlab?.timings.length > 0 && document.documentElement.dataset.render === 'idle',
  null,
  {
    timeout: 120_000,
  },
);
await page.waitForTimeout(1000);
const before = memory();
const mappingsBefore = largestMappings();

const params = new URLSearchParams();
params.set('v', '4');
if (ALG) params.set('alg', ALG);
if (MODE) params.set('mode', MODE);
params.set('duration', String(DURATION));
params.set('network.bottleneck.bandwidth', String(BANDWIDTH));
const query = `?${params.toString()}${EXTRA ? `&${EXTRA}` : ''}`;

let peak = { pssMB: 0, rssMB: 0 };
let sampling = true;
const sampler = (async () => {
  while (sampling) {
    const m = memory();
    if (m.pssMB > peak.pssMB) peak = { ...peak, pssMB: m.pssMB };
    if (m.rssMB > peak.rssMB) peak = { ...peak, rssMB: m.rssMB };
    if ((m.byType.renderer ?? 0) > (peak.rendererMB ?? 0)) peak = { ...peak, rendererMB: m.byType.renderer };
    await new Promise((r) => setTimeout(r, 250));
  }
})();

// --trace FILE: a Chrome trace of the long run; its main-thread tasks over 200 ms are listed
// with what took their time (the slowest events inside each).
const TRACE = opt('trace', '');
if (TRACE)
  await browser.startTracing(page, {
    path: TRACE,
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'blink.user_timing'],
  });
const t0 = Date.now();
let crashed = false;
page.on('crash', () => {
  crashed = true;
});
await page.goto(base + query);
let drawnMs = NaN;
let error = null;
try {
  await page.waitForFunction(
    () => window.__cwndlab?.timings.length > 0 && document.documentElement.dataset.render === 'idle',
    null,
    { timeout: TIMEOUT_S * 1000, polling: 250 },
  );
  drawnMs = Date.now() - t0;
} catch (e) {
  error = crashed ? 'the page crashed' : String(e.message ?? e).split('\n')[0];
}
await new Promise((r) => setTimeout(r, 1000));
sampling = false;
await sampler;
const after = memory();
const mappingsAfter = largestMappings();
let slowTasks = [];
if (TRACE) {
  await browser.stopTracing();
  const events = JSON.parse(readFileSync(TRACE, 'utf8')).traceEvents ?? [];
  const main = new Set(
    events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`),
  );
  const onMain = events.filter((e) => main.has(`${e.pid}:${e.tid}`) && e.ph === 'X');
  const start = Math.min(...onMain.map((e) => e.ts));
  for (const task of onMain.filter((e) => e.name === 'RunTask' && e.dur > 200_000)) {
    const inside = onMain
      .filter((e) => e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= task.ts + task.dur && e.dur > 20_000)
      .sort((a, b) => b.dur - a.dur)
      .slice(0, 6)
      .map((e) => {
        const fn = e.args?.data?.functionName || e.args?.data?.url?.replace(/^.*\//, '') || e.args?.data?.type || '';
        return `${e.name}${fn ? `(${fn})` : ''} ${(e.dur / 1000).toFixed(0)}`;
      });
    slowTasks.push({ atS: (task.ts - start) / 1e6, durMs: task.dur / 1000, inside });
  }
}
// The main thread's JavaScript heap (CDP), as left and after a garbage collection, and the
// whole browser again after it.
let heap = null;
let afterGc = null;
if (!crashed) {
  try {
    const cdp = await page.context().newCDPSession(page);
    const used = async () =>
      ((await cdp.send('Performance.getMetrics')).metrics.find((x) => x.name === 'JSHeapUsedSize')?.value ?? NaN) /
      2 ** 20;
    await cdp.send('Performance.enable');
    const left = await used();
    await cdp.send('HeapProfiler.collectGarbage');
    heap = { leftMB: left, afterGcMB: await used() };
    await new Promise((r) => setTimeout(r, 500));
    afterGc = memory();
    if (ISOLATED) {
      heap.uaMemory = await page.evaluate(async () => {
        if (!crossOriginIsolated || !performance.measureUserAgentSpecificMemory) return { notIsolated: true };
        const r = await performance.measureUserAgentSpecificMemory();
        const by = {};
        for (const b of r.breakdown) {
          const scope = b.attribution.map((a) => a.scope).join('+') || 'shared';
          const key = `${scope}:${b.types.join('+') || '—'}`;
          by[key] = (by[key] ?? 0) + b.bytes / 2 ** 20;
        }
        return { totalMB: r.bytes / 2 ** 20, by };
      });
    }
  } catch (e) {
    heap = { error: String(e) };
  }
}
const m = crashed ? null : await page.evaluate(() => window.__longRun).catch(() => null);
const notice = crashed
  ? null
  : await page
      .evaluate(() => document.querySelector('[data-reduced], .reduced-notice')?.textContent ?? null)
      .catch(() => null);
await browser.close();
await server.close();

const longest = m ? Math.max(0, ...m.longtasks.map((t) => t.duration)) : NaN;
const over200 = m ? m.longtasks.filter((t) => t.duration > 200).length : NaN;
const fmt = (x, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : '—');
const version = (await import('node:child_process'))
  .execFileSync(executablePath, ['--version'], { encoding: 'utf8' })
  .trim();
console.log(`long run: ${base}${query}`);
console.log(
  `  build ${DIST}; ${version}; ${cpus().length} CPUs, load ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}; ${new Date().toISOString()}`,
);
if (error) console.log(`  NOT DRAWN: ${error}`);
console.log(`  first chunk     ${fmt(m?.firstChunk)} ms after navigation`);
console.log(`  first picture   ${fmt(m?.firstPicture)} ms`);
console.log(`  drawn           ${fmt(drawnMs)} ms (wall, from goto)`);
console.log(
  `  longest task    ${fmt(longest)} ms on the main thread (${m?.longtasks.length ?? '—'} over 50 ms, ${over200} over 200 ms)`,
);
console.log(
  `  memory (sum over ${after.processes} Chromium processes): before ${fmt(before.pssMB)} MB PSS / ${fmt(before.rssMB)} MB RSS; peak ${fmt(peak.pssMB)} / ${fmt(peak.rssMB)}; after ${fmt(after.pssMB)} / ${fmt(after.rssMB)}`,
);
for (const t of slowTasks)
  console.log(`  task at ${t.atS.toFixed(1)} s (trace time), ${t.durMs.toFixed(0)} ms: ${t.inside.join(', ')}`);
if (heap && afterGc)
  console.log(
    `  main thread JS heap ${fmt(heap.leftMB)} MB, ${fmt(heap.afterGcMB)} MB after a GC (then ${fmt(afterGc.pssMB)} MB PSS in all, renderer ${fmt(afterGc.byType.renderer)})`,
  );
if (heap?.uaMemory?.notIsolated) console.log('  measureUserAgentSpecificMemory: the page is not cross-origin isolated');
else if (heap?.uaMemory)
  console.log(
    `  measureUserAgentSpecificMemory: ${fmt(heap.uaMemory.totalMB)} MB: ${Object.entries(heap.uaMemory.by)
      .map(([k, v]) => `${k} ${v.toFixed(1)}`)
      .join(', ')}`,
  );
console.log(
  `  PSS by process type, MB: before: ${types(before)}; after: ${types(after)}; renderer peak ${fmt(peak.rendererMB)}`,
);
console.log(
  `  renderer's largest mappings, resident of size MB: before: ${mappingText(mappingsBefore)}; after: ${mappingText(mappingsAfter)}`,
);
if (notice) console.log(`  notice: ${notice}`);
if (JSON_OUT) {
  writeFileSync(
    JSON_OUT,
    JSON.stringify(
      {
        query,
        dist: DIST,
        version,
        before,
        peak,
        after,
        mappingsBefore,
        mappingsAfter,
        heap,
        afterGc,
        slowTasks,
        drawnMs,
        error,
        measures: m,
      },
      null,
      2,
    ),
  );
}
