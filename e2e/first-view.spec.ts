// The first view prerendered into index.html at build time (web/src/prerender): the page's
// first paint needs no script; on a phone the app hydrates that HTML (the same elements stay
// on screen), elsewhere it renders in its place; a link with settings never shows the
// default page's prerendered view. Every test also fails on a console error (fixtures.ts),
// which is where a hydration mismatch would show.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { expect, test, waitIdle } from './fixtures';

const WHY = 'Click or tap a plot, or step below, to see which rule';

/** Holds back the page's main script until `release()`: what the page shows meanwhile is
 *  the HTML alone. */
async function holdMainScript(page: Page): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/index-[^/]*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

test('without any script, the default link shows the first view: settings, an empty summary, the Why panel', async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto('./');
  await expect(page.getByRole('heading', { name: 'Summary' })).toBeVisible();
  await expect(page.getByText(WHY)).toBeVisible();
  // Nothing computed is claimed: the status says the engine is starting, results are dashes.
  await expect(page.getByText('Starting the simulation engine…')).toBeVisible();
  await expect(page.getByTestId('summary')).not.toContainText(/\d\.\d/);
  await context.close();
});

test('on a phone the app hydrates the first view: the prerendered elements stay on the page', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const release = await holdMainScript(page);
  await page.goto('./', { waitUntil: 'commit' });
  await expect(page.getByText(WHY)).toBeVisible();
  await page.evaluate((why) => {
    const p = [...document.querySelectorAll('p')].find((e) => e.textContent?.startsWith(why));
    (window as unknown as { held: Element | undefined }).held = p;
  }, WHY);
  release();
  await waitIdle(page);
  const kept = await page.evaluate(() => (window as unknown as { held: Element | undefined }).held?.isConnected);
  expect(kept).toBe(true);
  // The app is live on those elements: the results are in, the link field has the page's link.
  await expect(page.getByTestId('summary')).toContainText(/\d\.\d{3}/);
  await expect(page.locator('#share-url')).toHaveValue(/\?v=\d+&/);
});

test('on a wide screen the app renders in place of the first view', async ({ page }) => {
  const release = await holdMainScript(page);
  await page.goto('./', { waitUntil: 'commit' });
  await expect(page.getByText(WHY)).toBeVisible();
  await page.evaluate(() => {
    (window as unknown as { held: Element | null }).held = document.querySelector('.layout');
  });
  release();
  await waitIdle(page);
  const kept = await page.evaluate(() => (window as unknown as { held: Element | null }).held?.isConnected);
  expect(kept).toBe(false);
  await expect(page.locator('.plots-panel canvas').first()).toBeVisible();
});

test('a link with settings shows only the header until the app renders it', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const release = await holdMainScript(page);
  await page.goto('./?v=4&alg=reno', { waitUntil: 'commit' });
  await expect(page.getByRole('heading', { name: 'cwndlab' })).toBeVisible();
  expect(await page.locator('.layout').count()).toBe(0);
  release();
  await waitIdle(page);
  // The link's own page: one algorithm, Reno.
  await expect(page.getByTestId('summary')).toContainText('Reno');
  await expect(page.getByTestId('summary')).not.toContainText('Tahoe');
});

test('a page that arrives in two parts is not painted until the first view is whole (no shift)', async ({
  page,
  baseURL,
}) => {
  // index.html sent in two parts 400 ms apart, cut inside the first view (the rest of the
  // site proxied): without `<link rel="expect" blocking="render">` the first part is painted
  // with the scenario panel at the top, and it moves when the rest arrives.
  const base = baseURL ?? 'http://127.0.0.1:4173/';
  const html = await (await fetch(base)).text();
  const cut = html.search(/<aside[^>]*class="panel summary-panel"/);
  expect(cut).toBeGreaterThan(0);
  const server = createServer((req, res) => {
    void (async () => {
      if (req.url === '/') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write(html.slice(0, cut));
        await new Promise((r) => setTimeout(r, 400));
        res.end(html.slice(cut));
        return;
      }
      const r = await fetch(new URL((req.url ?? '/').slice(1), base));
      res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/octet-stream' });
      res.end(Buffer.from(await r.arrayBuffer()));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    await page.setViewportSize({ width: 412, height: 823 });
    await page.addInitScript(() => {
      const w = window as unknown as { shifts: number[] };
      w.shifts = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.shifts.push((e as unknown as { value: number }).value);
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto(`http://127.0.0.1:${port}/`);
    await waitIdle(page);
    const { shifts, fcp } = await page.evaluate(() => ({
      shifts: (window as unknown as { shifts: number[] }).shifts,
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0,
    }));
    expect(fcp).toBeGreaterThan(400);
    expect(shifts.reduce((a, b) => a + b, 0)).toBeLessThan(0.01);
  } finally {
    server.close();
  }
});

test('when the start-up script cannot load, the page says so in plain words', async ({ browser }) => {
  // A context of its own: the failed load is logged as a console error, which this test
  // expects (the shared fixture fails on any).
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.route(/\/assets\/start-[^/]*\.js$/, (route) => route.abort());
  await page.goto('./');
  await expect(page.getByRole('alert')).toContainText('cwndlab could not start');
  await expect(page.getByRole('alert')).toContainText('Reload the page');
  expect(await page.evaluate(() => document.documentElement.dataset.render)).toBe('error');
  await context.close();
});
