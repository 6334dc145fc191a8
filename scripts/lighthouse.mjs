#!/usr/bin/env node
// Lighthouse on the built site, served as a static host would serve it (scripts/static-server.mjs:
// MIME types, long cache for hashed assets, brotli/gzip), in Debian's Chromium: the mobile
// (Lighthouse's default: a mid-range phone, slow 4G, simulated) and desktop configurations.
// Prints the four category scores and the key metrics of each; with --runs N, runs each N
// times and prints the medians. Measures only; asserts nothing.
//
// Usage: npm run lighthouse [-- --dir dist] [--runs 3] [--query '?…'] [--out DIR (JSON reports)]
//                           [--only mobile|desktop]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { cliOptions, requireChromium, root } from './page-tools.mjs';
import { serveStatic } from './static-server.mjs';

const { opt } = cliOptions();
const dir = resolve(root, opt('dir', 'dist'));
const runs = Number(opt('runs', '1'));
const query = opt('query', '');
const out = opt('out', null);
const only = opt('only', null);

const chromePath = requireChromium();

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const METRICS = {
  FCP: 'first-contentful-paint',
  LCP: 'largest-contentful-paint',
  TBT: 'total-blocking-time',
  CLS: 'cumulative-layout-shift',
  SI: 'speed-index',
};
const configs = { mobile: undefined, desktop: desktopConfig };

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const metricText = (key, v) => (key === 'CLS' ? v.toFixed(3) : `${(v / 1000).toFixed(2)} s`).padStart(8);

const server = await serveStatic(dir);
const url = server.url + query;
if (out) mkdirSync(out, { recursive: true });
try {
  for (const [form, config] of Object.entries(configs)) {
    if (only && only !== form) continue;
    const results = [];
    for (let run = 0; run < runs; run++) {
      // A fresh browser per run: no cache, no service worker, nothing left from the last one.
      const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: ['--headless=new', '--no-sandbox'] });
      try {
        const result = await lighthouse(
          url,
          { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES },
          config,
        );
        const lhr = result.lhr;
        if (out) writeFileSync(join(out, `${form}-${run + 1}.json`), result.report);
        const failed = Object.values(lhr.audits)
          .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative')
          .filter((a) => a.scoreDisplayMode !== 'manual' && a.scoreDisplayMode !== 'notApplicable')
          .map((a) => a.id);
        results.push({
          scores: Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)])),
          metrics: Object.fromEntries(Object.entries(METRICS).map(([k, id]) => [k, lhr.audits[id]?.numericValue])),
          failed,
          error: lhr.runtimeError?.message,
        });
      } finally {
        await chrome.kill();
      }
    }
    console.log(`${form} (${runs} run${runs > 1 ? 's, medians' : ''}), ${url}`);
    console.log(
      '  ' + CATEGORIES.map((c) => `${c} ${String(median(results.map((r) => r.scores[c]))).padStart(3)}`).join('  '),
    );
    console.log(
      '  ' +
        Object.keys(METRICS)
          .map((k) => `${k} ${metricText(k, median(results.map((r) => r.metrics[k])))}`)
          .join('  '),
    );
    const failed = [...new Set(results.flatMap((r) => r.failed))];
    if (failed.length) console.log(`  audits below 0.9 in some run: ${failed.join(', ')}`);
    for (const r of results) if (r.error) console.log(`  runtime error: ${r.error}`);
  }
} finally {
  await server.close();
}
