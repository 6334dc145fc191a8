#!/usr/bin/env node
// Browser benchmark of the web app (npm run bench; needs `npm run build` first).
// Serves dist/ with vite preview, drives Debian's Chromium with Playwright, moves the
// bandwidth slider with the keyboard and measures every re-run phase by phase:
//
//   input → request   keydown to the controller posting the runs (validation, store)
//   start             request to the last worker taking it
//   engine            slowest run's simulation in its worker
//   read              slowest run's column reads out of the engine (in the worker)
//   summary           slowest run's summary_json + JSON.parse (in the worker)
//   transfer          longest worker post → page receipt (message passing + busy page)
//   results           request to the last result on the page
//   frame             request to the start of the animation frame that drew the results
//   draw              JavaScript drawing of the plots in view in that frame
//   input → drawn     keydown to the end of that frame's drawing (in-view plots)
//   input → all       keydown to every plot drawn (out-of-view ones come in later frames)
//
// With --trace, a second pass per case records a Chrome trace and adds what the page cannot
// see: when the frame with the new plots was presented (compositor), split into the main
// thread's rendering after the drawing (style, layout, paint, commit), raster and
// activation, and the display compositor; and in which frame after the input it appeared.
// It measures; it asserts nothing.
//
// Options: --steps N (re-runs per case, default 40), --trace, --trace-steps N (default 20),
//   --warmup N (re-runs before measuring, default 3), --dist DIR (serve another build, e.g. an older one, for an A/B comparison),
//   --cases a,b (default, overlay, two, long, live), --port P, --json FILE (raw numbers),
//   --gpu MODE: disabled (default: --disable-gpu, software raster and compositing),
//               default (no GPU flag: on a machine without a GPU Chromium still composites
//               in software), swiftshader (GPU raster and compositing emulated on the CPU),
//               vulkan or egl (a real GPU through ANGLE's Vulkan or EGL back end, the
//               blocklist ignored; on a machine with a GPU and its driver).
//   --pause MS: the pause after each step's plots are drawn before the next key press
//               (default 40; a person's presses are ~150–300 ms apart).
//   --server vite|static: serve with vite preview (default) or scripts/static-server.mjs
//               (no vite needed, e.g. on a machine that has only Node and Playwright).
// The report names the renderer Chromium used (WebGL's) and its graphics feature status
// (SystemInfo.getInfo, what chrome://gpu shows), so a run that asked for a GPU and fell back to software says so.
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { cliOptions, requireBuild, requireChromium, root, vitePreview } from './page-tools.mjs';
import { serveStatic } from './static-server.mjs';

const { opt, flag } = cliOptions();
const STEPS = Number(opt('steps', 40));
const TRACE = flag('trace');
const TRACE_STEPS = Number(opt('trace-steps', 20));
const WARMUP = Number(opt('warmup', 3));
const PORT = Number(opt('port', 4179));
const DIST = resolve(root, opt('dist', 'dist'));
const CASES = opt('cases', 'default,overlay,two,long,live').split(',');
const GPU = opt('gpu', 'disabled');
const JSON_OUT = opt('json', '');
const SERVER = opt('server', 'vite');
const PAUSE = Number(opt('pause', 40));
if (SERVER !== 'vite' && SERVER !== 'static') throw new Error('--server must be vite or static');

requireBuild(DIST);
const executablePath = requireChromium();
const server = SERVER === 'vite' ? await vitePreview(DIST, PORT) : await serveStatic(DIST);
const base = server.url;

const GPU_ARGS = {
  disabled: ['--disable-gpu'],
  default: [],
  swiftshader: [
    '--use-angle=swiftshader',
    '--enable-unsafe-swiftshader',
    '--ignore-gpu-blocklist',
    '--enable-gpu-rasterization',
  ],
  vulkan: [
    '--use-angle=vulkan',
    '--enable-features=Vulkan,VulkanFromANGLE,DefaultANGLEVulkan',
    '--ignore-gpu-blocklist',
    '--enable-gpu-rasterization',
  ],
  egl: ['--use-gl=angle', '--use-angle=gl-egl', '--ignore-gpu-blocklist', '--enable-gpu-rasterization'],
};
if (!GPU_ARGS[GPU]) throw new Error(`--gpu must be one of ${Object.keys(GPU_ARGS).join(', ')}`);
const browser = await chromium.launch({
  executablePath,
  args: [
    '--no-sandbox',
    ...GPU_ARGS[GPU],
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});

const quantile = (xs, q) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN;
};
const stat = (xs) => ({ median: quantile(xs, 0.5), p90: quantile(xs, 0.9), min: quantile(xs, 0) });
const fmt = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '—');
const cell = (s) => `${fmt(s.median)} (${fmt(s.min)})`;

// In the page before the app loads: keydown times, and a mark at the end of the animation
// frame in which the app recorded a finished comparison (every plot drawn). Works with any
// build of the app, old ones included (they record `timings` too).
const INIT = () => {
  const bench = { keys: [], allDrawn: [] };
  window.__bench = bench;
  window.addEventListener('keydown', (e) => bench.keys.push(e.timeStamp), true);
  const raf = window.requestAnimationFrame.bind(window);
  let seen = 0;
  window.requestAnimationFrame = (cb) =>
    raf((ts) => {
      cb(ts);
      const n = window.__cwndlab?.timings.length ?? 0;
      if (n !== seen) {
        seen = n;
        bench.allDrawn.push(performance.now());
        performance.mark('bench:all-drawn');
      }
    });
};

async function idle(page, timeout = 120_000) {
  await page.waitForFunction(() => document.documentElement.dataset.render === 'idle', null, { timeout });
}

/** Per traced case, the steps whose plots were drawn ahead. */
const traceDrawnAhead = [];

/** Presses the slider's arrow keys `steps` times, each after the page is idle; returns how
 *  many steps' plots were copied from ones drawn ahead (builds that draw ahead). */
async function steps(page, n) {
  const slider = page.getByRole('slider', { name: 'Bottleneck bandwidth' });
  await slider.focus();
  const used = () => page.evaluate(() => window.__cwndlab.prerender?.().used ?? 0);
  let drawnAhead = 0;
  for (let i = 0; i < n; i += 1) {
    const before = await page.evaluate(() => window.__cwndlab.timings.length);
    const usedBefore = await used();
    await page.keyboard.press(i % 2 ? 'ArrowLeft' : 'ArrowRight');
    await page.waitForFunction((k) => window.__cwndlab.timings.length > k, before);
    await idle(page);
    if ((await used()) > usedBefore) drawnAhead += 1;
    // A pause between inputs, as between a person's key presses.
    await page.waitForTimeout(PAUSE);
  }
  return drawnAhead;
}

// ---- trace analysis ----

const STAGES = new Set([
  'PipelineReporter',
  'SendBeginMainFrameToCommit',
  'Commit',
  'EndCommitToActivation',
  'Activation',
  'EndActivateToSubmitCompositorFrame',
  'SubmitCompositorFrameToPresentationCompositorFrame',
]);

function analyseTrace(events) {
  const threads = new Map();
  for (const e of events) {
    if (e.ph === 'M' && e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, e.args.name);
  }
  const keys = events.filter((e) => e.name === 'EventDispatch' && e.ph === 'X' && e.args?.data?.type === 'keydown');
  const pid = keys[0]?.pid;
  const marks = (name) =>
    events
      .filter((e) => e.pid === pid && e.name === name && (e.ph === 'R' || e.ph === 'I' || e.ph === 'n' || e.ph === 'b'))
      .map((e) => e.ts)
      .sort((a, b) => a - b);
  const rafs = events.filter((e) => e.pid === pid && e.name === 'FireAnimationFrame' && e.ph === 'X');
  const mainFrames = events.filter((e) => e.pid === pid && e.name === 'ProxyMain::BeginMainFrame' && e.ph === 'X');
  const layerUpdates = events.filter(
    (e) => e.pid === pid && e.name === 'LayerTreeHost::DoUpdateLayers' && e.ph === 'X',
  );
  // The main thread's rendering work, by kind, for splitting a frame's time after its JavaScript.
  const RENDER = { UpdateLayoutTree: 'style', Layout: 'layout', PrePaint: 'paint', Paint: 'paint', Layerize: 'paint' };
  const renderEvents = events.filter((e) => e.pid === pid && e.ph === 'X' && RENDER[e.name]);
  /** Time in style, layout and paint inside `frame` (a BeginMainFrame event), nested events once. */
  const renderSplit = (frame) => {
    const out = { style: 0, layout: 0, paint: 0 };
    let end = -Infinity;
    for (const e of renderEvents) {
      if (e.tid !== frame.tid || e.ts < frame.ts || e.ts > frame.ts + frame.dur || e.ts < end) continue;
      out[RENDER[e.name]] += e.dur / 1000;
      end = e.ts + e.dur;
    }
    return out;
  };
  // Pipeline reporters of the page's compositor: one per frame, stages nested by id.
  const open = new Map();
  const reporters = [];
  const frame = events
    .map((e, i) => [e, i])
    .filter(([e]) => e.pid === pid && STAGES.has(e.name) && (e.ph === 'b' || e.ph === 'e'))
    .sort((a, b) => a[0].ts - b[0].ts || a[1] - b[1]);
  for (const [e] of frame) {
    const id = `${e.tid}:${e.id2?.local ?? e.id2?.global ?? e.id}`;
    if (e.name === 'PipelineReporter') {
      if (e.ph === 'b') {
        const r = {
          b: e.ts,
          e: NaN,
          seq: e.args?.frame_reporter?.frame_sequence,
          state: e.args?.frame_reporter?.state ?? '',
          stages: {},
        };
        open.set(id, r);
        reporters.push(r);
      } else {
        const r = open.get(id);
        if (r) r.e = e.ts;
        open.delete(id);
      }
    } else {
      const r = open.get(id);
      if (!r) continue;
      r.stages[e.name] ??= [NaN, NaN];
      r.stages[e.name][e.ph === 'b' ? 0 : 1] = e.ts;
    }
  }
  const presentedAfter = (m) => {
    const hits = reporters.filter((r) => {
      const s = r.stages.SendBeginMainFrameToCommit;
      return s && s[0] <= m && m <= s[1] && r.state.startsWith('STATE_PRESENTED') && Number.isFinite(r.e);
    });
    hits.sort((a, b) => a.e - b.e);
    return hits[0] ?? null;
  };
  const frameStarts = [...new Set(reporters.map((r) => `${r.seq}@${r.b}`))]
    .map((k) => Number(k.split('@')[1]))
    .sort((a, b) => a - b);
  const requests = marks('cwndlab:request');
  const results = marks('cwndlab:results');
  const drawnInView = marks('cwndlab:drawn');
  const allDrawn = marks('bench:all-drawn');
  const rows = [];
  keys.sort((a, b) => a.ts - b.ts);
  keys.forEach((k, i) => {
    const next = keys[i + 1]?.ts ?? Infinity;
    const within = (list) => list.find((t) => t > k.ts && t < next);
    const inView = within(drawnInView) ?? within(allDrawn);
    const all = within(allDrawn);
    if (inView === undefined) return;
    const r = presentedAfter(inView);
    const ra = all === undefined ? null : presentedAfter(all);
    const raf = rafs.find((f) => f.ts <= inView && inView <= f.ts + f.dur);
    const ms = (a, b) => (Number.isFinite(a) && Number.isFinite(b) ? (b - a) / 1000 : NaN);
    const req = within(requests);
    const res = within(results);
    // The main thread's frame for the input itself (the slider moving), while workers compute.
    const inputFrame = mainFrames.find((f) => f.ts > k.ts);
    const drawFrame = mainFrames.find((f) => f.ts <= inView && inView <= f.ts + f.dur);
    const flush = drawFrame && layerUpdates.find((u) => u.ts >= drawFrame.ts && u.ts <= drawFrame.ts + drawFrame.dur);
    const split = drawFrame ? renderSplit(drawFrame) : { style: NaN, layout: NaN, paint: NaN };
    rows.push({
      inputToRequest: ms(k.ts, req),
      requestToResults: ms(req, res),
      resultsToFrame: ms(res, raf?.ts),
      inputFrame: inputFrame && inputFrame.ts < (req ?? Infinity) + 50_000 ? inputFrame.dur / 1000 : NaN,
      frameJs: raf ? raf.dur / 1000 : NaN,
      // The whole main-thread frame that drew the plots, and in it the layer update, where
      // the canvases' recorded drawing is rasterised (software) and handed to the compositor.
      drawFrame: drawFrame ? drawFrame.dur / 1000 : NaN,
      canvasFlush: flush ? flush.dur / 1000 : NaN,
      // Of the frame's time after its JavaScript: style recalculation, layout, and pre-paint
      // with paint and layerisation (the display lists, not yet the pixels).
      style: split.style,
      layout: split.layout,
      paint: split.paint,
      // After the frame's JavaScript: style, layout, paint and commit on the main thread.
      afterDraw: r ? ms(raf ? raf.ts + raf.dur : inView, r.stages.SendBeginMainFrameToCommit?.[1]) : NaN,
      // Raster of what changed, then activation of the new layer tree.
      raster: r ? ms(r.stages.EndCommitToActivation?.[0], r.stages.Activation?.[1]) : NaN,
      // Display compositor: submit to presentation.
      display: r ? ms(r.stages.Activation?.[1], r.e) : NaN,
      inputToPresented: r ? ms(k.ts, r.e) : NaN,
      inputToAllPresented: ra ? ms(k.ts, ra.e) : NaN,
      // The presented frame is the k-th frame begun after the input.
      frames: r ? frameStarts.filter((t) => t > k.ts && t <= r.b).length : NaN,
    });
  });
  return rows;
}

async function traced(page, n) {
  await browser.startTracing(page, {
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline.frame', 'blink.user_timing', 'benchmark'],
  });
  const drawnAhead = await steps(page, n);
  traceDrawnAhead.push(drawnAhead);
  const buffer = await browser.stopTracing();
  const parsed = JSON.parse(buffer.toString());
  return analyseTrace(parsed.traceEvents ?? parsed);
}

/** Re-runs a comparison by keyboard on the bandwidth slider and collects every phase. */
async function rerun(name, query, viewport = { width: 1280, height: 900 }) {
  const page = await browser.newPage({ viewport });
  await page.addInitScript(INIT);
  await page.goto(base + query);
  await idle(page);
  await steps(page, WARMUP); // warm-up, not counted
  const skip = await page.evaluate(() => ({ t: window.__cwndlab.timings.length, k: window.__bench.keys.length }));
  const drawnAhead = await steps(page, STEPS);
  const got = await page.evaluate(
    (skip) => ({
      timings: window.__cwndlab.timings.slice(skip.t),
      keys: window.__bench.keys.slice(skip.k),
      allDrawn: window.__bench.allDrawn.slice(skip.t),
      workers: window.__cwndlab.workers,
      plots: document.querySelectorAll('figure.plot').length,
    }),
    skip,
  );
  const trace = TRACE ? await traced(page, TRACE_STEPS) : [];
  await page.close();
  const rows = got.timings.map((t, i) => {
    const key = got.keys[i] ?? NaN;
    const at = t.at ?? NaN; // older builds do not record it
    return {
      inputToRequest: at - key,
      startMs: t.startMs,
      computeMs: t.computeMs,
      readMs: t.readMs,
      summaryMs: t.summaryMs,
      transferMs: t.transferMs,
      resultsMs: t.resultsMs,
      frameMs: t.frameMs,
      drawMs: t.drawMs,
      plotsInView: t.plotsInView,
      // Older builds: drawnMs is "every plot drawn"; inputToDrawn is then the same as all.
      inputToDrawn: Number.isFinite(at) ? at + t.drawnMs - key : (got.allDrawn[i] ?? NaN) - key,
      inputToAll: (got.allDrawn[i] ?? NaN) - key,
      allDrawMs: t.allDrawMs ?? t.drawMs,
    };
  });
  // Re-runs answered from runs computed ahead (builds from the look-ahead on record it).
  const ahead = got.timings.filter((t) => (t.aheadRuns ?? 0) >= t.runs).length;
  const col = (list, k) => list.map((r) => r[k]);
  const stats = {};
  for (const k of Object.keys(rows[0] ?? {})) stats[k] = stat(col(rows, k));
  const traceStats = {};
  for (const k of Object.keys(trace[0] ?? {})) traceStats[k] = stat(col(trace, k));
  const frames = col(trace, 'frames').filter(Number.isFinite);
  const frameHist = {};
  for (const f of frames) frameHist[f] = (frameHist[f] ?? 0) + 1;
  return {
    name,
    query,
    plots: got.plots,
    workers: got.workers,
    n: rows.length,
    ahead,
    drawnAhead,
    traceDrawnAhead: traceDrawnAhead.at(-1) ?? null,
    stats,
    rows,
    trace,
    traceStats,
    frameHist,
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

/** What Chromium drew with: WebGL's renderer string and the browser's GPU report (chrome://gpu's). */
async function graphics() {
  const page = await browser.newPage(); // about:blank: WebGL needs no page of ours
  const renderer = await page.evaluate(() => {
    const gl = document.createElement('canvas').getContext('webgl');
    if (!gl) return 'no WebGL';
    const ext = gl.getExtension('WEBGL_debug_renderer_info');
    return String(gl.getParameter(ext ? ext.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
  });
  let status;
  try {
    // The browser's own report (what chrome://gpu shows): each feature's status and the device.
    const cdp = await browser.newBrowserCDPSession();
    const { gpu } = await cdp.send('SystemInfo.getInfo');
    const features = Object.entries(gpu.featureStatus ?? {})
      .filter(([k]) => /^(2d_canvas|gpu_compositing|rasterization|webgl|opengl|vulkan|skia_graphite)$/.test(k))
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ');
    const device = (gpu.devices ?? []).map((d) => `${d.vendorString || d.vendorId} ${d.deviceString || d.deviceId}`);
    status = `Devices: ${device.join('; ') || 'none'}. Features: ${features}.`;
  } catch (e) {
    status = `No GPU report (${e instanceof Error ? e.message : e}).`;
  }
  await page.close();
  return { renderer, status };
}

const version = await browser.version();
const gfx = await graphics();
const loadBefore = loadavg();
const results = [];
const ALL = '?v=1&alg=old_tahoe,tahoe,reno,newreno';
if (CASES.includes('default')) results.push(await rerun('4 algorithms, one plot per algorithm (12 plots)', ALL));
if (CASES.includes('overlay')) results.push(await rerun('4 algorithms, overlay (3 plots)', `${ALL}&layout=overlay`));
if (CASES.includes('two'))
  results.push(await rerun('2 algorithms, one plot per algorithm (6 plots)', '?v=1&alg=reno,newreno'));
const long = CASES.includes('long') ? await longRun('1000-s run, 4 algorithms', '?v=1&duration=1000') : null;
const play = CASES.includes('live') ? await live('live playback, 4 algorithms, 1×', '?v=1') : null;
const loadAfter = loadavg();

server.close();
await browser.close();

const load = (l) => l.map((x) => x.toFixed(2)).join(' ');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const gpuNote = {
  disabled: '--disable-gpu (software raster and compositing)',
  default: "no GPU flag (Chromium's own choice; the feature status below says what it used)",
  swiftshader: 'SwiftShader: GPU raster and compositing emulated on the CPU',
  vulkan: 'GPU through ANGLE on Vulkan, blocklist ignored',
  egl: 'GPU through ANGLE on EGL, blocklist ignored',
}[GPU];
console.log(`\ncwndlab ${pkg.version} web benchmark — ${new Date().toISOString()} — ${DIST}`);
console.log(
  `${cpus().length} cores (${cpus()[0]?.model ?? '?'}), load average before ${load(loadBefore)}, after ${load(loadAfter)}; ` +
    `Chromium ${version} headless, ${gpuNote}; 1280 × 900, ${STEPS} re-runs per case after ${WARMUP} warm-up ones`,
);
console.log(`Renderer: ${gfx.renderer}. ${gfx.status}\n`);
console.log('Per re-run, median (minimum) in ms:\n');
console.log(
  '| case | plots (in view) | answered ahead | drawn ahead | input → request | start | engine | read | summary | transfer | results | frame | draw (in view) | input → drawn | input → all drawn |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of results) {
  const s = r.stats;
  console.log(
    `| ${r.name} | ${r.plots} (${fmt(s.plotsInView?.median, 0)}) | ${r.ahead} of ${r.n} | ${r.drawnAhead} of ${r.n} | ${cell(s.inputToRequest)} | ${cell(s.startMs)} | ${cell(s.computeMs)} | ` +
      `${cell(s.readMs)} | ${cell(s.summaryMs)} | ${cell(s.transferMs)} | ${cell(s.resultsMs)} | ${cell(s.frameMs)} | ` +
      `${cell(s.drawMs)} | ${cell(s.inputToDrawn)} (p90 ${fmt(s.inputToDrawn.p90)}) | ${cell(s.inputToAll)} |`,
  );
}
console.log(
  '\n(start, engine … frame are measured from the request; "input →" from the keydown event. ' +
    '"drawn" = the plots in view drawn; older builds draw every plot in that frame. "answered ahead": re-runs whose ' +
    'results were computed while the slider had the focus, before the key press (engine = that time); "drawn ahead": ' +
    're-runs whose plots in view were copied from bitmaps drawn before the key press. Pause between steps: ' +
    `${PAUSE} ms after the page is idle.)`,
);
if (TRACE) {
  console.log(`\nFrom a Chrome trace (${TRACE_STEPS} more re-runs per case), median (minimum) in ms:\n`);
  console.log(
    '| case | input frame | input → request | request → results | results → frame | draw frame | frame JS | after draw (style, layout, paint, commit) | of which style / layout / paint | canvas flush | raster + activation | display | input → presented | input → all presented | presented in frame k after input |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    const s = r.traceStats;
    if (!s.inputToPresented) continue;
    const hist = Object.entries(r.frameHist)
      .map(([k, v]) => `${k}: ${v}×`)
      .join(', ');
    console.log(
      `| ${r.name} | ${cell(s.inputFrame)} | ${cell(s.inputToRequest)} | ${cell(s.requestToResults)} | ${cell(s.resultsToFrame)} | ` +
        `${cell(s.drawFrame)} | ${cell(s.frameJs)} | ${cell(s.afterDraw)} | ` +
        `${fmt(s.style.median)} / ${fmt(s.layout.median)} / ${fmt(s.paint.median)} | ${cell(s.canvasFlush)} | ${cell(s.raster)} | ${cell(s.display)} | ` +
        `${cell(s.inputToPresented)} (p90 ${fmt(s.inputToPresented.p90)}) | ` +
        `${cell(s.inputToAllPresented)} | ${hist}${r.traceDrawnAhead === null ? '' : `; drawn ahead in ${r.traceDrawnAhead} of ${TRACE_STEPS}`} |`,
    );
  }
  console.log(
    '\n(frame k: 0 = the frame under way when the key went down (begun before it, its main-thread part after it: ' +
      'the earliest that can show the change), 1 = the next one, and so on.)',
  );
}
if (long) {
  console.log(
    `\n${long.name}: first results on screen after ${fmt(long.timing?.drawnMs)} ms (engine ${fmt(long.timing?.computeMs)} ms, ` +
      `column reads ${fmt(long.timing?.readMs)} ms, wall ${long.wall} ms including page load); the page painted ` +
      `${long.frames} frames meanwhile, longest gap ${fmt(long.maxGap)} ms, p95 ${fmt(long.p95Gap)} ms; ` +
      `plot draws ${long.draws.map((x) => fmt(x)).join(', ')} ms; after a zoom ${long.zoomDraws.map((x) => fmt(x)).join(', ')} ms.`,
  );
}
if (play) {
  console.log(
    `${play.name}: ${play.frames} frames in 4 s, median frame interval ${fmt(play.medianGap)} ms, p95 ${fmt(play.p95Gap)} ms; ` +
      `simulated time reached ${play.simTime} s.`,
  );
}
if (JSON_OUT) {
  writeFileSync(
    JSON_OUT,
    JSON.stringify(
      { version, gpu: GPU, graphics: gfx, dist: DIST, loadBefore, loadAfter, results, long, play },
      null,
      1,
    ),
  );
}
