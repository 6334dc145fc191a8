// The build's Content-Security-Policy step (build only: `vite dev` injects inline scripts and
// styles of its own and runs without a policy). Once the page's HTML is final (after the
// stylesheet was inlined), puts the policy in its head as a <meta>, with the SHA-256 of each
// inline <style> and <script> it holds, and writes the same policy, with frame-ancestors,
// to dist/_headers for hosts that read that file (policy.ts).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { HEADERS_FILE, headersFile, metaTag, policyFor } from './policy.ts';

export function contentSecurityPolicy(): Plugin {
  let outDir = '';
  let header: string | null = null;
  return {
    name: 'cwndlab:csp',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    transformIndexHtml: {
      // After every other plugin's 'post' step (this plugin is listed last): the HTML hashed
      // is the HTML served.
      order: 'post',
      handler(html) {
        const policy = policyFor(html);
        header = policy.header;
        const charset = /<meta charset="[^"]*"\s*\/?>/i;
        if (!charset.test(html)) throw new Error('index.html has no <meta charset> to put the policy after');
        return html.replace(charset, (m) => `${m}\n    ${metaTag(policy.meta)}`);
      },
    },
    writeBundle() {
      if (header === null) throw new Error('the build made no index.html to take the policy from');
      writeFileSync(join(outDir, HEADERS_FILE), headersFile(header));
    },
  };
}
