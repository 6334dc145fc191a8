// The explanation tools in a real browser, on Fall & Floyd's three-drop scenario compared
// for Reno and NewReno: a click on an event mark explains it, keys step both ways, the state
// machines follow the cursor, the first divergence is marked and explained, the link keeps
// the selected decision, and the page is looked at on a projector, a laptop and a phone.
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { ARTIFACTS, expect, openApp, test, threeDropsLink, waitIdle } from './fixtures';

/** Opens Fall & Floyd's Reno three-drop preset from the menu (Reno and NewReno compared). */
async function openThreeDrops(page: Page, width = 1280, height = 900) {
  await threeDropsLink(page, width, height);
}

const inspector = (page: Page) => page.locator('.explain-panel');
const current = (page: Page) => page.locator('.why-current .decision');

/** Clicks the plot `figure` at simulated time t (s): its hit area spans the time axis. */
async function clickAt(page: Page, figure: string, t: number, duration: number) {
  const hit = page.locator(`${figure} .plot-hit`);
  // Into the top part of the window: on a laptop the Why? panel docks at the bottom.
  await hit.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await page.mouse.wheel(0, -60);
  const box = await hit.boundingBox();
  if (!box) throw new Error('no plot');
  await page.mouse.click(box.x + (t / duration) * box.width, box.y + box.height / 2);
}

test('a click on an event mark explains it, with the arithmetic and the source', async ({ page }) => {
  await openThreeDrops(page);
  await expect(inspector(page)).toContainText('Click or tap a plot');
  // Reno's fast retransmit mark: 2.0692 s of a 10 s run (within a few pixels).
  await clickAt(page, 'figure[data-plot="window-reno"]', 2.0705, 10);
  await expect(current(page)).toHaveAttribute('data-rule', 'loss.fast_retransmit');
  await expect(current(page)).toContainText('t = 2.069 s');
  await expect(current(page)).toContainText('3rd duplicate ACK for segment 14');
  await expect(current(page)).toContainText('Source: RFC 5681 §3.2');
  // Inputs and outputs name glossary terms, defined on keyboard focus.
  const term = current(page).locator('.term[data-term="ssthresh"]').first();
  await term.focus();
  await expect(term.locator('[role="tooltip"]')).toBeVisible();
  await expect(term.locator('[role="tooltip"]')).toContainText('Slow-start threshold');
  // Read out as it changes.
  await expect(page.locator('.why-current')).toHaveAttribute('aria-live', 'polite');
});

test('keys step through the decisions forwards and backwards; the state machine follows', async ({ page }) => {
  await openThreeDrops(page);
  const reno = page.locator('.machine[data-run="reno"]');
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('l'); // next loss
  await expect(current(page)).toHaveAttribute('data-rule', 'loss.fast_retransmit');
  await expect(reno.locator('[data-state="fast_recovery"]')).toHaveAttribute('data-lit', 'true');
  await expect(reno.locator('.machine-list li.lit')).toContainText('fast retransmit');
  await expect(reno.locator('figcaption')).toContainText('now in fast recovery');
  await expect.poll(() => page.url()).toContain('why=reno:');
  const at = page.url();
  await page.keyboard.press('.'); // next decision
  await expect(current(page)).not.toHaveAttribute('data-rule', 'loss.fast_retransmit');
  await page.keyboard.press(','); // and back
  await expect(current(page)).toHaveAttribute('data-rule', 'loss.fast_retransmit');
  await expect.poll(() => page.url()).toBe(at);
  await page.keyboard.press('t'); // next timeout
  await expect(current(page)).toHaveAttribute('data-rule', 'timeout.expire');
  await expect(current(page)).toContainText('t = 3.281 s');
  await expect(reno.locator('[data-state="timeout_recovery"]')).toHaveAttribute('data-lit', 'true');
  await expect(reno.locator('[data-state="fast_recovery"]')).toHaveAttribute('data-lit', 'false');
  await page.keyboard.press('t'); // none after it: said, and nothing moves
  await expect(page.locator('.why-message')).toContainText('No timeout after t = 3.281080 s');
  await page.keyboard.press('L'); // previous loss
  await expect(current(page)).toHaveAttribute('data-rule', /^loss\./);
  // A state is a button: the cursor moves to the next time the run enters it.
  await reno.locator('[data-state="timeout_recovery"]').click();
  await expect(current(page)).toHaveAttribute('data-rule', 'timeout.expire');
  // The help overlay on ?.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Keyboard' })).toHaveCount(0);
});

test('the first divergence of Reno and NewReno is marked and explained side by side', async ({ page }) => {
  await openThreeDrops(page);
  await inspector(page).getByRole('button', { name: 'Explain this run' }).click();
  const div = page.locator('.divergence');
  await expect(div).toContainText('differ at t = 2.281080 s');
  await expect(div.locator('[data-run="reno"] .decision').first()).toHaveAttribute('data-rule', 'recovery.reno_exit');
  await expect(div.locator('[data-run="newreno"] .decision').first()).toHaveAttribute(
    'data-rule',
    'recovery.partial_ack_reset',
  );
  // The preset's steps lead into the tools: Reno leaving fast recovery.
  await inspector(page).getByRole('button', { name: 'Step to Reno leaving fast recovery' }).click();
  await expect(current(page)).toHaveAttribute('data-rule', 'recovery.reno_exit');
  await expect(current(page)).toContainText('t = 2.281 s');
  // Marked on both runs' plots.
  for (const alg of ['reno', 'newreno']) {
    const line = page.locator(`figure[data-plot="window-${alg}"] .divergence-line`);
    await expect(line).toBeVisible();
    await expect(line).toHaveAttribute('data-t', '2.281080448');
  }
});

test('the link keeps the selected decision; a new page opens on it', async ({ page, context }) => {
  await openThreeDrops(page);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('l');
  await expect(current(page)).toContainText('t = 2.069 s');
  await expect.poll(() => page.url()).toMatch(/why=reno:\d+/);
  const first = page.url();
  await page.keyboard.press('l'); // Reno's second loss
  await expect(current(page)).toHaveAttribute('data-rule', /^loss\./);
  await expect(current(page)).not.toContainText('t = 2.069 s');
  const title = await current(page).locator('.decision-meta').innerText();
  // The address follows a moment later (written at most every 150 ms).
  await expect.poll(() => page.url()).not.toBe(first);
  await expect.poll(() => page.url()).toMatch(/why=reno:\d+/);
  const other = await context.newPage();
  await openApp(other, page.url().slice(page.url().indexOf('?')));
  await expect(other.locator('.why-current .decision .decision-meta')).toHaveText(title);
  await expect(other.locator('.notice-box')).toHaveCount(0);
  // A link from before explanations (v=3, no why) opens as it did: nothing selected.
  const old = await context.newPage();
  await openApp(
    old,
    page
      .url()
      .slice(page.url().indexOf('?'))
      .replace('v=4', 'v=3')
      .replace(/&why=[^&]*/, ''),
  );
  await expect(old.locator('.explain-panel')).toContainText('Click or tap a plot');
  await expect(old.locator('.notice-box')).toHaveCount(0);
});

test('the Why? panel, its state machines and the help overlay pass an accessibility scan', async ({ page }) => {
  await openThreeDrops(page);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('l');
  await expect(current(page)).toBeVisible();
  await expect(page.locator('.divergence')).toContainText('differ at');
  // Every state of a machine is reachable by Tab and says whether it is the state now.
  const lit = page.locator('.machine[data-run="reno"] [data-state="fast_recovery"]');
  await expect(lit).toHaveAttribute('aria-label', /fast recovery \(the state now\)/);
  const scan = async () =>
    (await new AxeBuilder({ page }).include('.explain-panel').analyze()).violations.map(
      (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`,
    );
  expect(await scan()).toEqual([]);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('?');
  const help = await new AxeBuilder({ page }).include('.help-dialog').analyze();
  expect(help.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
});

for (const [width, height] of [
  [1920, 1080],
  [1280, 800],
  [390, 844],
] as const) {
  test(`screenshot of the inspector at ${width} px`, async ({ page }) => {
    await openThreeDrops(page, width, height);
    await page.locator('body').click({ position: { x: 2, y: 2 } });
    await page.keyboard.press('l');
    await expect(current(page)).toContainText('t = 2.069 s');
    await page.keyboard.press('.');
    await expect(current(page)).toBeVisible();
    await expect(page.locator('.divergence')).toContainText('differ at');
    await waitIdle(page);
    // Nothing wider than the screen (a phone must not scroll sideways).
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(ARTIFACTS, `explain-${width}.png`), fullPage: width !== 390 });
    await inspector(page).screenshot({ path: join(ARTIFACTS, `explain-panel-${width}.png`) });
  });
}
