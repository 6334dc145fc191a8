/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { contentSecurityPolicy } from './src/csp/vitePlugin.ts';
import { docPages } from './src/docs/vitePlugin.ts';
import { offlinePrecache } from './src/offline/vitePlugin.ts';
import { prerenderFirstView } from './src/prerender/vitePlugin.ts';

const here = fileURLToPath(new URL('.', import.meta.url));

/** Puts the page's stylesheet (one file, ~8 KB gzip) into the HTML: the first paint waits
 *  for no second request (build only). */
function inlineCss(): Plugin {
  const inlined: string[] = [];
  return {
    name: 'cwndlab:inline-css',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle ?? {};
        return html.replace(/<link rel="stylesheet"[^>]*href="\.\/(assets\/[^"]+\.css)">/g, (link, file: string) => {
          const css = bundle[file];
          if (!css || css.type !== 'asset') return link;
          delete bundle[file];
          inlined.push(file.slice('assets/'.length));
          return `<style>${String(css.source).replace(/<\/style/gi, '<\\/style')}</style>`;
        });
      },
    },
    writeBundle: {
      order: 'post',
      handler(_options, bundle) {
        // No script may ask for it later: a dynamic import's preload list would fetch a file
        // that is not there (main.tsx imports every stylesheet, and only it, so none does).
        for (const chunk of Object.values(bundle)) {
          const name = chunk.type === 'chunk' ? inlined.find((f) => chunk.code.includes(f)) : undefined;
          if (name) throw new Error(`${chunk.fileName} loads ${name}, which is inlined into the HTML`);
        }
      },
    },
  };
}

/** The modules the start-up script (src/start.tsx) shares with the plot kinds loaded when
 *  first shown (the dynamic imports of plots/registry.ts and plots/PlotStack.tsx; see
 *  plots/core/lazyModule.ts), in one chunk loaded with the page. Left to itself the bundler
 *  makes a chunk per set of importers: nine small files more on the first load, for which
 *  Lighthouse's phone model took 5–10 points (docs/performance.md). What the entry itself
 *  imports and the packages stay where the bundler puts them (React's in the chunk main.tsx
 *  loads first, evaluated in a task of its own). */
/** What the bundler's chunking tells of a module (rolldown's ChunkingContext, in part). */
interface ChunkingContext {
  getModuleInfo(id: string): { importedIds: readonly string[]; dynamicallyImportedIds: readonly string[] } | null;
}

function sharedWithLazyPlots(): (id: string, ctx: ChunkingContext) => string | null {
  const entry = `${here}src/main.tsx`;
  const start = `${here}src/start.tsx`;
  const lazyImporters = [`${here}src/plots/registry.ts`, `${here}src/plots/PlotStack.tsx`];
  let cache: { ctx: ChunkingContext; shared: Set<string> } | null = null;
  /** The modules `roots` reach by static imports. */
  const reach = (ctx: ChunkingContext, roots: readonly string[]) => {
    const seen = new Set<string>();
    const todo = [...roots];
    for (let id = todo.pop(); id !== undefined; id = todo.pop()) {
      if (seen.has(id)) continue;
      seen.add(id);
      todo.push(...(ctx.getModuleInfo(id)?.importedIds ?? []));
    }
    return seen;
  };
  const sharedSet = (ctx: ChunkingContext) => {
    const lazyRoots = lazyImporters.flatMap((m) => ctx.getModuleInfo(m)?.dynamicallyImportedIds ?? []);
    if (lazyRoots.length === 0) throw new Error('no plot is loaded when first shown: check sharedWithLazyPlots');
    const lazy = reach(ctx, lazyRoots);
    const entryOwn = reach(ctx, [entry]);
    return new Set(
      [...reach(ctx, [start])].filter((m) => lazy.has(m) && !entryOwn.has(m) && !m.includes('/node_modules/')),
    );
  };
  return (id, ctx) => {
    if (cache?.ctx !== ctx) cache = { ctx, shared: sharedSet(ctx) };
    return cache.shared.has(id) ? 'page-shared' : null;
  };
}

/** Preloads the start-up chunk (src/start.tsx, which the entry imports dynamically so that
 *  its evaluation is a task of its own) and every chunk it imports, from the HTML: the
 *  browser fetches them with the entry, not one round trip after it (build only). */
function preloadStart(): Plugin {
  return {
    name: 'cwndlab:preload-start',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle ?? {};
        const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
        const start = chunks.find((c) => c.facadeModuleId?.endsWith('/src/start.tsx'));
        if (!start) throw new Error('the build has no chunk for src/start.tsx');
        const files: string[] = [];
        const visit = (file: string) => {
          if (files.includes(file)) return;
          files.push(file);
          const chunk = bundle[file];
          if (chunk?.type === 'chunk') chunk.imports.forEach(visit);
        };
        visit(start.fileName);
        const links = files.map((f) => `<link rel="modulepreload" crossorigin href="./${f}">`).join('\n    ');
        return html.replace('</head>', `    ${links}\n  </head>`);
      },
    },
  };
}

// The page is written against React's API and runs on Preact's implementation of it
// (preact/compat): about 10 KiB gzip of runtime in place of React DOM's ~66, the first load's
// largest piece after the engine (docs/performance.md, issue 24). Everything that imports
// React — the app, zustand — gets Preact; the types stay React's.
const uiRuntime = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom\/server$/, replacement: 'preact/compat/server' },
  { find: /^react\/jsx-(dev-)?runtime$/, replacement: 'preact/jsx-runtime' },
];

export default defineConfig({
  root: here,
  resolve: { alias: uiRuntime },
  // The build's prerender renders through Vite's SSR loader: zustand must be bundled there too,
  // or Node would load it with the real React.
  ssr: { noExternal: ['zustand'] },
  // Relative asset paths: the built site works from any folder of any static host.
  base: './',
  publicDir: fileURLToPath(new URL('../public', import.meta.url)),
  // docPages: the docs the page links to, as pages of the site (docs/*.html; src/docs);
  // offlinePrecache: the service worker and its precache list (build only; docs/architecture.md);
  // inlineCss: the stylesheet is in the HTML (the engine's wasm is not preloaded: the page
  // renders before it arrives, and on a slow link the scripts come first;
  // docs/performance.md); preloadStart: the start-up chunk preloaded from the HTML;
  // prerenderFirstView: the first view's HTML, so the first paint
  // needs no script (src/prerender); contentSecurityPolicy (last: it hashes the final
  // HTML): the policy as a <meta> in the page and in dist/_headers (web/src/csp/policy.ts).
  plugins: [
    react(),
    docPages(),
    offlinePrecache(),
    inlineCss(),
    preloadStart(),
    prerenderFirstView(fileURLToPath(import.meta.url)),
    contentSecurityPolicy(),
  ],
  build: {
    // E2E_DIST: another folder of the repository (several worktrees building at once).
    outDir: fileURLToPath(new URL(`../${process.env.E2E_DIST ?? 'dist'}`, import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // The bundler's runtime and the preload helper in a chunk of their own: in the entry
    // (where they would go), every chunk importing them would also list the entry's
    // stylesheet, which is inlined into the HTML and not a file (inlineCss).
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'runtime', test: /rolldown[\\/]runtime|vite[\\/]preload-helper/ },
            // The UI runtime in the chunk main.tsx loads first (its own task), whatever else shares it.
            { name: 'client', test: /node_modules[\\/]preact[\\/]/ },
            { name: sharedWithLazyPlots() },
          ],
        },
      },
    },
  },
  // A module worker that shares chunks with the page needs the ES format (vitejs/vite#18585).
  worker: { format: 'es' },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
  test: {
    root: here,
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'node',
    // Several tests run the engine over every catalogue entry or preset (seconds on an idle
    // machine); on a busy 2-core runner 5 s is not enough, and a timeout there says nothing
    // about the page.
    testTimeout: 60_000,
    // Through Vite's resolver (the aliases above), not Node's: they import React.
    server: { deps: { inline: ['zustand', 'preact', '@testing-library/preact'] } },
  },
});
