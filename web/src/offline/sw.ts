// The service worker: keeps the whole site in a cache of its version and serves it from
// there, so a page once loaded keeps working with the network gone. Compiled by the build
// into sw.js at the site's root (vitePlugin.ts), whose first line assigns the precache list.
//
// Updates: a new build changes sw.js, so the browser installs the new worker beside the
// running one. It fetches every file of its list into a cache of its own and checks each
// against its hash; only a complete, verified cache lets it install. It then waits (no
// skipWaiting of its own) until no page uses the old worker — a later visit — or until a
// page asks for it ("Reload" in the page's notice). A cache is deleted only by the newest
// worker, once no open page was loaded from it; until then its files stay served, so a page
// of the old version finds its own files even under the new worker.
import { cacheName, cachesToDelete, clientsCacheName, route, versionOf } from './policy';
import type { PrecacheManifest } from './precache';

declare const self: ServiceWorkerGlobalScope & { __CWNDLAB_PRECACHE__?: PrecacheManifest };

const manifest = self.__CWNDLAB_PRECACHE__;
if (!manifest) throw new Error('sw.js was built without its precache list');
const { version } = manifest;
const scope = self.registration.scope;
const current = cacheName(scope, version);
const shellUrl = new URL('index.html', scope).href;

function hex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Every file of the list, fetched past the HTTP cache's stale copies and checked against
 *  its hash: a server in the middle of a deployment cannot give a mixed cache. */
async function install(files: PrecacheManifest['files']): Promise<void> {
  const cache = await caches.open(current);
  try {
    await Promise.all(
      files.map(async (file) => {
        const url = new URL(file.url, self.location.href).href;
        const response = await fetch(url, { cache: 'no-cache' });
        if (!response.ok) throw new Error(`${file.url}: ${response.status} ${response.statusText}`);
        const bytes = await response.arrayBuffer();
        const hash = hex(await crypto.subtle.digest('SHA-256', bytes));
        if (hash !== file.sha256) throw new Error(`${file.url} is not the file of version ${version}`);
        // A fresh response: no redirect flag, no transfer encoding of the original.
        const type = response.headers.get('content-type');
        await cache.put(url, new Response(bytes, { status: 200, headers: type ? { 'content-type': type } : {} }));
      }),
    );
    // Complete at the end too: an older worker's cleanup may not take it away meanwhile.
    if (!(await caches.has(current))) throw new Error(`the cache of version ${version} went away`);
    const kept = new Set((await (await caches.open(current)).keys()).map((r) => r.url));
    const lost = files.filter((f) => !kept.has(new URL(f.url, self.location.href).href));
    if (lost.length > 0) throw new Error(`the cache of version ${version} lost ${lost.map((f) => f.url).join(', ')}`);
  } catch (e) {
    await caches.delete(current);
    throw e;
  }
}

/** This scope's caches that exist, the current version first (opening one that does not
 *  exist would make an empty one). */
async function ownCaches(): Promise<string[]> {
  const names = (await caches.keys()).filter((name) => versionOf(scope, name) !== null);
  return [...names.filter((name) => name === current), ...names.filter((name) => name !== current)];
}

async function fromCaches(request: Request | string): Promise<Response> {
  for (const name of await ownCaches()) {
    const hit = await (await caches.open(name)).match(request);
    if (hit) return hit;
  }
  return fetch(request);
}

function clientKey(id: string): string {
  return new URL(`__cwndlab-clients/${encodeURIComponent(id)}`, scope).href;
}

/** Notes which version the page `client` was loaded from: the cache holding its entry
 *  script (empty when none does: a page from the network, not from a cache). */
async function noteClient(client: Client, entry: string): Promise<void> {
  let found = '';
  for (const name of await ownCaches()) {
    if (await (await caches.open(name)).match(entry)) {
      found = versionOf(scope, name) ?? '';
      break;
    }
  }
  await (await caches.open(clientsCacheName(scope))).put(clientKey(client.id), new Response(found));
}

/** Whether this worker may delete caches: only the registration's active worker, and only
 *  while no newer one installs or waits (its cache is not "old"). Where the browser does not
 *  say which worker this is, only while activating. */
function inCharge(activating: boolean): boolean {
  const { active, installing, waiting } = self.registration;
  if (installing || waiting) return false;
  const me = (self as { serviceWorker?: ServiceWorker }).serviceWorker;
  return me ? active === me : activating;
}

/** Deletes the caches of versions no open page was loaded from, and the notes of pages
 *  that are gone. While a page of this scope has not said which version it is, nothing. */
async function prune(activating = false): Promise<void> {
  if (!inCharge(activating)) return;
  const notes = await caches.open(clientsCacheName(scope));
  const live = (await self.clients.matchAll({ type: 'window', includeUncontrolled: true })).filter((c) =>
    c.url.startsWith(scope),
  );
  const liveIds = new Set(live.map((c) => c.id));
  const known = new Map<string, string>();
  for (const key of await notes.keys()) {
    const id = decodeURIComponent(new URL(key.url).pathname.split('/').pop() ?? '');
    if (!liveIds.has(id)) {
      await notes.delete(key);
      continue;
    }
    known.set(id, (await (await notes.match(key))?.text()) ?? '');
  }
  const inUse = live.every((c) => known.has(c.id)) ? new Set(known.values()) : null;
  const old = cachesToDelete(await caches.keys(), scope, version, inUse);
  if (old.length > 0 && inCharge(activating)) await Promise.all(old.map((name) => caches.delete(name)));
}

self.addEventListener('install', (event) => {
  event.waitUntil(install(manifest.files));
});

self.addEventListener('activate', (event) => {
  // The first visit's page becomes controlled at once (it was loaded from this very build).
  event.waitUntil(self.clients.claim().then(() => prune(true)));
});

self.addEventListener('fetch', (event) => {
  const how = route(event.request, scope);
  if (how === 'pass') return;
  // A navigation gets this version's page, whatever its query; everything else comes from
  // whichever version's cache has it (hashed names: one name, one content), else the network.
  event.respondWith(how === 'shell' ? fromCaches(shellUrl) : fromCaches(event.request));
});

self.addEventListener('message', (event) => {
  const data: unknown = event.data;
  if (typeof data !== 'object' || data === null) return;
  const message = data as { type?: unknown; entry?: unknown };
  if (message.type === 'skip-waiting') {
    event.waitUntil(self.skipWaiting());
  } else if (message.type === 'hello' && typeof message.entry === 'string' && event.source instanceof Client) {
    event.waitUntil(noteClient(event.source, message.entry).then(() => prune()));
  }
});

export {};
