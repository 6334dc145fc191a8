// The build's docs step: renders the docs the page links to (published.ts, and the docs they
// link to) as pages of the site, docs/NAME.html, with their stylesheet (docs/docs.css) and
// the files of docs/ they show (images), all emitted into the bundle: the offline precache
// lists them like every other file (offline/vitePlugin.ts), and the site's policy covers them
// (no inline style or script; their own <meta>, and dist/_headers for every path). A broken
// link or anchor between the docs is a build warning (and a failing unit test: render.test.ts).
// `vite dev` serves the same pages, rendered on request.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { DOCS_DIR } from './published.ts';
import { DOC_STYLESHEET } from './render.ts';
import { buildDocsSite, type DocsSite } from './site.ts';

const SOURCE = fileURLToPath(new URL('../../../docs/', import.meta.url));
const STYLESHEET = fileURLToPath(new URL('./docs.css', import.meta.url));

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

function docsSite(): DocsSite {
  return buildDocsSite(
    (doc) => (isFile(join(SOURCE, doc)) ? readFileSync(join(SOURCE, doc), 'utf8') : null),
    (file) => isFile(join(SOURCE, file)),
  );
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.csv': 'text/csv; charset=utf-8',
};

export function docPages(): Plugin {
  return {
    name: 'cwndlab:doc-pages',
    generateBundle() {
      const site = docsSite();
      for (const problem of site.problems) this.warn(`docs: ${problem}`);
      for (const [page, html] of site.pages)
        this.emitFile({ type: 'asset', fileName: `${DOCS_DIR}/${page}`, source: html });
      this.emitFile({ type: 'asset', fileName: `${DOCS_DIR}/${DOC_STYLESHEET}`, source: readFileSync(STYLESHEET) });
      for (const file of site.files) {
        this.emitFile({ type: 'asset', fileName: `${DOCS_DIR}/${file}`, source: readFileSync(join(SOURCE, file)) });
      }
      this.info(`docs: ${site.pages.size} pages, ${site.files.length} files`);
    },
    configureServer(server) {
      // The same pages in `vite dev`, rendered on each request (the docs change while it runs).
      server.middlewares.use((req, res, next) => {
        const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
        const prefix = `${server.config.base.replace(/^\.?\/?/, '/')}${DOCS_DIR}/`.replace(/\/+/g, '/');
        if (!path.startsWith(prefix)) return next();
        const rest = path.slice(prefix.length);
        let body: string | Buffer | undefined;
        if (rest === DOC_STYLESHEET) body = readFileSync(STYLESHEET);
        else if (rest.endsWith('.html')) body = docsSite().pages.get(rest);
        else if (!rest.split('/').includes('..') && isFile(join(SOURCE, rest))) body = readFileSync(join(SOURCE, rest));
        if (body === undefined) return next();
        res.setHeader('Content-Type', TYPES[extname(rest)] ?? 'application/octet-stream');
        res.end(body);
      });
    },
  };
}
