// The parts of the page loaded after the first view (app/Deferred.tsx: the export panel, the
// exercise sheet, with the full engine; the first view runs the lite one): offline, once the
// service worker has the site, they open and work from its cache.
import type { Page } from '@playwright/test';
import { expect, openApp, test, waitIdle } from './fixtures';

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
  const sheet = page.getByRole('region', { name: 'Exercise sheet', exact: true });
  await sheet.getByText('Exercise sheet', { exact: true }).click();
  await sheet.getByRole('button', { name: 'Make sheet' }).click();
  await expect(sheet.locator('.sheet-screen .sheet-question').first()).toBeVisible({ timeout: 30_000 });

  // Two engines came from the service worker: the first view's and the full one.
  const wasm = fetched.filter((r) => r.url.endsWith('.wasm'));
  expect(new Set(wasm.map((r) => r.url)).size).toBe(2);
  expect(fetched.filter((r) => !r.fromSw).map((r) => r.url)).toEqual([]);
});
