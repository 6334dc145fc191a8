// The parts of the page loaded after the first view (app/Deferred.tsx: the export panel, the
// exercise sheet, with the full engine; the first view runs the lite one): offline, once the
// service worker has the site, they open and work from its cache.
import type { Page } from '@playwright/test';
import { comparisons, expect, openApp, sheetPanel, test, waitIdle, waitNewComparison } from './fixtures';

async function waitControlled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

test('offline, the export panel and the exercise sheet load from the cache and work', async ({ page, context }) => {
  await openApp(page, '?v=4&alg=reno,newreno');
  await waitControlled(page);
  await context.setOffline(true);
  const fetched: { url: string; fromSw: boolean }[] = [];
  context.on('response', (r) => fetched.push({ url: r.url(), fromSw: r.fromServiceWorker() }));
  await page.reload();
  await waitIdle(page);

  // The export panel: the engine's own vocabulary (the full engine, on the page) is shown.
  await page.getByText('Export and print', { exact: true }).click();
  await page.getByText('What each table holds').click();
  await expect(page.locator('.export-tables li').first()).toBeVisible();
  // The exercise sheet: made by the full engine in its worker.
  const sheet = sheetPanel(page);
  await sheet.getByText('Exercise sheet', { exact: true }).click();
  await sheet.getByRole('button', { name: 'Make sheet' }).click();
  await expect(sheet.locator('.sheet-screen .sheet-question').first()).toBeVisible({ timeout: 30_000 });

  // Two engines came from the service worker: the first view's and the full one.
  const wasm = fetched.filter((r) => r.url.endsWith('.wasm'));
  expect(new Set(wasm.map((r) => r.url)).size).toBe(2);
  expect(fetched.filter((r) => !r.fromSw).map((r) => r.url)).toEqual([]);
});

test('the teaching texts: fetched after the first view, there at a lesson link’s first render, and offline', async ({
  page,
  context,
}) => {
  // In the page: when the first view was first drawn and idle, and whether the lesson was in
  // the page when the app first rendered (its panel must not push the page down later).
  await page.addInitScript(() => {
    const w = window as unknown as { firstIdle?: number; lessonAtFirstRender?: boolean };
    new MutationObserver(() => {
      if (w.firstIdle === undefined && document.documentElement.dataset.render === 'idle')
        w.firstIdle = performance.now();
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-render'] });
    // The app renders after the document is parsed (a module script); index.html's first
    // view, parsed before, is not the app's render.
    document.addEventListener('DOMContentLoaded', () => {
      new MutationObserver(() => {
        if (w.lessonAtFirstRender === undefined && document.querySelector('.layout')) {
          w.lessonAtFirstRender = document.querySelector('.lesson') !== null;
        }
      }).observe(document.body, { childList: true, subtree: true });
    });
  });
  await openApp(page, '?v=4&alg=reno,newreno');
  // The default view shows no lesson, step or rule: the chunk is fetched once it is drawn.
  const fetched = () =>
    page.evaluate(() => {
      const entry = performance.getEntriesByType('resource').find((e) => /\/teaching-[\w-]+\.js$/.test(e.name));
      const w = window as unknown as { firstIdle?: number };
      return entry ? { start: entry.startTime, firstIdle: w.firstIdle ?? Infinity } : null;
    });
  await expect.poll(fetched).not.toBeNull();
  const when = await fetched();
  expect(when?.start).toBeGreaterThanOrEqual(when?.firstIdle ?? Infinity);

  const n = await comparisons(page);
  await page.getByLabel('Preset').selectOption('jacobson-startup');
  await waitNewComparison(page, n);
  await expect.poll(() => page.url()).toContain('lesson=jacobson-startup');
  const link = page.url();
  await waitControlled(page);
  await context.setOffline(true);
  await page.goto(link);
  await waitIdle(page);
  expect(await page.evaluate(() => (window as unknown as { lessonAtFirstRender?: boolean }).lessonAtFirstRender)).toBe(
    true,
  );
  await expect(page.locator('.lesson')).toContainText('Question for the class');
  // The preset's steps and the rules they name, from the cached chunk: a step selects the
  // decision of its rule.
  await page.getByRole('button', { name: 'Explain this run' }).click();
  const step = page.locator('.lesson-steps').getByRole('button', { name: 'Step to the first RTT sample' });
  await step.click();
  await expect(page.locator('.why-current .decision')).toHaveAttribute('data-rule', /^rtt\./);
});
