#!/usr/bin/env node
// The end-to-end tests read the page's printed PDFs with Poppler's tools (pdftotext,
// pdftoppm, pdfimages: Debian's package `poppler-utils`). Finds them, or installs them with
// apt when we are allowed to, or stops with the exact command to run.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { aptInstall } from './apt.mjs';

const say = (msg) => console.log(`\x1b[36m[poppler]\x1b[0m ${msg}`);
const TOOLS = ['pdftotext', 'pdftoppm', 'pdfimages'];

/** The tools that are missing. */
export function missingTools() {
  return TOOLS.filter((t) => {
    try {
      execFileSync(t, ['-v'], { stdio: 'ignore' });
      return false;
    } catch (e) {
      // Poppler's tools print their version and may exit non-zero; only "not found" counts.
      return e?.code === 'ENOENT';
    }
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let missing = missingTools();
  if (missing.length) {
    say(`${missing.join(', ')} missing; the print tests need poppler-utils.`);
    missing = aptInstall('poppler-utils', say) ? missingTools() : missing;
    if (missing.length) {
      console.error(
        '\n[poppler] Could not install poppler-utils. Run this, then `npm test` again:\n\n' +
          '    sudo apt-get update && sudo apt-get install -y poppler-utils\n',
      );
      process.exit(1);
    }
  }
  say(`using ${TOOLS.join(', ')}`);
}
