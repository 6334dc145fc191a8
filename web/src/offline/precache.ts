// The precache list the service worker installs: every file of the built site with the
// SHA-256 of its bytes, and a version made from them, so each build has its own cache. Made
// at build time (vitePlugin.ts) from what the build wrote; used by Node only (the plugin and
// the tests), never by the page.
import { createHash } from 'node:crypto';

/** One file of the site: its URL relative to the service worker (which sits at the site's
 *  root) and the SHA-256 of its bytes (hex). */
export interface PrecacheEntry {
  url: string;
  sha256: string;
}

/** What the service worker is built with. */
export interface PrecacheManifest {
  /** Names the cache: the first 16 hex digits of the SHA-256 of every entry's line. */
  version: string;
  /** Sorted by URL. */
  files: PrecacheEntry[];
}

/** The service worker's own file name (at the site's root, so its scope is the site). */
export const SW_FILE = 'sw.js';

/** The global the manifest is assigned to, on the service worker's first line. */
export const MANIFEST_GLOBAL = '__CWNDLAB_PRECACHE__';

/** Files the page never loads: the service worker itself (the browser fetches it apart,
 *  and it must not serve itself), source maps, and the hosts' header file (_headers, made
 *  by web/src/csp: hosts that read it do not serve it). */
export function isPrecached(path: string): boolean {
  return path !== SW_FILE && path !== '_headers' && !path.endsWith('.map');
}

/** The SHA-256 of `bytes`, hex. */
export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The manifest of a site from its files (paths relative to the site's root, with `/`;
 *  in any order; the service worker's own code without its manifest line, if given, counts
 *  in the version but is not listed). A file that changes, appears or goes changes the
 *  version, and so does the worker's code: a new worker never fills a running one's cache. */
export function buildManifest(files: readonly { path: string; bytes: Uint8Array | string }[]): PrecacheManifest {
  const worker = files.find((f) => f.path === SW_FILE);
  const entries = files
    .filter((f) => isPrecached(f.path))
    .map((f) => ({ url: encodeURI(f.path), sha256: sha256(f.bytes) }))
    .sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  for (let i = 1; i < entries.length; i += 1) {
    if (entries[i]?.url === entries[i - 1]?.url) throw new Error(`two files at ${entries[i]?.url ?? ''}`);
  }
  if (!entries.some((e) => e.url === 'index.html')) throw new Error('the site has no index.html');
  const lines = entries.map((e) => `${e.url} ${e.sha256}\n`).join('');
  const version = sha256(worker ? `${lines}${SW_FILE} ${sha256(worker.bytes)}\n` : lines).slice(0, 16);
  return { version, files: entries };
}

/** The service worker's text: the manifest on its first line, then the compiled worker. */
export function withManifest(workerCode: string, manifest: PrecacheManifest): string {
  return `self.${MANIFEST_GLOBAL}=${JSON.stringify(manifest)};\n${workerCode}`;
}

/** The compiled worker without its manifest line (inverse of [withManifest]). */
export function withoutManifest(sw: string): string {
  const prefix = `self.${MANIFEST_GLOBAL}=`;
  if (!sw.startsWith(prefix)) throw new Error(`${SW_FILE} has no manifest line`);
  return sw.slice(sw.indexOf('\n') + 1);
}

/** The manifest on a service worker's first line. */
export function readManifest(sw: string): PrecacheManifest {
  const prefix = `self.${MANIFEST_GLOBAL}=`;
  const line = sw.slice(0, sw.indexOf('\n'));
  if (!line.startsWith(prefix) || !line.endsWith(';')) throw new Error(`${SW_FILE} has no manifest line`);
  return JSON.parse(line.slice(prefix.length, -1)) as PrecacheManifest;
}
