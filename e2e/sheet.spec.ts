// Exercise sheets and the theory lines in real Chromium against the built site: a sheet of
// textbook-reno (a Reno run with a fast retransmit and a timeout) made in the page, printed
// to PDF (questions on page 1, the answer key starting a later page; the pages as PNG in
// e2e/artifacts to look at), its link making the same sheet again, a refused count as a
// notice; the Mathis and Padhye lines on bbr-random-loss's throughput plot (a screenshot at
// 1280 px to look at).
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import {
  ARTIFACTS,
  comparisons,
  expect,
  openApp,
  openSheetPanel,
  sheetPanel,
  test,
  waitIdle,
  waitNewComparison,
} from './fixtures';

async function openPreset(page: Page, name: string): Promise<void> {
  await openApp(page, '?v=4&alg=newreno');
  const n = await comparisons(page);
  await page.getByLabel('Preset').selectOption(name);
  await waitNewComparison(page, n);
}

/** Opens the Exercise sheet control and makes sheet `number` with `count` questions. */
async function makeSheet(page: Page, number: number, count: number): Promise<void> {
  const panel = await openSheetPanel(page);
  await panel.getByLabel('Sheet number').fill(String(number));
  await panel.getByLabel('Questions').fill(String(count));
  await panel.getByRole('button', { name: 'Make sheet' }).click();
}

/** The questions shown on screen. */
async function questions(page: Page): Promise<string[]> {
  const list = sheetPanel(page).locator('.sheet-screen .sheet-question > p');
  await expect(list.first()).toBeVisible({ timeout: 30_000 });
  return list.allInnerTexts();
}

test('a sheet of textbook-reno: printed with the answer key on a later page, and its link makes it again', async ({
  page,
}) => {
  await openPreset(page, 'textbook-reno');
  await makeSheet(page, 3, 6);
  const asked = await questions(page);
  expect(asked).toHaveLength(6);
  expect(page.url()).toContain('sheet=3');
  // A question with a time moves the cursor there.
  const at = sheetPanel(page)
    .getByRole('button', { name: /^Show at/ })
    .first();
  // Times as a student writes them: to the millisecond (the cursor goes to the exact time).
  const t = Number(/^Show at (\d+(?:\.\d{1,3})?) s$/.exec((await at.innerText()) ?? '')?.[1]);
  expect(t).toBeGreaterThan(0);
  await at.click();
  await expect.poll(() => Math.abs(Number(new URL(page.url()).searchParams.get('t') ?? NaN) - t)).toBeLessThan(5e-4);
  for (const q of asked) expect(q).not.toMatch(/\d\.\d{4,} s/);
  await expect(sheetPanel(page).locator('.sheet-scenario')).toContainText(/^Reno · /);

  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('.print-plot').first()).toBeAttached();
  const pdf = join(ARTIFACTS, 'sheet-print.pdf');
  await page.pdf({ path: pdf, format: 'A4', printBackground: true });
  await page.emulateMedia({ media: 'screen' });
  const pagesText = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' }).split('\f');
  const first = pagesText[0] ?? '';
  expect(first).toContain('Exercise sheet 3: textbook-reno');
  // No long link: a short reference (the preset and the sheet number); no sweep box.
  const one = first.replace(/\s+/g, ' ');
  expect(one).toContain('preset textbook-reno · Exercise sheet 3 (6 questions)');
  expect(one).not.toContain('?v=');
  expect(one).not.toContain('alg=');
  expect(pagesText.join('')).not.toContain('Sweep a parameter');
  for (const q of asked) expect(first.replace(/\s+/g, ' ')).toContain(q.slice(0, 40));
  expect(first).not.toContain('Answer key');
  const keyPage = pagesText.findIndex((p) => p.includes('Answer key'));
  expect(keyPage).toBeGreaterThan(0);
  // "Answer key" starts its page.
  expect((pagesText[keyPage] ?? '').trimStart().startsWith('Answer key')).toBe(true);
  expect(pagesText.join('')).toContain('RFC 5681');
  for (const control of ['Make sheet', 'Print sheet', 'Export and print'])
    expect(pagesText.join('')).not.toContain(control);
  const stem = join(ARTIFACTS, 'sheet-print');
  for (const f of readdirSync(ARTIFACTS))
    if (f.startsWith('sheet-print-') && f.endsWith('.png')) rmSync(join(ARTIFACTS, f));
  execFileSync('pdftoppm', ['-png', '-r', '60', pdf, stem]);

  // The link makes the same sheet.
  const link = page.url();
  await page.goto(link);
  await waitIdle(page);
  expect(await questions(page)).toEqual(asked);
});

test('a count the engine refuses is a notice; the page keeps working', async ({ page }) => {
  await openPreset(page, 'textbook-reno');
  await makeSheet(page, 1, 30);
  await expect(page.getByText('Exercise sheet not made: questions: 30 is not from 1 to 20')).toBeVisible();
  await makeSheet(page, 1, 2);
  expect(await questions(page)).toHaveLength(2);
});

test('the theory lines on bbr-random-loss’s throughput plot', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 1000 });
  await openPreset(page, 'bbr-random-loss');
  const url = new URL(page.url());
  url.searchParams.set('theory', '1');
  const plots = (url.searchParams.get('plots') ?? 'window,seq,queue').split(',');
  if (!plots.includes('throughput')) url.searchParams.set('plots', [...plots, 'throughput'].join(','));
  await page.goto(url.toString());
  await waitIdle(page);
  await expect(page.getByLabel('Theory (Mathis, Padhye)')).toBeChecked();
  const note = page.getByRole('note', { name: 'Theory' });
  await expect(note).toContainText('Mathis et al. 3.1 Mbit/s');
  await expect(note).toContainText('p = 0.01');
  await expect(note).toContainText('Padhye et al.');
  const fig = page.locator('figure.plot', { hasText: 'Throughput' }).first();
  await fig.scrollIntoViewIfNeeded();
  // The plots and the note under them.
  const top = (await fig.locator('xpath=..').boundingBox()) ?? { x: 0, y: 0, width: 0, height: 0 };
  await note.scrollIntoViewIfNeeded();
  const group = (await fig.locator('xpath=..').boundingBox()) ?? top;
  const bottom = (await note.boundingBox()) ?? group;
  await page.screenshot({
    path: join(ARTIFACTS, 'theory-lines-1280.png'),
    clip: { x: group.x, y: group.y, width: group.width, height: bottom.y + bottom.height - group.y + 4 },
  });
  // Off again: the note goes.
  await page.getByLabel('Theory (Mathis, Padhye)').uncheck();
  await expect(note).toHaveCount(0);
});
