// Shared by the end-to-end tests: a page that fails the test on any uncaught error or
// console error, and helpers that wait for the app to settle.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test as base, expect, type BrowserContext, type Locator, type Page } from '@playwright/test';

/** Where the specs write their screenshots. */
export const ARTIFACTS = join(import.meta.dirname, 'artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

/** The engine's tables the built site was made from: the catalogue of algorithms, the
 *  presets with their lessons, the event codes. */
export const TABLES = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', 'web', 'src', 'engine', 'pkg', 'tables.json'), 'utf8'),
) as {
  catalogue: { name: string; label: string }[];
  presets: { name: string; lesson: { compare: string[] } | null }[];
  codes: { events: string[] };
};

/** Console messages that are not the app's fault (none so far). */
const ALLOWED: RegExp[] = [];

export const test = base.extend<{ errors: string[] }>({
  // Automatic: every test fails if any page of its context logs an error.
  errors: [
    async ({ context }, use) => {
      const errors: string[] = [];
      const watch = (page: Page) => {
        page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
        page.on('console', (m) => {
          if (m.type() === 'error' && !ALLOWED.some((r) => r.test(m.text()))) errors.push(`console.error: ${m.text()}`);
        });
      };
      context.pages().forEach(watch);
      context.on('page', watch);
      await use(errors);
      expect(errors, 'the page logged errors').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Waits until nothing is computing, playing or waiting to be drawn. */
export async function waitIdle(page: Page, timeout = 30_000): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset.render === 'idle', null, { timeout });
}

/** The Exercise sheet panel (its stand-in until the real one has loaded). */
export const sheetPanel = (page: Page): Locator => page.getByRole('region', { name: 'Exercise sheet', exact: true });

/**
 * The Exercise sheet panel, opened. It waits for the real panel (its status line is the
 * panel's own): before that a closed stand-in holds its place (web/src/app/Deferred.tsx),
 * and a click whose press and release straddle the swap reaches neither, so the panel would
 * stay closed. deferred.spec.ts clicks the stand-in on purpose.
 */
export async function openSheetPanel(page: Page): Promise<Locator> {
  const sheet = sheetPanel(page);
  await expect(sheet.locator('.sheet-status')).toBeAttached({ timeout: 30_000 });
  if (!(await sheet.locator('> details').evaluate((d) => (d as HTMLDetailsElement).open))) {
    await sheet.getByText('Exercise sheet', { exact: true }).click();
  }
  return sheet;
}

/** Opens the app (query optional) and waits for the first comparison to be drawn. */
export async function openApp(page: Page, query = ''): Promise<void> {
  await page.goto(`./${query}`);
  await waitIdle(page);
}

/** The summary table as text rows (includes each run's digest). */
export async function summaryText(page: Page): Promise<string> {
  return (await page.getByTestId('summary').innerText()).trim();
}

/** Number of comparisons drawn so far (the app records one timing per comparison). */
/** Opens `link` (a full URL or a query) in a new page of `context` and checks its summary
 *  (numbers and digests) is `want`, with no notice unless `notices` is true. */
export async function expectLinkReproduces(
  context: BrowserContext,
  link: string,
  want: string,
  notices = false,
): Promise<void> {
  const other = await context.newPage();
  await openApp(other, link.slice(link.indexOf('?')));
  expect(await summaryText(other)).toBe(want);
  if (!notices) await expect(other.locator('.notice-box')).toHaveCount(0);
}

export async function comparisons(page: Page): Promise<number> {
  return page.evaluate(() => window.__cwndlab?.timings.length ?? 0);
}

/** Waits for a new comparison to be drawn after `before` of them. */
export async function waitNewComparison(page: Page, before: number): Promise<void> {
  await page.waitForFunction((n) => (window.__cwndlab?.timings.length ?? 0) > n, before);
  await waitIdle(page);
}

/** Opens Fall & Floyd's Reno three-drop preset from the menu at width × height (Reno and
 *  NewReno compared) and returns its link (the query string). */
export async function threeDropsLink(page: Page, width = 1280, height = 900): Promise<string> {
  await page.setViewportSize({ width, height });
  await openApp(page, '?v=4&alg=newreno');
  const n = await comparisons(page);
  await page.getByLabel('Preset').selectOption('fall-floyd-reno-3drops');
  await waitNewComparison(page, n);
  await expect.poll(() => page.url()).toContain('alg=reno,newreno');
  return page.url().slice(page.url().indexOf('?'));
}

/** Per canvas matching `selector`, how many pixels are data: coloured (channel spread above
 *  60), or, with `darkBelow` > 0, darker than that in every channel (a black or grey data
 *  line; the grid #e6e6e6 and the frame #8a8a8a stay below the count with 100–120). */
export async function colouredPixels(page: Page, selector: string, darkBelow = 0): Promise<number[]> {
  return page.$$eval(
    selector,
    (canvases, dark) =>
      (canvases as HTMLCanvasElement[]).map((c) => {
        const ctx = c.getContext('2d');
        if (!ctx || c.width === 0 || c.height === 0) return 0;
        const { data } = ctx.getImageData(0, 0, c.width, c.height);
        let n = 0;
        for (let i = 0; i < data.length; i += 4) {
          const r = data[i] ?? 0;
          const g = data[i + 1] ?? 0;
          const b = data[i + 2] ?? 0;
          const hi = Math.max(r, g, b);
          if (hi - Math.min(r, g, b) > 60 || hi < dark) n += 1;
        }
        return n;
      }),
    darkBelow,
  );
}

/** Waits until every canvas matching `selector` has more than 150 data pixels (see
 *  [colouredPixels]) and, with `count`, until there are that many canvases: the plots in view
 *  are drawn first and the others in the next frames. Fails with the last reading. */
export async function expectCanvasesDrawn(
  page: Page,
  selector: string,
  { count, darkBelow = 0 }: { count?: number; darkBelow?: number } = {},
): Promise<void> {
  await expect
    .poll(
      async () => {
        const pixels = await colouredPixels(page, selector, darkBelow);
        const all = count === undefined ? pixels.length > 0 : pixels.length === count;
        return all && pixels.every((p) => p > 150) ? 'drawn' : `pixels per canvas: ${pixels.join(', ')}`;
      },
      { message: `every canvas of ${selector} has data pixels` },
    )
    .toBe('drawn');
}

declare global {
  interface Window {
    __cwndlab?: {
      timings: { drawnMs: number | null }[];
      workers: number;
      aheadReady: () => number;
      prerender: () => { ahead: number; used: number; pending: boolean };
    };
  }
}
