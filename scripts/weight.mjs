#!/usr/bin/env node
// Page weight: what the page opened with no link parameters downloads before its default
// view is drawn. Serves the built site (scripts/static-server.mjs), opens it in Chromium,
// waits until the first comparison is drawn and the page is idle, and lists every file the
// page and its workers fetched (logged by the server, so worker requests count too) with
// its raw, gzip -9 and brotli (q 11) size, and the totals. The service worker is blocked:
// its background precache of the whole site (for offline use) is not part of the first view.
// What the page fetches after that moment (the parts it loads once the view is drawn,
// app/Deferred.tsx) is listed apart. Measures only; asserts nothing.
//
// Usage: npm run weight [-- --dir dist] [--query '?preset=...'] [--json out.json]
/* global window, document, MutationObserver -- the functions given to the page run there */
import { chromium } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cliOptions, requireChromium, root } from './page-tools.mjs';
import { encodings, serveStatic } from './static-server.mjs';

const { opt } = cliOptions();
const dir = resolve(root, opt('dir', 'dist'));
const query = opt('query', '');
const jsonOut = opt('json', null);

const executablePath = requireChromium();

const server = await serveStatic(dir);
const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
try {
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // The wall-clock instant the page first reports its view drawn and idle.
  // (A mutation observer on the document: it runs before any request the page makes on
  // becoming idle, so those count as later.)
  await page.addInitScript(() => {
    const observer = new MutationObserver(() => {
      if (document.documentElement?.dataset.render === 'idle' && (window.__cwndlab?.timings.length ?? 0) > 0) {
        window.__firstIdle = Date.now();
        observer.disconnect();
      }
    });
    observer.observe(document, { subtree: true, attributes: true, attributeFilter: ['data-render'] });
  });
  const t0 = Date.now();
  await page.goto(server.url + query);
  await page.waitForFunction(
    () => (window.__cwndlab?.timings.length ?? 0) > 0 && document.documentElement.dataset.render === 'idle',
    null,
    { timeout: 120_000 },
  );
  await page.waitForFunction(() => window.__firstIdle !== undefined);
  const firstIdle = await page.evaluate(() => window.__firstIdle);
  const drawnMs = firstIdle - t0;
  // What the page loads once the view is drawn.
  await page.waitForTimeout(2000);

  const table = (log) => {
    const seen = new Map();
    for (const { path } of log) if (!seen.has(path)) seen.set(path, encodings(readFileSync(join(dir, path))));
    const files = [...seen].map(([path, e]) => ({ path, ...e })).sort((a, b) => b.gzip - a.gzip);
    const total = files.reduce((t, r) => ({ raw: t.raw + r.raw, gzip: t.gzip + r.gzip, brotli: t.brotli + r.brotli }), {
      raw: 0,
      gzip: 0,
      brotli: 0,
    });
    return { files, total };
  };
  const first = table(server.served.filter((r) => r.at <= firstIdle));
  const later = table(server.served.filter((r) => r.at > firstIdle));
  const kb = (n) => (n / 1024).toFixed(1).padStart(8);
  const print = (title, { files, total }) => {
    console.log(title);
    console.log(`  ${'file'.padEnd(46)} ${'raw KiB'.padStart(8)} ${'gzip KiB'.padStart(8)} ${'br KiB'.padStart(8)}`);
    for (const r of files) console.log(`  ${r.path.padEnd(46)} ${kb(r.raw)} ${kb(r.gzip)} ${kb(r.brotli)}`);
    console.log(`  ${'total'.padEnd(46)} ${kb(total.raw)} ${kb(total.gzip)} ${kb(total.brotli)}`);
  };
  print(`Default view of ${dir}${query}: drawn and idle after ${drawnMs} ms; fetched until then:`, first);
  print('Fetched after the view was drawn (deferred parts, loaded in the background):', later);
  if (errors.length) console.log(`page errors: ${errors.join(' | ')}`);
  if (jsonOut) {
    writeFileSync(
      jsonOut,
      JSON.stringify({ dir, query, drawnMs, firstView: first, afterwards: later }, null, 1) + '\n',
    );
  }
} finally {
  await browser.close();
  await server.close();
}
