// The Internet's algorithms in the page: CUBIC's presets open from the menu, draw, show
// W_max and K on the window plot and at the cursor, reproduce from their link, and lead into
// the explanation tools; BBR's presets show its model (BtlBw, pacing rate) in their own plot,
// its BDP estimate and state on the window plot and its states as phase bands.
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
  waitIdle,
  waitNewComparison,
} from './fixtures';

async function openPreset(page: Page, name: string, algorithms = 'alg=newreno,cubic') {
  await openApp(page, '?v=4&alg=newreno');
  const n = await comparisons(page);
  await page.getByLabel('Preset').selectOption(name);
  await waitNewComparison(page, n);
  await expect.poll(() => page.url()).toContain(algorithms);
}

/** BBR's model plot's title. */
const BBR_TITLE = 'BBR’s model: bandwidth estimate and pacing rate';
/** A BBR state as the window plot's readout gives it, with its estimates. */
const BBR_READOUT =
  /BBR (Startup|Drain|ProbeBW phase [0-7]|ProbeRTT) \(pacing gain [\d.]+\) · BtlBw [\d.]+ Mbit\/s · RTprop [\d.]+ ms · pacing [\d.]+ Mbit\/s · BDP [\d.]+ seg/;

/** Nothing wider than the screen (a phone must not scroll sideways). */
async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
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
  // (BBR keeps the queue nearly empty, so its queue plots draw little but the grey buffer
  // line, and its dark brown lines blend to little colour: dark pixels count too.)
  await expectCanvasesDrawn(page, 'figure.plot canvas', { darkBelow: 100 });
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

test('cubic-bufferbloat with BBR: its model plot, its state at the cursor, its phases in the legend, a BBR decision explained', async ({
  page,
}) => {
  await openPreset(page, 'cubic-bufferbloat', 'alg=newreno,cubic,bbr');
  // A comparison with BBR shows its model and the queueing delay.
  await expect.poll(() => page.url()).toContain('plots=window,seq,queue,qdelay,bbr');
  await expect(page.getByRole('checkbox', { name: 'BBR’s model (BtlBw, pacing)' })).toBeChecked();
  // One model plot, BBR's; NewReno and CUBIC are named as having none.
  const model = page.locator('figure[data-plot="bbr-bbr"]');
  await expect(model).toBeVisible();
  await expect(model.locator('h3')).toContainText(BBR_TITLE);
  await expect(page.locator('figure[data-plot^="bbr-"]')).toHaveCount(1);
  await expect(page.locator('.plot-note')).toHaveText('Not BBR, so no model to show: NewReno, CUBIC.');
  await expectCanvasesDrawn(page, 'figure[data-plot="bbr-bbr"] canvas');
  await expect(model.locator('canvas')).toHaveAttribute(
    'aria-label',
    /the bottleneck-bandwidth estimate BtlBw \(solid\) and the pacing rate \(dashed\).*BBR v1: BtlBw at most 9\.7\d* Mbit\/s/,
  );
  // At the cursor: BBR's state and estimates, on the model plot and the window plot.
  const hit = model.locator('.plot-hit');
  await hit.focus();
  await page.keyboard.press('End');
  await expect(model.locator('.readout')).toContainText(
    /ProbeBW phase [0-7] \(pacing gain [\d.]+\) · BtlBw 9\.7\d* Mbit\/s/,
  );
  const window = page.locator('figure[data-plot="window-bbr"]');
  await window.locator('.plot-hit').focus();
  await page.keyboard.press('End');
  await expect(window.locator('.readout')).toContainText(BBR_READOUT);
  await expect(window.locator('canvas')).toHaveAttribute('aria-label', /BBR's estimated BDP \(BtlBw × RTprop\)/);
  // BBR's states are phases, named in the legend, with its BDP line.
  const phases = page.getByRole('list', { name: 'Phases' });
  for (const name of ['BBR Startup', 'BBR Drain', 'BBR ProbeBW', 'BBR ProbeRTT'])
    await expect(phases).toContainText(name);
  await expect(page.getByRole('list', { name: 'Window series' })).toContainText('BDP estimate (BBR: BtlBw × RTprop)');
  await expect(page.getByRole('list', { name: "BBR's model" })).toContainText(
    'BtlBw, the bottleneck-bandwidth estimate',
  );
  // A decision of BBR's model in the Why? panel: its rule, its arithmetic, its source.
  await page.getByRole('button', { name: 'Explain this run' }).click();
  await window.locator('.plot-hit').evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await page.mouse.wheel(0, -60);
  const box = await window.locator('.plot-hit').boundingBox();
  if (!box) throw new Error('no window plot');
  await page.mouse.click(box.x + box.width * (5 / 30), box.y + box.height / 2);
  const d = page.locator('.why-current .decision');
  await expect(d).toHaveAttribute('data-rule', /bbr/);
  await expect(d).toContainText('BBR');
  await expect(d).toContainText('draft-cardwell');
  await page.screenshot({ path: join(ARTIFACTS, 'bbr-bufferbloat-explained.png'), fullPage: false });
});

test('bbr-cubic-deep: BBR and CUBIC compete; the model plot draws BBR’s flow and names CUBIC’s as not BBR', async ({
  page,
  context,
}) => {
  await openPreset(page, 'bbr-cubic-deep', 'mode=compete');
  await expect.poll(() => page.url()).toContain('plots=window,queue,qdelay,throughput,share,fairness,retx,bbr');
  const model = page.locator('figure[data-plot="bbr-all"]');
  await expect(model.locator('h3')).toContainText(BBR_TITLE);
  await expectCanvasesDrawn(page, 'figure[data-plot="bbr-all"] canvas');
  await expect(model.locator('canvas')).toHaveAttribute('aria-label', /flow 0 · BBR v1: BtlBw at most [\d.]+ Mbit\/s/);
  await expect(model.locator('canvas')).toHaveAttribute('aria-label', /flow 1 · CUBIC is not BBR/);
  await model.locator('.plot-hit').focus();
  await page.keyboard.press('End');
  const lines = model.locator('.readout');
  await expect(lines).toContainText(/BtlBw [\d.]+ Mbit\/s · RTprop [\d.]+ ms/);
  await expect(lines).toContainText('not BBR: no bandwidth estimate or pacing rate');
  // The window plot (every flow in one) reads BBR's state for flow 0.
  const window = page.locator('figure[data-plot="window-all"]');
  await window.locator('.plot-hit').focus();
  await page.keyboard.press('End');
  await expect(window.locator('.readout')).toContainText(BBR_READOUT);
  const phases = page.getByRole('list', { name: 'Phases' });
  for (const name of ['BBR Startup', 'BBR ProbeBW', 'BBR ProbeRTT']) await expect(phases).toContainText(name);
  await expectLinkReproduces(context, page.url(), await summaryText(page));
});

for (const [width, height] of [
  [1920, 1080],
  [1280, 800],
  [390, 844],
] as const) {
  for (const preset of ['cubic-bufferbloat', 'bbr-cubic-deep'] as const) {
    test(`screenshot of ${preset} with BBR’s model at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height });
      await openPreset(page, preset, preset === 'cubic-bufferbloat' ? 'alg=newreno,cubic,bbr' : 'mode=compete');
      const model = page.locator('figure[data-plot^="bbr-"]').first();
      await model.scrollIntoViewIfNeeded();
      await expect(model.locator('h3')).toContainText(BBR_TITLE);
      // A cursor in ProbeBW, read out on every plot.
      await model.locator('.plot-hit').focus();
      await page.keyboard.press('Home');
      for (let i = 0; i < 3; i += 1) await page.keyboard.press('Shift+ArrowRight');
      await waitIdle(page);
      await expectNoSidewaysScroll(page);
      await page.screenshot({ path: join(ARTIFACTS, `bbr-${preset}-${width}.png`), fullPage: true });
      await model.screenshot({ path: join(ARTIFACTS, `bbr-${preset}-model-${width}.png`) });
      const window = page.locator('figure[data-plot^="window-"]').last();
      await window.screenshot({ path: join(ARTIFACTS, `bbr-${preset}-window-${width}.png`) });
    });
  }
}

test('cubic-two-rtts and cubic-newreno-share: two flows on 100 Mbit/s for 120 s run in the page; the shares match the lesson', async ({
  page,
}) => {
  test.setTimeout(120_000);
  // Seed 1's goodputs (Mbit/s), as the lessons give them.
  for (const [preset, first, second] of [
    ['cubic-two-rtts', '60.98', '19.59'],
    ['cubic-newreno-share', '54.7', '37.78'],
  ] as const) {
    await openPreset(page, preset, 'mode=compete');
    await waitIdle(page);
    const summary = await summaryText(page);
    expect(summary).toContain(first);
    expect(summary).toContain(second);
    await expectCanvasesDrawn(page, 'figure[data-plot="share-all"] canvas');
    await page.screenshot({ path: join(ARTIFACTS, `${preset}-1280.png`), fullPage: false });
  }
});
