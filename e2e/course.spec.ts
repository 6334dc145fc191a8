// The course path (issue 41), with the keyboard alone: Tab to the course bar, Enter starts
// the course, and from the first lesson to the last each is marked done (Space on "Done")
// and Next (Enter) opens the following one; each opens its preset (the Preset menu shows it,
// with its lesson). The progress survives a reload (localStorage), a lesson's link
// (`course=<id>`) opens it, an unknown id names the allowed ones, and at 390 px the bar is
// reachable. Screenshots at 390, 1280 and 1920 px go to e2e/artifacts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { ARTIFACTS, expect, openApp, test } from './fixtures';

const TABLES = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', 'web', 'src', 'engine', 'pkg', 'tables.json'), 'utf8'),
) as {
  course: { id: string; title: string; preset: string }[];
  presets: { name: string; title: string }[];
};
const COURSE = TABLES.course;
const N = COURSE.length;
const titleOf = (preset: string) => TABLES.presets.find((p) => p.name === preset)?.title ?? '';

/** Presses Tab until the focused element is `name`'s (at most `max` presses). */
async function tabTo(page: Page, accessibleName: RegExp, max = 60): Promise<void> {
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press('Tab');
    const label = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return el ? (el.getAttribute('aria-label') ?? el.textContent ?? '') : '';
    });
    if (accessibleName.test(label)) return;
  }
  throw new Error(`Tab never reached ${accessibleName}`);
}

const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function focusVisible(page: Page): Promise<boolean> {
  return page.evaluate(() => document.activeElement?.matches(':focus-visible') ?? false);
}

test('the course from its first lesson to its last with the keyboard alone, progress kept', async ({ page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await openApp(page, '?v=4&alg=newreno');
  const bar = page.getByRole('navigation', { name: 'Course' });
  await expect(bar.locator('.course-position')).toHaveText(`Course: ${N} lessons`);
  await expect(bar.locator('.course-count')).toHaveText(`0/${N} done`);
  await page.screenshot({ path: join(ARTIFACTS, 'course-start-1280.png') });

  await tabTo(page, /^Start the course/);
  expect(await focusVisible(page)).toBe(true);
  await page.keyboard.press('Enter');
  for (const [i, stop] of COURSE.entries()) {
    await expect(bar.locator('.course-position')).toHaveText(`Lesson ${i + 1} of ${N}`);
    await expect(page.getByLabel('Preset')).toHaveValue(stop.preset);
    await expect(page.locator('.lesson .lesson-name')).toHaveText(titleOf(stop.preset));
    await expect(bar.locator('.course-list > summary')).toHaveAttribute(
      'aria-label',
      new RegExp(`, ${escapeRe(stop.title)};`),
    );
    // Back to "Done", Space marks it, forward to Next.
    await page.keyboard.press('Shift+Tab');
    await expect(page.locator(':focus')).toHaveAttribute('aria-label', `Lesson ${i + 1}, ${stop.title}: done`);
    expect(await focusVisible(page)).toBe(true);
    await page.keyboard.press('Space');
    await expect(bar.locator('.course-count')).toHaveText(`${i + 1}/${N} done`);
    await page.keyboard.press('Tab');
    const next = COURSE[i + 1];
    await expect(page.locator(':focus')).toHaveAttribute(
      'aria-label',
      next ? `Next lesson: ${next.title}` : 'Next lesson',
    );
    if (i === 6) await page.screenshot({ path: join(ARTIFACTS, 'course-lesson7-1280.png') });
    await page.keyboard.press('Enter');
  }
  // Past the last lesson Next does nothing, and keeps the focus.
  await expect(bar.locator('.course-position')).toHaveText(`Lesson ${N} of ${N}`);
  await expect(page.locator(':focus')).toHaveAttribute('aria-disabled', 'true');

  // The list, opened from the keyboard: every lesson done, the last one current.
  await page.keyboard.press('Shift+Tab'); // Done
  await page.keyboard.press('Shift+Tab'); // the list's summary
  await page.keyboard.press('Enter');
  const list = bar.locator('.course-popup');
  await expect(list).toBeVisible();
  await expect(list.getByRole('link', { name: /, done$/ })).toHaveCount(N);
  await expect(list.locator('a[aria-current="step"]')).toHaveAttribute('href', `?course=${COURSE[N - 1]?.id}`);
  await page.screenshot({ path: join(ARTIFACTS, 'course-list-1280.png') });

  // Progress stays across a reload.
  await page.reload();
  await expect(page.getByLabel('Preset')).toHaveValue(COURSE[N - 1]?.preset ?? '');
  await expect(bar.locator('.course-count')).toHaveText(`${N}/${N} done`);
  await expect(bar.locator('.course-position')).toHaveText(`Lesson ${N} of ${N}`);
  // A lesson chosen from the list with the keyboard: Tab into it, Enter on a link.
  await tabTo(page, /Show the lessons$/);
  await page.keyboard.press('Enter');
  await tabTo(page, /Selective acknowledgements, done$/);
  expect(await focusVisible(page)).toBe(true);
  await page.keyboard.press('Enter');
  const sack = COURSE.find((s) => s.id === 'sack');
  await expect(page.getByLabel('Preset')).toHaveValue(sack?.preset ?? '');
  await expect(list).toBeHidden();
});

test('a lesson’s link opens it; an unknown one names the allowed ids', async ({ page }) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  const stop = COURSE[3];
  if (!stop) throw new Error('no fourth stop');
  await openApp(page, `?course=${stop.id}`);
  const bar = page.getByRole('navigation', { name: 'Course' });
  await expect(page.getByLabel('Preset')).toHaveValue(stop.preset);
  await expect(bar.locator('.course-position')).toHaveText(`Lesson 4 of ${N}`);
  await expect(page.locator('.lesson .lesson-name')).toHaveText(titleOf(stop.preset));
  await page.screenshot({ path: join(ARTIFACTS, 'course-link-1920.png') });
  await bar.locator('.course-list > summary').click();
  await page.screenshot({ path: join(ARTIFACTS, 'course-list-1920.png') });

  await openApp(page, '?v=4&alg=reno&course=slowstart');
  const notice = page.locator('.notices');
  await expect(notice).toContainText('course=slowstart is not a lesson of the course');
  for (const s of COURSE) await expect(notice).toContainText(s.id);
  await expect(bar.locator('.course-position')).toHaveText(`Course: ${N} lessons`);
  await expect(page.getByTestId('summary')).toContainText('Reno');
});

test('at 390 px the course bar is reachable and usable from the keyboard', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openApp(page, '?v=4&alg=newreno');
  await page.screenshot({ path: join(ARTIFACTS, 'course-start-390.png') });
  await tabTo(page, /^Start the course/);
  const start = page.locator(':focus');
  await expect(start).toBeInViewport();
  await page.keyboard.press('Enter');
  const bar = page.getByRole('navigation', { name: 'Course' });
  await expect(bar.locator('.course-position')).toHaveText(`Lesson 1 of ${N}`);
  await expect(bar.locator('.course-position')).toHaveText(`1 of ${N}`, { useInnerText: true });
  await expect(page.getByLabel('Preset')).toHaveValue(COURSE[0]?.preset ?? '');
  // One row: Previous, the summary, Done and Next side by side.
  const middles = await bar.evaluate((nav) =>
    [...nav.children].map((c) => {
      const r = c.getBoundingClientRect();
      return r.top + r.height / 2;
    }),
  );
  expect(Math.max(...middles) - Math.min(...middles)).toBeLessThan(4);
  for (const name of ['Previous lesson', `Next lesson: ${COURSE[1]?.title}`]) {
    await expect(bar.getByRole('button', { name })).toBeInViewport();
  }
  await expect(bar.getByRole('checkbox')).toBeInViewport();
  const box = await bar.boundingBox();
  expect(box && box.x + box.width).toBeLessThanOrEqual(390);
  await page.screenshot({ path: join(ARTIFACTS, 'course-lesson1-390.png') });
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Enter');
  await expect(bar.locator('.course-popup')).toBeVisible();
  const popup = await bar.locator('.course-popup').boundingBox();
  expect(popup && popup.x).toBeGreaterThanOrEqual(0);
  expect(popup && popup.x + popup.width).toBeLessThanOrEqual(390);
  await page.screenshot({ path: join(ARTIFACTS, 'course-list-390.png') });
});

test('revealing an answer in a lesson’s practice marks the lesson done; axe finds nothing in the bar', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const stop = COURSE.find((s) => s.id === 'reno-newreno');
  if (!stop) throw new Error('no reno-newreno stop');
  await openApp(page, `?course=${stop.id}&practice=predict`);
  const bar = page.getByRole('navigation', { name: 'Course' });
  await expect(page.getByLabel('Preset')).toHaveValue(stop.preset);
  await expect(bar.locator('.course-count')).toHaveText(`0/${N} done`);
  const practice = page.locator('.practice-panel');
  await expect(practice.locator('.practice-question')).toBeVisible();
  // The practice's own keys: an event, cwnd, ssthresh, Enter reveals.
  await page.keyboard.press('1');
  await page.keyboard.press('c');
  await page.keyboard.type('7');
  await page.keyboard.press('Tab');
  await page.keyboard.type('7');
  await page.keyboard.press('Enter');
  await expect(practice.locator('.practice-reveal')).toBeVisible();
  await expect(bar.locator('.course-count')).toHaveText(`1/${N} done`);
  await expect(bar.getByRole('checkbox')).toBeChecked();
  await page.reload();
  await expect(bar.locator('.course-count')).toHaveText(`1/${N} done`);

  await bar.locator('.course-list > summary').click();
  const violations = (await new AxeBuilder({ page }).include('nav.course').analyze()).violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`,
  );
  expect(violations).toEqual([]);
});
