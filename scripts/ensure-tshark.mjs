#!/usr/bin/env node
// The pcap tests read cwndlab's captures with Wireshark's analyser, tshark (Debian's package
// `tshark`). Finds it, or installs it with apt when we are allowed to, or stops with the
// exact command to run. `npm test` then sets CWNDLAB_REQUIRE_TSHARK=1, so the tests cannot
// be skipped.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { aptInstall } from './apt.mjs';

const say = (msg) => console.log(`\x1b[36m[tshark]\x1b[0m ${msg}`);

/** tshark's version line, or null when it is not installed. */
export function tsharkVersion() {
  try {
    return execFileSync('tshark', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .split('\n')[0]
      .trim();
  } catch {
    return null;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let version = tsharkVersion();
  if (!version) {
    say('tshark is not installed; the pcap tests need it.');
    version = aptInstall('tshark', say) ? tsharkVersion() : null;
    if (!version) {
      console.error(
        '\n[tshark] Could not install tshark. Run this, then `npm test` again:\n\n' +
          '    sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y tshark\n',
      );
      process.exit(1);
    }
  }
  say(`using ${version}`);
}
