// Exports and printing in real Chromium against the built site: a plot's data is what the
// command line writes for the same scenario, byte for byte; the downloaded scenario runs to
// the page's digests; SVG and PNG images of a plot and of the whole view; a refused export
// names the engine's limit and the page keeps working; Cancel; the printed handout (PDF →
// PNG pages with pdftoppm, saved for a look); the menu at 1920, 1280 and 390 px.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Download, Locator, Page } from '@playwright/test';
import { ARTIFACTS, comparisons, expect, openApp, test, waitIdle, waitNewComparison } from './fixtures';

const ROOT = join(import.meta.dirname, '..');
const PRESET = 'cwv-quiescent-100ms';

/** The command-line binary: the newer of the release and debug builds, built (debug) when
 *  neither exists. */
function cli(): string {
  const builds = ['release', 'debug']
    .map((p) => join(ROOT, 'engine', 'target', p, 'cwndlab'))
    .filter((p) => existsSync(p))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (builds[0]) return builds[0];
  execFileSync('cargo', ['build', '-p', 'cwndlab-cli'], { cwd: join(ROOT, 'engine'), stdio: 'inherit' });
  return join(ROOT, 'engine', 'target', 'debug', 'cwndlab');
}

const tmp = mkdtempSync(join(tmpdir(), 'cwndlab-export-e2e-'));
test.afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let dirs = 0;
function newDir(): string {
  dirs += 1;
  return join(tmp, `d${dirs}`);
}

/** Opens the Export panel. */
async function openExport(page: Page): Promise<Locator> {
  const panel = page.locator('details.export');
  if (!(await panel.evaluate((d: HTMLDetailsElement) => d.open))) await panel.locator('> summary').click();
  return panel;
}

/** Clicks `button` and saves the download it starts; returns its path and suggested name. */
async function download(page: Page, button: Locator): Promise<{ path: string; name: string }> {
  const [d]: [Download, void] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const path = join(newDir(), d.suggestedFilename());
  await d.saveAs(path);
  return { path, name: d.suggestedFilename() };
}

/** Extracts a zip; returns the directory. */
function unzip(file: string): string {
  const dir = newDir();
  execFileSync('unzip', ['-q', '-o', file, '-d', dir]);
  return dir;
}

/** Opens a preset from the menu and waits for its comparison. */
async function openPreset(page: Page, name: string): Promise<void> {
  await openApp(page, '?v=4&alg=newreno');
  const n = await comparisons(page);
  await page.getByLabel('Preset').selectOption(name);
  await waitNewComparison(page, n);
}

/** The digests the summary shows, in the order of the compared algorithms. */
async function pageDigests(page: Page): Promise<string[]> {
  return page.locator('.digests code').allInnerTexts();
}

test('a plot’s data as CSV is what the CLI writes for the downloaded scenario, which gives the page’s digests', async ({
  page,
}) => {
  await openPreset(page, PRESET);
  const panel = await openExport(page);
  const one = panel.getByRole('group', { name: 'One plot' });
  const select = one.getByLabel('Plot', { exact: true });
  const options = () => select.locator('option').allTextContents();
  // A small multiple (one run's window plot): its data is that run's alone.
  const cwv = 'Congestion window — NewReno + CWV (segments)';
  await expect.poll(options).toContain(cwv);
  await select.selectOption({ label: cwv });
  await expect(one.getByText('Its data: series, validation.')).toBeVisible();
  const single = unzip((await download(page, one.getByRole('button', { name: 'Data (CSV)' }))).path);
  expect(readdirSync(single)).toEqual(['newreno_cwv']);
  expect(readdirSync(join(single, 'newreno_cwv')).sort()).toEqual(['series_flow0.csv', 'validation_flow0.csv']);
  // Overlaid, the window plot holds every run: its data is every run's, a folder each.
  const n = await comparisons(page);
  await page.getByRole('radio', { name: 'Overlay' }).check();
  await waitIdle(page);
  expect(await comparisons(page)).toBe(n); // a view change runs nothing
  await expect.poll(options).toEqual(expect.arrayContaining([expect.stringMatching(/^Congestion window \(/)]));
  const overlaid = (await options()).find((t) => t.startsWith('Congestion window'));
  await select.selectOption({ label: overlaid ?? '' });
  const data = await download(page, one.getByRole('button', { name: 'Data (CSV)' }));
  expect(data.name).toBe('cwndlab-cwv-quiescent-100ms-window-csv.zip');
  const got = unzip(data.path);
  const scenario = await download(
    page,
    panel.getByRole('group', { name: 'Summary and scenario' }).getByRole('button', { name: 'JSON' }).last(),
  );
  const scen = unzip(scenario.path);
  // One folder per algorithm, in the order compared.
  const folders = readdirSync(got).sort();
  expect(readdirSync(scen).sort()).toEqual(folders);
  expect(folders.length).toBe(4);
  const digests = await pageDigests(page);
  const order = await page.evaluate(() => new URL(window.location.href).searchParams.get('alg')?.split(',') ?? []);
  expect(order.slice().sort()).toEqual(folders);
  const bin = cli();
  let validation = 0;
  for (const alg of folders) {
    const out = newDir();
    const summary = JSON.parse(
      execFileSync(bin, ['run', join(scen, alg, 'scenario.json'), '--out', out], { encoding: 'utf8' }),
    ) as { digest: string };
    expect(summary.digest, `${alg}: the CLI's digest of the downloaded scenario is the page's`).toBe(
      digests[order.indexOf(alg)],
    );
    // The window plot's files are exactly the CLI's series and window-validation files.
    const mine = readdirSync(join(got, alg)).sort();
    const theirs = readdirSync(out)
      .filter((f) => /^(series|validation)_flow\d+\.csv$/.test(f))
      .sort();
    expect(mine, alg).toEqual(theirs);
    for (const f of mine) {
      const a = readFileSync(join(got, alg, f));
      const b = readFileSync(join(out, f));
      expect(a.length, `${alg}/${f} size`).toBe(b.length);
      expect(a.equals(b), `${alg}/${f} byte for byte`).toBe(true);
    }
    if (mine.includes('validation_flow0.csv')) validation += 1;
  }
  // CWV runs have a window-validation file, NewReno's none.
  expect(validation).toBeGreaterThan(0);
  expect(validation).toBeLessThan(4);
});

/** Width and height of a PNG (its IHDR chunk). */
function pngSize(file: string): { width: number; height: number } {
  const b = readFileSync(file);
  expect(b.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

test('a plot and the whole view as SVG (axes, lines, legend) and PNG (2× the pixel ratio)', async ({ page }) => {
  await openApp(page, '?v=4&alg=reno,newreno&layout=overlay&f0.drops=14:1,26:1,28:1');
  const panel = await openExport(page);
  const one = panel.getByRole('group', { name: 'One plot' });
  await one.getByLabel('Plot', { exact: true }).selectOption({ index: 0 });
  const svg = await download(page, one.getByRole('button', { name: 'SVG' }));
  expect(svg.name).toMatch(/\.svg$/);
  const text = readFileSync(svg.path, 'utf8');
  // Well-formed, with the axes' tick text, a line per run in its colour and the legend.
  execFileSync('python3', ['-c', 'import sys,xml.etree.ElementTree as E;E.parse(sys.argv[1])', svg.path]);
  const ticks = await page.locator('figure.plot').first().locator('.x-axis .tick text').allTextContents();
  expect(ticks.length).toBeGreaterThan(2);
  for (const t of ticks) expect(text).toContain(`>${t}</text>`);
  const runColors = await page.evaluate(() =>
    [...document.querySelectorAll('.legend-row[aria-label="Algorithms"] svg line')].map((l) =>
      l.getAttribute('stroke'),
    ),
  );
  expect(runColors).toHaveLength(2);
  for (const c of runColors) expect(text).toMatch(new RegExp(`<path d="M[^"]+L[^"]+" fill="none" stroke="${c}"`));
  for (const label of ['Reno', 'NewReno', 'cwnd', 'ssthresh', 'Slow start']) expect(text).toContain(`>${label}</text>`);
  expect(text).toMatch(/<pattern id=/); // the hatched recovery phases
  const svgSize = /<svg [^>]*width="(\d+)" height="(\d+)"/.exec(text);
  const bodyWidth = await page
    .locator('figure.plot')
    .first()
    .locator('.plot-body')
    .evaluate((el) => el.clientWidth);
  expect(Number(svgSize?.[1]), 'the plot at its width on the page').toBe(bodyWidth);

  const png = await download(page, one.getByRole('button', { name: 'PNG' }));
  copyFileSync(png.path, join(ARTIFACTS, 'export-plot.png'));
  const dpr = await page.evaluate(() => window.devicePixelRatio);
  const size = pngSize(png.path);
  expect(size.width).toBe(Math.round(Number(svgSize?.[1]) * 2 * dpr));
  expect(size.height).toBe(Math.round(Number(svgSize?.[2]) * 2 * dpr));

  const view = panel.getByRole('group', { name: 'Every visible plot' });
  const viewSvg = readFileSync((await download(page, view.getByRole('button', { name: 'SVG' }))).path, 'utf8');
  expect(viewSvg).toContain('>cwndlab — custom scenario</text>');
  expect(viewSvg).toContain('Reno vs NewReno');
  for (const title of await page.locator('.plot-stack figure.plot .plot-title').allTextContents()) {
    expect(viewSvg).toContain(title.replace(/&/g, '&amp;'));
  }
  const viewFile = (await download(page, view.getByRole('button', { name: 'PNG' }))).path;
  copyFileSync(viewFile, join(ARTIFACTS, 'export-view.png'));
  const viewPng = pngSize(viewFile);
  const stackWidth = await page.locator('.plot-stack').evaluate((el) => el.clientWidth);
  // The plots at their size on the page, with an 8 px margin each side.
  expect(viewPng.width).toBe(Math.round((stackWidth + 16) * 2 * dpr));
});

test('pcap and qlog come through the same exporter: one file per run, in its folder', async ({ page }) => {
  await openApp(page, '?v=4&alg=reno,newreno&duration=5');
  const panel = await openExport(page);
  const packets = panel.getByRole('group', { name: 'Packets' });
  await expect(packets.getByLabel('Capture at')).toHaveValue('sender');
  await packets.getByLabel('Capture at').selectOption('bottleneck');
  const pcap = unzip((await download(page, packets.getByRole('button', { name: 'pcap' }))).path);
  for (const alg of ['reno', 'newreno']) {
    const file = join(pcap, alg, 'bottleneck.pcap');
    const bytes = readFileSync(file);
    // pcap's magic number (nanosecond timestamps), either byte order.
    expect(['4d3cb2a1', 'a1b23c4d']).toContain(bytes.subarray(0, 4).toString('hex'));
    expect(bytes.length).toBeGreaterThan(10_000);
  }
  // No SYN in these runs: the page passes on the engine's note on the window scale.
  await expect(panel.locator('.export-status')).toContainText('tcp.default_window_scaling:5 (multiply by 32)');
  const qlog = unzip((await download(page, packets.getByRole('button', { name: 'qlog' }))).path);
  const first = readFileSync(join(qlog, 'reno', 'flow0.sqlog'), 'utf8').split('\n')[0] ?? '';
  // JSON text sequences: each record starts with the RS character.
  expect(first.charCodeAt(0)).toBe(0x1e);
  expect(JSON.parse(first.slice(1))).toHaveProperty('qlog_version');
});

test('a refused export shows the engine’s reason; a long one can be cancelled; the page keeps working', async ({
  page,
}) => {
  // 100 Mbit/s for 30 s: the page runs it (about a million packets), but its qlog would be
  // larger than the page builds.
  await openApp(page, '?v=4&alg=newreno&duration=30&network.bottleneck.bandwidth=100000000');
  const panel = await openExport(page);
  await panel.getByRole('button', { name: 'qlog' }).click();
  const notice = page.locator('.notice-box');
  await expect(notice).toContainText('Export of flow 0 qlog not made: this export would be about');
  await expect(notice).toContainText('the page builds files up to 256 MB');
  await expect(notice).toContainText('cwndlab run scenario.json --qlog');
  // All data is within the limit but takes a while: progress, then Cancel.
  await panel.getByRole('button', { name: 'All data' }).click();
  const progress = panel.getByRole('group', { name: 'Export in progress' });
  await expect(progress).toBeVisible();
  await progress.getByRole('button', { name: 'Cancel' }).click();
  await expect(panel.getByRole('status')).toHaveText('Export cancelled.');
  await expect(progress).toHaveCount(0);
  // The page still works: a summary export goes through.
  const summary = await download(
    page,
    panel.getByRole('group', { name: 'Summary and scenario' }).getByRole('button', { name: 'CSV' }),
  );
  // One file: saved as itself, not zipped; its delay columns end the header.
  expect(summary.name).toBe('summary.csv');
  expect(readFileSync(summary.path, 'utf8')).toMatch(/^flow,algorithm,variant,goodput_bps/);
  expect(readFileSync(summary.path, 'utf8')).toMatch(
    /,scripted_drops,ce_marks,qdelay_mean_ms,qdelay_p95_ms,rtt_mean_ms,rtt_p95_ms,transfers_completed,transfer_mean_s,transfer_p50_s,transfer_p90_s,transfer_p99_s\n/,
  );
});

test('printing gives a handout: title, scenario, plots as vectors, legend, summary, lesson; no controls', async ({
  page,
}) => {
  await openPreset(page, PRESET);
  await page.emulateMedia({ media: 'print' });
  // The print support has put each plot in as SVG.
  await expect(page.locator('.print-plot').first()).toBeAttached();
  const plots = await page.locator('figure.plot').count();
  expect(await page.locator('.print-plot').count()).toBe(plots);
  const pdf = join(ARTIFACTS, 'export-print.pdf');
  await page.pdf({ path: pdf, format: 'A4', printBackground: true });
  await page.emulateMedia({ media: 'screen' });
  await expect(page.locator('.print-plot')).toHaveCount(0);
  // The plots are vectors: the PDF holds no raster image (a canvas would print as one).
  const images = execFileSync('pdfimages', ['-list', pdf], { encoding: 'utf8' }).trim().split('\n');
  expect(images.slice(2), 'raster images in the PDF').toEqual([]);
  const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
  expect(text).toContain(`cwndlab — ${PRESET}`);
  expect(text).toContain('NewReno vs');
  expect(text).toContain('Congestion window');
  expect(text).toContain('Goodput');
  expect(text).toContain('Question for the class');
  expect(text).toContain('ssthresh'); // the legend
  for (const control of ['Export and print', 'Link to this view', 'Preset', 'Play'])
    expect(text).not.toContain(control);
  // The pages as PNG, to look at.
  const stem = join(ARTIFACTS, 'export-print');
  for (const f of readdirSync(ARTIFACTS))
    if (f.startsWith('export-print-') && f.endsWith('.png')) rmSync(join(ARTIFACTS, f));
  execFileSync('pdftoppm', ['-png', '-r', '60', pdf, stem]);
  const pages = readdirSync(ARTIFACTS).filter((f) => f.startsWith('export-print-') && f.endsWith('.png'));
  expect(pages.length).toBeGreaterThan(0);
  expect(pages.length).toBeLessThan(6);
});

test('the printed header follows a change: its scenario line and link are the page’s after a slider step', async ({
  page,
}) => {
  await openApp(page, '?v=4&alg=reno,newreno');
  // Print-only, but in the page (hidden on screen) once the deferred parts have loaded.
  const line = page.locator('header.print-header .print-line');
  await expect(line).toHaveCount(1);
  const lineBefore = await line.textContent();
  const before = await comparisons(page);
  const slider = page.getByRole('slider', { name: 'Bottleneck bandwidth' });
  await slider.focus();
  await page.keyboard.press('ArrowRight');
  await waitNewComparison(page, before);
  // The address bar trails the change by 150 ms; the header is the page's link.
  await expect(page).toHaveURL(/network\.bottleneck\.bandwidth=/);
  const query = new URL(page.url()).search;
  await expect(line).not.toHaveText(lineBefore ?? '');
  await page.emulateMedia({ media: 'print' });
  const header = page.locator('header.print-header');
  await expect(header).toBeVisible();
  await expect(header.locator('.print-link')).toHaveText(
    new URL(page.url()).origin + new URL(page.url()).pathname + query,
  );
  await page.emulateMedia({ media: 'screen' });
});

for (const width of [1920, 1280, 390]) {
  test(`the export menu at ${width} px: fits, keyboard-operable, accessible`, async ({ page }) => {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 1000 });
    await openApp(page, '?v=4&alg=reno,newreno');
    // Open it from the keyboard.
    const summary = page.locator('details.export > summary');
    await summary.focus();
    await page.keyboard.press('Enter');
    await expect(page.locator('details.export')).toHaveJSProperty('open', true);
    await waitIdle(page);
    const panel = page.locator('details.export');
    await panel.scrollIntoViewIfNeeded();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, 'nothing scrolls sideways').toBeLessThanOrEqual(0);
    const box = await panel.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(width);
    const scan = await new AxeBuilder({ page }).include('details.export').analyze();
    expect(scan.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    await panel.screenshot({ path: join(ARTIFACTS, `export-menu-${width}.png`) });
  });
}
