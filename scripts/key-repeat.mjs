// Key presses faster than a comparison is drawn: opens a built site in Debian's Chromium
// (software rendering, 1280 × 900), focuses the bandwidth slider, waits a second (its next
// values are computed ahead), then presses ArrowRight 12 times and ArrowLeft 12 times, one
// every GAP ms, and prints which drawn comparisons were answered from runs computed ahead
// (A) or not (.), their request → drawn times, and how many plot draws were copied from
// bitmaps drawn ahead (builds that draw ahead).
//
//   node scripts/key-repeat.mjs dist 150
import { chromium } from '@playwright/test';
import { requireChromium } from './page-tools.mjs';
import { serveStatic } from './static-server.mjs';
const [dir = 'dist', gapArg] = process.argv.slice(2);
const gap = Number(gapArg ?? 50);
const server = await serveStatic(dir);
const browser = await chromium.launch({ executablePath: requireChromium(), args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
await page.goto(server.url);
await page.waitForFunction(() => document.documentElement.dataset.render === 'idle');
const slider = page.getByRole('slider', { name: 'Bottleneck bandwidth' });
await slider.focus();
await page.waitForTimeout(1000);
const n0 = await page.evaluate(() => window.__cwndlab.timings.length);
const used = () => page.evaluate(() => window.__cwndlab.prerender?.().used ?? 0);
const used0 = await used();
const t0 = Date.now();
for (let i = 0; i < 24; i++) {
  await page.keyboard.press(i < 12 ? 'ArrowRight' : 'ArrowLeft');
  const wait = gap - ((Date.now() - t0) % gap);
  await page.waitForTimeout(wait);
}
await page.waitForFunction(() => document.documentElement.dataset.render === 'idle');
const copied = (await used()) - used0;
const t = await page.evaluate((n) => window.__cwndlab.timings.slice(n), n0);
const ahead = t.filter((x) => (x.aheadRuns ?? 0) >= x.runs).length;
const d = t.map((x) => x.drawnMs).sort((a, b) => a - b);
console.log(t.map((x) => ((x.aheadRuns ?? 0) >= x.runs ? 'A' : '.')).join(''));
console.log(
  `gap ${gap} ms: ${t.length} comparisons drawn of 24 key presses, ${ahead} answered ahead; request → drawn median ${d[Math.floor(d.length / 2)]?.toFixed(1)} ms, max ${d.at(-1)?.toFixed(1)}; ` +
    `${copied} plot draws copied from bitmaps drawn ahead`,
);
await browser.close();
process.exit(0);
