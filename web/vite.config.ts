/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { contentSecurityPolicy } from './src/csp/vitePlugin.ts';
import { offlinePrecache } from './src/offline/vitePlugin.ts';

const here = fileURLToPath(new URL('.', import.meta.url));

/** Puts the page's stylesheet (one file, ~8 KB gzip) into the HTML: the first paint waits
 *  for no second request (build only). */
function inlineCss(): Plugin {
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
          return `<style>${String(css.source).replace(/<\/style/gi, '<\\/style')}</style>`;
        });
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
  // docs/performance.md); contentSecurityPolicy (last: it hashes the final HTML): the
  // policy as a <meta> in the page and in dist/_headers (web/src/csp/policy.ts).
  plugins: [react(), offlinePrecache(), inlineCss(), contentSecurityPolicy()],
  build: {
    outDir: fileURLToPath(new URL('../dist', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
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
