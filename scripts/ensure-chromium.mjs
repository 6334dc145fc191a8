#!/usr/bin/env node
// The end-to-end tests run in Debian's Chromium (Playwright's own download needs a CDN
// this machine cannot reach). Finds it, or installs it with apt when we are allowed to,
// or stops with the exact command to run.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { aptInstall } from './apt.mjs';

const say = (msg) => console.log(`\x1b[36m[chromium]\x1b[0m ${msg}`);

/** The browser the tests will use, or null. */
export function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/lib/chromium/chromium', '/usr/bin/chromium'];
  return candidates.find((p) => p && existsSync(p)) ?? null;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let path = findChromium();
  if (!path) {
    if (process.env.CHROMIUM_PATH) {
      console.error(`[chromium] CHROMIUM_PATH=${process.env.CHROMIUM_PATH} does not exist.`);
      process.exit(1);
    }
    say('Chromium is not installed; the end-to-end tests need it.');
    path = aptInstall('chromium', say) ? findChromium() : null;
    if (!path) {
      console.error(
        '\n[chromium] Could not install Chromium. Run this, then `npm test` again:\n\n' +
          '    sudo apt-get update && sudo apt-get install -y chromium\n\n' +
          'or point CHROMIUM_PATH at an existing Chromium or Chrome binary.\n',
      );
      process.exit(1);
    }
  }
  let version = '';
  try {
    version = execFileSync(path, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    // Some builds refuse --version as root; the tests will still launch it.
  }
  say(`using ${path}${version ? ` (${version})` : ''}`);
}
