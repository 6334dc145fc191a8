#!/usr/bin/env node
// The CLI tests run the documented cluster recipe through GNU parallel (Debian's `parallel`
// package). Finds it, or installs it with apt when we are allowed to (root or passwordless
// sudo), or stops with the exact command to run.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { aptInstall } from './apt.mjs';

const say = (msg) => console.log(`\x1b[36m[parallel]\x1b[0m ${msg}`);

/** True when GNU parallel runs. */
export function hasParallel() {
  const r = spawnSync('parallel', ['--version'], { stdio: ['ignore', 'pipe', 'ignore'], encoding: 'utf8' });
  return r.status === 0 && r.stdout.includes('GNU parallel');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (hasParallel()) {
    say('GNU parallel: installed');
  } else {
    say('GNU parallel is not installed; the CLI tests need it for the sharded-sweep recipe.');
    if (!aptInstall('parallel', say) || !hasParallel()) {
      console.error(
        '\n[parallel] Could not install GNU parallel. Run this, then `npm test` again:\n\n' +
          '    sudo apt-get update && sudo apt-get install -y parallel\n',
      );
      process.exit(1);
    }
  }
}
