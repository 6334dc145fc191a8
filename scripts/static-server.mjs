// A static server for the built site that behaves like a plain static host set up well: the
// right MIME types (application/wasm included), a year's cache for hashed assets and
// revalidation for the rest, and each file's gzip -9 or brotli (quality 11) encoding when
// the browser accepts it (compressed once, at start, as a host serves precompressed files).
// Used by scripts/weight.mjs, scripts/lighthouse.mjs and long-run.mjs --isolated; it logs every path it serves so a
// measurement sees what the page and its workers fetched.
import { createServer } from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
};

/** The three encodings of a file's bytes. */
export function encodings(bytes) {
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    }).length,
  };
}

/**
 * The headers a site's `_headers` file gives every path (its `/*` block; the format Netlify
 * and Cloudflare Pages read), e.g. the Content-Security-Policy the build writes there
 * (web/src/csp). {} when there is no such file.
 */
export function siteHeaders(text) {
  const headers = {};
  let all = false;
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      all = line.trim() === '/*';
      continue;
    }
    const m = /^\s+([^:]+):\s*(.*)$/.exec(line);
    if (all && m) headers[m[1].trim().toLowerCase()] = m[2].trim();
  }
  return headers;
}

function listFiles(dir) {
  const out = [];
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) out.push(relative(dir, path).split(sep).join('/'));
    }
  };
  walk(dir);
  return out;
}

/**
 * Serves `dir` on 127.0.0.1 (a free port). `compress`: serve gzip/brotli encodings when
 * accepted; `headers`: more headers on every response (long-run.mjs: cross-origin isolation),
 * after those of the site's _headers file (its Content-Security-Policy).
 * Returns {url, served (the log: [{path, encoding, bytes, at (Date.now())}]), close()}.
 */
export async function serveStatic(dir, { compress = true, headers: extra = {} } = {}) {
  const files = new Map();
  // The site's own headers (dist/_headers: its Content-Security-Policy), as a host that
  // reads that file sends them; the file itself is not served.
  let site = {};
  for (const path of listFiles(dir)) {
    if (path === '_headers') {
      site = siteHeaders(readFileSync(join(dir, path), 'utf8'));
      continue;
    }
    const bytes = readFileSync(join(dir, path));
    const type = MIME[extname(path)] ?? 'application/octet-stream';
    const entry = { bytes, type };
    if (compress && !/^image\/png/.test(type) && bytes.length > 512) {
      entry.gzip = gzipSync(bytes, { level: 9 });
      entry.br = brotliCompressSync(bytes, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
      });
    }
    files.set(path, entry);
  }
  const served = [];
  const server = createServer((req, res) => {
    let path = decodeURIComponent(new URL(req.url, 'http://x').pathname).replace(/^\/+/, '');
    if (path === '' || path.endsWith('/')) path += 'index.html';
    const file = files.get(path);
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    const accept = String(req.headers['accept-encoding'] ?? '');
    const headers = {
      'content-type': file.type,
      // Hashed file names never change content: cache them for a year; the rest revalidate.
      'cache-control': path.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      vary: 'accept-encoding',
      ...site,
      ...extra,
    };
    let body = file.bytes;
    let encoding = 'identity';
    if (file.br && /\bbr\b/.test(accept)) {
      body = file.br;
      encoding = 'br';
    } else if (file.gzip && /\bgzip\b/.test(accept)) {
      body = file.gzip;
      encoding = 'gzip';
    }
    if (encoding !== 'identity') headers['content-encoding'] = encoding;
    headers['content-length'] = body.length;
    served.push({ path, encoding, bytes: body.length, at: Date.now() });
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/`,
    served,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
