// Where the page's start-up main-thread time goes. Opens a built site in Debian's Chromium,
// software rendering, at Lighthouse's phone size and CPU slowdown (412 × 823 at 1.75×, 4×),
// until the first comparison is drawn and the page is idle (+1.5 s), and prints, per load:
//
// - default: under V8's sampling CPU profiler (100 µs; build with `--minify false` so
//   functions keep their names), each long task (≥ 50 ms, as the page's `longtask` observer
//   saw it: what Lighthouse's total blocking time counts) with the functions that took its
//   time (inclusive, each once per sample; SELF=N adds the N of most self time), then the
//   whole load's self time by function (FN=a,b adds a's and b's inclusive time);
// - `--trace`: from a Chromium trace (no profiler), each main-thread task over 50 ms with
//   its script, style, layout, paint and compositing parts, and those parts summed over the
//   load (Commit and ProduceCanvasResource: canvases handed to the compositor).
//
// Each line ends with the load's long tasks and their time over 50 ms ("blocking"). The
// machine's load moves both by tens of percent: compare builds by alternating them.
//
//   npx vite build --config web/vite.config.ts --minify false --outDir /tmp/dist-prof
//   node scripts/profile-load.mjs /tmp/dist-prof [loads] [--trace] [--slowdown 4]
/* global window, document -- the functions given to the page run there */
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { requireChromium } from './page-tools.mjs';
import { serveStatic } from './static-server.mjs';

const args = process.argv.slice(2);
const take = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 1).length > 0 : false;
};
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args.splice(i, 2)[1]) : fallback;
};
const slowdown = flag('--slowdown', 4);
const traced = take('--trace');
const [dir, loadsArg] = args;
if (!dir) {
  console.error('usage: node scripts/profile-load.mjs DIST [loads] [--trace] [--slowdown N]');
  process.exit(2);
}
const loads = Number(loadsArg ?? 1);
const server = await serveStatic(dir);
const browser = await chromium.launch({ executablePath: requireChromium(), args: ['--no-sandbox', '--disable-gpu'] });

const nameOf = (f) => `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber}`;
const ms = (v) => v.toFixed(1).padStart(7);
/** The trace events that are a part of a frame or task worth naming. */
const PARTS = {
  FunctionCall: 'script',
  EvaluateScript: 'script',
  'v8.evaluateModule': 'script',
  FireAnimationFrame: 'animation frame',
  UpdateLayoutTree: 'style',
  Layout: 'layout',
  PrePaint: 'pre-paint',
  Paint: 'paint',
  Layerize: 'layerize',
  Commit: 'commit',
  'Canvas2DResourceProvider::ProduceCanvasResource': 'canvas to compositor',
  MinorGC: 'GC',
  MajorGC: 'GC',
  ParseHTML: 'HTML',
};

async function load(page) {
  await page.goto(server.url);
  await page.waitForFunction(
    () => (window.__cwndlab?.timings.length ?? 0) > 0 && document.documentElement.dataset.render === 'idle',
    null,
    { timeout: 60_000 },
  );
  await page.waitForTimeout(1500);
}

function summary(tasks) {
  const blocking = tasks.reduce((s, d) => s + Math.max(0, d - 50), 0);
  return `${tasks.length} long tasks, ${tasks.reduce((s, d) => s + d, 0).toFixed(0)} ms, blocking ${blocking.toFixed(0)} ms`;
}

/** A load under V8's profiler, its long tasks from the page's own observer. */
async function profiled(context, page) {
  await page.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  await load(page);
  const { profile } = await cdp.send('Profiler.stop');
  const tasks = await page.evaluate(() => window.__longTasks);
  // The profile's clock (µs) against the page's performance.now() (ms): a second, empty
  // profile ends at a known performance.now().
  const mono = await cdp.send('Runtime.evaluate', { expression: 'performance.now()', returnByValue: true });
  await cdp.send('Profiler.start');
  const { profile: mark } = await cdp.send('Profiler.stop');
  const offsetUs = mark.endTime - mono.result.value * 1000;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const samples = [];
  let t = profile.startTime;
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i] ?? 0;
    samples.push({ id, ms: (t - offsetUs) / 1000, dt: (profile.timeDeltas[i + 1] ?? 0) / 1000 });
  });
  const stack = (id) => {
    const names = [];
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) names.push(byId.get(cur).callFrame);
    return names;
  };
  for (const task of tasks) {
    const within = samples.filter((s) => s.ms >= task.start && s.ms <= task.start + task.duration);
    const incl = new Map();
    const self = new Map();
    for (const s of within) {
      const seen = new Set();
      for (const f of stack(s.id)) {
        const key = nameOf(f);
        if (seen.has(key)) continue;
        seen.add(key);
        incl.set(key, (incl.get(key) ?? 0) + s.dt);
      }
      const key = nameOf(byId.get(s.id).callFrame);
      self.set(key, (self.get(key) ?? 0) + s.dt);
    }
    console.log(`  task at ${task.start.toFixed(0)} ms, ${task.duration.toFixed(0)} ms:`);
    const top = [...incl.entries()]
      .filter(([k]) => !k.startsWith('(root)') && !k.startsWith('(program)'))
      .sort((a, b) => b[1] - a[1])
      .slice(0, Number(process.env.TOP ?? 12));
    for (const [k, v] of top) console.log(`    ${ms(v)} ms  ${k}`);
    if (process.env.SELF) {
      const rows = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.SELF));
      console.log(`    self: ${rows.map(([k, v]) => `${k} ${v.toFixed(1)}`).join('; ')}`);
    }
  }
  for (const fn of (process.env.FN ?? '').split(',').filter(Boolean)) {
    const total = samples
      .filter((s) => stack(s.id).some((f) => f.functionName === fn))
      .reduce((sum, s) => sum + s.dt, 0);
    console.log(`  ${fn}: ${total.toFixed(1)} ms over the load (inclusive)`);
  }
  const self = new Map();
  for (const s of samples) {
    const key = nameOf(byId.get(s.id).callFrame);
    self.set(key, (self.get(key) ?? 0) + s.dt);
  }
  console.log('  self time of the whole load:');
  for (const [k, v] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`    ${ms(v)} ms  ${k}`);
  return tasks.map((x) => x.duration);
}

/** A load under a Chromium trace: the main thread's tasks and what they were made of. */
async function traceOf(context, page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
  const path = join(tmpdir(), `cwndlab-load-trace-${process.pid}.json`);
  await browser.startTracing(page, {
    path,
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink', 'cc', 'toplevel', 'v8'],
  });
  await load(page);
  await browser.stopTracing();
  const events = JSON.parse(readFileSync(path, 'utf8')).traceEvents;
  rmSync(path, { force: true });
  const names = new Map();
  for (const e of events) if (e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args.name);
  const main = new Set([...names].filter(([, n]) => n === 'CrRendererMain').map(([k]) => k));
  const onMain = events.filter((e) => main.has(`${e.pid}:${e.tid}`) && e.ph === 'X');
  const tasks = onMain.filter((e) => e.name === 'RunTask' && e.dur > 50_000);
  const partsOf = (list) => {
    const by = new Map();
    for (const e of list) {
      const part = PARTS[e.name];
      if (part) by.set(part, (by.get(part) ?? 0) + e.dur / 1000);
    }
    return by;
  };
  const t0 = tasks[0]?.ts ?? 0;
  for (const task of tasks) {
    const inside = onMain.filter(
      (e) => e !== task && e.tid === task.tid && e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur,
    );
    const parts = [...partsOf(inside)].map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ');
    console.log(`  task at +${((task.ts - t0) / 1000).toFixed(0)} ms, ${(task.dur / 1000).toFixed(0)} ms: ${parts}`);
  }
  const totals = [...partsOf(onMain)].map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ');
  console.log(`  over the load (ms): ${totals}`);
  return tasks.map((x) => x.dur / 1000);
}

for (let i = 0; i < loads; i++) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75 });
  const page = await context.newPage();
  console.log(`load ${i + 1} of ${dir} (${slowdown}× CPU, ${traced ? 'trace' : 'V8 profiler'}):`);
  const tasks = traced ? await traceOf(context, page) : await profiled(context, page);
  console.log(`  ${summary(tasks)}`);
  await context.close();
}
await browser.close();
server.close?.();
process.exit(0);
