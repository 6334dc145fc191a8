// One unit for the whole page (issue 41), in real Chromium against the built site: a link
// with unit=bytes shows every window in bytes — the plots' titles and readouts, the summary,
// the Why card (the engine's sentence in bytes), practice, the rounds view and the exercise
// sheet — and the "Windows in" choice switches them all back to segments, the link following.
// Screenshots at 390, 1280 and 1920 px under e2e/artifacts: units-*.png.
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { ARTIFACTS, expect, openApp, openSheetPanel, sheetPanel, test, threeDropsLink, waitIdle } from './fixtures';

const heading = (page: Page, plot: string) => page.locator(`figure[data-plot="${plot}"] h3`).first();
const current = (page: Page) => page.locator('.why-current .decision');
const NNBSP = '\u202f';

test('unit=bytes: plots, readouts, summary and the Why card in bytes; the choice switches all back', async ({
  page,
  context,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const link = await threeDropsLink(page);
  await openApp(page, `${link}&plots=window,seq&unit=bytes`);
  await waitIdle(page);
  await expect(page.getByRole('radio', { name: 'bytes' })).toBeChecked();
  await expect(heading(page, 'window-reno')).toContainText('(bytes)');
  await expect(heading(page, 'seq-reno')).toContainText('(bytes)');
  await expect(page.getByTestId('summary')).toContainText('Mean cwnd (bytes)');
  // The fast retransmit: the Why card leads with the change in bytes, the engine's sentence
  // in bytes (its `text`), and the values as the engine wrote them.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('l');
  await expect(current(page)).toHaveAttribute('data-rule', 'loss.fast_retransmit');
  const change = page.locator('.why-change');
  await expect(change).toContainText(' B');
  await expect(change).not.toContainText('segment');
  await expect(current(page).locator('.decision-text')).toContainText(' B');
  await expect(current(page).locator('.why-values dd', { hasText: / B$/ }).first()).toBeVisible();
  await expect(current(page).locator('.why-values dd', { hasText: /segments? \(/ })).toHaveCount(0);
  // The readout at the cursor (on the decision): windows in bytes, grouped.
  const readout = page.locator('figure[data-plot="window-reno"] .readout');
  await expect(readout).toContainText(/cwnd \d[\d\u202f]* · ssthresh/);
  await expect(readout).toContainText(' B · ');
  await expect(page.locator('figure[data-plot="seq-reno"] .readout')).toContainText('(bytes)');
  await page.screenshot({ path: join(ARTIFACTS, 'units-bytes-1280.png') });
  // A new page opens the same unit.
  await expect.poll(() => page.url()).toContain('unit=bytes');
  const other = await context.newPage();
  await openApp(other, page.url().slice(page.url().indexOf('?')));
  await expect(heading(other, 'window-reno')).toContainText('(bytes)');
  await other.close();
  // Back to segments: every part follows, and the key leaves the link.
  await page.getByRole('radio', { name: 'segments' }).check();
  await expect.poll(() => page.url()).not.toContain('unit=');
  await expect(heading(page, 'window-reno')).toContainText('(segments)');
  await expect(page.getByTestId('summary')).toContainText('Mean cwnd (segments)');
  await expect(change).toContainText('segment');
  await expect(
    current(page)
      .locator('.why-values dd', { hasText: /segments? \(\d[\d ]* B\)/ })
      .first(),
  ).toBeVisible();
  await expect(readout).toContainText(' seg · ');
  await expect(page.locator('figure[data-plot="seq-reno"] .readout')).toContainText('(segments)');
});

test('practice asks in the page’s unit, and its own choice is the page’s', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const link = await threeDropsLink(page);
  await openApp(page, `${link}&plots=window&unit=bytes&practice=predict:reno`);
  const q = page.locator('.practice-panel .practice-question');
  // fall-floyd-reno-3drops: 1000-byte segments, cwnd 15 segments before the fast retransmit.
  await expect(q).toContainText(`Now: slow start, cwnd 15${NNBSP}000 B`);
  await expect(q.locator('.practice-values legend')).toContainText('in bytes');
  await expect(q.getByLabel('Answer in')).toHaveValue('bytes');
  // Choosing segments there is the page's choice: the link and the plot follow.
  await q.getByLabel('Answer in').selectOption('segments');
  await expect(q).toContainText('Now: slow start, cwnd 15 segments');
  await expect.poll(() => page.url()).not.toContain('unit=');
  await expect(page.getByRole('radio', { name: 'segments' })).toBeChecked();
});

test('the rounds view and the exercise sheet follow the unit', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openApp(page, '?preset=textbook-reno&plots=window,rounds&unit=bytes&tb=kurose_ross');
  await waitIdle(page);
  const rounds = page.locator('figure[data-plot="rounds-reno"]');
  await expect(rounds.locator('h3').first()).toContainText('(bytes)');
  await expect(rounds.locator('canvas')).toHaveAttribute('aria-label', /in bytes/);
  await expect(rounds.locator('canvas')).toHaveAttribute('aria-label', /largest cwnd \d+\u202f\d{3},/);
  // The textbook model counts segments: drawn in bytes of the run's 1 460-byte segments.
  await expect(rounds.locator('canvas')).toHaveAttribute('aria-label', /\(Kurose & Ross\), cwnd 1460, 2920, 5840, /);
  await expect(page.locator('.textbook-legend')).toContainText('counts whole segments');
  // Back in segments, the model's own numbers.
  await page.getByRole('radio', { name: 'segments' }).check();
  await expect(rounds.locator('canvas')).toHaveAttribute('aria-label', /\(Kurose & Ross\), cwnd 1, 2, 4, 8, /);
  await page.getByRole('radio', { name: 'bytes' }).check();
  const panel = await openSheetPanel(page);
  await panel.getByRole('button', { name: 'Make sheet' }).click();
  await expect(sheetPanel(page).locator('.sheet-screen .sheet-question').first()).toBeVisible({ timeout: 30_000 });
  await sheetPanel(page).getByText('Answer key', { exact: true }).click();
  const key = await sheetPanel(page).locator('.sheet-key').innerText();
  // Bytes first, the segments in brackets ("8000 B (8 segments)"), never the other way round.
  expect(key).toMatch(/\d B \(\d+(\.\d+)? segments?\)/);
  expect(key).not.toMatch(/segments? \(\d+ B\)/);
});

for (const width of [390, 1280, 1920]) {
  test(`screenshot in bytes at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: width === 390 ? 844 : width === 1920 ? 1080 : 800 });
    await openApp(page, '?preset=textbook-reno&unit=bytes');
    await waitIdle(page);
    await expect(heading(page, 'window-reno')).toContainText('(bytes)');
    if (width === 390) {
      // The phone folds the view options into one line that names the unit.
      await expect(page.locator('.view-fold summary')).toContainText('bytes');
    } else {
      await expect(page.getByRole('group', { name: 'Windows in' })).toBeVisible();
    }
    await page.screenshot({ path: join(ARTIFACTS, `units-${width}.png`) });
  });
}
