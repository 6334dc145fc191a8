import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DOCS_DIR } from '../docs/published';
import { cacheName, cachesToDelete, clientsCacheName, DOC_PAGES, route, versionOf } from './policy';
import { buildManifest, readManifest, withManifest, withoutManifest } from './precache';

const SITE = [
  { path: 'index.html', bytes: '<!doctype html><script type="module" src="./assets/index-abc.js"></script>' },
  { path: 'assets/index-abc.js', bytes: 'console.log(1)' },
  { path: 'assets/engine.worker-def.js', bytes: 'self.onmessage = () => {}' },
  { path: 'assets/cwndlab_wasm_bg-123.wasm', bytes: new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]) },
  { path: 'favicon.svg', bytes: '<svg/>' },
  { path: 'sw.js', bytes: 'the worker' },
  { path: 'assets/index-abc.js.map', bytes: '{}' },
  // The hosts' header file (web/src/csp): hosts that read it do not serve it.
  { path: '_headers', bytes: "/*\n  Content-Security-Policy: default-src 'self'\n" },
];

describe('the precache list', () => {
  it('lists every file of the site but the worker, source maps and _headers, sorted, with their SHA-256', () => {
    const m = buildManifest(SITE);
    expect(m.files.map((f) => f.url)).toEqual([
      'assets/cwndlab_wasm_bg-123.wasm',
      'assets/engine.worker-def.js',
      'assets/index-abc.js',
      'favicon.svg',
      'index.html',
    ]);
    expect(m.files.find((f) => f.url === 'favicon.svg')?.sha256).toBe(
      createHash('sha256').update('<svg/>').digest('hex'),
    );
    expect(m.version).toMatch(/^[0-9a-f]{16}$/);
  });

  it('has one version per content: the order of files does not matter, any change does', () => {
    const m = buildManifest(SITE);
    expect(buildManifest([...SITE].reverse())).toEqual(m);
    // Source maps are not part of the version; the worker's code is, though it is not listed.
    expect(buildManifest(SITE.filter((f) => !f.path.endsWith('.map'))).version).toBe(m.version);
    const newWorker = SITE.map((f) => (f.path === 'sw.js' ? { ...f, bytes: 'another worker' } : f));
    expect(buildManifest(newWorker).files).toEqual(m.files);
    expect(buildManifest(newWorker).version).not.toBe(m.version);
    const changed = SITE.map((f) => (f.path === 'favicon.svg' ? { ...f, bytes: '<svg />' } : f));
    expect(buildManifest(changed).version).not.toBe(m.version);
    expect(buildManifest([...SITE, { path: 'robots.txt', bytes: '' }]).version).not.toBe(m.version);
    expect(buildManifest(SITE.filter((f) => f.path !== 'favicon.svg')).version).not.toBe(m.version);
    // A file moved is another site.
    const moved = SITE.map((f) => (f.path === 'favicon.svg' ? { ...f, path: 'icon.svg' } : f));
    expect(buildManifest(moved).version).not.toBe(m.version);
  });

  it('refuses a site without a page, and writes URLs', () => {
    expect(() => buildManifest(SITE.filter((f) => f.path !== 'index.html'))).toThrow('no index.html');
    expect(buildManifest([...SITE, { path: 'a b/ü.txt', bytes: '' }]).files.map((f) => f.url)).toContain(
      'a%20b/%C3%BC.txt',
    );
  });

  it('goes on the worker’s first line and reads back', () => {
    const m = buildManifest(SITE);
    const code = 'var e=1;\nself.addEventListener(`fetch`,()=>{});\n';
    const sw = withManifest(code, m);
    expect(sw.split('\n')[0]).toMatch(/^self\.__CWNDLAB_PRECACHE__=\{.*\};$/);
    expect(readManifest(sw)).toEqual(m);
    expect(withoutManifest(sw)).toBe(code);
    expect(() => readManifest(code)).toThrow('no manifest line');
  });
});

describe('the service worker’s policy', () => {
  const scope = 'https://example.org/lab/';

  it('names its caches by scope and version, and knows only its own', () => {
    const name = cacheName(scope, '0123456789abcdef');
    expect(versionOf(scope, name)).toBe('0123456789abcdef');
    expect(versionOf('https://example.org/', name)).toBeNull();
    expect(versionOf(scope, clientsCacheName(scope))).toBeNull();
    expect(versionOf(scope, 'something else')).toBeNull();
  });

  it('answers navigations to the page with the page, assets and doc pages from the caches, and nothing else', () => {
    const get = (url: string, mode = 'cors') => route({ method: 'GET', mode, url }, scope);
    expect(get('https://example.org/lab/', 'navigate')).toBe('shell');
    expect(get('https://example.org/lab/?v=4&alg=reno', 'navigate')).toBe('shell');
    expect(get('https://example.org/lab/index.html?v=4', 'navigate')).toBe('shell');
    expect(get('https://example.org/lab/docs/', 'navigate')).toBe('pass');
    // The doc pages are files of the site: a navigation to one is answered from the caches.
    expect(get('https://example.org/lab/docs/export.html', 'navigate')).toBe('asset');
    expect(get('https://example.org/lab/docs/lessons/README.html', 'navigate')).toBe('asset');
    expect(get('https://example.org/lab/other.html', 'navigate')).toBe('pass');
    expect(DOC_PAGES).toBe(`${DOCS_DIR}/`);
    expect(get('https://example.org/lab/assets/index-abc.js')).toBe('asset');
    expect(get('https://example.org/lab/favicon.svg', 'no-cors')).toBe('asset');
    // Other origins, other folders of the origin, other methods: never touched.
    expect(get('https://cdn.example.com/lab/x.js')).toBe('pass');
    expect(get('http://example.org/lab/x.js')).toBe('pass');
    expect(get('https://example.org/other/x.js')).toBe('pass');
    expect(get('https://example.org/lab')).toBe('pass');
    expect(route({ method: 'POST', mode: 'cors', url: 'https://example.org/lab/x' }, scope)).toBe('pass');
  });

  it('deletes only old versions of its scope that no page uses, and none while a page is unknown', () => {
    const names = [
      cacheName(scope, 'aaaa'),
      cacheName(scope, 'bbbb'),
      cacheName(scope, 'cccc'),
      cacheName('https://example.org/', 'aaaa'),
      clientsCacheName(scope),
      'another app',
    ];
    expect(cachesToDelete(names, scope, 'cccc', new Set())).toEqual([
      cacheName(scope, 'aaaa'),
      cacheName(scope, 'bbbb'),
    ]);
    expect(cachesToDelete(names, scope, 'cccc', new Set(['aaaa', '']))).toEqual([cacheName(scope, 'bbbb')]);
    expect(cachesToDelete(names, scope, 'cccc', null)).toEqual([]);
  });
});
