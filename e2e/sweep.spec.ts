// The sweep view in real Chromium against the built site: a sweep of goodput against the
// bottleneck's BER for Reno and NewReno, cancelled while running, run again, its plot drawn
// (a point per value and algorithm, the Mathis and Padhye lines stated), its CSV downloaded,
// its link opening the view and running the same sweep (the same CSV, byte for byte), and a
// point opened (the scenario takes its value and seed). Screenshots at 1280 and 390 px in /tmp.
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, openApp, test, waitIdle } from './fixtures';

const QUERY = '?v=4&alg=reno,newreno&duration=4&network.bottleneck.loss.model=ber&network.bottleneck.loss.ber=0.000001';
const panel = (page: Page) => page.locator('details.sweep');

async function openSweep(page: Page): Promise<void> {
  const details = panel(page);
  if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open))) {
    await details.locator('summary').click();
  }
  await expect(details.getByLabel('Parameter')).toBeVisible();
}

async function fill(page: Page, from: string, to: string, points: number, seeds: number): Promise<void> {
  const p = panel(page);
  await p.getByLabel('Parameter').selectOption('network.bottleneck.loss.ber');
  await p.getByLabel(/^From/).fill(from);
  await p.getByLabel(/^To/).fill(to);
  await p.getByLabel('Points').fill(String(points));
  await p.getByLabel('Logarithmic spacing').check();
  await p.getByLabel('Seeds per point').fill(String(seeds));
}

async function downloadCsv(page: Page): Promise<string> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    panel(page).getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  return readFileSync((await download.path()) ?? '', 'utf8');
}

test('a sweep: run, cancelled, run again, plotted, downloaded, its link reproducing it, a point opened', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  await openApp(page, QUERY);
  await openSweep(page);
  const p = panel(page);

  // Bad values are named before anything runs.
  await fill(page, '0', '1e-4', 4, 2);
  await p.getByRole('button', { name: 'Run sweep' }).click();
  await expect(p.getByRole('alert')).toContainText('range 0:1e-4:4:log: a log range needs FROM and TO above 0');
  await p.getByLabel('Points').fill('0');
  await p.getByRole('button', { name: 'Run sweep' }).click();
  await expect(p.getByRole('alert')).toContainText('Points: “0” is not a whole number of points, 1 or more.');

  // A big sweep, cancelled while it runs.
  await fill(page, '1e-7', '1e-4', 40, 20);
  await p.getByRole('button', { name: 'Run sweep' }).click();
  await expect(p.getByRole('status').filter({ hasText: 'Running' })).toContainText(/Running: \d+ of 1600 runs done/);
  await p.getByRole('button', { name: 'Cancel' }).click();
  await expect(p.getByText(/Cancelled after \d+ of 1600 runs/)).toBeVisible();
  await expect(p.locator('.sweep-point')).toHaveCount(0);

  // Run again, smaller: 4 values × 2 algorithms × 2 seeds.
  await fill(page, '1e-7', '1e-4', 4, 2);
  await p.getByRole('button', { name: 'Run again' }).click();
  await expect(p.getByText('Done: 16 runs.')).toBeVisible({ timeout: 60_000 });
  await expect(p.locator('.sweep-point')).toHaveCount(8);
  await expect(p.locator('.sweep-plot path[stroke]').first()).toBeAttached();
  await expect(p.getByText(/Theory \(Mathis et al\., Padhye et al\.\) from the engine/)).toBeVisible();
  await expect(p.locator('.sweep-current')).toBeAttached();
  // The address bar follows the store 150 ms later (urlSync).
  await page.waitForFunction(() => location.search.includes('sweep=network.bottleneck.loss.ber:1e-7:1e-4:4:log&'));
  const link = page.url();
  expect(link).toContain('sweepseeds=2');
  const csv = await downloadCsv(page);
  const lines = csv.trim().split('\n');
  expect(lines[0]).toMatch(/^kind,run,network\.bottleneck\.loss\.ber,algorithm,seed,flow,n,goodput_bps,/);
  expect(lines.filter((l) => l.startsWith('run,'))).toHaveLength(16);
  expect(lines.filter((l) => l.startsWith('point,'))).toHaveLength(8);
  await p.scrollIntoViewIfNeeded();
  await p.screenshot({ path: '/tmp/sweep-1280.png' });

  // The link opens the view and runs the same sweep: the same CSV.
  const again = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await again.goto(link);
  await expect(panel(again).getByText('Done: 16 runs.')).toBeVisible({ timeout: 90_000 });
  expect(await downloadCsv(again)).toBe(csv);
  await panel(again).scrollIntoViewIfNeeded();
  await panel(again).screenshot({ path: '/tmp/sweep-390.png' });
  await again.close();

  // A point opens its run: NewReno at BER 1e-5, seed 1.
  await p.locator('.sweep-point[data-algorithm="newreno"][data-value="1e-5"]').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => location.search.includes('network.bottleneck.loss.ber=0.00001'));
  await waitIdle(page);
  await expect(p.locator('.sweep-point[data-value="1e-5"] circle[r="7"]')).toHaveCount(2);
});
