// The page's Content-Security-Policy (issue 25): only the site's own origin, plus what
// WebAssembly needs. Made at build time (vitePlugin.ts) from the built index.html, whose
// inline stylesheet (and inline scripts, if any) it allows by their SHA-256; used by Node
// only (the plugin, the tests, scripts/static-server.mjs via dist/_headers), never by the
// page. docs/robustness.md explains each source.
import { createHash } from 'node:crypto';

/** A CSP hash source for `text` (exactly the element's contents). */
export function hashSource(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** The policy's directives, in order. `scripts` and `styles`: the hash sources of the
 *  page's inline <script> and <style> elements. */
export function directives(scripts: readonly string[], styles: readonly string[]): [string, string[]][] {
  return [
    // Anything not named below: this origin only.
    ['default-src', ["'self'"]],
    // The page's and workers' modules; 'wasm-unsafe-eval' lets them compile the engine
    // (WebAssembly.compile / instantiate), and nothing else: no eval, no inline script
    // but the hashed ones (none today).
    ['script-src', ["'self'", "'wasm-unsafe-eval'", ...scripts]],
    // The inline stylesheet (by hash) and the lazily loaded panels' CSS files.
    ['style-src', ["'self'", ...styles]],
    // Style attributes: the exports write each SVG element's computed style into its style
    // attribute (export/figures.ts inlineSvg) and the printed plots carry them. Attributes
    // cannot run script or load anything (every URL still goes through img-src etc.).
    ['style-src-attr', ["'unsafe-inline'"]],
    // The engine, export and sheet workers and the offline service worker: files of the site.
    ['worker-src', ["'self'"]],
    // fetch() of the wasm; the service worker's fetches.
    ['connect-src', ["'self'"]],
    // The favicon; blob: the PNG export draws the figure's SVG from an object URL
    // (export/figures.ts svgToPng); data: SVG images in the stylesheet, if any.
    ['img-src', ["'self'", 'blob:', 'data:']],
    ['font-src', ["'self'"]],
    ['manifest-src', ["'self'"]],
    ['media-src', ["'none'"]],
    ['object-src', ["'none'"]],
    ['frame-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['form-action', ["'self'"]],
  ];
}

/** The policy as one header or meta value. */
export function policyText(list: [string, string[]][]): string {
  return list.map(([name, sources]) => `${name} ${sources.join(' ')}`).join('; ');
}

/** Directives a <meta> cannot carry (the browser ignores them there): the header only.
 *  frame-ancestors: the page may be framed by its own origin only (a host that must embed
 *  it, e.g. a course site, widens this in its own header). */
export const HEADER_ONLY: [string, string[]][] = [['frame-ancestors', ["'self'"]]];

/** The inline <script> (no src) and <style> contents of an HTML page. */
export function inlineParts(html: string): { scripts: string[]; styles: string[] } {
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)]
    .filter((m) => !/\bsrc\s*=/i.test(m[1] ?? ''))
    .map((m) => m[2] ?? '')
    .filter((s) => s.length > 0);
  const styles = [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)].map((m) => m[1] ?? '');
  return { scripts, styles };
}

/** The policy of a built page: its meta value and its header value (with HEADER_ONLY). */
export function policyFor(html: string): { meta: string; header: string } {
  const { scripts, styles } = inlineParts(html);
  const list = directives([...new Set(scripts.map(hashSource))], [...new Set(styles.map(hashSource))]);
  return { meta: policyText(list), header: policyText([...list, ...HEADER_ONLY]) };
}

/** The <meta> element that carries `policy` (first in <head>: it covers only what follows). */
export function metaTag(policy: string): string {
  return `<meta http-equiv="Content-Security-Policy" content="${policy.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">`;
}

/** The header file's name in the built site (never precached: hosts do not serve it). */
export const HEADERS_FILE = '_headers';

/** dist/_headers (Netlify, Cloudflare Pages and hosts that read the same file; the static
 *  server of the measuring scripts too): the policy with frame-ancestors, on every path. */
export function headersFile(header: string): string {
  return [
    '# Made by the build (web/src/csp/vitePlugin.ts). The same policy is in index.html as a',
    '# <meta>, which is all a plain static host needs; frame-ancestors works only as a header.',
    '/*',
    `  Content-Security-Policy: ${header}`,
    '  X-Content-Type-Options: nosniff',
    '  Referrer-Policy: no-referrer',
    '',
  ].join('\n');
}
