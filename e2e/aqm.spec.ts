// Queue disciplines and ECN in the page (issue 40): CoDel chosen under Path, its target,
// dropping state, drops and CE marks on the queue plots, a drop explained by the engine's
// rule with its arithmetic, ECN turning drops into marks, the link keeping both, and the
// choice two taps away on a phone.
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import {
  ARTIFACTS,
  comparisons,
  expect,
  expectLinkReproduces,
  openApp,
  summaryText,
  test,
  waitIdle,
  waitNewComparison,
} from './fixtures';

/** NewReno on a 10 Mbit/s, 40 ms path with a 1 000-packet buffer (the bufferbloat path),
 *  4 s. */
const PATH =
  '?v=4&alg=newreno&network.bottleneck.bandwidth=10000000&network.bottleneck.delay=0.02&network.bottleneck.queue_packets=1000&duration=4';

const delayPlot = (page: Page) => page.locator('figure[data-plot="qdelay-newreno"]');

/** Picks a discipline under Path and waits for the new comparison. */
async function choose(page: Page, label: string) {
  const n = await comparisons(page);
  await page.getByRole('radio', { name: label, exact: true }).check();
  await waitNewComparison(page, n);
}

test('CoDel under Path: its target, dropping state, drops and marks drawn; a drop explained with its arithmetic; ECN marks instead', async ({
  page,
  context,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openApp(page, PATH);
  const path = page.getByRole('region', { name: 'Path' }).first();
  const group = path.getByRole('group', { name: 'Queue discipline' });
  await expect(group.getByRole('radio', { name: 'Drop-tail', exact: true })).toBeChecked();
  // Drop-tail: no discipline's parameters.
  await expect(path.getByText('CoDel target', { exact: true })).toHaveCount(0);
  await choose(page, 'CoDel');
  await expect.poll(() => page.url()).toContain('network.bottleneck.qdisc=codel');
  // Its own parameters appear under Path (the engine's applies_when), the others' do not.
  await expect(path.getByText('CoDel target', { exact: true })).toBeVisible();
  await expect(path.getByText('RED min_th', { exact: true })).toHaveCount(0);
  // The queueing-delay plot is shown with the target; the screen-reader text says so.
  const canvas = delayPlot(page).locator('canvas').first();
  await expect(canvas).toHaveAttribute(
    'aria-label',
    /CoDel manages the queue with a target of 5 ms; NewReno: [1-9]\d* drops, 0 CE marks/,
  );
  // The legend names the drops, the marks, the target and the dropping state.
  const legend = page.getByRole('list', { name: 'Queue discipline: CoDel' });
  await expect(legend).toContainText('drop by CoDel');
  await expect(legend).toContainText('CE mark (ECN) instead of a drop');
  await expect(legend).toContainText('target delay');
  await expect(legend).toContainText('dropping state');
  await delayPlot(page).scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(ARTIFACTS, 'aqm-codel-1280.png') });

  // A drop: `]` on the plot moves the cursor to its first drop or mark (the link's `t`);
  // a click there explains the engine's decision.
  const hit = delayPlot(page).locator('.plot-hit');
  await hit.focus();
  await page.keyboard.press(']');
  await expect.poll(() => new URL(page.url()).searchParams.get('t')).not.toBeNull();
  const t = Number(new URL(page.url()).searchParams.get('t'));
  await expect(delayPlot(page).locator('.readout')).toContainText('dropping, next drop at');
  await hit.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await page.mouse.wheel(0, -60);
  // The wheel scrolls asynchronously: click only once the plot has stopped moving.
  let last = '';
  await expect
    .poll(async () => {
      const b = JSON.stringify(await hit.boundingBox());
      const still = b === last;
      last = b;
      return still;
    })
    .toBe(true);
  const box = await hit.boundingBox();
  if (!box) throw new Error('no plot');
  await page.mouse.click(box.x + (t / 4) * box.width, box.y + box.height / 2);
  const current = page.locator('.why-current .decision');
  await expect(current).toHaveAttribute('data-rule', 'codel.drop');
  await expect(current).toContainText('CoDel drops a departing packet');
  await expect(current).toContainText('CoDel drops this packet as it leaves: it waited');
  await expect(current).toContainText('(target 5 ms)');
  await expect(current).toContainText('Source: RFC 8289');
  await expect(current.locator('.decision-formula')).toContainText('interval/√count');

  // ECN on the flow: the discipline marks CE instead of dropping.
  const n = await comparisons(page);
  await page.getByLabel('ECN', { exact: true }).first().selectOption('rfc3168');
  await waitNewComparison(page, n);
  await expect(canvas).toHaveAttribute('aria-label', /NewReno: 0 drops, [1-9]\d* CE marks/);

  // The link keeps the discipline and ECN: the same runs in a fresh page, controls as set.
  await expect.poll(() => page.url()).toContain('f0.ecn=rfc3168');
  const link = page.url();
  expect(link).toContain('network.bottleneck.qdisc=codel');
  const want = await summaryText(page);
  await expectLinkReproduces(context, link, want);
  const other = await context.newPage();
  await openApp(other, link.slice(link.indexOf('?')));
  await expect(other.getByRole('radio', { name: 'CoDel', exact: true })).toBeChecked();
  await expect(other.getByLabel('ECN', { exact: true }).first()).toHaveValue('rfc3168');
});

test('a drop-tail run shows no discipline: no legend row, no target, the buffer as before', async ({ page }) => {
  await openApp(page, `${PATH}&plots=queue,qdelay`);
  await expect(page.locator('.legend-qdisc')).toHaveCount(0);
  await expect(delayPlot(page).locator('canvas').first()).not.toHaveAttribute('aria-label', /manages the queue/);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });
  test('the discipline is two taps away: open the path bar, pick CoDel', async ({ page }) => {
    await openApp(page, PATH);
    const dock = page.locator('details.path-dock');
    await dock.locator('summary').tap();
    const codel = dock.getByRole('radio', { name: 'CoDel', exact: true });
    await expect(codel).toBeInViewport();
    const n = await comparisons(page);
    await dock.locator('label.choice', { hasText: /^CoDel$/ }).tap();
    await waitNewComparison(page, n);
    await expect(codel).toBeChecked();
    await expect.poll(() => page.url()).toContain('network.bottleneck.qdisc=codel');
    await expect(dock.locator('summary')).toContainText('CoDel');
    await waitIdle(page);
    await page.screenshot({ path: join(ARTIFACTS, 'aqm-dock-390.png') });
  });
});

for (const [width, height] of [
  [1280, 800],
  [1920, 1080],
  [390, 844],
] as const) {
  test(`the discipline's plots at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await openApp(page, `${PATH}&network.bottleneck.qdisc=codel&f0.ecn=rfc3168&plots=queue,qdelay,window`);
    await delayPlot(page).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, `aqm-plots-${width}.png`) });
    // Nothing sideways: the page is no wider than the window.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  });
}
