// The build's offline step: compiles the service worker (sw.ts) as its own chunk at the
// site's root, and once every file is written (the page, its chunks, the workers, the wasm,
// the public folder), puts the list of them with their hashes on the worker's first line.
// Build only: `vite dev` and Vitest never see a service worker.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { buildManifest, SW_FILE, withManifest } from './precache.ts';

/** Every file under `dir`, as paths relative to it with `/`. */
function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) out.push(relative(dir, path).split(sep).join('/'));
    }
  };
  walk(dir);
  return out;
}

export function offlinePrecache(): Plugin {
  let outDir = '';
  return {
    name: 'cwndlab:offline-precache',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    buildStart() {
      // A chunk of its own with a fixed name: it imports nothing the page shares, so it is
      // one self-contained classic script.
      this.emitFile({ type: 'chunk', id: fileURLToPath(new URL('./sw.ts', import.meta.url)), fileName: SW_FILE });
    },
    writeBundle: {
      order: 'post',
      sequential: true,
      handler(_options, bundle) {
        const chunk = bundle[SW_FILE];
        if (!chunk || chunk.type !== 'chunk') throw new Error(`the build has no ${SW_FILE} chunk`);
        if (chunk.imports.length > 0 || chunk.dynamicImports.length > 0 || chunk.exports.length > 0) {
          const links = [...chunk.imports, ...chunk.dynamicImports, ...chunk.exports.map((e) => `export ${e}`)];
          throw new Error(`${SW_FILE} must be one classic script; it has ${links.join(', ')}`);
        }
        const files = listFiles(outDir).map((path) => ({ path, bytes: readFileSync(join(outDir, path)) }));
        const manifest = buildManifest(files);
        const swPath = join(outDir, SW_FILE);
        writeFileSync(swPath, withManifest(readFileSync(swPath, 'utf8'), manifest));
        this.info(`precache ${manifest.version}: ${manifest.files.length} files`);
      },
    },
  };
}
