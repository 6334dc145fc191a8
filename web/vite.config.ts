/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { offlinePrecache } from './src/offline/vitePlugin.ts';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  // Relative asset paths: the built site works from any folder of any static host.
  base: './',
  publicDir: fileURLToPath(new URL('../public', import.meta.url)),
  // offlinePrecache: the service worker and its precache list (build only; docs/architecture.md).
  plugins: [react(), offlinePrecache()],
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
