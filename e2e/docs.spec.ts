// The docs the page links to open as pages of the site (issue 43; web/src/docs): the Export
// panel's "Formats and limits" opens docs/export.html, rendered (title, headings, tables,
// images, its stylesheet) under the site's Content-Security-Policy with no console error (the
// fixtures fail a test on any, violations of the policy included); its links to other docs go
// to their pages, anchors included; its link back opens the lab; and once the site is loaded,
// the doc pages open offline too.
import type { Page } from '@playwright/test';
import { expect, openApp, test } from './fixtures';

/** What the browser reports of the policy on `page`: violation events, from the first script on. */
async function watchViolations(page: Page): Promise<string[]> {
  const seen: string[] = [];
  await page.exposeBinding('__docsViolation', (_source, text: string) => seen.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __docsViolation(t: string): void }).__docsViolation(
        `${e.violatedDirective} ${e.blockedURI}`,
      );
    });
  });
  return seen;
}

/** The doc page looks like one: its stylesheet applied (a text column, not the browser's
 *  defaults), its images loaded. */
async function expectRendered(doc: Page): Promise<void> {
  const main = doc.locator('main.doc');
  await expect(main).toBeVisible();
  expect(await main.evaluate((m) => getComputedStyle(m).maxWidth)).not.toBe('none');
  expect(
    await doc
      .locator('h2')
      .first()
      .evaluate((h) => getComputedStyle(h).borderBottomStyle),
  ).toBe('solid');
}

test('“Formats and limits” opens the export doc as a readable page, whose links lead on and back', async ({
  page,
  context,
}) => {
  await openApp(page, '?v=4&alg=reno');
  const panel = page.locator('details.export');
  await panel.locator('> summary').click();
  const link = panel.getByRole('link', { name: 'Formats and limits' });
  await expect(link).toHaveAttribute('href', 'docs/export.html');

  const popup = context.waitForEvent('page');
  await link.click();
  const doc = await popup;
  const violations = await watchViolations(doc);
  await doc.reload(); // the listener in place from the first script on
  await expect(doc).toHaveURL(/\/docs\/export\.html$/);
  await expect(doc).toHaveTitle('Exports · cwndlab docs');
  await expect(doc.getByRole('heading', { level: 1, name: 'Exports' })).toBeVisible();
  await expectRendered(doc);
  // GitHub-flavoured Markdown: tables with header cells, code, no Markdown left raw.
  const table = doc.locator('main table').first();
  await expect(table).toBeVisible();
  expect(await table.locator('th').count()).toBeGreaterThan(1);
  expect(await doc.locator('main').innerText()).not.toMatch(/^#{1,6} |\]\(|^\|---/m);
  // Its images (docs/images/) are there.
  const images = doc.locator('main img');
  expect(await images.count()).toBeGreaterThan(3);
  for (const img of await images.all()) {
    await img.scrollIntoViewIfNeeded();
    await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0)).toBe(true);
  }

  // An anchor in the page and a link to another doc's heading.
  await doc.locator('main a[href="#qlog"]').first().click();
  await expect(doc).toHaveURL(/export\.html#qlog$/);
  await expect(doc.locator('#qlog')).toBeInViewport();
  await doc.locator('main a[href="cli.html#cwndlab-run"]').click();
  await expect(doc).toHaveURL(/\/docs\/cli\.html#cwndlab-run$/);
  await expect(doc.locator('#cwndlab-run')).toBeInViewport();
  await expectRendered(doc);
  // The lessons, from the docs' list, and back to the lab.
  await doc.getByRole('navigation', { name: 'Docs' }).getByRole('link', { name: 'Lesson guides' }).click();
  await expect(doc).toHaveURL(/\/docs\/lessons\/README\.html$/);
  await expect(doc.getByRole('heading', { level: 1, name: 'Lesson guides' })).toBeVisible();
  await doc.getByRole('link', { name: /back to the lab/ }).click();
  await expect(doc.getByRole('slider', { name: 'Bottleneck bandwidth' })).toBeVisible({ timeout: 30_000 });
  expect(violations).toEqual([]);
});

test('once the site is loaded, its doc pages open offline too', async ({ page, context }) => {
  await openApp(page, '?v=4&alg=reno');
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await context.setOffline(true);
  try {
    await page.goto('docs/lessons/fall-floyd.html');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Fall & Floyd');
    await expectRendered(page);
  } finally {
    await context.setOffline(false);
  }
});
