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
  url.searchParams.set('alg', 'newreno');
  for (const k of ['enabled', 'rack', 'tlp']) url.searchParams.set(`f0.sack.${k}`, 'true');
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
    expect(page.url()).toContain('f0.sack.enabled=true');
    const seq = page.locator('figure[data-plot="seq-newreno"]');
    await seq.scrollIntoViewIfNeeded();
    const canvas = seq.locator('canvas').first();
    // The description counts the engine's SACK rows: many blocks, the drops marked lost.
    await expect
      .poll(async () => Number(/(\d+) SACK blocks/.exec((await canvas.getAttribute('aria-label')) ?? '')?.[1] ?? 0))
      .toBeGreaterThan(20);
    await expect(canvas).toHaveAttribute('aria-label', /[1-9]\d* marked lost/);
    await expect.poll(() => sackPixels(page, 'figure[data-plot="seq-newreno"] canvas')).toBeGreaterThan(30);
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
    await expect(state.locator('[data-field="pipe"]')).toHaveText('10 segments (10000 B)');
    await expect(state.locator('[data-field="sacked"]')).toHaveText('5 segments (5000 B)');
    await expect(state.locator('[data-field="recovery"]')).toContainText(
      /^yes, until RecoveryPoint.* 28 \(segments\)$/,
    );
    // PRR counts in cwnd's unit: segments in this ns-2-style preset.
    await expect(state.locator('[data-field="prr"]')).toHaveText('0 / 1 segments');
    await seq.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, `sack-seq-${width}.png`) });
    await state.scrollIntoViewIfNeeded();
    // No glossary tooltip over the values (the pointer away from the terms).
    await page.mouse.move(1, 1);
    await page.screenshot({ path: join(ARTIFACTS, `sack-why-${width}.png`) });
  });
}

test('the SACK settings are the schema’s, in the TCP group of All settings, and set by the link', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openApp(page, await sackLink(page));
  await page.getByText(/All settings/).click();
  const group = page.getByRole('region', { name: 'TCP sender and receiver' });
  // The engine's schema rows, as the built site has them (web/src/engine/pkg/tables.json).
  const { schema } = TABLES as unknown as { schema: { params: { path: string; label: string }[] } };
  const sack = schema.params.filter((p) => p.path.startsWith('flows[].sack.'));
  expect(sack.length).toBe(7);
  for (const p of sack) await expect(group.getByText(p.label, { exact: true }).first()).toBeVisible();
  await expect(group.getByRole('checkbox', { name: 'SACK', exact: true })).toBeChecked();
  await expect(group.getByRole('checkbox', { name: 'RACK', exact: true })).toBeChecked();
  await group.getByText('SACK', { exact: true }).first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(ARTIFACTS, 'sack-settings-390.png') });
});
