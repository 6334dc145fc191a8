// An engine worker that fails (issue 25), through the test-only fault switch
// (web/src/engine/fault.ts: window.__cwndlabFault, set before the page loads): the engine
// panics in its first simulation step (a Rust panic, a wasm trap), or the worker fails as it
// starts. The page says so in plain words — what happened, that what is shown may be
// incomplete, that the next change retries — with the technical cause folded away; the
// broken worker is stopped; the next change runs on a fresh worker, the plots and summary
// are back and the message is gone.
import type { Page } from '@playwright/test';
import {
  ARTIFACTS,
  comparisons,
  expect,
  expectCanvasesDrawn,
  openSheetPanel,
  summaryText,
  test,
  waitIdle,
  waitNewComparison,
} from './fixtures';

const notice = (page: Page) => page.locator('.notice-box li[data-key="engine-worker"]');

/** Opens the app with a fault armed for the first engine worker. */
async function openWithFault(page: Page, at: 'run'): Promise<void> {
  await page.addInitScript((where) => {
    (window as unknown as { __cwndlabFault: unknown }).__cwndlabFault = { worker: 'engine', at: where };
  }, at);
  await page.goto('./?v=4&alg=reno,newreno');
  await expect(notice(page)).toBeVisible();
  await waitIdle(page);
}

/** Moves the bandwidth slider one stop and waits for the new comparison to be drawn. */
async function changeSetting(page: Page): Promise<void> {
  const n = await comparisons(page);
  await page.getByRole('slider', { name: 'Bottleneck bandwidth' }).focus();
  await page.keyboard.press('ArrowRight');
  await waitNewComparison(page, n);
}

/** The page is whole again: no engine message, both runs in the summary, the plots drawn. */
async function expectRecovered(page: Page): Promise<void> {
  await expect(notice(page)).toHaveCount(0);
  await expect(page.locator('.notice-box')).toHaveCount(0);
  await expect(page.getByTestId('status')).toContainText('computed in');
  const summary = await summaryText(page);
  expect(summary).not.toMatch(/\berror\b/);
  await expect(page.locator('.digests code')).toHaveCount(2);
  await expectCanvasesDrawn(page, 'figure[data-plot^="window"] canvas');
}

test('a panic in the engine is shown in plain words, and the next change recovers', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openWithFault(page, 'run');
  const box = page.locator('.notice-box');
  await expect(box.locator('h2')).toHaveText('The simulation engine stopped');
  const text = notice(page).locator('> span');
  await expect(text).toContainText('The simulation engine stopped unexpectedly');
  await expect(text).toContainText('may be incomplete');
  await expect(text).toContainText('Change any setting to try again');
  // The cause is there, folded: never the main text.
  const details = notice(page).locator('details');
  await expect(details).not.toHaveAttribute('open');
  const main = await text.evaluate((el) => el.firstChild?.textContent ?? '');
  expect(main).not.toMatch(/unreachable|RuntimeError|panic|stack/i);
  await expect(details.locator('code')).toHaveText(/unreachable/, { useInnerText: false });
  // The run on the failed worker says so in the summary; the other finished; the status
  // line claims no success.
  expect(await summaryText(page)).toMatch(/\berror\b/);
  await expect(page.getByTestId('status')).toHaveText(
    'Not every run finished (see the message above). Change a setting to try again.',
  );
  await box.screenshot({ path: `${ARTIFACTS}/worker-fault-notice-1280.png` });
  await page.screenshot({ path: `${ARTIFACTS}/worker-fault-1280.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await box.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${ARTIFACTS}/worker-fault-390.png` });
  await page.setViewportSize({ width: 1280, height: 900 });

  await changeSetting(page);
  await expectRecovered(page);
  // And it stays well: another change, no message.
  await changeSetting(page);
  await expectRecovered(page);
});

test('an engine worker that fails as it starts, before any run, is replaced by the first comparison', async ({
  page,
}) => {
  // The page's first run waits until a worker has started or failed (start.tsx,
  // EngineClient.started), at most a second; either the failed one held no run and the
  // first comparison starts a fresh worker, or it held runs it never began and a fresh
  // worker takes them (EngineClient's crashed): results, no message either way. A worker that fails with runs
  // (every start failing, or a failure later) is reported: client.test.ts ('a worker that
  // cannot load'), and the 'run' fault above.
  await page.addInitScript(() => {
    (window as unknown as { __cwndlabFault: unknown }).__cwndlabFault = { worker: 'engine', at: 'load' };
  });
  await page.goto('./?v=4&alg=reno,newreno');
  await waitIdle(page);
  await expectRecovered(page);
  await changeSetting(page);
  await expectRecovered(page);
});

test('an export whose engine panics says so in plain words, and the next export works', async ({ page }) => {
  await page.addInitScript(() => {
    (window as unknown as { __cwndlabFault: unknown }).__cwndlabFault = { worker: 'export', at: 'run' };
  });
  await page.goto('./?v=4&alg=reno,newreno');
  await waitIdle(page);
  const panel = page.locator('details.export');
  await panel.locator('> summary').click();
  const onePlot = panel.getByRole('group', { name: 'One plot' });
  await onePlot.getByLabel('Plot', { exact: true }).selectOption({ index: 0 });
  const csv = onePlot.getByRole('button', { name: 'Data (CSV)' });
  await csv.click();
  const exportNotice = page.locator('.notice-box li[data-key="export"]');
  await expect(exportNotice).toContainText('not made: the engine failed unexpectedly. Try the export again.');
  await expect(exportNotice.locator('> span')).not.toContainText('unreachable');
  // A fresh worker: the retry downloads, and the notice goes.
  const [download] = await Promise.all([page.waitForEvent('download'), csv.click()]);
  expect(download.suggestedFilename()).toMatch(/\.(csv|zip)$/);
  await expect(exportNotice).toHaveCount(0);
});

test('a sheet whose engine panics says so, and Make sheet again makes it', async ({ page }) => {
  await page.addInitScript(() => {
    (window as unknown as { __cwndlabFault: unknown }).__cwndlabFault = { worker: 'sheet', at: 'run' };
  });
  await page.goto('./?v=4&alg=reno,newreno');
  await waitIdle(page);
  /** Opens the sheet control (a sheet that failed closes it) and asks for a sheet. */
  const makeSheet = async () => {
    const sheet = await openSheetPanel(page);
    await sheet.getByRole('button', { name: 'Make sheet' }).click();
    return sheet;
  };
  await makeSheet();
  const sheetNotice = page.locator('.notice-box li[data-key="sheet"]');
  await expect(sheetNotice).toContainText('Exercise sheet not made: the engine failed unexpectedly; try again');
  const sheet = await makeSheet();
  await expect(sheet.locator('.sheet-screen .sheet-question').first()).toBeVisible({ timeout: 30_000 });
  await expect(sheetNotice).toHaveCount(0);
});

test('without the switch, nothing fails (the fault is test-only)', async ({ page }) => {
  await page.goto('./?v=4&alg=reno,newreno');
  await waitIdle(page);
  await expect(page.locator('.notice-box')).toHaveCount(0);
  expect(await summaryText(page)).not.toMatch(/\berror\b/);
});
