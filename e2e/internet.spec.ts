// The Internet's algorithms in the page: CUBIC's presets open from the menu, draw, show
// W_max and K on the window plot and at the cursor, reproduce from their link, and lead into
// the explanation tools.
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import {
  ARTIFACTS,
  comparisons,
  expect,
  expectCanvasesDrawn,
  expectLinkReproduces,
  openApp,
  summaryText,
  test,
  waitNewComparison,
} from './fixtures';

async function openPreset(page: Page, name: string) {
  await openApp(page, '?v=4&alg=newreno');
  const n = await comparisons(page);
  await page.getByLabel('Preset').selectOption(name);
  await waitNewComparison(page, n);
  await expect.poll(() => page.url()).toContain('alg=newreno,cubic');
}

test('cubic-long-fat-path: CUBIC regains its window in K seconds, NewReno does not; the link reproduces it', async ({
  page,
  context,
}) => {
  await openPreset(page, 'cubic-long-fat-path');
  const summary = page.getByTestId('summary');
  await expect(summary).toContainText('83.7');
  await expect(summary).toContainText('50.75');
  // (The queue stays empty: neither window outgrows the path's 1 712 segments in 30 s.)
  await expectCanvasesDrawn(page, 'figure[data-plot^="window"] canvas, figure[data-plot^="seq"] canvas');
  // At 12 s the CUBIC run is inside the epoch that began after the loss: its W_max and K.
  const hit = page.locator('figure[data-plot="window-cubic"] .plot-hit');
  await hit.focus();
  await page.keyboard.press('Home');
  for (let i = 0; i < 40; i += 1) await page.keyboard.press('ArrowRight');
  const readout = page.locator('figure[data-plot="window-cubic"] .readout');
  await expect(readout).toContainText(/CUBIC epoch from 7\.15\d* s: W_max 1 ?55\d(\.\d+)? seg, K 10\.53 s/);
  await page.screenshot({ path: join(ARTIFACTS, 'cubic-long-fat-path.png'), fullPage: true });
  await expectLinkReproduces(context, page.url(), await summaryText(page));
});

test('cubic-bufferbloat opens and draws; its steps lead to CUBIC’s reduction, explained', async ({ page }) => {
  await openPreset(page, 'cubic-bufferbloat');
  await expectCanvasesDrawn(page, 'figure.plot canvas');
  await page.getByRole('button', { name: 'Explain this run' }).click();
  await page.getByRole('button', { name: 'Step to CUBIC’s first reduction (β and W_max)' }).click();
  const d = page.locator('.why-current .decision');
  await expect(d).toHaveAttribute('data-rule', 'ssthresh.cubic');
  await expect(d).toContainText('CUBIC decrease: ssthresh = max(FlightSize·β, 2·SMSS)');
  await expect(d).toContainText('RFC 9438 §4.6');
  // The state machine of CUBIC names its epoch rule among its transitions.
  await expect(page.locator('.machine[data-run="cubic"]')).toBeVisible();
  // The queueing-delay view: about a second of queue, in ms at the cursor.
  await page.getByRole('checkbox', { name: 'Queueing delay' }).check();
  const qdelay = page.locator('figure[data-plot="qdelay-newreno"]');
  await expect(qdelay).toBeVisible();
  await qdelay.locator('.plot-hit').focus();
  await page.keyboard.press('End');
  await expect(qdelay.locator('.readout')).toContainText(/queueing delay [\d ]+(\.\d+)? ms \(\d+ packets\)/);
  await expect.poll(() => page.url()).toContain('plots=window,seq,queue,qdelay');
  await page.screenshot({ path: join(ARTIFACTS, 'cubic-bufferbloat.png'), fullPage: true });
});
