// Competition mode in real Chromium against the built site: flows built in the page, every
// competition view drawn, Jain's index and the retransmitted fraction read from the summary,
// a copied link reproducing the run; 16 flows with the legend; the flow limit; old
// comparison links; bad values; the accessibility scan and screenshots.
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import {
  ARTIFACTS,
  colouredPixels,
  comparisons,
  expect,
  expectCanvasesDrawn,
  expectLinkReproduces,
  openApp,
  summaryText,
  TABLES,
  test,
  waitNewComparison,
} from './fixtures';

/** The competition plots, by their data-plot names. */
const VIEWS = ['window-all', 'queue-all', 'throughput-all', 'share-all', 'fairness-all', 'retx-all'];

/** Pixels of a canvas that are data: coloured, or dark (the black lines of the fairness and
 *  share plots; the grid is light grey and the frame mid grey, neither counts). */
async function inkPixels(page: Page, selector: string): Promise<number> {
  return (await colouredPixels(page, selector, 100))[0] ?? 0;
}

/** Every competition view is there, with axes and data drawn. */
async function expectViewsDrawn(page: Page, views = VIEWS) {
  for (const view of views) {
    const fig = page.locator(`figure[data-plot="${view}"]`);
    await expect(fig).toBeVisible();
    // The plots in view are drawn first and the others in the next frames: wait for each.
    await expect.poll(() => fig.locator('g.y-axis .tick').count(), { message: `${view}: y ticks` }).toBeGreaterThan(1);
    await expect
      .poll(() => inkPixels(page, `figure[data-plot="${view}"] canvas`), { message: `${view}: data pixels` })
      .toBeGreaterThan(300);
  }
}

/** Does something that re-runs, and waits for the new run to be drawn. */
async function rerun(page: Page, act: () => Promise<void>) {
  const n = await comparisons(page);
  await act();
  await waitNewComparison(page, n);
}

/** One flow of the flow list. */
function flowRow(page: Page, i: number): Locator {
  return page.locator(`.flow-row[data-flow="${i}"]`);
}

/** Sets a flow's number field (typed into its exact-value box, committed with Enter). */
async function setFlowNumber(page: Page, i: number, name: RegExp, value: string) {
  await rerun(page, async () => {
    const box = flowRow(page, i).getByRole('textbox', { name });
    await box.fill(value);
    await box.press('Enter');
  });
}

test('a three-flow competition built in the page: every view, Jain and retransmissions, and a link that reproduces it', async ({
  page,
  context,
}) => {
  await openApp(page, '?v=3&alg=newreno&duration=20');
  // Comparison → competition: the one compared algorithm becomes flow 0.
  await rerun(page, () => page.getByRole('radio', { name: 'Compete on one path' }).check());
  await expect(page.locator('.flow-row')).toHaveCount(1);
  await expect(flowRow(page, 0).getByRole('combobox', { name: 'Algorithm' })).toHaveValue('newreno');
  // Flow 1: Reno from 2 s, flow 2: Old Tahoe from 4 s.
  for (const [i, algorithm, start] of [
    [1, 'reno', '2000'],
    [2, 'old_tahoe', '4000'],
  ] as const) {
    await rerun(page, () => page.getByRole('button', { name: /^Add a flow/ }).click());
    await expect(page.locator('.flow-row')).toHaveCount(i + 1);
    await rerun(page, async () => {
      await flowRow(page, i).getByRole('combobox', { name: 'Algorithm' }).selectOption(algorithm);
    });
    await setFlowNumber(page, i, /^Start time of flow/, start);
  }
  await expect(page).toHaveURL(/mode=compete&flows=3&.*f1\.algorithm=reno&f2\.algorithm=old_tahoe/);
  await expect(page).toHaveURL(/f1\.start=2&f2\.start=4/);

  // Every view, and the time–sequence plot per flow in its colour.
  await expectViewsDrawn(page);
  await page.getByRole('checkbox', { name: 'Time–sequence' }).check();
  await expectViewsDrawn(page, ['seq-all']);
  const seqLabel = await page.locator('figure[data-plot="seq-all"] canvas').getAttribute('aria-label');
  for (const name of ['flow 0 · NewReno', 'flow 1 · Reno', 'flow 2 · Old Tahoe']) expect(seqLabel).toContain(name);
  // One plot per flow.
  await page.getByRole('radio', { name: 'One plot per flow' }).check();
  await expect(page.locator('figure[data-plot^="window-flow"]')).toHaveCount(3);
  await expectCanvasesDrawn(page, 'figure[data-plot^="window-flow"] canvas', { count: 3 });
  await page.getByRole('radio', { name: 'Every flow in one' }).check();

  // Jain's index of the run and the retransmitted fractions, from the summary.
  const jain = Number(await page.getByTestId('jain').innerText());
  expect(jain).toBeGreaterThan(1 / 3);
  expect(jain).toBeLessThanOrEqual(1);
  const total = await page.getByTestId('retx-total').innerText();
  expect(total).toMatch(/^\d+(\.\d+)? %$/);
  for (let i = 0; i < 3; i += 1) {
    await expect(page.getByTestId(`retx-${i}`)).toHaveText(/^\d+(\.\d+)? %\s*\d+ of \d+(, \d+ spurious)?$/);
  }
  // The fairness plot says the same whole-run index.
  const fairness = await page.locator('figure[data-plot="fairness-all"] canvas').getAttribute('aria-label');
  expect(fairness).toContain(`whole run ${Number(jain.toPrecision(3))}`);

  // The link from the share panel reproduces the run: the same numbers and digest.
  const link = await page.locator('#share-url').inputValue();
  expect(link).toContain('mode=compete');
  const want = await summaryText(page);
  expect(want).toMatch(/Run digest: [0-9a-f]{16}/);
  await expectLinkReproduces(context, link, want);
});

test('16 flows draw and stay legible: a legend that hides flows, in the link', async ({ page, context }) => {
  await openApp(page, '?v=3&mode=compete&flows=16&duration=30');
  await expect(page.locator('.flow-row')).toHaveCount(16);
  await expect(page.getByRole('table', { name: 'Summary, one row per flow' }).locator('tbody tr')).toHaveCount(16);
  await expectViewsDrawn(page);
  const legend = page.getByRole('list', { name: /^Flows/ });
  await expect(legend.getByRole('checkbox')).toHaveCount(16);
  await expect(legend.getByText('flow 15 · NewReno')).toBeVisible();
  // Hiding a flow redraws without it (no re-run) and goes into the link.
  const before = await page.locator('figure[data-plot="throughput-all"] canvas').getAttribute('aria-label');
  expect(before).toContain('flow 3 · NewReno');
  await legend.getByRole('checkbox', { name: 'flow 3 · NewReno' }).uncheck();
  await expect
    .poll(() => page.locator('figure[data-plot="throughput-all"] canvas').getAttribute('aria-label'))
    .not.toContain('flow 3 · NewReno');
  await expect(page).toHaveURL(/hide=3/);
  await expectViewsDrawn(page);
  await expectLinkReproduces(context, await page.locator('#share-url').inputValue(), await summaryText(page));
});

test('the engine’s flow limit is said in the page, and adding past it changes nothing', async ({ page }) => {
  await openApp(page, '?v=3&mode=compete&flows=64&duration=0.2');
  await expect(page.locator('.flow-row')).toHaveCount(64);
  const add = page.getByRole('button', { name: /^Add a flow/ });
  await expect(add).toHaveAttribute('aria-disabled', 'true');
  await expect(page.locator('.flow-count')).toContainText('64 flows of at most 64');
  await expect(page.locator('.flow-count')).toContainText('The engine runs at most 64 flows in one run');
  // Marked unavailable (aria-disabled) but still pressable: pressing it says why.
  await add.click({ force: true });
  await expect(page.locator('.notice-box')).toContainText('Not added: The engine runs at most 64 flows');
  await expect(page.locator('.flow-row')).toHaveCount(64);
});

test('an old comparison link still opens as a comparison, with the same runs', async ({ page, context }) => {
  await openApp(page, '?v=2&alg=reno,newreno');
  await expect(page.getByRole('radio', { name: 'Compare algorithms' })).toBeChecked();
  await expect(page.locator('.flow-row')).toHaveCount(0);
  await expect(page.getByRole('checkbox', { name: 'Reno', exact: true })).toBeChecked();
  await expect(page.locator('figure.plot')).toHaveCount(6);
  await expect.poll(() => page.url()).toContain('?v=4&alg=reno,newreno');
  expect(page.url()).not.toContain('mode=');
  await expectLinkReproduces(context, '?v=1&alg=reno,newreno', await summaryText(page));
});

test('bad competition values name the key and the allowed values; the page keeps working', async ({ page }) => {
  await openApp(page, '?v=3&mode=compete&flows=3&f2.algorithm=vegas&duration=5');
  const box = page.locator('.notice-box');
  await expect(box).toContainText('f2.algorithm');
  await expect(box).toContainText('"vegas"');
  await expect(box).toContainText('old_tahoe, tahoe, reno, newreno');
  await expect(page.locator('.flow-row')).toHaveCount(3);
  await expectViewsDrawn(page, ['window-all', 'share-all']);

  await openApp(page, '?v=3&mode=compete&flows=100&duration=0.2');
  await expect(page.locator('.notice-box')).toContainText('flows=1 to flows=64');
  await expect(page.locator('.flow-row')).toHaveCount(64);
});

test('the flow list works from the keyboard alone', async ({ page }) => {
  await openApp(page, '?v=3&mode=compete&flows=2&duration=5');
  const add = page.getByRole('button', { name: /^Add a flow/ });
  await add.focus();
  await rerun(page, () => page.keyboard.press('Enter'));
  await expect(page.locator('.flow-row')).toHaveCount(3);
  const select = flowRow(page, 2).getByRole('combobox', { name: 'Algorithm' });
  await select.focus();
  // Keyboard choice in a native select: the next entry (NewReno → NewReno + restart).
  await rerun(page, () => page.keyboard.press('ArrowDown'));
  await expect(select).toHaveValue('newreno_restart');
  const remove = flowRow(page, 1).getByRole('button', { name: 'Remove flow 1' });
  await remove.focus();
  await rerun(page, () => page.keyboard.press('Enter'));
  await expect(page.locator('.flow-row')).toHaveCount(2);
  await expect(flowRow(page, 1).getByRole('combobox', { name: 'Algorithm' })).toHaveValue('newreno_restart');
});

/** The engine's event kinds (the RTT view needs rtt_sample and spurious_retransmit). */
const EVENTS = TABLES.codes.events;

test('the RTT view: samples, SRTT, RTO and spurious retransmissions, per flow and per algorithm', async ({ page }) => {
  test.skip(!EVENTS.includes('rtt_sample'), 'this engine logs no RTT samples');
  // RFC 793's timer (β = 2) on flow 0, a second flow from 1 s varying its delay.
  await openApp(page, '?v=3&mode=compete&flows=2&duration=10&f0.rto.estimator=rfc793&f1.start=1&plots=window,rtt');
  await expectViewsDrawn(page, ['rtt-all']);
  const label = (await page.locator('figure[data-plot="rtt-all"] canvas').getAttribute('aria-label')) ?? '';
  const m = /flow 0 · NewReno: (\d+) RTT samples, median [\d.]+ ms, (\d+) spurious retransmissions/.exec(label);
  expect(m, label).not.toBeNull();
  expect(Number(m?.[1])).toBeGreaterThan(0);
  expect(Number(m?.[2])).toBeGreaterThan(0);
  // ] steps the cursor to the first spurious retransmission; the readout counts it.
  await page.locator('figure[data-plot="rtt-all"] .plot-hit').focus();
  await page.keyboard.press(']');
  await expect(page.locator('figure[data-plot="rtt-all"] .readout')).toContainText(/[1-9]\d* spurious so far/);
  // Per algorithm in a comparison.
  await openApp(page, '?v=3&alg=reno,newreno&duration=10&f0.rto.estimator=rfc793&plots=rtt');
  await expectViewsDrawn(page, ['rtt-reno', 'rtt-newreno']);
});

/** Four conversations in the spirit of Jacobson's figures 7 to 11: NewReno, Reno, Tahoe and
 *  Old Tahoe started 3 s apart, 5 s bins. */
const FOUR =
  '?v=3&mode=compete&flows=4&duration=30&f1.algorithm=reno&f2.algorithm=tahoe&f3.algorithm=old_tahoe' +
  '&f1.start=3&f2.start=6&f3.start=9&bin=5';

for (const [name, width, height, scale] of [
  ['desktop-1280', 1280, 900, 1],
  ['phone-390', 390, 844, 2],
] as const) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height }, deviceScaleFactor: scale, hasTouch: width < 500 });

    test(`a four-flow competition at ${width} px: nothing sideways, the scan passes, screenshots`, async ({ page }) => {
      await openApp(page, FOUR);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await expectViewsDrawn(page);
      // Every number of the summary is visible (no clipped column).
      const table = page.getByRole('table', { name: 'Summary, one row per flow' });
      await expect(table.locator('tbody tr')).toHaveCount(4);
      const region = page.getByTestId('summary').getByRole('region', { name: 'Summary table' });
      const clipped = await region.evaluate((el) => el.scrollWidth - el.clientWidth);
      expect(clipped).toBeLessThanOrEqual(1);
      if (width < 1000) await page.locator('details.legend > summary').click();
      await expect(page.getByRole('list', { name: /^Flows/ }).getByRole('checkbox')).toHaveCount(4);
      const scan = await new AxeBuilder({ page }).analyze();
      expect(scan.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target).join('; ')})`)).toEqual([]);
      await page.screenshot({ path: join(ARTIFACTS, `compete-${name}.png`) });
      await page.screenshot({ path: join(ARTIFACTS, `compete-${name}-full.png`), fullPage: true });
      await page.getByTestId('summary').screenshot({ path: join(ARTIFACTS, `compete-${name}-summary.png`) });
      await page.getByTestId('flows').screenshot({ path: join(ARTIFACTS, `compete-${name}-flows.png`) });
      await page.locator('.plot-stack').screenshot({ path: join(ARTIFACTS, `compete-${name}-plots.png`) });
    });
  });
}
