// The app in real Chromium against the built site.
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
  waitIdle,
  waitNewComparison,
} from './fixtures';

const CLASSROOM = 'cwv-classroom-onoff';
const HAS_CLASSROOM = TABLES.presets.some((p) => p.name === CLASSROOM);
/** Without the classroom preset, the same kind of scenario set up by hand: an on/off sender. */
const ONOFF = '&f0.app.kind=on_off&f0.app.write_size=100000&f0.app.write_interval=1.5&f0.app.off=0.5';

/** Opens the CWV classroom comparison of NewReno and NewReno + CWV, from the preset menu. */
async function openClassroom(page: Page) {
  if (!HAS_CLASSROOM) {
    await openApp(page, `?v=2&alg=newreno,newreno_cwv${ONOFF}`);
    return;
  }
  await openApp(page, '?v=2&alg=newreno');
  let n = await comparisons(page);
  await page.getByLabel('Preset').selectOption(CLASSROOM);
  await waitNewComparison(page, n);
  // Keep NewReno and NewReno + CWV: untick the lesson's other algorithms.
  for (const name of ['NewReno + restart', 'NewReno + new CWV']) {
    const box = page.getByRole('checkbox', { name, exact: true });
    if (!(await box.isChecked())) continue;
    n = await comparisons(page);
    await box.uncheck();
    await waitNewComparison(page, n);
  }
  await expect.poll(() => page.url()).toContain('alg=newreno,newreno_cwv&');
}

const KOMURO = 'br-tcp-komuro';

/** Opens the BR-TCP lesson on the paper's reservation network (NewReno and BR-TCP against
 *  100 Mbit/s of UDP), from the preset menu. */
async function openKomuro(page: Page) {
  await openApp(page, '?v=2&alg=newreno');
  const n = await comparisons(page);
  await page.getByLabel('Preset').selectOption(KOMURO);
  await waitNewComparison(page, n);
  await expect.poll(() => page.url()).toContain('alg=newreno,br_tcp&');
}

/** The mean rate the throughput plot of `alg` states for a class ("flow 0", "cross 0"), Mbit/s. */
async function meanRate(page: Page, alg: string, cls: string): Promise<number> {
  const canvas = page.locator(`figure[data-plot="throughput-${alg}"] canvas`);
  const pattern = new RegExp(`${cls}(?: \\([^)]*\\))? mean ([\\d.]+) Mbit/s`);
  // After a view change the title updates first; the sentence follows with the redraw.
  await expect(canvas).toHaveAttribute('aria-label', pattern);
  const label = (await canvas.getAttribute('aria-label')) ?? '';
  const m = pattern.exec(label);
  expect(m, `no mean for ${cls} in: ${label}`).not.toBeNull();
  return Number(m?.[1]);
}

/** The cells of one row of the summary (one column per algorithm). */
async function summaryRow(page: Page, label: string): Promise<string[]> {
  const table = page.getByRole('table', { name: 'Summary, one column per algorithm' });
  return table
    .getByRole('row', { name: new RegExp(`^${label}`) })
    .getByRole('cell')
    .allInnerTexts();
}

/** The brief's thin stream: 50-byte writes every 10 ms over a 150 ms path, NewReno. */
const THIN_LINK =
  '?v=3&alg=newreno&f0.app.kind=thin&f0.app.write_size=50&f0.app.write_interval=0.01' +
  '&network.bottleneck.delay=0.075&duration=10&plots=window,thin';
/** 20-byte writes every 10 ms, 2 % loss, a window in segments: NewReno against Linux 3.16's
 *  growth gate (custom), with the write timeline, overlaid. */
const THIN_LOSSY =
  '?v=3&alg=newreno,custom&f0.cc.growth_gate=linux_3_16&f0.cc.units=segments&f0.app.kind=thin' +
  '&f0.app.write_size=20&f0.app.write_interval=0.01&network.bottleneck.delay=0.075' +
  '&network.bottleneck.loss.model=bernoulli&network.bottleneck.loss.probability=0.02&duration=30' +
  '&plots=window,writes,thin';

/** What a CDF panel's screen-reader text says about a run: count, median, mean (payload). */
async function cdfFacts(page: Page, kind: string, label: string) {
  const text = (await page.locator(`figure[data-plot="thin-${kind}"] canvas`).getAttribute('aria-label')) ?? '';
  const m = new RegExp(`${label.replace(/[+]/g, '\\+')}: (\\d+) \\w+, median ([\\d.e-]+) (?:ms|B)`).exec(text);
  expect(m, `no median for ${label} in: ${text}`).not.toBeNull();
  const mean = /mean ([\d.e-]+) B/.exec(text.slice(text.indexOf(`${label}:`)));
  return { n: Number(m?.[1]), median: Number(m?.[2]), mean: Number(mean?.[1] ?? NaN), text };
}

/** The summary's 50th percentile (ms) of a thin-stream row, per algorithm column. */
async function summaryP50(page: Page, label: string): Promise<number[]> {
  return (await summaryRow(page, label)).map((cell) => Number(cell.split('·')[0]?.trim()));
}

/** `exact` (a CDF's median) agrees with `shown` (the summary's p50: a histogram bucket's
 *  lower bound, at most 0.2 % below the exact value, written with four significant digits). */
function expectSameMedian(exact: number, shown: number, what: string) {
  const rounding = shown === 0 ? 0 : 0.5 * 10 ** (Math.floor(Math.log10(Math.abs(shown))) - 3);
  expect(Math.abs(exact - shown), `${what}: CDF median ${exact}, summary p50 ${shown}`).toBeLessThanOrEqual(
    exact * (1 / 512) + rounding + 1e-9,
  );
}

/** Checks every CDF panel's median (ITT, sojourn, latency) and mean payload against the
 *  summary, for each algorithm compared. */
async function expectCdfsMatchSummary(page: Page, labels: string[], kinds = ['itt', 'sojourn', 'latency']) {
  const rows: Record<string, string> = {
    itt: 'ITT p50',
    sojourn: 'Sojourn p50',
    latency: 'Latency p50',
  };
  for (const kind of kinds) {
    const p50 = await summaryP50(page, rows[kind] ?? '');
    for (const [i, label] of labels.entries()) {
      const { median } = await cdfFacts(page, kind, label);
      expectSameMedian(median, p50[i] ?? NaN, `${kind} of ${label}`);
    }
  }
  const payload = await summaryRow(page, 'Mean payload');
  for (const [i, label] of labels.entries()) {
    const { mean } = await cdfFacts(page, 'payload', label);
    expect(Number((mean ?? NaN).toPrecision(4))).toBe(Number(payload[i]));
  }
}

async function expectPlotsDrawn(page: Page) {
  const plots = page.locator('figure.plot');
  const n = await plots.count();
  expect(n).toBeGreaterThan(0);
  // The plots in view are drawn first and the others in the next frames: wait for each.
  for (let i = 0; i < n; i += 1) {
    // Axes: ticks on both axes.
    await expect(plots.nth(i).locator('g.x-axis .tick').first()).toBeVisible();
    await expect.poll(() => plots.nth(i).locator('g.y-axis .tick').count()).toBeGreaterThan(1);
  }
  await expectCanvasesDrawn(page, 'figure.plot canvas', { count: n });
}

test('loads with no errors and draws every plot with axes and data', async ({ page, errors }) => {
  await openApp(page);
  await expect(page.getByRole('heading', { name: 'cwndlab' })).toBeVisible();
  // Default: four algorithms × three plot kinds as small multiples.
  await expect(page.locator('figure.plot')).toHaveCount(12);
  await expectPlotsDrawn(page);
  await expect(page.getByTestId('summary')).toContainText('NewReno');
  await expect(page.getByTestId('summary')).not.toContainText('…');
  expect(page.url()).toContain('?v=4&alg=old_tahoe,tahoe,reno,newreno');
  expect(errors).toEqual([]);
});

test('moving a slider re-runs the comparison and changes the summary and the link', async ({ page }) => {
  await openApp(page);
  const before = await summaryText(page);
  const n = await comparisons(page);
  const slider = page.getByRole('slider', { name: 'Bottleneck bandwidth' });
  await slider.focus();
  await page.keyboard.press('ArrowRight');
  await waitNewComparison(page, n);
  await expect.poll(() => summaryText(page)).not.toBe(before);
  await expect.poll(() => page.url()).toContain('network.bottleneck.bandwidth=2500000');
  await expect(page.getByRole('textbox', { name: 'Bottleneck bandwidth in Mbit/s, exact value' })).toHaveValue('2.5');
});

test('a focused slider’s next values are computed ahead: a step is answered from them, digests as a fresh page', async ({
  page,
  context,
}) => {
  await openApp(page, '?v=1&alg=reno,newreno');
  const slider = page.getByRole('slider', { name: 'Bottleneck bandwidth' });
  await slider.focus();
  // Both neighbours (2.5 and 1.5 Mbit/s) for both algorithms.
  await expect.poll(() => page.evaluate(() => window.__cwndlab?.aheadReady())).toBe(4);
  const n = await comparisons(page);
  await page.keyboard.press('ArrowRight');
  await waitNewComparison(page, n);
  await expect(page.getByTestId('status')).toContainText(
    /^2 runs computed in [\d.]+ ms on 2 workers, ahead of the key press;/,
  );
  await expect.poll(() => page.url()).toContain('network.bottleneck.bandwidth=2500000');
  const want = await summaryText(page);
  await expectLinkReproduces(context, page.url(), want);
  // Focus gone: nothing is held.
  await slider.blur();
  await expect.poll(() => page.evaluate(() => window.__cwndlab?.aheadReady())).toBe(0);
  // A pointer that focuses a slider drags it to values nobody can foresee: nothing ahead,
  // until a key is pressed on it.
  const buffer = page.getByRole('slider', { name: 'Bottleneck buffer' });
  // The Path group grew (the delay variation): bring the slider into view to click it.
  await buffer.scrollIntoViewIfNeeded();
  const box = await buffer.boundingBox();
  if (!box) throw new Error('no buffer slider');
  let m = await comparisons(page);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await waitNewComparison(page, m);
  await page.waitForTimeout(500);
  expect(await page.evaluate(() => window.__cwndlab?.aheadReady())).toBe(0);
  m = await comparisons(page);
  await page.keyboard.press('ArrowLeft');
  await waitNewComparison(page, m);
  await expect.poll(() => page.evaluate(() => window.__cwndlab?.aheadReady())).toBe(4);
});

/** Each plot's canvas as a PNG data URL, and whether its last draw copied a bitmap drawn ahead. */
function plotPixels(page: Page) {
  return page.$$eval('.plot-body', (roots) =>
    roots.map((r) => ({
      ahead: (r as HTMLElement).dataset.drawnAhead === 'true',
      pixels: r.querySelector('canvas')?.toDataURL() ?? '',
    })),
  );
}

test.describe('drawing ahead', () => {
  test('a focused slider’s next plots are drawn ahead: the step copies them, pixel for pixel what a fresh page draws', async ({
    page,
    context,
  }) => {
    // The default comparison: four algorithms, twelve plots, some out of view.
    await openApp(page);
    const slider = page.getByRole('slider', { name: 'Bottleneck bandwidth' });
    await slider.focus();
    const stats = () => page.evaluate(() => window.__cwndlab?.prerender());
    const drawnAhead = async () => {
      const s = await stats();
      return s && !s.pending ? s.ahead : 0;
    };
    /** A step by `key` whose plots on screen are copied from those drawn ahead, each the same
     *  pixels as the page draws for the same state (after a resize there and back) and as the
     *  step's link draws in a fresh page. */
    const stepCopies = async (key: string) => {
      const used = (await stats())?.used ?? 0;
      const n = await comparisons(page);
      const before = page.url();
      await page.keyboard.press(key);
      await waitNewComparison(page, n);
      const shown = await plotPixels(page);
      // Every plot, those out of view included (drawn in the frames after the step's: they
      // keep their bitmaps until then).
      const copied = shown.filter((c) => c.ahead).length;
      expect(copied).toBe(shown.length);
      expect((await stats())?.used).toBe(used + copied);
      // Once the next values are computed and drawn ahead (none of them this state), the page
      // draws this state again the ordinary way after a resize there and back.
      await expect.poll(() => page.evaluate(() => window.__cwndlab?.aheadReady())).toBe(8);
      await expect.poll(drawnAhead).toBeGreaterThan(2);
      const size = page.viewportSize() ?? { width: 1280, height: 900 };
      await page.setViewportSize({ ...size, width: size.width + 1 });
      // The plots hear of a resize in a ResizeObserver callback, which may come after the page
      // reads as idle: wait until every plot has drawn at the new width (none shows a bitmap
      // drawn ahead) before going back, or the way back lands first and changes nothing.
      const anyAhead = async () => (await plotPixels(page)).some((c) => c.ahead);
      await expect.poll(anyAhead, { timeout: 30_000 }).toBe(false);
      await waitIdle(page);
      await page.setViewportSize(size);
      await waitIdle(page);
      const pixels = async () => (await plotPixels(page)).map((c) => c.pixels);
      await expect.poll(pixels, { timeout: 30_000 }).toEqual(shown.map((c) => c.pixels));
      const redrawn = await plotPixels(page);
      expect(redrawn.some((c) => c.ahead)).toBe(false);
      // The address bar follows the change a moment later.
      await expect.poll(() => page.url()).not.toBe(before);
      const other = await context.newPage();
      await other.setViewportSize(page.viewportSize() ?? { width: 1280, height: 900 });
      const url = page.url();
      await openApp(other, url.slice(url.indexOf('?')));
      const fresh = await plotPixels(other);
      await other.close();
      expect(fresh.some((c) => c.ahead)).toBe(false);
      expect(fresh.map((c) => c.pixels)).toEqual(shown.map((c) => c.pixels));
    };
    // Both neighbours' plots, drawn in background tasks.
    await expect.poll(() => page.evaluate(() => window.__cwndlab?.aheadReady())).toBe(8);
    await expect.poll(drawnAhead).toBeGreaterThan(2);
    await stepCopies('ArrowRight');
    // A zoom (the slider keeps the focus) is a view the bitmaps were not drawn for: they are
    // drawn again for it, and the next step copies those.
    const hit = page.locator('figure[data-plot="window-reno"] .plot-hit');
    await expect.poll(() => hit.evaluate((el) => '__zoom' in el)).toBe(true);
    await hit.scrollIntoViewIfNeeded();
    const box = await hit.boundingBox();
    if (!box) throw new Error('no plot');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -300);
    await page.keyboard.up('Control');
    await expect.poll(() => new URL(page.url()).searchParams.get('x')).not.toBeNull();
    await waitIdle(page);
    expect((await plotPixels(page)).some((c) => c.ahead)).toBe(false);
    await expect(slider).toBeFocused();
    await expect.poll(drawnAhead).toBeGreaterThan(2);
    await stepCopies('ArrowLeft');
  });
});

test('a competition’s plots out of view are copied too, in the frames after the step’s', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openApp(page, '?v=4&mode=compete&flows=2&duration=5');
  await page.getByRole('slider', { name: 'Bottleneck bandwidth' }).focus();
  // One run of both flows per neighbour; each plot drawn ahead for both.
  await expect.poll(() => page.evaluate(() => window.__cwndlab?.aheadReady())).toBe(2);
  await expect
    .poll(() => page.evaluate(() => (window.__cwndlab?.prerender().pending ? 0 : window.__cwndlab?.prerender().ahead)))
    .toBe(2 * (await page.locator('.plot-body').count()));
  const n = await comparisons(page);
  await page.keyboard.press('ArrowRight');
  await waitNewComparison(page, n);
  const shown = await plotPixels(page);
  expect(shown.length).toBeGreaterThan(3);
  expect(shown.filter((c) => !c.ahead)).toEqual([]);
});

test('with the pointer: Ctrl+wheel zooms a plot, a drag pans it, and a drag across the overview chooses the window', async ({
  page,
}) => {
  await openApp(page, '?v=1&alg=reno,newreno');
  const windowOf = () => {
    const x = new URL(page.url()).searchParams.get('x');
    return x ? x.split(':').map(Number) : null;
  };
  // The interactions come as a chunk after the first view: d3-zoom's state on the hit area,
  // the brush's overlay in the strip.
  const hit = page.locator('figure[data-plot="window-reno"] .plot-hit');
  await expect.poll(() => hit.evaluate((el) => '__zoom' in el)).toBe(true);
  await expect(page.locator('.overview-brush .overlay')).toHaveCount(1);
  await hit.scrollIntoViewIfNeeded();
  const box = await hit.boundingBox();
  if (!box) throw new Error('no plot');
  const mid = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  await page.mouse.move(mid.x, mid.y);
  await page.keyboard.down('Control');
  await page.mouse.wheel(0, -300);
  await page.keyboard.up('Control');
  await expect.poll(windowOf).not.toBeNull();
  const [a = 0, b = 20] = windowOf() ?? [];
  expect(b - a).toBeLessThan(20);
  // Dragging to the left shows later times; the window keeps its width.
  await page.mouse.move(mid.x, mid.y);
  await page.mouse.down();
  await page.mouse.move(mid.x - box.width / 4, mid.y, { steps: 5 });
  await page.mouse.up();
  await expect.poll(() => windowOf()?.[0] ?? 0).toBeGreaterThan(a + 0.01);
  const [c = 0, d = 0] = windowOf() ?? [];
  expect(d - c).toBeCloseTo(b - a, 3);
  // The overview: a drag across its first quarter shows about 0–5 s of the 20 s run.
  const strip = page.locator('.overview-brush');
  await strip.scrollIntoViewIfNeeded();
  const sb = await strip.boundingBox();
  if (!sb) throw new Error('no overview');
  const x0 = sb.x + 50;
  const quarter = (sb.width - 50 - 14) / 4;
  await page.mouse.move(x0 + 1, sb.y + sb.height / 2);
  await page.mouse.down();
  await page.mouse.move(x0 + quarter, sb.y + sb.height / 2, { steps: 5 });
  await page.mouse.up();
  // (The link follows the window as the drag goes: wait for where it ends.)
  await expect
    .poll(() => {
      const [e = 1, f = 0] = windowOf() ?? [];
      return e < 0.5 && f > 4.5 && f < 5.5;
    })
    .toBe(true);
});

test('a copied link opened in a new page reproduces the same summary, digests included', async ({ page, context }) => {
  await openApp(page, '?v=1&alg=reno,newreno');
  let n = await comparisons(page);
  const buffer = page.getByRole('slider', { name: 'Bottleneck buffer' });
  await buffer.focus();
  await page.keyboard.press('ArrowLeft');
  await waitNewComparison(page, n);
  n = await comparisons(page);
  await page.getByRole('combobox', { name: 'Application', exact: true }).selectOption('cbr');
  await waitNewComparison(page, n);
  const link = await page.locator('#share-url').inputValue();
  expect(link).toContain('f0.app.kind=cbr');
  const want = await summaryText(page);
  expect(want).toMatch(/[0-9a-f]{16}/);

  await expectLinkReproduces(context, link, want);
});

test('a bad link shows a notice naming each bad field and its range, and still works', async ({ page }) => {
  await openApp(page, '?v=1&network.bottleneck.bandwidth=fast&duration=-3&bogus=1&network.bottleneck.queue_packets=9');
  const box = page.locator('.notice-box');
  await expect(box).toBeVisible();
  await expect(box).toContainText('Bottleneck bandwidth (network.bottleneck.bandwidth): "fast" is not a number');
  await expect(box).toContainText('allowed whole numbers 1000 to 100000000000 bit/s (0.001 to 100000 Mbit/s)');
  await expect(box).toContainText('Duration (duration): "-3" is out of range; allowed 0.001 to 100000 s');
  await expect(box).toContainText('"bogus" is not a cwndlab setting');
  // The good field is used; the bad ones fall back alone; the page is not blank.
  await expect(page.getByRole('textbox', { name: /Bottleneck buffer in packets/ })).toHaveValue('9');
  await expect(page.getByRole('textbox', { name: /Bottleneck bandwidth in Mbit/ })).toHaveValue('2');
  await expectPlotsDrawn(page);
  // Notices can be dismissed.
  await box.getByRole('button', { name: 'Dismiss all' }).click();
  await expect(box).toHaveCount(0);
});

test('a link from a newer version says so and still opens', async ({ page }) => {
  await openApp(page, '?v=99&duration=5');
  await expect(page.locator('.notice-box')).toContainText('newer cwndlab (v=99)');
  await expect(page.getByRole('textbox', { name: /Duration in s/ })).toHaveValue('5');
});

test('a scenario too large for a browser tab is not run, with a notice; the page still works', async ({ page }) => {
  await openApp(page, '?v=1&alg=reno&duration=100000&network.bottleneck.bandwidth=1000000000');
  await expect(page.locator('.notice-box')).toContainText('Not run: this scenario simulates about');
  await expect(page.getByTestId('summary')).toContainText('not run');
  // Back to a sane duration: it runs.
  const n = await comparisons(page);
  const box = page.getByRole('textbox', { name: 'Duration in s, exact value' });
  await box.fill('10');
  await box.press('Enter');
  await waitNewComparison(page, n);
  await expect(page.getByTestId('summary')).not.toContainText('not run');
});

test('presets load from the menu', async ({ page }) => {
  await openApp(page, '?v=1&alg=newreno');
  const before = await summaryText(page);
  const n = await comparisons(page);
  await page.getByLabel('Preset').selectOption('fall-floyd-reno-3drops');
  await waitNewComparison(page, n);
  await expect(page.locator('.preset-description')).toContainText('Fall & Floyd 1996: Reno');
  // The preset's algorithm joins the comparison; its scenario is in the link.
  await expect(page.getByRole('table', { name: /^Summary/ }).getByText('Reno', { exact: true })).toBeVisible();
  await expect.poll(() => page.url()).toContain('alg=reno,newreno');
  expect(page.url()).toContain('network.bottleneck.bandwidth=800000');
  expect(page.url()).toContain('f0.drops=14:1,26:1,28:1');
  expect(await summaryText(page)).not.toBe(before);
  await expectPlotsDrawn(page);
});

test('the main controls work from the keyboard alone', async ({ page }) => {
  await openApp(page);
  // Tab from the top of the page to the bandwidth slider.
  const focusedName = () =>
    page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return el ? `${el.tagName}:${el.getAttribute('type') ?? ''}:${el.id}:${el.textContent ?? ''}` : '';
    });
  const slider = page.getByRole('slider', { name: 'Bottleneck bandwidth' });
  let reached = false;
  for (let i = 0; i < 80 && !reached; i += 1) {
    await page.keyboard.press('Tab');
    reached = await slider.evaluate((el) => el === document.activeElement);
  }
  expect(reached, `tabbing stopped at ${await focusedName()}`).toBe(true);
  let n = await comparisons(page);
  const before = await summaryText(page);
  await page.keyboard.press('ArrowLeft');
  await waitNewComparison(page, n);
  expect(await summaryText(page)).not.toBe(before);

  // Untick Old Tahoe with the space bar (Shift+Tab back to the algorithm list: every
  // catalogue entry below it is one tab stop, 27 entries today).
  const oldTahoe = page.getByRole('checkbox', { name: 'Old Tahoe' });
  reached = false;
  for (let i = 0; i < 100 && !reached; i += 1) {
    await page.keyboard.press('Shift+Tab');
    reached = await oldTahoe.evaluate((el) => el === document.activeElement);
  }
  expect(reached).toBe(true);
  n = await comparisons(page);
  await page.keyboard.press('Space');
  await waitNewComparison(page, n);
  await expect(page.getByRole('table', { name: /^Summary/ }).getByText('Old Tahoe', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('table', { name: /^Summary/ }).getByText('Tahoe', { exact: true })).toBeVisible();

  // A plot: arrows move the shared cursor, + zooms every plot.
  const plot = page.getByRole('group', { name: /Congestion window — Reno.*cursor and zoom/ });
  await plot.focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('.readout-t').first()).toContainText('t = 10.');
  expect(await page.locator('.readout-t').count()).toBe(await page.locator('figure.plot').count());
  await page.keyboard.press('+');
  await expect.poll(() => page.url()).toMatch(/x=[\d.]+:[\d.]+/);

  // Play and pause with Enter on the play button.
  const play = page.getByRole('button', { name: 'Play from the start' });
  await play.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Pause' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Resume playback' })).toBeVisible();
});

test('a slider moved during playback becomes a timeline change that the link replays', async ({ page, context }) => {
  await openApp(page, '?v=1&alg=reno,newreno&duration=8');
  await page.getByLabel('Speed').selectOption('5');
  await page.getByRole('button', { name: 'Play from the start' }).click();
  await page.waitForFunction(() => {
    const out = document.querySelector('.position output')?.textContent ?? '';
    return parseFloat(out) > 2;
  });
  const slider = page.getByRole('slider', { name: 'Bottleneck bandwidth' });
  await slider.focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('.timeline-list li')).toHaveCount(1);
  await expect(page.locator('.timeline-list')).toContainText('Bottleneck bandwidth → 2.5 Mbit/s');
  // Let playback reach the end.
  await waitIdle(page, 60_000);
  await expect(page.getByRole('button', { name: 'Play from the start' })).toBeVisible();
  const want = await summaryText(page);
  const link = await page.locator('#share-url').inputValue();
  expect(link).toMatch(/tl=[\d.]+:network\.bottleneck\.bandwidth:2500000/);

  await expectLinkReproduces(context, link, want, true);
});

test('passes an automated accessibility scan, all settings open and a notice shown', async ({ page }) => {
  await openApp(page, '?v=1&alg=reno,newreno&duration=-1');
  await expect(page.locator('.notice-box')).toBeVisible();
  await page.getByText(/All settings/).click();
  await expect(page.getByRole('textbox', { name: 'MSS' })).toBeVisible();
  const result = await new AxeBuilder({ page }).analyze();
  const found = result.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`,
  );
  expect(found).toEqual([]);
});

test('NewReno and NewReno + CWV on an on/off sender: decay marks, W_used, different summaries', async ({ page }) => {
  await openClassroom(page);
  // Two algorithms × window, time–sequence, queue and the write timeline (an on/off sender
  // writes), and the four thin-stream CDF panels.
  await expect(page.locator('figure.plot')).toHaveCount(12);
  await expectPlotsDrawn(page);
  const summary = page.getByRole('table', { name: 'Summary, one column per algorithm' });
  await expect(summary.getByText('NewReno + CWV', { exact: true })).toBeVisible();
  // Different runs: different digests, and CWV decayed its window while NewReno never does.
  const decays = summary.getByRole('row', { name: /^Window decays/ });
  const cells = await decays.getByRole('cell').allInnerTexts();
  expect(cells[0]).toBe('0');
  expect(Number(cells[1])).toBeGreaterThan(0);
  const digests = await page.locator('.digests code').allInnerTexts();
  expect(digests).toHaveLength(2);
  expect(digests[0]).not.toBe(digests[1]);
  await expect(page.getByRole('list', { name: 'Identical runs' })).toHaveCount(0);
  // The legend and the line toggles know W_used; the plot's description counts the decays.
  await expect(page.getByRole('checkbox', { name: 'W_used (window used)' })).toBeChecked();
  await expect(page.getByRole('list', { name: 'Window validation marks' })).toContainText('window decay after idle');
  const canvas = page.locator('figure[data-plot="window-newreno_cwv"] canvas');
  await expect(canvas).toHaveAttribute('aria-label', /NewReno \+ CWV: .* \d+ window decays or restarts/);
  // ] steps the cursor to the next marked event: the readout says what the decay did.
  const plot = page.getByRole('group', { name: /Congestion window — NewReno \+ CWV.*cursor and zoom/ });
  await plot.focus();
  let found = false;
  for (let i = 0; i < 12 && !found; i += 1) {
    await page.keyboard.press(']');
    const text = await page.locator('figure[data-plot="window-newreno_cwv"] .readout').innerText();
    found = /window decay[^:]*: cwnd [\d.]+ → [\d.]+, ssthresh/.test(text);
    if (found) expect(text).toContain('W_used');
  }
  expect(found, 'no decay reached with ]').toBe(true);
  if (HAS_CLASSROOM) {
    // The preset's lesson, near the summary.
    await expect(page.locator('.lesson')).toContainText('Question for the class');
  }
});

test('a link with alg=newreno,newreno_cwv reproduces the digests', async ({ page, context }) => {
  await openClassroom(page);
  const link = await page.locator('#share-url').inputValue();
  expect(link).toContain('alg=newreno,newreno_cwv');
  expect(link).not.toContain('f0.algorithm');
  const want = await summaryText(page);
  expect(want).toMatch(/[0-9a-f]{16}/);
  await expectLinkReproduces(context, link, want);
});

test('a bad algorithm name in a link gets a notice naming the allowed ones; the page works', async ({ page }) => {
  await openApp(page, '?v=2&alg=newreno,vegas,newreno_cwv');
  const box = page.locator('.notice-box');
  await expect(box).toContainText('"vegas" is not an algorithm');
  const allowed = [...TABLES.catalogue.map((e) => e.name), 'custom'].join(', ');
  await expect(box).toContainText(`allowed: ${allowed}`);
  await expect(page.getByRole('table', { name: /^Summary/ }).getByText('NewReno + CWV', { exact: true })).toBeVisible();
  await expectPlotsDrawn(page);
  expect(page.url()).toContain('alg=newreno,newreno_cwv');
});

test('an old v=1 link opens as before, with the same runs and digests', async ({ page, context }) => {
  await openApp(page, '?v=1&alg=reno,newreno');
  await expect(page.locator('.notice-box')).toHaveCount(0);
  await expect(page.getByRole('checkbox', { name: 'Reno', exact: true })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Tahoe', exact: true })).not.toBeChecked();
  const v1 = await summaryText(page);
  // The page rewrites it as the same pairs in the current format.
  await expect.poll(() => page.url()).toContain('?v=4&alg=reno,newreno');
  await expectLinkReproduces(context, '?v=3&alg=reno,newreno', v1);
});

test('a v=2 link running BR-TCP opens with the recovery it had then', async ({ page, context }) => {
  await openApp(page, '?v=2&alg=newreno,br_tcp&f0.reserved_bandwidth=1000000');
  await expect(page.locator('.notice-box')).toHaveCount(0);
  const v2 = await summaryText(page);
  // br_recovery's default changed in v=3: the rewritten link pins the old one.
  await expect.poll(() => page.url()).toContain('f0.cc.br_recovery=set_cwnd');
  await expectLinkReproduces(
    context,
    '?v=3&alg=newreno,br_tcp&f0.reserved_bandwidth=1000000&f0.cc.br_recovery=set_cwnd',
    v2,
  );
});

for (const where of ['FIFO, nothing reserved at the bottleneck', `the ${KOMURO} preset (reservation scheduler)`]) {
  const fifo = where.startsWith('FIFO');
  test(`the reserved bandwidth drives BR-TCP (${where}): its summary and reference line change, and a link reproduces it`, async ({
    page,
    context,
  }) => {
    if (fifo) await openApp(page, '?v=3&alg=newreno,br_tcp&f0.reserved_bandwidth=1000000');
    else await openKomuro(page);
    await expect(page.locator('.notice-box')).toHaveCount(0);
    const plot = page.locator('canvas[aria-label*="reserved BDP"]');
    await expect(plot).toHaveCount(1);
    const before = await plot.getAttribute('aria-label');
    expect(before).toMatch(/BR-TCP: .*reserved BDP \d+ segments \(dashed line\)/);
    const summary = await summaryText(page);
    const goodput = await summaryRow(page, 'Goodput');
    const n = await comparisons(page);
    if (fifo) {
      const box = page.getByRole('textbox', { name: /Reserved bandwidth in Mbit\/s/ });
      await box.fill('3');
      await box.press('Enter');
    } else {
      // One slider step down: 40 → 30 Mbit/s.
      const slider = page.getByRole('slider', { name: 'Reserved bandwidth' });
      await slider.focus();
      await page.keyboard.press('ArrowLeft');
    }
    await waitNewComparison(page, n);
    await expect(plot).not.toHaveAttribute('aria-label', before ?? '');
    const after = await summaryText(page);
    expect(after).not.toBe(summary);
    const goodputAfter = await summaryRow(page, 'Goodput');
    expect(goodputAfter[1]).not.toBe(goodput[1]);
    // FIFO does not enforce the reservation: NewReno runs exactly as before. The reservation
    // scheduler does: NewReno's class is held to the new rate too.
    if (fifo) expect(goodputAfter[0]).toBe(goodput[0]);
    else expect(goodputAfter[0]).not.toBe(goodput[0]);
    const link = await page.locator('#share-url').inputValue();
    expect(link).toContain(`f0.reserved_bandwidth=${fifo ? 3000000 : 30000000}`);
    await expectLinkReproduces(context, link, after);
  });
}

test(`${KOMURO}: the throughput plot shows BR-TCP above NewReno, and the UDP source’s share`, async ({ page }) => {
  await openKomuro(page);
  await expect(page.locator('.notice-box')).toHaveCount(0);
  // The preset brings the throughput plot (one per algorithm) and the link says so.
  await expect(page.getByRole('checkbox', { name: 'Throughput', exact: true })).toBeChecked();
  await expect(page.locator('figure[data-plot^="throughput-"]')).toHaveCount(2);
  await expect(page.locator('figure[data-plot="throughput-br_tcp"] .plot-title')).toContainText('1 s bins, delivered');
  expect(page.url()).toContain('plots=window,seq,queue,throughput');
  await expectPlotsDrawn(page);
  const br = await meanRate(page, 'br_tcp', 'flow 0');
  const nr = await meanRate(page, 'newreno', 'flow 0');
  expect(br).toBeGreaterThan(nr);
  // Komuro et al.: the reservation keeps BR-TCP's pipe full (the paper: 3.4 vs 2.5 MB/s).
  expect(br).toBeGreaterThan(25);
  // The UDP source gets what the 40 Mbit/s reservation leaves: 60 Mbit/s in both runs.
  for (const alg of ['newreno', 'br_tcp']) expect(await meanRate(page, alg, 'cross 0')).toBeCloseTo(60, 0);
  // The summary agrees: BR-TCP's goodput is the higher, and the UDP source has its rows.
  const goodput = (await summaryRow(page, 'Goodput')).map(Number);
  expect(goodput[1]).toBeGreaterThan(goodput[0] ?? Infinity);
  expect((await summaryRow(page, 'cross 0 delivered')).map(Number)).toEqual([59.95, 59.95]);
  expect(Number((await summaryRow(page, 'cross 0 queue drops'))[0])).toBeGreaterThan(0);
  // The readout at the cursor gives every class's rate in that bin.
  const plot = page.getByRole('group', { name: /Throughput — BR-TCP.*cursor and zoom/ });
  await plot.focus();
  await page.keyboard.press('End');
  await expect(page.locator('figure[data-plot="throughput-br_tcp"] .readout')).toContainText(
    /flow 0 [\d.]+ · cross 0 [\d.]+ Mbit\/s \(bin 29–30 s\)/,
  );
  // Finer bins: the same data, summed differently; the link keeps the choice.
  const n = await comparisons(page);
  await page.getByLabel('Bin width').selectOption('0.1');
  await expect(page.locator('figure[data-plot="throughput-br_tcp"] .plot-title')).toContainText('100 ms bins');
  await expect.poll(() => page.url()).toContain('bin=0.1');
  expect(await comparisons(page)).toBe(n); // a view change: nothing re-runs
  expect(await meanRate(page, 'br_tcp', 'flow 0')).toBe(br);
  await page.getByLabel('Bytes counted').selectOption('bottleneck');
  await expect.poll(() => page.url()).toContain('tput=bottleneck');
  expect(await meanRate(page, 'br_tcp', 'flow 0')).toBeGreaterThanOrEqual(br);
});

test(`${KOMURO} during playback: the throughput plot grows bin by bin`, async ({ page }) => {
  await openKomuro(page);
  await page.getByLabel('Speed').selectOption('5');
  await page.getByRole('button', { name: 'Play from the start' }).click();
  const position = () =>
    page.evaluate(() => parseFloat(document.querySelector('.position output')?.textContent ?? '0'));
  await page.waitForFunction(() => parseFloat(document.querySelector('.position output')?.textContent ?? '0') > 3);
  await page.getByRole('button', { name: 'Pause' }).click();
  expect(await position()).toBeLessThan(30);
  const canvas = page.locator('figure[data-plot="throughput-br_tcp"] canvas');
  await expect(canvas).toHaveAttribute('aria-label', /BR-TCP: flow 0 mean [\d.]+ Mbit\/s, cross 0 \(UDP CBR\) mean/);
  // At the play head the readout shows the 1 s bin in progress, as far as the engine's bins have closed.
  // The plot redraws for the paused position a frame or more after Pause, and a step the engine was
  // already computing when Pause was pressed still arrives and moves the position once more; so the
  // bin and the position are read together until they agree (a readout that stays on an earlier bin,
  // or runs past the position, fails after the poll's timeout).
  const readout = page.locator('figure[data-plot="throughput-br_tcp"] .readout');
  const binEnd = async () => Number(/\(bin \d+–([\d.]+) s\)/.exec(await readout.innerText())?.[1] ?? NaN);
  await expect
    .poll(async () => {
      const end = await binEnd();
      const t = await position();
      return { inProgressBin: end > t - 1.01 && end <= t, end, t };
    })
    .toMatchObject({ inProgressBin: true });
  await expectPlotsDrawn(page);
});

test('adding a UDP source in the controls changes the queue and the summary, and a link reproduces it', async ({
  page,
  context,
}) => {
  await openApp(page, '?v=2&alg=reno,newreno');
  const queue = page.locator('figure[data-plot="queue-reno"] canvas');
  const queueBefore = await queue.getAttribute('aria-label');
  const before = await summaryText(page);
  expect(before).not.toContain('cross 0');
  const goodput = (await summaryRow(page, 'Goodput')).map(Number);
  const group = page.getByRole('region', { name: 'Competing traffic' });
  let n = await comparisons(page);
  await group.getByRole('button', { name: 'Add a UDP source' }).click();
  await waitNewComparison(page, n);
  // Half the link's 2 Mbit/s, constant.
  const source = group.getByRole('group', { name: /^cross 0/ });
  const rate = source.getByRole('textbox', { name: 'Rate in Mbit/s, exact value' });
  n = await comparisons(page);
  await rate.fill('1');
  await rate.press('Enter');
  await waitNewComparison(page, n);
  await expect(source).toHaveAccessibleName('cross 0 (UDP CBR 1 Mbit/s)');
  await expect(page.locator('.notice-box')).toHaveCount(0);
  const after = await summaryText(page);
  expect(after).not.toBe(before);
  expect(after).toContain('cross 0 delivered (Mbit/s)');
  // The flows now share the link with 1 Mbit/s that never backs off.
  const goodputAfter = (await summaryRow(page, 'Goodput')).map(Number);
  expect(goodputAfter[0]).toBeLessThan(goodput[0] ?? 0);
  expect(goodputAfter[1]).toBeLessThan(goodput[1] ?? 0);
  await expect(queue).not.toHaveAttribute('aria-label', queueBefore ?? '');
  // Adding competing traffic brought the throughput plot, with a line for the source.
  await expect(page.locator('figure[data-plot="throughput-reno"] canvas')).toHaveAttribute(
    'aria-label',
    /cross 0 \(UDP CBR\) mean [\d.]+ Mbit\/s/,
  );
  await expectPlotsDrawn(page);
  const link = await page.locator('#share-url').inputValue();
  expect(link).toContain('cross=cbr:1000000:1500:0:0:1:1:false');
  expect(link).toContain('plots=window,seq,queue,throughput');
  await expectLinkReproduces(context, link, after);
  // An out-of-range rate is refused with the range, and the page keeps working.
  await rate.fill('0.0001');
  await rate.press('Enter');
  await expect(source.getByRole('alert')).toContainText('Rate: out of range; allowed whole numbers 1000 to');
  await source.getByRole('button', { name: 'Remove cross 0' }).click();
  await expect(page.getByRole('table', { name: /^Summary/ }).first()).not.toContainText('cross 0');
});

test('thin stream: the CDFs draw, their medians are the summary’s p50s, and a link reproduces the view', async ({
  page,
  context,
}) => {
  await openApp(page, THIN_LINK);
  await expect(page.locator('figure.cdf-plot')).toHaveCount(4);
  await expectPlotsDrawn(page);
  await expect(page.locator('.thin-caption')).toContainText('over the whole run');
  // The summary has the thin-stream rows; the CDFs count every packet and delivered write.
  const sent = Number((await summaryRow(page, 'Packets sent'))[0]);
  expect(sent).toBeGreaterThan(900);
  expect((await cdfFacts(page, 'payload', 'NewReno')).n).toBe(sent);
  expect((await cdfFacts(page, 'itt', 'NewReno')).n).toBe(sent - 1);
  await expectCdfsMatchSummary(page, ['NewReno']);
  // A CDF is read from the keyboard: the readout gives the share at or below a value.
  const latency = page.getByRole('group', { name: /Latency of writes \(ms\) CDF: value cursor/ });
  await latency.focus();
  await page.keyboard.press('End');
  const readout = page.locator('figure[data-plot="thin-latency"] .readout');
  await expect(readout).toContainText('≤ ');
  await expect(readout).toContainText('NewReno 100 %');
  await page.keyboard.press('Home');
  await expect(readout).toContainText('NewReno 0 %');
  // The link keeps the view; a new page opens it with the same runs and the same CDFs.
  const link = await page.locator('#share-url').inputValue();
  expect(link).toContain('plots=window,thin');
  const want = await summaryText(page);
  const labels = await page
    .locator('.cdf-plot canvas')
    .evaluateAll((cs) => cs.map((c) => c.getAttribute('aria-label')));
  await expectLinkReproduces(context, link, want);
  const other = context.pages().at(-1);
  if (!other) throw new Error('no second page');
  await expect(other.locator('figure.cdf-plot')).toHaveCount(4);
  expect(
    await other.locator('.cdf-plot canvas').evaluateAll((cs) => cs.map((c) => c.getAttribute('aria-label'))),
  ).toEqual(labels);
  const scan = await new AxeBuilder({ page }).analyze();
  expect(scan.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
});

test('thin stream with losses: medians agree per algorithm; zooming takes the CDFs over the window; the write timeline reads a write', async ({
  page,
}) => {
  await openApp(page, `${THIN_LOSSY}&layout=overlay`);
  await expect(page.locator('figure.plot')).toHaveCount(6); // window, writes, four CDFs
  await expectPlotsDrawn(page);
  // ITT and latency count the same packets and writes as the summary. (The summary's sojourn
  // also counts writes sent but not delivered by the end, which the CDF cannot show.)
  await expectCdfsMatchSummary(page, ['NewReno', 'Custom'], ['itt', 'latency']);
  const whole = await cdfFacts(page, 'latency', 'Custom');
  // The zoomed window: the caption and every panel say so, and count fewer writes.
  await openApp(page, `${THIN_LOSSY}&layout=overlay&x=3:5`);
  await expect(page.locator('.thin-caption')).toContainText('from 3 to 5 s (the zoomed time window)');
  const zoomed = await cdfFacts(page, 'latency', 'Custom');
  expect(zoomed.text).toContain('from 3 to 5 s');
  expect(zoomed.n).toBeGreaterThan(150);
  expect(zoomed.n).toBeLessThan(whole.n / 5);
  // The write timeline: the readout names the write under the cursor.
  const writes = page.getByRole('group', { name: /^Writes \(latency ms\): cursor and zoom/ });
  await writes.focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('figure[data-plot="writes-newreno-custom"] .readout')).toContainText(
    /NewReno write \d+ at [\d.]+ s, 20 B: sojourn [\d.]+ ms, latency [\d.]+ ms/,
  );
  await expect(page.getByRole('list', { name: 'Writes' })).toContainText('write timeline');
});

test('choosing a thin-stream application shows the write timeline and the CDFs', async ({ page }) => {
  await openApp(page, '?v=3&alg=newreno&duration=5');
  await expect(page.locator('figure.cdf-plot')).toHaveCount(0);
  const n = await comparisons(page);
  await page.getByRole('combobox', { name: 'Application', exact: true }).selectOption('thin');
  await waitNewComparison(page, n);
  await expect(page.getByRole('checkbox', { name: 'Writes (timeline)' })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Thin-stream CDFs' })).toBeChecked();
  await expect(page.locator('figure.cdf-plot')).toHaveCount(4);
  await expectPlotsDrawn(page);
  await expect.poll(() => page.url()).toContain('plots=window,seq,queue,writes,thin');
  await expect(page.getByRole('table', { name: /^Summary/ }).first()).toContainText('Latency p50 · p90 · p99 (ms)');
});

test('overlay layout draws one plot per kind with every algorithm', async ({ page }) => {
  await openApp(page, '?v=1&layout=overlay');
  await expect(page.locator('figure.plot')).toHaveCount(3);
  await expectPlotsDrawn(page);
});

for (const [name, width, height, scale] of [
  ['desktop-1280', 1280, 900, 1],
  ['projector-1920', 1920, 1080, 1],
  ['phone-390', 390, 844, 2],
] as const) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height }, deviceScaleFactor: scale, hasTouch: width < 500 });

    test(`screenshot of the main view at ${width} px`, async ({ page }) => {
      await openApp(page, '?v=1&alg=reno,newreno');
      // Nothing may stick out sideways.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await expectPlotsDrawn(page);
      // The summary takes the width it is given (not squeezed by its layout).
      const summary = await page.getByTestId('summary').boundingBox();
      const panel = await page.locator('.summary-panel').boundingBox();
      expect(summary?.width ?? 0).toBeGreaterThan(0.5 * (panel?.width ?? 1000));
      await expect(page.getByRole('table', { name: /^Summary/ }).getByText('Timeouts')).toBeVisible();
      const scan = await new AxeBuilder({ page }).analyze();
      expect(scan.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
      await page.screenshot({ path: join(ARTIFACTS, `main-${name}.png`) });
      await page.screenshot({ path: join(ARTIFACTS, `main-${name}-full.png`), fullPage: true });
    });

    test(`screenshot of the BR-TCP reservation lesson at ${width} px`, async ({ page }) => {
      await openKomuro(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await expectPlotsDrawn(page);
      await expect(page.locator('figure[data-plot^="throughput-"]')).toHaveCount(2);
      await expect(page.getByRole('region', { name: 'Competing traffic' })).toContainText('cross 0');
      const table = page.getByRole('table', { name: /^Summary/ });
      await expect(table.getByText('cross 0 delivered (Mbit/s)')).toBeVisible();
      const scan = await new AxeBuilder({ page }).analyze();
      expect(scan.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
      await page.screenshot({ path: join(ARTIFACTS, `brtcp-${name}.png`) });
      await page.screenshot({ path: join(ARTIFACTS, `brtcp-${name}-full.png`), fullPage: true });
      // The throughput plots on their own, for a close look.
      await page.locator('section.plot-group[aria-label="Throughput, one plot per algorithm"]').screenshot({
        path: join(ARTIFACTS, `brtcp-${name}-throughput.png`),
      });
    });

    test(`screenshot of the thin-stream view at ${width} px`, async ({ page }) => {
      await openApp(page, THIN_LOSSY);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await expectPlotsDrawn(page);
      await expect(page.locator('figure.cdf-plot')).toHaveCount(4);
      // The four panels line up by their plot areas, two or four across or one under another.
      const boxes = await page.locator('.cdf-plot .plot-body').evaluateAll((els) =>
        els.map((el) => {
          const r = el.getBoundingClientRect();
          return { x: Math.round(r.x), bottom: Math.round(r.bottom), w: Math.round(r.width) };
        }),
      );
      const rows = new Map<number, number[]>();
      for (const b of boxes) rows.set(b.bottom, [...(rows.get(b.bottom) ?? []), b.w]);
      expect([1, 2, 4]).toContain(boxes.length / rows.size);
      for (const b of boxes) expect(b.w).toBeGreaterThan(250);
      await expect(
        page.getByRole('table', { name: /^Summary/ }).getByText('Latency p50 · p90 · p99 (ms)'),
      ).toBeVisible();
      const scan = await new AxeBuilder({ page }).analyze();
      expect(scan.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
      await page.screenshot({ path: join(ARTIFACTS, `thin-${name}.png`) });
      await page.screenshot({ path: join(ARTIFACTS, `thin-${name}-full.png`), fullPage: true });
      await page.locator('section.thin-plots').screenshot({ path: join(ARTIFACTS, `thin-${name}-cdfs.png`) });
      await page.locator('section.plot-group[aria-label^="Writes"]').screenshot({
        path: join(ARTIFACTS, `thin-${name}-writes.png`),
      });
      await page.getByTestId('summary').screenshot({ path: join(ARTIFACTS, `thin-${name}-summary.png`) });
    });

    test(`screenshot of the CWV classroom comparison at ${width} px`, async ({ page }) => {
      await openClassroom(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await expectPlotsDrawn(page);
      // Four columns fit beside the metric names wherever the summary is narrow.
      const table = page.getByRole('table', { name: /^Summary/ });
      await expect(table.getByText('Window decays')).toBeVisible();
      await expect(table.getByText('Max burst (packets)')).toBeVisible();
      if (HAS_CLASSROOM) {
        const lesson = page.locator('.lesson');
        await expect(lesson).toBeVisible();
        // Collapsed on a phone (it must not push the summary and plots away); one tap opens it.
        if (width < 1000) await lesson.locator('summary').first().click();
        await expect(lesson.getByText('Question for the class')).toBeVisible();
      }
      const scan = await new AxeBuilder({ page }).analyze();
      expect(scan.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
      await page.screenshot({ path: join(ARTIFACTS, `cwv-${name}.png`) });
      await page.screenshot({ path: join(ARTIFACTS, `cwv-${name}-full.png`), fullPage: true });
    });
  });
}
