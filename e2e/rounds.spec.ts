// The rounds view (cwnd and ssthresh per transmission round, from the engine's rounds) on
// the shared time cursor, kept in links; projector mode (projector=1, the b key). Screenshots
// under e2e/artifacts: rounds-*.png at 1280 and 390 px, projector-*.png at 1920 px.
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { ARTIFACTS, comparisons, expect, openApp, test, waitIdle } from './fixtures';

const PRESET = 'fall-floyd-reno-3drops';

/** Loads the Fall & Floyd Reno preset from the menu and shows the rounds view. */
async function openRounds(page: Page): Promise<void> {
  await openApp(page, '?v=4&alg=reno');
  const n = await comparisons(page);
  await page.getByLabel('Preset').selectOption(PRESET);
  await page.waitForFunction((k) => (window.__cwndlab?.timings.length ?? 0) > k, n);
  await waitIdle(page);
  await page.getByRole('checkbox', { name: 'Rounds (cwnd per round)' }).check();
  await waitIdle(page);
  await expect(page.locator('figure[data-plot^="rounds-"]').first()).toBeVisible();
}

/** The rounds figure of one run. */
const roundsOf = (page: Page, key: string) => page.locator(`figure[data-plot="rounds-${key}"]`);

/** Runs scan for accessibility problems. */
async function scan(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target).join('; ')})`);
}

test('the rounds view draws the engine’s rounds of a preset, with its definition', async ({ page }) => {
  await openRounds(page);
  const fig = roundsOf(page, 'reno');
  await expect(fig.locator('.plot-title')).toContainText('Rounds');
  // The canvas's description follows the rounds, which come from the worker on request
  // (until then it is the plot's title): waited for, not read once.
  const canvas = fig.locator('canvas');
  await expect(canvas).toHaveAttribute('aria-label', /Reno: \d+ rounds, largest cwnd/);
  await expect(canvas).toHaveAttribute('aria-label', /fast retransmit in round/);
  // The engine's definition, once, under the view.
  await expect(page.locator('.rounds-definition')).toHaveCount(1);
  await expect(page.locator('.rounds-definition')).toContainText('A round starts with the first segment');
  // Axes: whole rounds along x, the last tick named.
  await expect(fig.locator('g.x-axis .tick').last()).toContainText('round');
  await expect.poll(() => page.url()).toContain('plots=window,seq,queue,rounds');
});

test('the cursor and the rounds move together, and a link reopens the view', async ({ page, context }) => {
  await openRounds(page);
  const fig = roundsOf(page, 'reno');
  const hit = fig.locator('.plot-hit');
  await fig.scrollIntoViewIfNeeded();
  const box = await hit.boundingBox();
  if (!box) throw new Error('no plot area');
  // Hovering a round: the cursor goes to its start; every plot reads that instant. Hovered
  // through the locator, which waits for the plot to stand still (plots above it may still
  // be drawing after the scroll, and a point taken from an earlier box can miss it).
  const at = { x: box.width * 0.3, y: box.height / 2 };
  await hit.hover({ position: at });
  const hl = fig.locator('.round-highlight').first();
  await expect(hl).toBeVisible();
  const hovered = Number(await hl.getAttribute('data-round'));
  expect(hovered).toBeGreaterThan(1);
  await expect(fig.locator('.readout')).toContainText(`round ${hovered}: cwnd`);
  await expect(page.locator('figure[data-plot="window-reno"] .readout')).toContainText('t = ');
  // A click pins it there (in the link as t=).
  await hit.click({ position: at });
  await expect.poll(() => page.url()).toContain('&t=');
  // The arrow keys step round by round, moving the shared cursor.
  // (Hover wins over the pinned cursor, as on every plot: the pointer leaves first.)
  await page.mouse.move(0, 0);
  await hit.focus();
  await page.keyboard.press('ArrowRight');
  await expect(hl).toHaveAttribute('data-round', String(hovered + 1));
  await expect(fig.locator('.readout')).toContainText(`round ${hovered + 1}:`);
  const t = Number(new URL(page.url()).searchParams.get('t'));
  expect(t).toBeGreaterThan(0);
  // The cursor moved on a time plot maps to the round containing it.
  const win = page.locator('figure[data-plot="window-reno"] .plot-hit');
  await win.focus();
  await page.keyboard.press('End');
  await expect.poll(async () => Number(await hl.getAttribute('data-round'))).toBeGreaterThan(hovered + 1);
  await page.keyboard.press('Home');
  await page.keyboard.press('Escape');
  await hit.focus();
  await page.keyboard.press('Home');
  await expect(hl).toHaveAttribute('data-round', '1');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(hl).toHaveAttribute('data-round', '3');
  // The link reproduces the view: the rounds plot and the round at the pinned cursor. The
  // address bar trails the state by its throttle (longer on a loaded machine: a fixed wait
  // took round 2's link once); the share field shows the state's link at once.
  await expect.poll(() => page.url()).toContain('rounds');
  const share = page.locator('#share-url');
  await expect.poll(async () => page.url() === (await share.inputValue())).toBe(true);
  const link = page.url();
  const other = await context.newPage();
  await openApp(other, link.slice(link.indexOf('?')));
  const again = roundsOf(other, 'reno');
  await expect(again.locator('.round-highlight').first()).toHaveAttribute('data-round', '3');
  await expect(again.locator('.readout')).toContainText('round 3: cwnd');
});

test('a run without the sender’s events says why it has no rounds', async ({ page }) => {
  await openApp(page, '?v=4&alg=reno&duration=2&trace.events=congestion&plots=window,rounds');
  await expect(page.locator('.rounds-unavailable')).toContainText('trace.events');
  const label = (await roundsOf(page, 'reno').locator('canvas').getAttribute('aria-label')) ?? '';
  expect(label).toContain('no rounds');
});

for (const [name, width, height, scale] of [
  ['1280', 1280, 900, 1],
  ['390', 390, 844, 2],
] as const) {
  test.describe(`rounds at ${width} px`, () => {
    test.use({ viewport: { width, height }, deviceScaleFactor: scale, hasTouch: width < 500 });
    test(`the rounds view at ${width} px: nothing sideways, the scan passes, screenshots`, async ({ page }) => {
      await openApp(page, '?v=4&alg=reno,newreno&duration=6&network.bottleneck.queue_packets=8&plots=window,rounds');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await expect(page.locator('figure[data-plot^="rounds-"]')).toHaveCount(2);
      expect(await scan(page)).toEqual([]);
      await page.locator('.rounds-group').scrollIntoViewIfNeeded();
      await page.locator('.rounds-group').screenshot({ path: join(ARTIFACTS, `rounds-${name}.png`) });
    });
  });
}

test.describe('projector mode at 1920 px', () => {
  test.use({ viewport: { width: 1920, height: 1080 }, deviceScaleFactor: 1 });

  test('projector=1 and the b key: large type, thick lines; the scan passes; screenshots', async ({ page }) => {
    const q = '?v=4&alg=reno,newreno&duration=6&network.bottleneck.queue_packets=8&layout=overlay&plots=window,rounds';
    await openApp(page, q);
    await page.screenshot({ path: join(ARTIFACTS, 'projector-off-1920.png') });
    const fontOff = await page.evaluate(() => parseFloat(getComputedStyle(document.documentElement).fontSize));
    // The key turns it on (and is in the link).
    await page.locator('body').press('b');
    await expect(page.locator('html')).toHaveClass(/projector/);
    await expect.poll(() => page.url()).toContain('projector=1');
    await waitIdle(page);
    const fontOn = await page.evaluate(() => parseFloat(getComputedStyle(document.documentElement).fontSize));
    expect(fontOn).toBeGreaterThan(fontOff * 1.2);
    expect(await scan(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'projector-1920.png') });
    await page.locator('.plot-stack').screenshot({ path: join(ARTIFACTS, 'projector-1920-plots.png') });
    // A link with projector=1 opens in projector mode; the key turns it off again.
    const other = await page.context().newPage();
    await other.setViewportSize({ width: 1920, height: 1080 });
    await openApp(other, `${q}&projector=1`);
    await expect(other.locator('html')).toHaveClass(/projector/);
    await other.locator('body').press('b');
    await expect(other.locator('html')).not.toHaveClass(/projector/);
    await expect.poll(() => other.url()).not.toContain('projector');
  });
});
