// The transfers view (issue 40, short flows): a link with drawn short transfers opens the
// view; its CDF is drawn and its table shows the engine's summary of the transfers, which the
// engine in Node (the same wasm) computes for the same scenario.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as wasm from '../web/src/engine/pkg/cwndlab_wasm.js';
import { expect, expectCanvasesDrawn, openApp, test, waitIdle } from './fixtures';

type Json = Record<string, unknown>;

const PKG = join(import.meta.dirname, '..', 'web', 'src', 'engine', 'pkg');
const TABLES = JSON.parse(readFileSync(join(PKG, 'tables.json'), 'utf8')) as {
  defaultScenario: Json;
  catalogue: { name: string; settings: Json }[];
};

/** The link's settings: drawn transfers of 30 kB, a mean gap of 0.4 s, for 6 s. */
const SETTINGS: [string, unknown][] = [
  ['duration', 6],
  ['flows.0.app.kind', 'transfers'],
  ['flows.0.app.write_size', 30000],
  ['flows.0.app.write_interval', 0.4],
];
const LINK =
  '?v=4&alg=newreno&duration=6&f0.app.kind=transfers&f0.app.write_size=30000&f0.app.write_interval=0.4' +
  '&plots=window,transfers';

function set(o: Json, path: string, v: unknown) {
  const keys = path.split('.');
  const last = keys.pop() ?? '';
  let at = o;
  for (const k of keys) at = at[k] as Json;
  at[last] = v;
}

/** The engine's summary of flow 0's transfers for the link's scenario. */
function engineTransfers(): Record<string, number | null> {
  const s = structuredClone(TABLES.defaultScenario);
  const flow = (s.flows as Json[])[0] ?? {};
  set(flow, 'algorithm', 'newreno');
  for (const [path, v] of Object.entries(TABLES.catalogue.find((c) => c.name === 'newreno')?.settings ?? {}))
    set(flow, path, v);
  for (const [path, v] of SETTINGS) set(s, path, v);
  wasm.initSync({ module: readFileSync(join(PKG, 'cwndlab_wasm_bg.wasm')) });
  const sim = new wasm.Sim(JSON.stringify(s));
  sim.run_to_end();
  const summary = JSON.parse(sim.summary_json()) as { flows: { transfers: Record<string, number | null> }[] };
  sim.free();
  const t = summary.flows[0]?.transfers;
  if (!t) throw new Error('no transfers in the engine summary');
  return t;
}

test('the transfers view draws the completion-time CDF and shows the engine’s summary', async ({ page }) => {
  await openApp(page, LINK);
  await waitIdle(page);
  const view = page.locator('section.transfer-plots');
  await expect(view.locator('.plot-title').first()).toHaveText('Transfers: completion times');
  await expectCanvasesDrawn(page, 'figure[data-plot="transfers-cdf"] canvas');
  const want = engineTransfers();
  expect(want.completed).toBeGreaterThan(3);
  const row = view.locator('table[data-table="transfers"] tr[data-run="newreno"]');
  for (const field of ['completed', 'mean_s', 'p50_s', 'p90_s', 'p99_s']) {
    await expect(row.locator(`td[data-field="${field}"]`)).toHaveAttribute('data-value', String(want[field]));
  }
  // Columns named as in the summary CSV (the engine's vocabulary).
  await expect(view.locator('table[data-table="transfers"] thead')).toContainText('transfer_p90_s');
  // The CDF's description gives the same count and median (ms).
  const canvas = view.locator('figure[data-plot="transfers-cdf"] canvas');
  await expect(canvas).toHaveAttribute('aria-label', new RegExp(`: ${want.completed} transfers, median `));
  // The link keeps the view.
  await expect.poll(() => page.url()).toContain('plots=window,transfers');
});
