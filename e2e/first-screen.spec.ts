// The page as its users meet it (issues 41 and 43): the first congestion-window plot on the
// first screen at 1280 × 800 and 390 × 844 without layout shift; a tap on the drop at a
// timeout leads with "cwnd N → 1 segment: Retransmission timeout", in a card that never lies
// over the plot it explains (a sheet beside the tapped point on a phone); the path's controls
// by the plots on a phone, the RTT beside the delay, loss per bit and per packet; every
// disclosure marked.
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { ARTIFACTS, comparisons, expect, openApp, test, waitIdle, waitNewComparison } from './fixtures';

const SIZES = [
  [1280, 800],
  [390, 844],
] as const;

/** Links a person opens: the default page, a lesson's link, a compared preset's. */
const LINKS = ['', '?v=4&alg=reno&lesson=textbook-reno', '?v=4&alg=newreno,newreno_cwv&lesson=cwv-classroom-onoff'];

for (const [width, height] of SIZES) {
  for (const link of LINKS) {
    test(`the first window plot is on the first screen at ${width} × ${height}: ${link || 'default'}`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height });
      await page.addInitScript(() => {
        const w = window as unknown as { shifts: number[] };
        w.shifts = [];
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) {
            const shift = e as unknown as { value: number; hadRecentInput: boolean };
            if (!shift.hadRecentInput) w.shifts.push(shift.value);
          }
        }).observe({ type: 'layout-shift', buffered: true });
      });
      await openApp(page, link);
      const plot = page.locator('figure[data-plot^="window"] .plot-hit').first();
      await expect(plot).toBeVisible();
      const box = await plot.boundingBox();
      if (!box) throw new Error('no window plot');
      // Its whole plotting area is in the first screen, without scrolling.
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(height);
      const shifts = await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts);
      expect(shifts.reduce((a, b) => a + b, 0)).toBeLessThan(0.05);
      if (link === LINKS[1]) await page.screenshot({ path: join(ARTIFACTS, `first-screen-${width}.png`) });
    });
  }
}

/** Opens Fall & Floyd's Reno three-drop preset from the menu. */
async function openThreeDrops(page: Page, width: number, height: number) {
  await page.setViewportSize({ width, height });
  await openApp(page, '?v=4&alg=newreno');
  const n = await comparisons(page);
  await page.getByLabel('Preset').selectOption('fall-floyd-reno-3drops');
  await waitNewComparison(page, n);
}

/** Taps Reno's window plot at simulated time t of a 10 s run, the plot in the upper half
 *  of the screen; returns where on the screen. */
async function tapAt(page: Page, t: number) {
  const hit = page.locator('figure[data-plot="window-reno"] .plot-hit');
  await hit.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  const box = await hit.boundingBox();
  if (!box) throw new Error('no plot');
  const at = { x: box.x + (t / 10) * box.width, y: box.y + box.height * 0.8 };
  await page.mouse.click(at.x, at.y);
  return at;
}

for (const [width, height] of [...SIZES, [1920, 1080] as const]) {
  test(`a tap on the drop at Reno's timeout leads with the cause, beside the plot, at ${width} px`, async ({
    page,
  }) => {
    await openThreeDrops(page, width, height);
    // Reno's timeout: 3.281080 s (the CLI's `cwndlab explain`, and explain.spec.ts).
    const at = await tapAt(page, 3.2815);
    const panel = page.locator('.explain-panel');
    const headline = panel.locator('.why-headline');
    await expect(headline).toBeVisible();
    await expect(headline).toHaveAttribute('data-rule', 'timeout.expire');
    await expect(headline.locator('.why-change')).toHaveText(/^cwnd \d+ → 1 segment: Retransmission timeout$/);
    await expect(headline.locator('.why-cause')).toContainText('RFC 6298');
    await expect(headline.locator('.why-cause')).toContainText('t = 3.281 s · Reno');
    // Then the arithmetic, in segments with the bytes beside them, and the rule's id last.
    const card = panel.locator('.why-current .decision');
    await expect(card).toHaveAttribute('data-rule', 'timeout.expire');
    await expect(card.locator('.decision-text')).toContainText(
      'Retransmission timer expired with 7 segments in flight: ssthresh 7 segments → 3 segments; cwnd = 1 segment',
    );
    await expect(card.locator('.why-values dd').first()).toBeVisible();
    await expect(card.locator('.decision-meta')).toContainText('rule timeout.expire');
    await waitIdle(page);
    // The headline is on screen, and the card does not lie over the point tapped.
    const hb = await headline.boundingBox();
    expect(hb && hb.y >= 0 && hb.y + hb.height <= height).toBe(true);
    const pb = await panel.boundingBox();
    if (!pb) throw new Error('no panel');
    const over = at.x >= pb.x && at.x <= pb.x + pb.width && at.y >= pb.y && at.y <= pb.y + pb.height;
    if (width < 1000) {
      // A sheet at the bottom of the screen, the tapped point above it.
      await expect(panel).toHaveAttribute('data-sheet', 'true');
      // Where the tapped point is now: the page scrolls to keep it in view above the sheet,
      // which on a busy machine can finish after the sheet is drawn, so poll for it.
      const pointAboveSheet = () =>
        page.evaluate(() => {
          const r = document.querySelector('figure[data-plot="window-reno"] .plot-hit')?.getBoundingClientRect();
          const sheet = document.querySelector('.explain-panel')?.getBoundingClientRect();
          if (!r || !sheet) return NaN;
          const y = r.top + r.height * 0.8;
          return y > 0 ? sheet.top - y : NaN;
        });
      await expect.poll(pointAboveSheet).toBeGreaterThan(0);
    } else {
      expect(over).toBe(false);
    }
    await page.screenshot({ path: join(ARTIFACTS, `why-timeout-${width}.png`) });
    if (width < 1000) {
      await panel.getByRole('button', { name: 'Close the Why card' }).click();
      await expect(panel).toHaveAttribute('data-sheet', 'false');
    }
  });
}

test('on a phone the path is by the plots: RTT, bandwidth, buffer, loss per bit and per packet', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openApp(page, '?v=4&alg=reno');
  const dock = page.locator('.path-dock');
  await expect(dock).toBeVisible();
  await expect(dock.locator('summary')).toContainText(/RTT [\d.]+ ms · 2 Mbit\/s · buffer 20/);
  // On the first screen, held at its bottom.
  const box = await dock.boundingBox();
  expect(box && box.y + box.height <= 844 && box.y > 600).toBe(true);
  await dock.locator('summary').click();
  await expect(dock.locator('.rtt-of-delay')).toContainText(/RTT ≈ [\d.]+ ms/);
  // The scenario panel at the end of the page no longer repeats them.
  await expect(page.locator('.controls-panel [data-path="network.bottleneck.delay"]')).toHaveCount(0);
  const n = await comparisons(page);
  const ber = dock.getByRole('textbox', { name: /bit error rate.*exact value/ });
  await ber.fill('1e-5');
  await ber.press('Enter');
  await waitNewComparison(page, n);
  await expect(dock.locator('summary')).toContainText(/BER 0\.00001/);
  await expect(dock.locator('.ber-per-packet')).toHaveText('Per packet: ≈ 11 % of 1500 B packets lost (1 in 8.8)');
  await page.screenshot({ path: join(ARTIFACTS, 'path-dock-390.png') });
});

test('every disclosure shows a marker, closed and open', async ({ page }) => {
  await openApp(page, '?v=4&alg=reno');
  await waitIdle(page);
  const markers = await page.evaluate(() =>
    [...document.querySelectorAll('details > summary')]
      .filter((s) => (s as HTMLElement).offsetParent !== null)
      .map((s) => ({
        text: (s.textContent ?? '').trim().slice(0, 40),
        marker: getComputedStyle(s, '::before').content,
        open: (s.parentElement as HTMLDetailsElement).open,
      })),
  );
  for (const name of ['Export and print', 'Exercise sheet', 'Sweep a parameter', 'All settings']) {
    expect(
      markers.some((m) => m.text.startsWith(name)),
      name,
    ).toBe(true);
  }
  for (const m of markers) expect(m.marker, m.text).toBe(m.open ? '"▾"' : '"▸"');
});
