// What the page-measuring scripts (bench.mjs, long-run.mjs, weight.mjs, lighthouse.mjs)
// share: their `--name value` options, the checks that a build and Chromium are there, and
// serving a build with `vite preview` the way `npm run preview` does.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findChromium } from './ensure-chromium.mjs';

/** The repository's root. */
export const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');

/** The command line's options: opt('name', fallback) reads `--name value`, flag('name')
 *  whether `--name` is there. */
export function cliOptions(argv = process.argv.slice(2)) {
  const opt = (name, fallback) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 && i + 1 < argv.length ? argv[i + 1] : fallback;
  };
  return { argv, opt, flag: (name) => argv.includes(`--${name}`) };
}

/** Exits with the reason when `dir` holds no built site. */
export function requireBuild(dir) {
  if (!existsSync(join(dir, 'index.html'))) {
    console.error(`No ${dir}/index.html: run \`npm run build:site\` first (or pass another folder).`);
    process.exit(1);
  }
}

/** Debian's Chromium, or an exit with how to install it. */
export function requireChromium() {
  const path = findChromium();
  if (!path) {
    console.error('No Chromium: run `node scripts/ensure-chromium.mjs`.');
    process.exit(1);
  }
  return path;
}

/** Serves `dist` with vite preview on 127.0.0.1:port; resolves once it answers. */
export async function vitePreview(dist, port) {
  const server = spawn(
    join(root, 'node_modules', '.bin', 'vite'),
    [
      'preview',
      '--config',
      'web/vite.config.ts',
      '--outDir',
      dist,
      '--host',
      '127.0.0.1',
      '--strictPort',
      '--port',
      String(port),
    ],
    { cwd: root, stdio: 'ignore' },
  );
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; ; i += 1) {
    try {
      if ((await fetch(url)).ok) break;
    } catch {
      // not up yet
    }
    if (i > 100) throw new Error('vite preview did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, close: () => server.kill() };
}
