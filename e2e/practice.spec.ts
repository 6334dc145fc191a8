// Predict-then-reveal in a real browser, on Fall & Floyd's three-drop scenario (Reno): the link
// opens the page in practice, the future is hidden (summary, overview, inspector; the plots
// stop before the decision asked), a whole pass is answered with the keyboard alone (a right
// and a wrong answer marked, the engine's explanation revealed), the score and the summary at
// the end with links to replay each decision, an accessibility scan, and screenshots on a
// projector, a laptop and a phone.
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { ARTIFACTS, expect, openApp, test, threeDropsLink, waitIdle } from './fixtures';

const panel = (page: Page) => page.locator('.practice-panel');
const question = (page: Page) => panel(page).locator('.practice-question');

/** The number key of the event choice whose text is `label` (or of another one). */
async function keyOf(page: Page, label: string, other = false): Promise<string> {
  const texts = await question(page).locator('.practice-choice span').allInnerTexts();
  const i = other ? texts.findIndex((t) => t !== label) : texts.indexOf(label);
  expect(i, `choice ${label} in ${texts.join(' | ')}`).toBeGreaterThanOrEqual(0);
  return String(i + 1);
}

/** Answers the question asked with the keyboard alone: the event's number, c, cwnd, Tab,
 *  ssthresh, Enter. */
async function answer(page: Page, key: string, cwnd: string, ssthresh: string) {
  await page.keyboard.press(key);
  await page.keyboard.press('c');
  await page.keyboard.type(cwnd);
  await page.keyboard.press('Tab');
  await page.keyboard.type(ssthresh);
  await page.keyboard.press('Enter');
  await expect(panel(page).locator('.practice-reveal')).toBeVisible();
}

test('a link opens the practice; a whole pass with the keyboard, marked, scored and summarised', async ({
  page,
  context,
}) => {
  const link = await threeDropsLink(page);
  await openApp(page, `${link}&plots=window,seq,queue,rounds&practice=predict:reno`);
  await expect(panel(page)).toBeVisible();
  await expect(question(page).locator('h3')).toContainText('Question 1 of 5: what does Reno decide at t = 2.069 s?');
  // The plots' screen-reader summaries (of the whole run) are hidden too.
  const label = await page.locator('.plot canvas, canvas[aria-label]').first().getAttribute('aria-label');
  expect(label).toContain('hidden while you predict');
  // The future is hidden: no summary table, no overview, no inspector, no exports.
  await expect(page.getByTestId('summary')).toHaveCount(0);
  await expect(page.locator('.explain-panel')).toHaveCount(0);
  await expect(page.locator('.overview')).toHaveCount(0);
  // The rounds view draws every round (no time axis to stop at the cursor): hidden.
  await expect(page.locator('.rounds-group')).toBeHidden();
  // The plots end just before the decision (their time axis stops before 2.0692 s).
  const ticks = await page.locator('figure[data-plot="window-reno"] svg text').allInnerTexts();
  const times = ticks.map(Number).filter((v) => Number.isFinite(v));
  expect(Math.max(...times)).toBeLessThan(2.0692);
  // The step keys would show the future: off.
  await page.keyboard.press('t');
  await expect(page.locator('.explain-panel')).toHaveCount(0);
  // The state now, in the run's cwnd units (segments for this preset).
  await expect(question(page)).toContainText('Now: slow start, cwnd 15 segments');

  // Asked in segments (the plots' unit); text fields (a phone's full keyboard: "inf", units).
  await expect(question(page).locator('.practice-values legend')).toContainText('in segments of 1000 B');
  await expect(question(page).locator('input[name="practice-ssthresh"]')).toHaveAttribute('inputmode', 'text');
  await expect(question(page).locator('.practice-rule')).toContainText('type inf');

  // 1: right — the fast retransmit, cwnd and ssthresh 7 segments (typed with units).
  const fr = '3 duplicate ACKs: fast retransmit, enter fast recovery';
  await answer(page, await keyOf(page, fr), '7 segments', '7 seg');
  const reveal = panel(page).locator('.practice-reveal');
  await expect(reveal.locator('.practice-marks')).toContainText('Event: ✓ right');
  await expect(reveal.locator('.practice-marks')).toContainText('cwnd: ✓ right');
  await expect(reveal.locator('.decision').first()).toHaveAttribute('data-rule', 'loss.fast_retransmit');
  await expect(reveal.locator('.decision').first()).toContainText('3rd duplicate ACK for segment 14');
  await expect(panel(page).locator('.practice-score')).toContainText('Event 1/1');
  // The cursor is on the decision; the next button has the focus.
  await expect(page.getByRole('button', { name: 'Next question (n)' })).toBeFocused();
  await expect.poll(() => page.url()).toMatch(/[?&]t=2\.0692/);

  // 2: wrong event, wrong cwnd: marked, with the engine's values shown.
  await page.keyboard.press('n');
  await expect(question(page).locator('h3')).toContainText('Question 2 of 5');
  const exit = 'first new ACK: deflate to ssthresh, leave';
  await answer(page, await keyOf(page, exit, true), '7000', '7000 B');
  await expect(reveal.locator('.practice-marks')).toContainText('Event: ✗ wrong');
  await expect(reveal.locator('.practice-marks')).toContainText(`the engine: “${exit}”`);
  // A number in bytes where segments are asked: wrong, with a hint; "7000 B" is right.
  await expect(reveal.locator('.practice-marks')).toContainText(
    'cwnd: ✗ wrong — you said 7000; the engine: 7 segments',
  );
  await expect(reveal.locator('.practice-marks')).toContainText('That is in bytes? 1 segment = 1000 B');
  await expect(reveal.locator('.practice-marks')).toContainText('ssthresh: ✓ right');
  await expect(reveal.locator('.decision').first()).toHaveAttribute('data-rule', 'recovery.reno_exit');
  await expect(panel(page).locator('.practice-score')).toContainText('Event 1/2');
  await expect(panel(page).locator('.practice-score')).toContainText('cwnd 1/2');
  await expect(panel(page).locator('.practice-score')).toContainText('ssthresh 2/2');

  // 3 to 5, then the summary.
  for (let k = 3; k <= 5; k += 1) {
    await page.keyboard.press('n');
    await expect(question(page).locator('h3')).toContainText(`Question ${k} of 5`);
    await answer(page, '1', '1', '1');
  }
  await page.keyboard.press('n');
  const summary = panel(page).locator('.practice-summary');
  await expect(summary.locator('h3')).toContainText('Summary: event');
  await expect(summary.locator('tbody tr')).toHaveCount(5);
  await expect(summary.locator('tbody tr').first()).toContainText('loss.fast_retransmit');
  await expect(summary.locator('tbody tr').nth(1)).toContainText('recovery.reno_exit');
  await waitIdle(page);
  await panel(page).screenshot({ path: join(ARTIFACTS, 'practice-summary-1280.png') });
  const axe = await new AxeBuilder({ page }).include('.practice-panel').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  // The whole run is shown again.
  await expect(page.getByTestId('summary')).toBeVisible();
  await expect(page.locator('.rounds-group')).toBeVisible();
  // Each row replays the run from its decision, explained.
  const href = await summary.locator('tbody tr').nth(1).getByRole('link').getAttribute('href');
  expect(href).toMatch(/why=reno:\d+/);
  expect(href).not.toContain('practice=');
  const replay = await context.newPage();
  await openApp(replay, href ?? '');
  await expect(replay.locator('.why-current .decision')).toHaveAttribute('data-rule', 'recovery.reno_exit');
  await expect(replay.locator('.notice-box')).toHaveCount(0);
});

test('a hand-typed ?practice=predict opens the practice quietly (no notice about the missing v=)', async ({ page }) => {
  await openApp(page, '?practice=predict');
  await expect(panel(page)).toBeVisible();
  await expect(panel(page).locator('.practice-score')).toBeVisible();
  await expect(page.locator('.notice-box')).toHaveCount(0);
});

test('started from the page, in a comparison: one run at a time; the link keeps it; axe passes', async ({
  page,
  context,
}) => {
  await threeDropsLink(page);
  await page.getByRole('button', { name: 'Start practice' }).click();
  await expect(question(page)).toBeVisible();
  await expect.poll(() => page.url()).toContain('practice=predict');
  // Switch to NewReno: its own questions (the partial ACKs among them).
  await panel(page).locator('.practice-options summary').click();
  await panel(page).getByRole('radio', { name: 'NewReno' }).check();
  await expect(question(page).locator('h3')).toContainText('what does NewReno decide');
  await expect.poll(() => page.url()).toContain('practice=predict:newreno');
  const scan = async (sel: string) =>
    (await new AxeBuilder({ page }).include(sel).analyze()).violations.map(
      (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`,
    );
  expect(await scan('.practice-panel')).toEqual([]);
  await page.keyboard.press('1');
  await page.keyboard.press('c');
  await page.keyboard.type('7');
  await page.keyboard.press('Tab');
  await page.keyboard.type('7');
  await page.keyboard.press('Enter');
  await expect(panel(page).locator('.practice-reveal')).toBeVisible();
  expect(await scan('.practice-panel')).toEqual([]);
  // The keyboard help lists the practice's keys.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard' })).toContainText('Practice: next question');
  await page.keyboard.press('Escape');
  // A new page from the link is in the same practice, at its first question.
  const other = await context.newPage();
  await openApp(other, page.url().slice(page.url().indexOf('?')));
  await expect(other.locator('.practice-question h3')).toContainText('Question 1 of');
  await expect(other.locator('.practice-question h3')).toContainText('NewReno');
  // Ending it shows everything again and leaves the link.
  await panel(page).getByRole('button', { name: 'End practice' }).click();
  await expect(page.locator('.practice-panel')).toHaveCount(0);
  await expect(page.getByTestId('summary')).toBeVisible();
  await expect.poll(() => page.url()).not.toContain('practice=');
});

for (const [width, height] of [
  [1920, 1080],
  [1280, 800],
  [390, 844],
] as const) {
  test(`screenshots of the practice at ${width} px`, async ({ page }) => {
    const link = await threeDropsLink(page, width, height);
    await openApp(page, `${link}&practice=predict:reno`);
    await expect(question(page)).toBeVisible();
    await waitIdle(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    // Touch targets: every choice, field and button at least 44 px high.
    const heights = await panel(page)
      .locator('.practice-choice, input[type="text"], select, button')
      .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height));
    expect(Math.min(...heights)).toBeGreaterThanOrEqual(43.5);
    await page.screenshot({ path: join(ARTIFACTS, `practice-question-${width}.png`), fullPage: false });
    await page.keyboard.press('2');
    await page.keyboard.press('c');
    await page.keyboard.type('7');
    await page.keyboard.press('Tab');
    await page.keyboard.type('7');
    await page.keyboard.press('Enter');
    await expect(panel(page).locator('.practice-reveal .decision').first()).toBeVisible();
    await waitIdle(page);
    await page.screenshot({ path: join(ARTIFACTS, `practice-reveal-${width}.png`), fullPage: false });
    await panel(page).screenshot({ path: join(ARTIFACTS, `practice-panel-${width}.png`) });
  });
}
