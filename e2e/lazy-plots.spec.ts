// The plot kinds the default view does not show (the competition plots, BBR's model, the
// write timeline, the thin-stream CDFs, the rounds view) are chunks of their own, fetched when
// a view first shows them (plots/core/lazyModule.ts). The service worker is blocked here so
// that the test sees (and can refuse) the page's own requests; offline, the precache holds
// every chunk (e2e/offline.spec.ts, offline/precache.test.ts).
import { comparisons, expect, expectCanvasesDrawn, openApp, test, waitIdle } from './fixtures';

test.use({ serviceWorkers: 'block' });

/** The chunks of the plot kinds loaded when first shown. */
const LAZY_PLOT_CHUNK = /\/assets\/(bbrPlot|writesPlot|competitionPlots|ThinPlots|RoundsPlots)-[\w-]+\.js$/;

test('plots the default view does not show are fetched when first shown; one that cannot load says so', async ({
  page,
  errors,
}) => {
  const requested: string[] = [];
  page.on('request', (r) => requested.push(r.url()));
  await openApp(page);
  expect(requested.filter((u) => LAZY_PLOT_CHUNK.test(u))).toEqual([]);

  // Shown by a preset (the write timeline and the thin-stream CDFs): each chunk is fetched
  // once, and the page is busy until the plots are drawn.
  let n = await comparisons(page);
  await page.getByLabel('Preset').selectOption('thin-20b-10ms');
  await page.waitForFunction((k) => (window.__cwndlab?.timings.length ?? 0) > k, n);
  await waitIdle(page);
  for (const chunk of ['writesPlot', 'ThinPlots']) {
    expect(requested.filter((u) => u.includes(`/assets/${chunk}-`))).toHaveLength(1);
  }
  await expect(page.locator('.plot-loading')).toHaveCount(0);
  await expect(page.locator('figure[data-plot^="writes-"] .plot-title').first()).toContainText('(latency ms)');
  await expect(page.locator('figure.cdf-plot')).toHaveCount(4);
  await expectCanvasesDrawn(page, 'figure[data-plot^="writes-"] canvas', { darkBelow: 120 });
  await expectCanvasesDrawn(page, 'figure.cdf-plot canvas', { darkBelow: 120 });

  // A chunk that cannot be fetched: its place says so in plain words; the page goes on.
  await page.route(/\/assets\/RoundsPlots-[\w-]+\.js$/, (route) => route.abort());
  await page.getByRole('checkbox', { name: 'Rounds (cwnd per round)' }).check();
  await expect(page.locator('.plot-loading [role="status"]')).toContainText('This plot could not be loaded (');
  await waitIdle(page);
  n = await comparisons(page);
  await page.getByRole('checkbox', { name: 'Rounds (cwnd per round)' }).uncheck();
  await page.getByLabel('Preset').selectOption('fall-floyd-reno-3drops');
  await page.waitForFunction((k) => (window.__cwndlab?.timings.length ?? 0) > k, n);
  await waitIdle(page);
  await expect(page.locator('.plot-loading')).toHaveCount(0);
  await expectCanvasesDrawn(page, 'figure[data-plot^="window-"] canvas');
  // The only error logged: the browser's own line for the refused request.
  expect(errors).toEqual(['console.error: Failed to load resource: net::ERR_FAILED']);
  errors.length = 0;
});
