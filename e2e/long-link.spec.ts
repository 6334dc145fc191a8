// Long links (issue 25, docs/scenario-url.md "Long links"): a scenario with hundreds of
// scripted drops and timeline changes opens from its link, the page writes it back in the
// v=5 form whose request line (path + query) stays below 8 000 bytes, and that link, with
// its part after `#~`, reopens the same view.
import type { Page } from '@playwright/test';
import { expect, openApp, summaryText, test } from './fixtures';

/** The request line's target: what a server sees of the page's address (no fragment). */
async function requestTarget(page: Page): Promise<string> {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
}

/** `n` drops, every `step`-th segment, as a v=4 list. */
function drops(n: number, step: number): string {
  return Array.from({ length: n }, (_, i) => `${step * (i + 1)}:1`).join(',');
}

/** `n` drops at scattered segments with attempts 1–3 (no pattern to pack). */
function scatteredDrops(n: number): string {
  let seg = 0;
  return Array.from({ length: n }, (_, i) => {
    seg += 1 + ((i * 7919) % 37);
    return `${seg}:${1 + (i % 3)}`;
  }).join(',');
}

/** `n` bandwidth changes one frame apart from 1 s, as a slider drag records them. */
function timeline(n: number): string {
  let at = 1;
  return Array.from({ length: n }, (_, i) => {
    at += 1 / 60;
    return `${at}:network.bottleneck.bandwidth:${1_000_000 + ((i * 104729) % 3_000_000)}`;
  }).join(',');
}

/** A list setting's text under "All settings" (opened first: it is made when opened). */
async function listValue(page: Page, path: string): Promise<string> {
  const details = page.locator('details.advanced');
  if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open))) await details.locator('summary').click();
  return page.locator(`[data-path="${path}"] input`).first().inputValue();
}

test('a long link opens, is written back shorter than 8 000 bytes and reopens the same view', async ({
  page,
  context,
}) => {
  // 7 600 bytes as v=4 wrote it: over the long-link limit (7 000), under vite preview's.
  const plain = `?v=4&alg=reno,newreno&duration=20&f0.drops=${drops(420, 7)}&tl=${timeline(100)}`;
  expect(plain.length).toBeGreaterThan(7000);
  await openApp(page, plain);
  await expect(page.locator('.notice-box')).toHaveCount(0);
  const summary = await summaryText(page);
  // The page shows that scenario: its drop list and its timeline's changes.
  expect(await listValue(page, 'flows[0].drops')).toBe(drops(420, 7));
  await expect(page.locator('[data-path="network.bottleneck.bandwidth"] .badge')).toHaveText('100 timed changes');

  // Written back in the compact form: packed lists, in the query alone.
  await expect.poll(() => page.url()).toContain('v=5&');
  const url = page.url();
  expect(url).toContain('f0.drops=~7*420');
  expect(url).not.toContain('#');
  expect((await requestTarget(page)).length).toBeLessThan(8000);
  expect(await page.locator('#share-url').inputValue()).toBe(url);

  const other = await context.newPage();
  await openApp(other, url.slice(url.indexOf('?')));
  expect(await summaryText(other)).toBe(summary);
  await expect(other.locator('.notice-box')).toHaveCount(0);
  expect(await listValue(other, 'flows[0].drops')).toBe(drops(420, 7));
  expect(other.url()).toBe(url);
});

test('a link too long for the query keeps the rest after #~ and reopens the same view', async ({ page, context }) => {
  // 3 000 scattered drops and 300 changes: about 30 KB, packed about 20 KB. Opened as the
  // v=5 link with everything after `#~` (a server would refuse it as a query).
  const list = scatteredDrops(3000);
  const tl = timeline(300);
  const fragment = `~f0.drops=${list}&tl=${tl}`;
  const link = `?v=5&alg=reno,newreno&duration=20&frag=${fragment.length - 1}#${fragment}`;
  await openApp(page, link);
  await expect(page.locator('.notice-box')).toHaveCount(0);
  const summary = await summaryText(page);
  expect(await listValue(page, 'flows[0].drops')).toBe(list);
  await expect(page.locator('[data-path="network.bottleneck.bandwidth"] .badge')).toHaveText('300 timed changes');

  // Written back: the query within the limit, the rest (packed) after #~.
  await expect.poll(() => new URL(page.url()).hash).toMatch(/^#~/);
  const url = page.url();
  expect((await requestTarget(page)).length).toBeLessThan(8000);
  expect(url.length).toBeLessThan(link.length);
  expect(await page.locator('#share-url').inputValue()).toBe(url);
  await expect(page.getByTestId('share-long')).toContainText('This link is long');

  const other = await context.newPage();
  await openApp(other, url.slice(url.indexOf('?')));
  expect(await summaryText(other)).toBe(summary);
  await expect(other.locator('.notice-box')).toHaveCount(0);
  expect(await listValue(other, 'flows[0].drops')).toBe(list);

  // An in-page link (the skip link) replaces the fragment; the page puts its own back.
  await other.evaluate(() => {
    window.location.hash = 'plots';
  });
  await expect.poll(() => other.url()).toBe(url);

  // A link cut short says so.
  const cut = await context.newPage();
  await openApp(cut, url.slice(url.indexOf('?'), url.length - 500));
  await expect(cut.locator('.notice-box')).toContainText('This link was cut short');
});
