// The textbook round model beside the real run in the page, in real Chromium against the
// built site: textbook-reno's rounds view with the K&R model on (tb=kurose_ross) draws both
// lines and shows the engine's sentence where they part; the link round-trips; the exercise
// sheet in the K&R convention answers as `cwndlab textbook` counts (the expected values come
// from the engine's wasm here, never typed). Screenshots at 1280, 390 and 1920 px (and the K&R sheet at 1280) under
// e2e/artifacts: textbook-page-*.png.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import * as wasm from '../web/src/engine/pkg/cwndlab_wasm.js';
import { ARTIFACTS, expect, openApp, openSheetPanel, sheetPanel, test, waitIdle } from './fixtures';

const PKG = join(import.meta.dirname, '..', 'web', 'src', 'engine', 'pkg');
const PRESETS = (
  JSON.parse(readFileSync(join(PKG, 'tables.json'), 'utf8')) as {
    presets: { name: string; scenario: unknown }[];
  }
).presets;

interface Beside {
  short: string;
  rounds: { round: number; cwnd: number; ssthresh: number | null; rule: string }[];
  divergence: { round: number; why: string } | null;
  partings: { round: number; why: string }[];
}

/** The engine's model of textbook-reno's run in convention `name` (what `cwndlab textbook
 *  --losses-from textbook-reno --convention NAME` prints, as JSON). */
function engineBeside(name: string): { beside: Beside; scenarioJson: string } {
  wasm.initSync({ module: readFileSync(join(PKG, 'cwndlab_wasm_bg.wasm')) });
  const scenarioJson = JSON.stringify(PRESETS.find((p) => p.name === 'textbook-reno')?.scenario);
  return { beside: JSON.parse(wasm.textbook_beside_json(scenarioJson, name)) as Beside, scenarioJson };
}

/** Pixels of the textbook line's colour (#4b3a6b, within a small tolerance) on a canvas. */
async function textbookPixels(page: Page, selector: string): Promise<number> {
  return page.$eval(selector, (c) => {
    const canvas = c as HTMLCanvasElement;
    const ctx = canvas.getContext('2d');
    if (!ctx) return 0;
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    let n = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (
        Math.abs((data[i] ?? 0) - 75) < 14 &&
        Math.abs((data[i + 1] ?? 0) - 58) < 14 &&
        Math.abs((data[i + 2] ?? 0) - 107) < 14
      )
        n += 1;
    }
    return n;
  });
}

const QUERY = '?preset=textbook-reno&plots=window,rounds&tb=kurose_ross';
const CANVAS = 'figure[data-plot="rounds-reno"] canvas';

test('textbook-reno: the K&R model beside the per-packet rounds, the engine’s sentence, the link kept', async ({
  page,
  context,
}) => {
  const { beside } = engineBeside('kurose_ross');
  await openApp(page, QUERY);
  const fig = page.locator('figure[data-plot="rounds-reno"]');
  await expect(fig).toBeVisible();
  // Both lines: the canvas says so (per-packet rounds, then the dashed model with its
  // numbers), and the model's colour is on it.
  const canvas = fig.locator('canvas');
  await expect(canvas).toHaveAttribute('aria-label', /Reno: \d+ rounds, largest cwnd/);
  await expect(canvas).toHaveAttribute('aria-label', /Dashed: textbook \(K&R\), the textbook round model/);
  const first = beside.rounds
    .slice(0, 8)
    .map((r) => r.cwnd)
    .join(', ');
  await expect
    .poll(async () => (await canvas.getAttribute('aria-label')) ?? '')
    .toContain(`(Kurose & Ross), cwnd ${first}, `);
  await expect.poll(() => textbookPixels(page, CANVAS)).toBeGreaterThan(200);
  // The engine's sentence where they part, as the engine writes it.
  expect(beside.divergence).not.toBeNull();
  await expect(page.locator('.textbook-divergence')).toHaveText(beside.divergence?.why ?? '');
  await expect(page.locator('.textbook-legend')).toContainText('textbook (K&R)');
  // Where they part again: the K&R rule (ssthresh + 3) among them, each the engine's sentence.
  const later = beside.partings.slice(1).map((p) => p.why);
  expect(later.some((w) => w.includes('ssthresh + 3'))).toBe(true);
  await page.locator('.textbook-partings summary').click();
  await expect(page.locator('.textbook-partings li')).toHaveText(later);
  // The link keeps the model; a new page opens the same view.
  await expect.poll(() => page.url()).toContain('tb=kurose_ross');
  const other = await context.newPage();
  await openApp(other, page.url().slice(page.url().indexOf('?')));
  await expect(other.locator('.textbook-divergence')).toHaveText(beside.divergence?.why ?? '');
  await expect(other.getByLabel('Textbook model')).toHaveValue('kurose_ross');
  await other.close();
  // Off: no dashed line, and the key leaves the link.
  await page.getByLabel('Textbook model').selectOption('');
  await expect.poll(() => page.url()).not.toContain('tb=');
  await expect(page.locator('.textbook-divergence')).toHaveCount(0);
  await expect.poll(() => textbookPixels(page, CANVAS)).toBeLessThan(20);
  // RFC 5681: the engine's other sentence.
  await page.getByLabel('Textbook model').selectOption('rfc5681');
  await expect(page.locator('.textbook-divergence')).toHaveText(engineBeside('rfc5681').beside.divergence?.why ?? '');
});

test('the exercise sheet in the K&R convention answers as `cwndlab textbook` counts', async ({ page }) => {
  const { beside } = engineBeside('kurose_ross');
  await openApp(page, '?preset=textbook-reno');
  const panel = await openSheetPanel(page);
  await panel.getByLabel('Model').selectOption('kurose_ross');
  await panel.getByRole('button', { name: 'Make sheet' }).click();
  const list = sheetPanel(page).locator('.sheet-screen .sheet-question > p');
  await expect(list.first()).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => page.url()).toContain('tbsheet=kurose_ross');
  const asked = await list.allInnerTexts();
  // "What is the value of cwnd at transmission round N?": the model's round N.
  const q = asked.find((t) => /cwnd at transmission round \d+/.test(t));
  expect(q, asked.join('\n')).toBeDefined();
  const n = Number(/round (\d+)/.exec(q ?? '')?.[1]);
  const want = beside.rounds.find((r) => r.round === n)?.cwnd;
  expect(want).toBeDefined();
  await sheetPanel(page).getByText('Answer key', { exact: true }).click();
  const key = await sheetPanel(page).locator('.sheet-key').innerText();
  expect(key).toContain(`${want} segment`);
  // The answer cites the convention's rule.
  expect(key).toContain('(Kurose & Ross)');
  expect(key).toMatch(/textbook\./);
  await sheetPanel(page).screenshot({ path: join(ARTIFACTS, 'textbook-page-sheet-1280.png') });
});

for (const width of [1280, 390, 1920]) {
  test(`screenshot of the rounds view with the textbook model at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await openApp(page, QUERY);
    await waitIdle(page);
    const group = page.locator('.rounds-group');
    await expect(page.locator('.textbook-divergence')).toBeVisible({ timeout: 30_000 });
    await expect.poll(() => textbookPixels(page, CANVAS)).toBeGreaterThan(100);
    await page.locator('.textbook-partings summary').click();
    await group.scrollIntoViewIfNeeded();
    await group.screenshot({ path: join(ARTIFACTS, `textbook-page-${width}.png`) });
  });
}
