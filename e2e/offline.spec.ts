// Offline (issue 22): the service worker keeps the whole built site; once loaded, the page
// reloads and computes with the network gone; no request leaves the origin; a new version
// installs beside an open page, which keeps working on its own files, and is taken when the
// person asks (the notice's Reload) — served from a folder of a plain static server.
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, relative, sep } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { buildManifest, readManifest, SW_FILE, withManifest, withoutManifest } from '../web/src/offline/precache';
import {
  ARTIFACTS,
  colouredPixels,
  comparisons,
  expect,
  expectCanvasesDrawn,
  openApp,
  summaryText,
  test,
  waitIdle,
  waitNewComparison,
} from './fixtures';

const DIST = join(import.meta.dirname, '..', process.env.E2E_DIST ?? 'dist');

/** Waits until a service worker is active and controls `page`. */
async function waitControlled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

/** This scope's precache caches (names), as the page sees them. */
function precaches(page: Page): Promise<string[]> {
  return page.evaluate(async () => (await caches.keys()).filter((n) => n.startsWith('cwndlab-precache ')));
}

/** Moves the bandwidth slider one stop and waits for the new comparison to be drawn;
 *  returns the summary before. */
async function moveSlider(page: Page, key = 'ArrowRight'): Promise<string> {
  const before = await summaryText(page);
  const n = await comparisons(page);
  await page.getByRole('slider', { name: 'Bottleneck bandwidth' }).focus();
  await page.keyboard.press(key);
  await waitNewComparison(page, n);
  await expect.poll(() => summaryText(page)).not.toBe(before);
  return before;
}

/** The bytes a canvas shows (to see it redrawn). */
function canvasData(page: Page): Promise<string[]> {
  return page.$$eval('figure.plot canvas', (cs) => (cs as HTMLCanvasElement[]).map((c) => c.toDataURL()));
}

test('once loaded, the app reloads and computes with the network gone, and never leaves its origin', async ({
  page,
  context,
  baseURL,
}) => {
  const origin = new URL(baseURL ?? '').origin;
  // Every request of the pages, their workers and the service worker.
  const requests: { url: string; sw: boolean }[] = [];
  context.on('request', (r) => requests.push({ url: r.url(), sw: r.serviceWorker() !== null }));
  await openApp(page, '?v=4&alg=reno,newreno');
  await waitControlled(page);
  // Every file of the build's list is in the cache of its version.
  const manifest = readManifest(readFileSync(join(DIST, SW_FILE), 'utf8'));
  expect(manifest.files.map((f) => f.url)).toEqual(
    expect.arrayContaining(['index.html', 'favicon.svg', expect.stringMatching(/\.wasm$/)]),
  );
  const missing = await page.evaluate(
    async ({ version, urls }) => {
      const name = (await caches.keys()).find((n) => n.endsWith(` ${version}`));
      if (!name) return ['no cache for this version'];
      const cache = await caches.open(name);
      const out: string[] = [];
      for (const url of urls) if (!(await cache.match(new URL(url, document.baseURI).href))) out.push(url);
      return out;
    },
    { version: manifest.version, urls: manifest.files.map((f) => f.url) },
  );
  expect(missing).toEqual([]);
  // A normal session: a change computed and drawn.
  await moveSlider(page);
  await expect.poll(() => page.url()).toContain('network.bottleneck.bandwidth=');
  const online = await summaryText(page);

  await context.setOffline(true);
  expect(await page.evaluate(() => navigator.onLine)).toBe(false);
  const offline: { url: string; fromSw: boolean }[] = [];
  context.on('response', (r) => offline.push({ url: r.url(), fromSw: r.fromServiceWorker() }));
  await page.reload();
  await waitIdle(page);
  await expect(page.getByRole('heading', { name: 'cwndlab' })).toBeVisible();
  // The same link computes the same runs, digests included, from the cached engine.
  expect(await summaryText(page)).toBe(online);
  await expectCanvasesDrawn(page, 'figure.plot canvas');
  // A change offline: the workers compute, the plots redraw.
  const drawn = await canvasData(page);
  await moveSlider(page, 'ArrowLeft');
  await expectCanvasesDrawn(page, 'figure.plot canvas');
  expect(await canvasData(page)).not.toEqual(drawn);
  expect((await colouredPixels(page, 'figure.plot canvas')).length).toBe(drawn.length);
  // The favicon too came from the cache (a request the page makes, not the app's code).
  expect(await page.evaluate(async () => (await fetch('favicon.svg')).ok)).toBe(true);

  // Offline, the page, its scripts, styles, engine and workers came from the service worker.
  expect(offline.map((r) => r.url)).toEqual(
    expect.arrayContaining([expect.stringMatching(/\.wasm$/), expect.stringMatching(/engine\.worker-.*\.js$/)]),
  );
  expect(offline.filter((r) => !r.fromSw).map((r) => r.url)).toEqual([]);

  // The service worker's own fetches (its install) are among those recorded.
  expect(requests.filter((r) => r.sw).map((r) => r.url)).toContain(`${origin}/index.html`);
  expect(
    requests.map((r) => r.url).filter((url) => !url.startsWith(`${origin}/`)),
    'requests that left the origin',
  ).toEqual([]);
});

/** A site as files: path relative to the site's root → bytes. */
type Site = Map<string, Buffer>;

function readSite(dir: string): Site {
  const site: Site = new Map();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, e.name);
      if (e.isDirectory()) walk(path);
      else site.set(relative(dir, path).split(sep).join('/'), readFileSync(path));
    }
  };
  walk(dir);
  return site;
}

/** A second version of `v1`: its scripts and styles under new names (so the server no
 *  longer has the old ones), the page marked `cwndlab-build=v2`, and its own worker and list. */
function secondVersion(v1: Site): Site {
  const renames = [...v1.keys()]
    .filter((p) => /^assets\/.*\.(js|css)$/.test(p))
    .map((p) => [p.slice('assets/'.length), p.slice('assets/'.length).replace(/\.(js|css)$/, '-v2.$1')] as const);
  const v2: Site = new Map();
  for (const [path, bytes] of v1) {
    if (path === SW_FILE) continue;
    let out = bytes;
    if (/\.(html|js|css)$/.test(path)) {
      let text = bytes.toString('utf8');
      for (const [from, to] of renames) text = text.split(from).join(to);
      if (path === 'index.html')
        text = text.replace('<head>', '<head>\n    <meta name="cwndlab-build" content="v2" />');
      out = Buffer.from(text);
    }
    const name = renames.find(([from]) => path === `assets/${from}`);
    v2.set(name ? `assets/${name[1]}` : path, out);
  }
  const worker = withoutManifest(v1.get(SW_FILE)?.toString('utf8') ?? '');
  const manifest = buildManifest([
    ...[...v2].map(([path, bytes]) => ({ path, bytes })),
    { path: SW_FILE, bytes: worker },
  ]);
  v2.set(SW_FILE, Buffer.from(withManifest(worker, manifest)));
  return v2;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
};

/** A plain static server of `site()` under `/lab/` (the site in a folder of a host). */
async function serve(site: () => Site): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = path.startsWith('/lab/') ? path.slice('/lab/'.length) || 'index.html' : null;
    const bytes = file === null ? undefined : site().get(file);
    if (!file || !bytes) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-cache',
    });
    res.end(bytes);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/lab/`, server };
}

/** The build this page runs: 'v2' for the second version, '' for the real one. */
function build(page: Page): Promise<string> {
  return page.evaluate(() => document.querySelector('meta[name="cwndlab-build"]')?.getAttribute('content') ?? '');
}

/** Whether any cache holds `url`. */
function cached(page: Page, url: string): Promise<boolean> {
  return page.evaluate(async (u) => (await caches.match(u)) !== undefined, url);
}

/** What the server, or the page's service worker, answers the page for `url`. */
function status(page: Page, url: string): Promise<number> {
  return page.evaluate(async (u) => (await fetch(u)).status, url);
}

test('a new version installs beside an open page, which keeps its own files; Reload takes it', async ({ context }) => {
  const v1 = readSite(DIST);
  const v2 = secondVersion(v1);
  let current = v1;
  const { url, server } = await serve(() => current);
  try {
    const worker = [...v1.keys()].find((p) => p.startsWith('assets/engine.worker-')) ?? '';
    expect(worker).not.toBe('');
    const a = await context.newPage();
    await a.goto(`${url}?v=4&alg=reno,newreno`);
    await waitIdle(a);
    await waitControlled(a);
    expect(await build(a)).toBe('');
    await expect.poll(() => precaches(a)).toHaveLength(1);

    // The server gets the second version; the open page checks for it.
    current = v2;
    expect((await fetch(`${url}${worker}`)).status).toBe(404);
    await a.evaluate(async () => {
      await (await navigator.serviceWorker.getRegistration())?.update();
    });
    await a.waitForFunction(async () => (await navigator.serviceWorker.getRegistration())?.waiting != null);
    // Installed beside: two complete caches, the old worker still in charge, a notice.
    await expect.poll(() => precaches(a)).toHaveLength(2);
    await expect(a.locator('.sw-update')).toContainText('A new version of cwndlab is ready.');
    await expect(
      a.getByRole('complementary', { name: 'New version' }).getByRole('button', { name: 'Reload' }),
    ).toBeVisible();
    const scan = await new AxeBuilder({ page: a }).analyze();
    expect(scan.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    await a.locator('.sw-update').screenshot({ path: join(ARTIFACTS, 'offline-update-notice.png') });
    // The open page keeps working, on its own files (the server has them no more).
    await moveSlider(a);
    expect(await status(a, `${url}${worker}`)).toBe(200);

    // A second page still opens the running version until the person asks.
    const b = await context.newPage();
    await b.goto(`${url}?v=4&alg=newreno`);
    await waitIdle(b);
    expect(await build(b)).toBe('');
    await expect(b.locator('.sw-update')).toBeVisible();
    const reloaded = b.waitForEvent('load');
    await b.locator('.sw-update').getByRole('button', { name: 'Reload' }).click();
    await reloaded;
    expect(await build(b)).toBe('v2');
    await waitIdle(b);
    await waitControlled(b);
    await expectCanvasesDrawn(b, 'figure.plot canvas');
    await moveSlider(b);

    // The first page, now under the new worker, still works and still finds its files.
    await moveSlider(a, 'ArrowLeft');
    expect(await status(a, `${url}${worker}`)).toBe(200);
    expect(await precaches(a)).toHaveLength(2);

    // Once no page uses the old version, its cache goes.
    await a.close();
    await b.reload();
    await waitIdle(b);
    expect(await build(b)).toBe('v2');
    await expect.poll(() => precaches(b)).toHaveLength(1);
    expect(await cached(b, `${url}${worker}`)).toBe(false);
  } finally {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }
});
