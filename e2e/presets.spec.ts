// Presets by title and family, a link that keeps the preset and its lesson, and the
// preset's focus first (issue 43): Fall & Floyd's Reno three-drops preset is loaded from the
// menu by its title, Old Tahoe and Tahoe are added (four runs, Old Tahoe first), the link is
// opened in a new page, and the Why panel's "Step to the first timeout" lands at Reno's
// timeout (3.281080 s, `cwndlab explain --preset fall-floyd-reno-3drops --kind timeout`),
// not at Old Tahoe's (2.898920 s).
import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { comparisons, expect, openApp, test, waitNewComparison } from './fixtures';

const TITLE = 'Reno against NewReno: three drops in one window';
const NAME = 'fall-floyd-reno-3drops';
const SHOTS = process.env.PRESET_SHOTS ?? '';

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

test('a preset chosen by its title keeps its lesson, steps and focus through a link', async ({ page, context }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openApp(page, '?v=4&alg=newreno');
  const menu = page.getByLabel('Preset');
  // Grouped by family, listed by title.
  await expect(menu.locator('optgroup[label="Fall & Floyd 1996: the four variants under drops"]')).toHaveCount(1);
  let n = await comparisons(page);
  await menu.selectOption({ label: TITLE });
  await waitNewComparison(page, n);
  await expect(page.locator('.preset-description')).toContainText(NAME);
  await expect(page.locator('.lesson .lesson-name')).toHaveText(TITLE);
  await shot(page, 'menu-loaded-1280');
  // Old Tahoe and Tahoe join: four runs, Old Tahoe first.
  for (const name of ['Old Tahoe', 'Tahoe']) {
    n = await comparisons(page);
    await page.getByRole('checkbox', { name, exact: true }).check();
    await waitNewComparison(page, n);
  }
  await expect.poll(() => page.url()).toContain('alg=old_tahoe,tahoe,reno,newreno');
  await expect.poll(() => page.url()).toContain(`preset=${NAME}`);
  const link = page.url();

  // The link, in a new page: the preset, its lesson, its steps, its focus.
  const again = await context.newPage();
  await again.setViewportSize({ width: 1280, height: 800 });
  await openApp(again, link.slice(link.indexOf('?')));
  await expect(again.getByLabel('Preset')).toHaveValue(NAME);
  await expect(again.locator('.preset-description')).toContainText(NAME);
  await expect(again.locator('.lesson')).toContainText('Question for the class');
  await expect(again.locator('.lesson .lesson-name')).toHaveText(TITLE);
  await expect(again.locator('.lesson-note')).toHaveCount(0);
  const why = again.locator('.explain-panel');
  await why.getByRole('button', { name: 'Explain this run' }).click();
  await expect(why.getByRole('radio', { name: 'Reno', exact: true })).toBeChecked();
  await why.getByRole('button', { name: 'Step to the first timeout' }).click();
  const card = why.locator('.why-current .decision');
  await expect(card).toHaveAttribute('data-rule', 'timeout.expire');
  await expect(card).toContainText('t = 3.281 s');
  await expect(why.locator('.why-count')).toContainText('decisions of Reno');
  await expect(why.getByRole('radio', { name: 'Reno', exact: true })).toBeChecked();
  // Reno's state machine comes first.
  await expect(why.locator('.machine').first()).toHaveAttribute('data-run', 'reno');
  await expect.poll(() => again.url()).toContain('why=reno:');
  await shot(again, 'lesson-linked-1280');

  // A slider moved: still the preset, named as changed, in the menu, the lesson and the link.
  const box = again.getByRole('textbox', { name: 'Duration in s, exact value' });
  n = await comparisons(again);
  await box.fill('8');
  await box.press('Enter');
  await waitNewComparison(again, n);
  await expect(again.locator('.preset-changed')).toContainText('Changed from the preset: Duration');
  await expect(again.locator('.lesson-note')).toContainText('has changed since the preset was loaded');
  await expect.poll(() => again.url()).toContain(`preset=${NAME}`);
  await again.evaluate(() => window.scrollTo(0, 0));
  await shot(again, 'changed-1280');
  // Loading it again from the note: the preset, unchanged.
  n = await comparisons(again);
  await again.locator('.preset-changed').getByRole('button', { name: 'Load the preset again' }).click();
  await waitNewComparison(again, n);
  await expect(again.locator('.preset-changed')).toHaveCount(0);
  await expect(again.locator('.lesson-note')).toHaveCount(0);
});

test('a bare preset link opens the preset; the lesson box is there on a phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openApp(page, `?v=4&preset=${NAME}`);
  await expect(page.getByLabel('Preset')).toHaveValue(NAME);
  await expect(page.locator('.lesson .lesson-name')).toHaveText(TITLE);
  await expect.poll(() => page.url()).toContain('alg=reno,newreno');
  await shot(page, 'bare-link-390');
  await page.locator('.lesson > summary').click();
  await page.locator('.lesson').scrollIntoViewIfNeeded();
  await shot(page, 'lesson-open-390');
});
