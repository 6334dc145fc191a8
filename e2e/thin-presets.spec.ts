// The five thin-stream presets (Linux 3.15-like, Linux 3.18-like and FreeBSD 10-like senders;
// source 004's figures 2–7) in real Chromium against the built site: each opens from the
// preset menu and runs without an error; the CDF panels and the write timeline are drawn;
// the summary has its thin-stream rows with numbers; the note under the algorithm picker
// names the controls a profile's run does not use; the CDFs' logarithmic x axis, its link
// key and its value cursor; screenshots at 1280 and 390 px.
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import {
  ARTIFACTS,
  comparisons,
  expect,
  expectCanvasesDrawn,
  expectLinkReproduces,
  openApp,
  summaryText,
  TABLES,
  test,
  waitNewComparison,
} from './fixtures';

const THIN = ['thin-50b-10ms', 'thin-50b-20ms', 'thin-50b-50ms', 'thin-20b-10ms', 'thin-20b-1ms'];
const PROFILES = ['linux_3_15', 'linux_3_18', 'freebsd_10'];
const LABEL = new Map(TABLES.catalogue.map((e) => [e.name, e.label]));

/** A quick page to start from (one algorithm, one second). */
const START = '?v=3&alg=newreno&duration=1';

/** Loads a preset from the menu and waits for its comparison to be drawn. */
async function openPreset(page: Page, name: string) {
  await openApp(page, START);
  const n = await comparisons(page);
  await page.getByLabel('Preset').selectOption(name);
  await waitNewComparison(page, n);
  await expect.poll(() => page.url()).toContain(`lesson=${name}`);
}

/** The summary's column heads (algorithm labels, in order) and one row's cells. */
async function summaryColumns(page: Page, row: string): Promise<Map<string, string>> {
  const table = page.getByRole('table', { name: 'Summary, one column per algorithm' });
  const heads = (await table.locator('thead th').allInnerTexts()).slice(1).map((t) => t.trim());
  const cells = await table
    .getByRole('row', { name: new RegExp(`^${row}`) })
    .getByRole('cell')
    .allInnerTexts();
  expect(cells).toHaveLength(heads.length);
  return new Map(heads.map((h, i) => [h, cells[i] ?? '']));
}

/** Expects every canvas matching `selector` to have data drawn: coloured pixels, or pixels
 *  darker than the grid and the frame (a grey algorithm's line is data too). */
const expectDrawn = (page: Page, selector: string) => expectCanvasesDrawn(page, selector, { darkBelow: 120 });

/** The tick labels of a panel's x axis (SVG text). */
const xTicks = (page: Page, plot: string) =>
  page.locator(`figure[data-plot="${plot}"] g.x-axis .tick text`).evaluateAll((ts) => ts.map((t) => t.textContent));

const note = (page: Page) => page.getByRole('region', { name: 'Settings an algorithm brings with it' });

for (const name of THIN) {
  test(`${name}: runs, CDFs and write timeline drawn, thin-stream summary rows, the profile note`, async ({ page }) => {
    expect(TABLES.presets.find((p) => p.name === name)?.lesson?.compare).toEqual(PROFILES);
    await openPreset(page, name);
    // No notice (nothing refused, no run failed), every run done.
    await expect(page.locator('.notice-box')).toHaveCount(0);
    const summary = page.getByTestId('summary');
    await expect(summary).not.toContainText(/error|not run|…/);
    // The four CDF panels and a write timeline per algorithm, with data drawn.
    await expect(page.locator('figure.cdf-plot')).toHaveCount(4);
    await expect(page.locator('figure[data-plot^="writes-"]')).toHaveCount(PROFILES.length);
    await expectDrawn(page, 'figure.cdf-plot canvas');
    await expectDrawn(page, 'figure[data-plot^="writes-"] canvas');
    // The summary: packets, mean payload and the ITT / sojourn / latency percentiles, as numbers.
    for (const row of ['Packets sent', 'Mean payload', 'ITT p50', 'Sojourn p50', 'Latency p50']) {
      const cells = await summaryColumns(page, row);
      expect([...cells.keys()]).toEqual(PROFILES.map((p) => LABEL.get(p)));
      for (const [alg, text] of cells) {
        const numbers = text.split('·').map((t) => Number(t.trim()));
        expect(numbers.length, `${row} of ${alg}: ${text}`).toBe(row.includes('p50') ? 3 : 1);
        for (const x of numbers) expect(Number.isFinite(x), `${row} of ${alg}: ${text}`).toBe(true);
      }
    }
    const packets = await summaryColumns(page, 'Packets sent');
    for (const text of packets.values()) expect(Number(text)).toBeGreaterThan(100);
    if (name === 'thin-20b-10ms') {
      // Segment- vs byte-based cwnd: FreeBSD sends every write, Linux 3.15 holds some back,
      // Linux 3.18 most (the lesson's ordering).
      const [l15, l18, bsd] = PROFILES.map((p) => Number(packets.get(LABEL.get(p) ?? '')));
      expect(bsd).toBeGreaterThan(l15 ?? Infinity);
      expect(l15).toBeGreaterThan(l18 ?? Infinity);
    }

    // The preset's controls hold the schema's values (flow 0 renamed to NewReno clears Linux
    // 3.15's, as the engine renames a flow), so every profile lists its own.
    const box = note(page);
    await expect(box).toBeVisible();
    await expect(box.locator('.profile-group')).toHaveCount(2);
    await expect(box).toContainText('Linux 3.15-like and Linux 3.18-like run with their own settings:');
    await expect(box).toContainText('FreeBSD 10-like runs with its own settings:');
    await expect(box).toContainText('Minimum RTO 30 ms (controls: 1000 ms)');
    await expect(box.getByText('Initial window 10 segments (controls: 2 segments)')).toHaveCount(2);
    // Move the initial window control to the profiles' 10: no profile lists it any more.
    await page.getByText(/All settings/).click();
    const iw = page.getByRole('textbox', { name: 'Initial window', exact: true });
    await expect(iw).toHaveValue('2');
    expect(page.url()).not.toContain('f0.tcp.initial_window');
    const n = await comparisons(page);
    await iw.fill('10');
    await iw.press('Enter');
    await waitNewComparison(page, n);
    await expect.poll(() => page.url()).toContain('f0.tcp.initial_window=10');
    await expect(box).not.toContainText('Initial window');
    await expect(box.locator('.profile-group')).toHaveCount(2);
    await expect(box).toContainText('Every setting not listed runs as the controls set it.');
    await expect(page.locator('.notice-box')).toHaveCount(0);
  });
}

/** The panel's canvas text (screen readers). */
const cdfLabel = (page: Page, kind: string) =>
  page.locator(`figure[data-plot="thin-${kind}"] canvas`).getAttribute('aria-label');

test('the CDFs’ logarithmic x axis: switch, link key, zeros at the start, value cursor; a link reproduces it', async ({
  page,
  context,
}) => {
  await openPreset(page, 'thin-20b-10ms');
  const linearLabel = await cdfLabel(page, 'sojourn');
  expect(linearLabel).not.toContain('logarithmic');
  const linearTicks = await xTicks(page, 'thin-latency');
  // A view change: nothing re-runs; the panels redraw and the link says so.
  const n = await comparisons(page);
  const log = page.getByRole('radio', { name: 'Logarithmic' });
  await log.check();
  await expect.poll(() => page.url()).toContain('cdfx=log');
  expect(await comparisons(page)).toBe(n);
  await expect(page.locator('.thin-caption')).toContainText('Logarithmic x axes: from the decade below');
  // The sojourn times include 0 (writes sent at once): drawn at the axis start, and said so.
  await expect.poll(() => cdfLabel(page, 'sojourn')).toMatch(/The x axis is logarithmic, [\d.]+ to [\d.]+ ms; values/);
  await expect.poll(() => cdfLabel(page, 'latency')).toMatch(/The x axis is logarithmic, [\d.]+ to [\d.]+ ms\.$/);
  // Log ticks on the latency axis (1, 2 and 5 per decade, or decades), ending in the unit on
  // a power of ten.
  const ticks = await xTicks(page, 'thin-latency');
  expect(ticks).not.toEqual(linearTicks);
  expect(ticks.at(-1)).toMatch(/^10+ ms$/);
  for (const t of ticks) expect(t ?? '').toMatch(/^(0\.0*)?[125]0*( ms)?$/);
  await expectDrawn(page, 'figure.cdf-plot canvas');
  // The value cursor works along the log axis: the end has every write; the start the
  // writes of 0 ms (and below the start), so more than none for sojourn.
  const sojourn = page.getByRole('group', { name: /Sojourn time of writes \(ms\) CDF: value cursor/ });
  const readout = page.locator('figure[data-plot="thin-sojourn"] .readout');
  await sojourn.focus();
  await page.keyboard.press('End');
  for (const p of PROFILES) await expect(readout).toContainText(`${LABEL.get(p)} 100 %`);
  await page.keyboard.press('Home');
  await expect(readout).toContainText(/≤ 0\.0*1 ms/);
  const share = Number(/FreeBSD 10-like ([\d.]+) %/.exec((await readout.innerText()).replace(/\s+/g, ' '))?.[1]);
  expect(share).toBeGreaterThan(0);
  // Arrow steps move by a constant factor: the value after one step right is 10^(span/100) × the start.
  await page.keyboard.press('ArrowRight');
  const head = (await readout.locator('.readout-t').innerText()).trim();
  expect(Number(/≤ ([\d.e-]+) ms/.exec(head)?.[1])).toBeGreaterThan(0);
  // The pointer too: the middle of the latency axis is the geometric middle of its ends.
  const [first, last] = [ticks[0], ticks.at(-1)].map((t) => Number.parseFloat(t ?? ''));
  const hit = page.getByRole('group', { name: /Latency of writes \(ms\) CDF: value cursor/ });
  const box = await hit.boundingBox();
  if (!box) throw new Error('no latency panel');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const hover = page.locator('figure[data-plot="thin-latency"] .readout .readout-t');
  await expect(hover).toContainText('≤ ');
  const middle = Number(/≤ ([\d.e-]+) ms/.exec(await hover.innerText())?.[1]);
  expect(Math.abs(Math.log10(middle / Math.sqrt((first ?? NaN) * (last ?? NaN))))).toBeLessThan(0.02);
  // A link with cdfx=log opens the same view: same summary, same CDF texts.
  const link = await page.locator('#share-url').inputValue();
  expect(link).toContain('cdfx=log');
  const labels = await page
    .locator('.cdf-plot canvas')
    .evaluateAll((cs) => cs.map((c) => c.getAttribute('aria-label')));
  await expectLinkReproduces(context, link, await summaryText(page));
  const other = context.pages().at(-1);
  if (!other) throw new Error('no second page');
  await expect(other.getByRole('radio', { name: 'Logarithmic' })).toBeChecked();
  await expect
    .poll(() => other.locator('.cdf-plot canvas').evaluateAll((cs) => cs.map((c) => c.getAttribute('aria-label'))))
    .toEqual(labels);
  // Back to linear: the link drops the key and the panels read as before.
  await page.getByRole('radio', { name: 'Linear' }).check();
  await expect.poll(() => page.url()).not.toContain('cdfx');
  await expect.poll(() => cdfLabel(page, 'sojourn')).toBe(linearLabel);
});

test('a bad cdfx value gets a notice naming the key and the allowed values; the page works', async ({ page }) => {
  await openApp(page, '?v=3&alg=linux_3_18&f0.app.kind=thin&duration=2&plots=writes,thin&cdfx=logarithmic');
  const box = page.locator('.notice-box');
  await expect(box).toContainText(
    'cdfx=logarithmic is not an x axis of the thin-stream CDFs (allowed: linear, log); using linear.',
  );
  await expect(page.getByRole('radio', { name: 'Linear' })).toBeChecked();
  await expect(page.locator('figure.cdf-plot')).toHaveCount(4);
  await expectDrawn(page, 'figure.cdf-plot canvas');
  // The profile note is there for a profile on the default controls, naming the initial window.
  await expect(note(page)).toContainText('Initial window 10 segments (controls: 2 segments)');
});

for (const [label, width, height, scale] of [
  ['1280', 1280, 900, 1],
  ['390', 390, 844, 2],
] as const) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height }, deviceScaleFactor: scale, hasTouch: width < 500 });

    test(`thin-20b-10ms with log CDF axes and the profile note: no sideways scroll, accessible, screenshots`, async ({
      page,
    }) => {
      await openPreset(page, 'thin-20b-10ms');
      // The initial window moved, so the note lists it for all three profiles.
      await page.getByText(/All settings/).click();
      const iw = page.getByRole('textbox', { name: 'Initial window', exact: true });
      const n = await comparisons(page);
      await iw.fill('4');
      await iw.press('Enter');
      await waitNewComparison(page, n);
      await page.getByText(/All settings/).click();
      await page.getByRole('radio', { name: 'Logarithmic' }).check();
      await expect.poll(() => page.url()).toContain('cdfx=log');
      await expect(note(page)).toContainText('Initial window 10 segments (controls: 4 segments)');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      // The note fits its panel (no clipped text).
      const fits = await note(page).evaluate((el) => el.scrollWidth <= el.clientWidth + 1);
      expect(fits).toBe(true);
      await page.screenshot({ path: join(ARTIFACTS, `thin-presets-${label}.png`) });
      await page.screenshot({ path: join(ARTIFACTS, `thin-presets-${label}-full.png`), fullPage: true });
      await page.locator('section.thin-plots').screenshot({ path: join(ARTIFACTS, `thin-presets-${label}-cdfs.png`) });
      await page.locator('section.algorithms').screenshot({ path: join(ARTIFACTS, `thin-presets-${label}-note.png`) });
      const scan = await new AxeBuilder({ page }).analyze();
      expect(
        scan.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`),
      ).toEqual([]);
    });
  });
}
