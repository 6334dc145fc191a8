// The Jacobson 1988 presets in real Chromium: the start-up comparison, the two timers in the
// RTT view (spurious retransmissions under RFC 793 only), and the four conversations opening
// in competition mode with the paper's retransmitted fractions; screenshots to look at.
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { ARTIFACTS, comparisons, expect, openApp, summaryText, test, waitNewComparison } from './fixtures';

/** Loads a preset from the menu and waits for its run(s) to be drawn. */
async function openPreset(page: Page, name: string) {
  await openApp(page, '?v=3&alg=newreno&duration=1');
  const n = await comparisons(page);
  await page.getByLabel('Preset').selectOption(name);
  await waitNewComparison(page, n);
  await expect.poll(() => page.url()).toContain(`lesson=${name}`);
}

/** "a of b" → a / b, from the competition summary's retransmitted cell of all flows. */
async function retransmittedShare(page: Page): Promise<number> {
  const text = await summaryText(page);
  const m = /Retransmitted \(all flows\):\s*([\d.]+)\s*%/.exec(text);
  expect(m, text).not.toBeNull();
  return Number(m?.[1]) / 100;
}

test('jacobson-startup compares 4.3BSD without and with slow start', async ({ page }) => {
  await openPreset(page, 'jacobson-startup');
  const text = await summaryText(page);
  expect(text).toContain('4.3BSD (before 1988)');
  expect(text).toContain('4.3BSD + slow start');
  // The lesson is shown, and the page says the entries bring their own timer values.
  // (The printed handout keeps a hidden, print-only copy of the lesson.)
  await expect(page.getByText(/Why does sending it at once still fail/).filter({ visible: true })).toBeVisible();
  await page.screenshot({ path: join(ARTIFACTS, 'jacobson-startup-1280.png'), fullPage: false });
});

test('jacobson-timers: the RTT view marks spurious retransmissions for RFC 793 and none for mean + 4·deviation', async ({
  page,
}) => {
  await openPreset(page, 'jacobson-timers');
  const rttBox = page.getByRole('checkbox', { name: 'RTT and RTO' });
  if (!(await rttBox.isChecked())) await rttBox.check();
  // The plots' descriptions follow their drawing (a plot just switched on is described by its
  // title until then): waited for, not read once.
  const spurious = () =>
    page
      .locator('figure[data-plot^="rtt-"] canvas')
      .evaluateAll((cs) =>
        cs.map((c) => Number(/(\d+) spurious retransmissions/.exec(c.getAttribute('aria-label') ?? '')?.[1] ?? NaN)),
      );
  // Seed 1 (docs/validation.md §3d): 16 under RFC 793, 0 under Jacobson's timer.
  await expect.poll(spurious).toEqual([16, 0]);
  await page
    .locator('figure[data-plot^="rtt-"]')
    .first()
    .screenshot({ path: join(ARTIFACTS, 'jacobson-timers-rtt.png') });
});

test('the four conversations open as a competition, with the paper’s retransmitted fractions', async ({ page }) => {
  await openPreset(page, 'jacobson-four-old');
  await expect(page.getByRole('radio', { name: 'Compete on one path' })).toBeChecked();
  expect(await page.locator('.flow-row').count()).toBe(4);
  const old = await retransmittedShare(page);
  expect(old).toBeGreaterThan(0.25);
  await page.screenshot({ path: join(ARTIFACTS, 'jacobson-four-old-1280.png'), fullPage: true });

  const n = await comparisons(page);
  await page.getByLabel('Preset').selectOption('jacobson-four-new');
  await waitNewComparison(page, n);
  const fresh = await retransmittedShare(page);
  expect(fresh).toBeLessThan(0.025);
  expect(old).toBeGreaterThan(10 * fresh);
});
