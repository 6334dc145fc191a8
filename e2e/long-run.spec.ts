// A long, fast run in the page (issue 24): 200 s at 100 Mbit/s records ~17 million rows in
// full; the worker reduces what it keeps (engine/core/src/bounded.rs) and the page still
// draws every plot, zooms, and shows the run's digest, which is a full run's: the engine in
// Node (the same wasm) hashes every row of the same scenario without storing any.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as wasm from '../web/src/engine/pkg/cwndlab_wasm.js';
import { expect, expectCanvasesDrawn, summaryText, test, waitIdle } from './fixtures';

type Json = Record<string, unknown>;

/** The engine's tables (the defaults and the catalogue) as the page reads them. */
const TABLES = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', 'web', 'src', 'engine', 'pkg', 'tables.json'), 'utf8'),
) as { defaultScenario: Json; catalogue: { name: string; settings: Json }[] };

/** The scenario the link below makes: the defaults, NewReno's catalogue settings, the
 *  duration and the bandwidth. */
function scenario(): string {
  const s = structuredClone(TABLES.defaultScenario) as Json & { flows: Json[] };
  const entry = TABLES.catalogue.find((c) => c.name === 'newreno');
  const set = (o: Json, path: string, v: unknown) => {
    const keys = path.split('.');
    const last = keys.pop() ?? '';
    let at = o;
    for (const k of keys) at = at[k] as Json;
    at[last] = v;
  };
  const flow = s.flows[0] ?? {};
  set(flow, 'algorithm', 'newreno');
  for (const [path, v] of Object.entries(entry?.settings ?? {})) set(flow, path, v);
  set(s, 'duration', 200);
  set(s, 'network.bottleneck.bandwidth', 100_000_000);
  return JSON.stringify(s);
}

/** The digest of the scenario's run, every row hashed and none stored. */
function fullDigest(json: string): string {
  wasm.initSync({
    module: readFileSync(join(import.meta.dirname, '..', 'web', 'src', 'engine', 'pkg', 'cwndlab_wasm_bg.wasm')),
  });
  const sim = new wasm.Sim(json);
  sim.keep_rows(false);
  sim.run_to_end();
  const digest = sim.digest();
  sim.free();
  return digest;
}

test('a 200 s run at 100 Mbit/s opens, draws its plots reduced, zooms, and keeps a full run’s digest', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.goto('./?v=4&alg=newreno&duration=200&network.bottleneck.bandwidth=100000000');
  await waitIdle(page, 150_000);
  const plots =
    'figure[data-plot^="window"] canvas, figure[data-plot^="seq"] canvas, figure[data-plot^="queue"] canvas';
  await expectCanvasesDrawn(page, plots);
  expect(await summaryText(page)).toContain(fullDigest(scenario()));
  // The page says the detail is reduced, with the engine's bucket width (200 s / 4 096).
  await expect(page.getByTestId('reduced-note')).toHaveText(
    /^Detail reduced from t = \d+(\.\d+)? s: first, last, minimum and maximum per 0\.0488 s; losses, retransmissions and marks all kept\./,
  );
  // Zoomed in (the reduced rows still draw), then back.
  const hit = page.locator('figure[data-plot^="window"] .plot-hit').first();
  await hit.focus();
  for (let i = 0; i < 4; i += 1) await page.keyboard.press('+');
  await waitIdle(page);
  await expectCanvasesDrawn(page, 'figure[data-plot^="window"] canvas');
  await page.keyboard.press('0');
  await waitIdle(page);
  await expectCanvasesDrawn(page, plots);
});
