// A sweep over an enumerated setting in real Chromium against the built site: a link sweeping
// the bufferbloat preset's queue discipline (drop-tail against CoDel, CUBIC, one seed, the
// mean queueing delay) opens the view with the values ticked, runs, and plots one band per
// value labelled with the engine's names for them, CoDel's point below drop-tail's; the CLI
// line says --values; axe finds nothing. Screenshots at 1280 and 390 px in e2e/artifacts.
import AxeBuilder from '@axe-core/playwright';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { ARTIFACTS, expect, openApp, test, waitIdle } from './fixtures';

const SCHEMA = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', 'web', 'src', 'engine', 'pkg', 'tables.json'), 'utf8'),
) as { schema: { params: { path: string; options?: { value: string; label: string }[] }[] } };
const LABEL = Object.fromEntries(
  (SCHEMA.schema.params.find((p) => p.path === 'network.bottleneck.qdisc')?.options ?? []).map((o) => [
    o.value,
    o.label,
  ]),
);

const QUERY =
  '?preset=cubic-bufferbloat&sweep=network.bottleneck.qdisc:droptail,codel&sweepseeds=1&sweepalg=cubic&sweepm=qdelay_mean_ms';
const panel = (page: Page) => page.locator('details.sweep');

async function check(page: Page, shot: string): Promise<void> {
  await openApp(page, QUERY);
  const p = panel(page);
  await expect(p.getByText('Done: 2 runs.')).toBeVisible({ timeout: 60_000 });
  // The form: the values as checkboxes (the engine's labels), no range.
  await expect(p.getByLabel('Parameter')).toHaveValue('network.bottleneck.qdisc');
  await expect(p.getByRole('checkbox', { name: LABEL.droptail, exact: true })).toBeChecked();
  await expect(p.getByRole('checkbox', { name: LABEL.codel, exact: true })).toBeChecked();
  await expect(p.getByRole('checkbox', { name: LABEL.pie, exact: true })).not.toBeChecked();
  await expect(p.getByLabel(/^From/)).toHaveCount(0);
  // Two bands, in the order of the link, labelled with the engine's names.
  const labels = p.locator('.sweep-band-label');
  await expect(labels).toHaveCount(2);
  expect(await labels.evaluateAll((ls) => ls.map((l) => [l.getAttribute('data-value'), l.textContent]))).toEqual([
    ['droptail', LABEL.droptail],
    ['codel', LABEL.codel],
  ]);
  await expect(p.locator('.sweep-band')).toHaveCount(2);
  // A point per value; CoDel's mean queueing delay drawn lower (higher on the screen) than drop-tail's.
  const point = (v: string) => p.locator(`.sweep-point[data-algorithm="cubic"][data-value="${v}"]`);
  await expect(point('droptail')).toHaveCount(1);
  const mean = async (v: string) => Number(await point(v).getAttribute('data-mean'));
  const cy = async (v: string) => Number(await point(v).locator('circle').getAttribute('cy'));
  expect(await mean('codel')).toBeLessThan(await mean('droptail'));
  expect(await cy('codel')).toBeGreaterThan(await cy('droptail'));
  await expect(p.locator('.sweep-cli')).toContainText('--param network.bottleneck.qdisc --values droptail,codel');
  // The form and the plot pass axe.
  const axe = await new AxeBuilder({ page }).include('details.sweep').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target).join('; ')})`)).toEqual([]);
  await p.locator('.sweep-plot').scrollIntoViewIfNeeded();
  await p.screenshot({ path: join(ARTIFACTS, shot) });
}

test('a link sweeping the queue discipline plots a band per value, CoDel below drop-tail', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await check(page, 'sweep-enum-1280.png');
  // The link keeps the list form.
  await page.waitForFunction(() => location.search.includes('sweep=network.bottleneck.qdisc:droptail,codel'));
  // A point opens its run: CoDel in the scenario, its band now the scenario's own.
  const p = panel(page);
  await p.locator('.sweep-point[data-value="codel"]').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => location.search.includes('network.bottleneck.qdisc=codel'));
  await waitIdle(page);
  await expect(p.locator('.sweep-point[data-value="codel"] circle[r="7"]')).toHaveCount(1);
  await expect(p.locator('.sweep-current rect')).toHaveAttribute('x', /.+/);
  await expect(p.locator('.sweep-band-label[data-value="codel"]')).toHaveAttribute('font-weight', '700');
});

test('the same at phone width; values ticked later join the end', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await check(page, 'sweep-enum-390.png');
  const p = panel(page);
  for (const v of ['pie', 'fq_codel', 'red', 'step'])
    await p.getByRole('checkbox', { name: LABEL[v], exact: true }).check();
  await p.getByRole('button', { name: 'Run again' }).click();
  await expect(p.getByText('Done: 6 runs.')).toBeVisible({ timeout: 60_000 });
  const order = await p.locator('.sweep-band-label').evaluateAll((ls) => ls.map((l) => l.getAttribute('data-value')));
  expect(order).toEqual(['droptail', 'codel', 'pie', 'fq_codel', 'red', 'step']);
  await page.waitForFunction(() =>
    location.search.includes('sweep=network.bottleneck.qdisc:droptail,codel,pie,fq_codel,red,step'),
  );
  await p.locator('.sweep-plot').scrollIntoViewIfNeeded();
  await p.locator('.sweep-plot').screenshot({ path: join(ARTIFACTS, 'sweep-enum-390-six.png') });
});
