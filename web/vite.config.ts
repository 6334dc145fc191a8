/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { contentSecurityPolicy } from './src/csp/vitePlugin.ts';
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

export default defineConfig({
  root: here,
  // Relative asset paths: the built site works from any folder of any static host.
  base: './',
  publicDir: fileURLToPath(new URL('../public', import.meta.url)),
  // offlinePrecache: the service worker and its precache list (build only; docs/architecture.md);
  // inlineCss: the stylesheet is in the HTML (the engine's wasm is not preloaded: the page
  // renders before it arrives, and on a slow link the scripts come first;
  // docs/performance.md); preloadStart: the start-up chunk preloaded from the HTML;
  // prerenderFirstView: the first view's HTML, so the first paint
  // needs no script (src/prerender); contentSecurityPolicy (last: it hashes the final
  // HTML): the policy as a <meta> in the page and in dist/_headers (web/src/csp/policy.ts).
  plugins: [
    react(),
    offlinePrecache(),
    inlineCss(),
    preloadStart(),
    prerenderFirstView(fileURLToPath(import.meta.url)),
    contentSecurityPolicy(),
  ],
  build: {
    outDir: fileURLToPath(new URL('../dist', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // The bundler's runtime and the preload helper in a chunk of their own: in the entry
    // (where they would go), every chunk importing them would also list the entry's
    // stylesheet, which is inlined into the HTML and not a file (inlineCss).
    rolldownOptions: {
      output: {
        codeSplitting: { groups: [{ name: 'runtime', test: /rolldown[\\/]runtime|vite[\\/]preload-helper/ }] },
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
  },
});
