// Where a slider step's main-thread time (or memory) goes: opens a built site (best built
// with `--minify false`, so functions keep their names) in Debian's Chromium, software
// rendering, 1280 × 900, presses the bandwidth slider's arrow keys N times (alternating, each
// after the page is idle and its next values are computed ahead) under V8's sampling CPU
// profiler (100 µs), and prints self and inclusive time per step by function. With HEAP=1 it
// samples allocations instead (KiB per step by allocating function).
//
//   npx vite build --config web/vite.config.ts --minify false --outDir /tmp/dist-prof
//   node scripts/profile-step.mjs /tmp/dist-prof 20
//   HEAP=1 node scripts/profile-step.mjs /tmp/dist-prof 20
import { chromium } from '@playwright/test';
import { requireChromium } from './page-tools.mjs';
import { serveStatic } from './static-server.mjs';
const dir = process.argv[2];
const N = Number(process.argv[3] ?? 20);
const server = await serveStatic(dir);
const browser = await chromium.launch({ executablePath: requireChromium(), args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
await page.goto(server.url);
const idle = () => page.waitForFunction(() => document.documentElement.dataset.render === 'idle');
await idle();
const slider = page.getByRole('slider', { name: 'Bottleneck bandwidth' });
await slider.focus();
const step = async (i) => {
  await page.waitForFunction(() => (window.__cwndlab?.aheadReady?.() ?? 4) >= 4);
  const n = await page.evaluate(() => window.__cwndlab.timings.length);
  await page.keyboard.press(i % 2 ? 'ArrowLeft' : 'ArrowRight');
  await page.waitForFunction((k) => window.__cwndlab.timings.length > k, n);
  await idle();
  await page.waitForTimeout(60);
};
for (let i = 0; i < 4; i++) await step(i);
const cdp = await page.context().newCDPSession(page);
if (process.env.HEAP) {
  await cdp.send('HeapProfiler.enable');
  await cdp.send('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  for (let i = 0; i < N; i++) await step(i);
  const { profile: hp } = await cdp.send('HeapProfiler.stopSampling');
  const sizes = new Map();
  const walk = (n, stack) => {
    const f = n.callFrame;
    const name = `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber}`;
    if (n.selfSize) sizes.set(name, (sizes.get(name) ?? 0) + n.selfSize);
    for (const c of n.children ?? []) walk(c, stack);
  };
  walk(hp.head, []);
  for (const [k, v] of [...sizes.entries()].sort((a, b) => b[1] - a[1]).slice(0, 40))
    console.log((v / N / 1024).toFixed(1).padStart(8), 'KiB/step', k);
  await browser.close();
  process.exit(0);
}
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
await cdp.send('Profiler.start');
for (let i = 0; i < N; i++) await step(i);
const { profile } = await cdp.send('Profiler.stop');
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
const dts = profile.timeDeltas;
profile.samples.forEach((id, i) => {
  const n = byId.get(id);
  const f = n.callFrame;
  const key = `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber}`;
  self.set(key, (self.get(key) ?? 0) + (dts[i] ?? 0) / 1000);
});
const rows = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 45);
for (const [k, v] of rows) console.log((v / N).toFixed(2).padStart(7), 'ms/step', k);
// Inclusive time of selected functions.
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const incl = new Map();
profile.samples.forEach((id, i) => {
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const f = byId.get(cur).callFrame;
    const key = f.functionName || '(anon)';
    if (seen.has(key)) continue;
    seen.add(key);
    incl.set(key, (incl.get(key) ?? 0) + (dts[i] ?? 0) / 1000);
  }
});
console.log('--- inclusive');
for (const [k, v] of [...incl.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 60)))
  console.log((v / N).toFixed(2).padStart(7), 'ms/step', k);
await browser.close();
server.close?.();
process.exit(0);
