// The service worker's decisions as plain functions (tested in Node): cache names, which
// requests it answers, which old caches may go. Imported by sw.ts only, so it is compiled
// into the worker's own script.

/** Cache names start with this, then the scope (two copies of the site under one origin,
 *  in different folders, keep apart), then the version. */
const PREFIX = 'cwndlab-precache ';

/** The cache of one version of the site at `scope`. */
export function cacheName(scope: string, version: string): string {
  return `${PREFIX}${scope} ${version}`;
}

/** The version of an own cache name at `scope`, or null for any other cache. */
export function versionOf(scope: string, name: string): string | null {
  const head = `${PREFIX}${scope} `;
  if (!name.startsWith(head)) return null;
  const version = name.slice(head.length);
  return /^[0-9a-f]+$/.test(version) ? version : null;
}

/** The cache where the worker at `scope` notes which version each page was loaded from. */
export function clientsCacheName(scope: string): string {
  return `cwndlab-clients ${scope}`;
}

/** The folder of the doc pages in the site (web/src/docs/published.ts DOCS_DIR; not
 *  imported: the worker's script must not share a chunk with the page). */
export const DOC_PAGES = 'docs/';

/** How the worker answers a request: `shell` (a navigation to the page: the version's
 *  index.html), `asset` (from the caches, else the network: files, and navigations to the
 *  doc pages) or `pass` (not ours: the
 *  browser fetches it as if there were no worker — other origins, other methods, other
 *  folders of the origin). */
export function route(
  request: { method: string; mode: string; url: string },
  scope: string,
): 'shell' | 'asset' | 'pass' {
  if (request.method !== 'GET') return 'pass';
  const url = new URL(request.url);
  const base = new URL(scope);
  if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) return 'pass';
  if (request.mode === 'navigate') {
    const rest = url.pathname.slice(base.pathname.length);
    if (rest === '' || rest === 'index.html') return 'shell';
    // The doc pages (web/src/docs) are files of the list: from the caches, so they open offline.
    return rest.startsWith(DOC_PAGES) && rest.endsWith('.html') ? 'asset' : 'pass';
  }
  return 'asset';
}

/** The own caches (names) that no page uses any more: every version but `current` and those
 *  of `inUse` — or none at all while a page's version is unknown (`inUse` null). */
export function cachesToDelete(
  names: readonly string[],
  scope: string,
  current: string,
  inUse: ReadonlySet<string> | null,
): string[] {
  if (inUse === null) return [];
  return names.filter((name) => {
    const version = versionOf(scope, name);
    return version !== null && version !== current && !inUse.has(version);
  });
}
