#!/usr/bin/env node
/* global document */
// Screenshots of the built site as its three users meet it (issue 43): a student on a phone
// (390 × 844), a researcher or lecturer at 1280 × 800, a projector at 1920 × 1080.
//   node scripts/shots.mjs [--dist dist] [--out /tmp/shots] [--port 4190] [query ...]
// Serves the build with vite preview, opens each query at each size in Debian's Chromium,
// waits until the page is idle and writes NAME-WIDTH.png (the first screen) to --out.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return dflt;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
};
const dist = opt('dist', 'dist');
const out = resolve(opt('out', '/tmp/shots'));
const port = Number(opt('port', '4190'));
const full = args.includes('--full');
const queries = args.filter((a) => a !== '--full');
if (queries.length === 0) queries.push('');
mkdirSync(out, { recursive: true });

const server = spawn(
  './node_modules/.bin/vite',
  ['preview', '--config', 'web/vite.config.ts', '--host', '127.0.0.1', '--strictPort', '--port', String(port)],
  { cwd: root, env: { ...process.env, E2E_DIST: dist }, stdio: 'ignore' },
);
const base = `http://127.0.0.1:${port}/`;
for (let i = 0; i < 100; i += 1) {
  try {
    if ((await fetch(base)).ok) break;
  } catch {
    /* not yet */
  }
  await new Promise((r) => setTimeout(r, 200));
}
const browser = await chromium.launch({
  executablePath: '/usr/lib/chromium/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
try {
  for (const q of queries) {
    for (const [w, h] of [
      [390, 844],
      [1280, 800],
      [1920, 1080],
    ]) {
      const page = await browser.newPage({ viewport: { width: w, height: h }, deviceScaleFactor: 1 });
      await page.goto(base + q);
      await page
        .waitForFunction(() => document.documentElement.dataset.render === 'idle', null, { timeout: 60_000 })
        .catch(() => console.error(`not idle: ${q} at ${w}`));
      await page.waitForTimeout(300);
      const name =
        (q
          .replace(/^\?/, '')
          .replace(/[^a-z0-9]+/gi, '_')
          .slice(0, 50) || 'default') + `-${w}.png`;
      await page.screenshot({ path: join(out, name), fullPage: full });
      const plot = await page.evaluate(() => {
        const el = document.querySelector('.plot canvas, [data-plot] canvas, canvas');
        const r = el?.getBoundingClientRect();
        return r ? { top: Math.round(r.top), height: Math.round(r.height) } : null;
      });
      console.log(`${name}: first canvas ${JSON.stringify(plot)}`);
      await page.close();
    }
  }
} finally {
  await browser.close();
  server.kill();
}
