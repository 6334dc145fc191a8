// The docs of the built site, from the docs' sources: the published docs (published.ts) and
// every doc of docs/ they link to, each rendered as a page (render.ts); the files of docs/ they
// show (images); and what is wrong (a link to a doc or file that is not there, an anchor no
// heading of its page has). Pure, given a reader of docs/: the build (vitePlugin.ts) and the
// tests use it.
import { directives, policyText } from '../csp/policy.ts';
import { PUBLISHED_DOCS, pageOf } from './published.ts';
import { docPageHtml, linksOf, renderDoc, type RenderedDoc } from './render.ts';

export interface DocsSite {
  /** Page path (relative to docs/ of the site) → HTML. */
  pages: Map<string, string>;
  /** Files of docs/ the pages show or link to (relative to docs/). */
  files: string[];
  /** Broken links and anchors, one line each ("doc: what"). */
  problems: string[];
}

/** The site's policy for a page with no inline script or style (the doc pages), as a <meta>
 *  carries it (web/src/csp/policy.ts; dist/_headers has it with frame-ancestors). */
export const DOC_POLICY = policyText(directives([], []));

/** `read(doc)`: the Markdown of docs/`doc`, or null if there is none. `exists(file)`: whether
 *  docs/`file` exists. `entries`: the docs to publish (the rest follows their links). */
export function buildDocsSite(
  read: (doc: string) => string | null,
  exists: (file: string) => boolean,
  entries: readonly string[] = PUBLISHED_DOCS,
): DocsSite {
  const problems: string[] = [];
  const sources = new Map<string, string>();
  const todo = [...entries];
  for (let doc = todo.shift(); doc !== undefined; doc = todo.shift()) {
    if (sources.has(doc)) continue;
    const text = read(doc);
    if (text === null) {
      problems.push(`${doc}: no such doc`);
      continue;
    }
    sources.set(doc, text);
    for (const target of linksOf(doc, text)) {
      if (target.kind !== 'doc' || sources.has(target.doc)) continue;
      if (read(target.doc) === null) problems.push(`${doc}: links to docs/${target.doc}, which is not there`);
      else todo.push(target.doc);
    }
  }
  const published = new Set(sources.keys());
  const rendered = new Map<string, RenderedDoc>();
  for (const [doc, text] of sources) rendered.set(doc, renderDoc(doc, text, published));

  const files = new Set<string>();
  for (const [doc, page] of rendered) {
    for (const file of page.files) {
      if (exists(file)) files.add(file);
      else problems.push(`${doc}: shows or links to docs/${file}, which is not there`);
    }
    for (const target of page.links) {
      const [where, hash] =
        target.kind === 'anchor'
          ? [doc, target.href]
          : target.kind === 'doc' && published.has(target.doc)
            ? [target.doc, target.hash]
            : [null, ''];
      if (where === null || hash.length <= 1) continue;
      const id = decodeURIComponent(hash.slice(1));
      if (!rendered.get(where)?.ids.includes(id)) problems.push(`${doc}: links to ${where}#${id}, no such heading`);
    }
  }

  // Entries first, in the list's order, then the docs they brought, by path.
  const order = [
    ...entries.filter((d) => published.has(d)),
    ...[...published].filter((d) => !entries.includes(d)).sort(),
  ];
  const nav = order.map((doc) => ({ doc, title: rendered.get(doc)?.title ?? doc, reference: !entries.includes(doc) }));
  const pages = new Map<string, string>();
  for (const doc of order) {
    const page = rendered.get(doc);
    if (page) pages.set(pageOf(doc), docPageHtml(doc, page, DOC_POLICY, nav));
  }
  return { pages, files: [...files].sort(), problems };
}
