// SACK in a real browser: a link to Fall & Floyd's three drops with SACK, RACK and TLP on
// draws SACK blocks on the time–sequence plot (counted in its description, and seen as
// pixels of their colour), names them in the legend, and the Why panel shows the engine's
// SACK state at the pinned cursor; screenshots at a phone, a laptop and a projector.
import { join } from 'node:path';
import { ARTIFACTS, expect, openApp, TABLES, test } from './fixtures';

/** The preset's own link as the page writes it (every setting of its scenario), with SACK,
 *  RACK and TLP on, the cursor pinned at 2.1 s and the view on the first recovery. */
async function sackLink(page: import('@playwright/test').Page): Promise<string> {
  await openApp(page, '?v=4&preset=fall-floyd-newreno-3drops');
  await expect.poll(() => page.url()).toContain('f0.');
  const url = new URL(page.url());
  // SACK comes with the algorithm: the catalogue entry owns `sack.*`.
  url.searchParams.set('alg', 'newreno_rack_tlp');
  url.searchParams.set('t', '2.1');
  url.searchParams.set('x', '1.9:2.7');
  return url.search;
}

/** Pixels of the SACK block colour (#7b3294, within a few levels) in the canvases matching
 *  `selector`. */
async function sackPixels(page: import('@playwright/test').Page, selector: string): Promise<number> {
  return page.$$eval(selector, (canvases) =>
    (canvases as HTMLCanvasElement[]).reduce((sum, c) => {
      const ctx = c.getContext('2d');
      if (!ctx || c.width === 0) return sum;
      const { data } = ctx.getImageData(0, 0, c.width, c.height);
      let n = 0;
      for (let i = 0; i < data.length; i += 4) {
        const d =
          Math.abs((data[i] ?? 0) - 0x7b) + Math.abs((data[i + 1] ?? 0) - 0x32) + Math.abs((data[i + 2] ?? 0) - 0x94);
        if (d < 40) n += 1;
      }
      return sum + n;
    }, 0),
  );
}

for (const [width, height] of [
  [1280, 800],
  [390, 844],
  [1920, 1080],
] as const) {
  test(`a SACK link draws SACK blocks and the Why panel shows pipe at the cursor (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await openApp(page, await sackLink(page));
    expect(page.url()).toContain('alg=newreno_rack_tlp');
    const seq = page.locator('figure[data-plot="seq-newreno_rack_tlp"]');
    await seq.scrollIntoViewIfNeeded();
    const canvas = seq.locator('canvas').first();
    // The description counts the engine's SACK rows: many blocks, the drops marked lost.
    await expect
      .poll(async () => Number(/(\d+) SACK blocks/.exec((await canvas.getAttribute('aria-label')) ?? '')?.[1] ?? 0))
      .toBeGreaterThan(20);
    await expect(canvas).toHaveAttribute('aria-label', /[1-9]\d* marked lost/);
    await expect.poll(() => sackPixels(page, 'figure[data-plot="seq-newreno_rack_tlp"] canvas')).toBeGreaterThan(30);
    // The legend names them (on a phone it starts folded).
    const legend = page.locator('details.legend');
    if ((await legend.getAttribute('open')) === null) await legend.locator('summary').click();
    await expect(legend.getByRole('list', { name: 'SACK marks' })).toContainText('SACK block');
    // The Why panel at the pinned cursor (t = 2.1 s, in recovery): the engine's row there,
    // pipe 10 000 B (engine/cli: recovery_flow0.csv, the row of 2.09000036 s).
    const panel = page.locator('.explain-panel');
    await panel.scrollIntoViewIfNeeded();
    await panel.getByRole('button', { name: 'Explain this run' }).click();
    const state = panel.locator('.sack-state');
    await expect(state).toContainText('t = 2.100 s');
    await expect(state.locator('[data-field="pipe"]')).toHaveText('12 segments (12000 B)');
    await expect(state.locator('[data-field="sacked"]')).toHaveText('5 segments (5000 B)');
    await expect(state.locator('[data-field="recovery"]')).toContainText(
      /^yes, until RecoveryPoint.* 28 \(segments\)$/,
    );
    // PRR counts in cwnd's unit: segments in this ns-2-style preset.
    await expect(state.locator('[data-field="prr"]')).toHaveText('5 / 3 segments');
    await seq.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, `sack-seq-${width}.png`) });
    await state.scrollIntoViewIfNeeded();
    // No glossary tooltip over the values (the pointer away from the terms).
    await page.mouse.move(1, 1);
    await page.screenshot({ path: join(ARTIFACTS, `sack-why-${width}.png`) });
  });
}

test('in a comparison the algorithm choice owns the SACK settings: the picker offers the SACK entries, All settings leaves them out', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openApp(page, await sackLink(page));
  // The engine's schema rows and catalogue, as the built site has them (tables.json).
  const { schema, catalogue } = TABLES as unknown as {
    schema: { params: { path: string; label: string }[] };
    catalogue: { name: string; label: string; settings: Record<string, unknown> }[];
  };
  const sackEntries = catalogue.filter((e) => e.settings['sack.enabled'] === true);
  expect(sackEntries.map((e) => e.name)).toEqual(
    expect.arrayContaining(['newreno_sack', 'newreno_sack_prr', 'newreno_rack_tlp', 'cubic_linux_today']),
  );
  for (const e of sackEntries.filter((e) => e.name.startsWith('newreno')))
    await expect(page.getByRole('checkbox', { name: e.label, exact: true }).first()).toBeAttached();
  await expect(
    page.getByRole('checkbox', { name: 'NewReno + SACK + PRR + RACK-TLP', exact: true }).first(),
  ).toBeChecked();
  await page.locator('summary', { hasText: 'All settings' }).first().click();
  const group = page.getByRole('region', { name: 'TCP sender and receiver' });
  await expect(group).toBeVisible();
  await expect(group.getByText('MSS', { exact: true }).first()).toBeVisible();
  const sack = schema.params.filter((p) => p.path.startsWith('flows[].sack.'));
  expect(sack.length).toBe(7);
  await expect(group.getByRole('checkbox', { name: 'SACK', exact: true })).toHaveCount(0);
  // The compared run has SACK, so its blocks per ACK act: no note says otherwise.
  await expect(group.getByText(/No effect in these runs: it acts only when “SACK” is on/)).toHaveCount(0);
  await page.screenshot({ path: join(ARTIFACTS, 'sack-settings-390.png') });
});

test('without SACK in any compared run, All settings says the SACK settings it shows have no effect, and why (the engine’s applies_when)', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openApp(page, '?v=4&preset=fall-floyd-newreno-3drops');
  await page.locator('summary', { hasText: 'All settings' }).first().click();
  const group = page.getByRole('region', { name: 'TCP sender and receiver' });
  const { schema } = TABLES as unknown as {
    schema: { params: { path: string; label: string; applies_when?: { path: string } }[] };
  };
  const blocks = schema.params.find((p) => p.path === 'flows[].sack.blocks');
  expect(blocks?.applies_when?.path).toBe('flows[].sack.enabled');
  const note = 'No effect in these runs: it acts only when “SACK” is on, which the algorithm choice sets.';
  // Blocks per ACK and D-SACK are shown (the algorithm choice does not own them), each with the note.
  await expect(group.getByText(note)).toHaveCount(2);
  await group.getByText(note).first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(ARTIFACTS, 'sack-settings-idle-1280.png') });
  // A setting without a condition has none.
  await expect(group.getByText('MSS', { exact: true }).first()).toBeVisible();
  // Comparing a SACK entry too makes them act in that run: the notes go.
  await page.getByRole('checkbox', { name: 'NewReno + SACK (RFC 6675)', exact: true }).first().check();
  await expect(group.getByText(note)).toHaveCount(0);
});

test('bbr-random-loss compares BBR with and without SACK: both runs in the summary and the BBR model plot', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openApp(page, '?v=4&preset=bbr-random-loss');
  const summary = page.getByRole('table', { name: /^Summary/ });
  await expect(summary.getByText('BBR v1 + SACK + RACK-TLP', { exact: true })).toBeVisible();
  await expect(summary.getByText('BBR v1', { exact: true })).toBeVisible();
  const bbrPlot = page.getByRole('group', { name: /BBR/ }).first();
  await expect(bbrPlot).toBeAttached();
  await page.screenshot({ path: join(ARTIFACTS, 'bbr-sack-random-loss-1280.png') });
});
