// A doc (Markdown under docs/) as a page of the built site: GitHub-flavoured Markdown by
// `marked`, headings with GitHub's ids (so the docs' `#anchor` links, written for GitHub,
// work here too), links to other docs from `x.md` to `x.html`, files of docs/ (images) kept
// and listed for the build to copy, links that leave docs/ (the source tree: CHANGELOG.md,
// engine/…) shown as text naming the file (the site does not carry them). Pure: used by the
// build (vitePlugin.ts) and the tests, never by the page.
import { Marked, type Tokens } from 'marked';
import { DOCS_DIR, pageOf } from './published.ts';

/** Where a link of a doc goes. `doc` and `file`: paths relative to docs/. */
export type LinkTarget =
  | { kind: 'web'; href: string }
  | { kind: 'anchor'; href: string }
  | { kind: 'doc'; doc: string; hash: string }
  | { kind: 'file'; file: string; hash: string }
  | { kind: 'source'; path: string };

/** What `href`, in the doc `from` (relative to docs/), points at. */
export function linkTarget(from: string, href: string): LinkTarget {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) return { kind: 'web', href };
  if (href.startsWith('#') || href === '') return { kind: 'anchor', href };
  const base = `file:///${DOCS_DIR}/${from}`;
  const url = new URL(href, base);
  const path = decodeURIComponent(url.pathname.slice(1));
  if (!path.startsWith(`${DOCS_DIR}/`)) return { kind: 'source', path };
  const inDocs = path.slice(DOCS_DIR.length + 1);
  return inDocs.endsWith('.md')
    ? { kind: 'doc', doc: inDocs, hash: url.hash }
    : { kind: 'file', file: inDocs, hash: url.hash };
}

/** The link and image targets of a doc, in order (its Markdown links; raw HTML is not read). */
export function linksOf(from: string, markdown: string): LinkTarget[] {
  const out: LinkTarget[] = [];
  const marked = new Marked();
  marked.walkTokens(marked.lexer(markdown), (token) => {
    if (token.type === 'link' || token.type === 'image') out.push(linkTarget(from, (token as Tokens.Link).href));
  });
  return out;
}

/** GitHub's heading ids: lower case, punctuation dropped, each space a hyphen; a repeated
 *  id gets -1, -2, … (as github-slugger). One per page. */
export function slugger(): (text: string) => string {
  const seen = new Map<string, number>();
  return (text) => {
    const base = text
      .toLowerCase()
      .trim()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    let id = base;
    let n = seen.get(base) ?? 0;
    while (seen.has(id)) {
      n += 1;
      id = `${base}-${n}`;
    }
    seen.set(base, n);
    seen.set(id, 0);
    return id;
  };
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Text of rendered inline HTML (tags dropped, the renderer's entities read back). */
function plainText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** A doc rendered: the body's HTML, its title (its first level-1 heading), the ids of its
 *  headings, where its links go (after rewriting) and the files of docs/ it needs. */
export interface RenderedDoc {
  body: string;
  title: string;
  ids: string[];
  links: LinkTarget[];
  files: string[];
}

/** Renders the doc `doc` (relative to docs/). `published`: the docs that have pages (a link
 *  to any other doc is shown as text, like a link into the source tree). */
export function renderDoc(doc: string, markdown: string, published: ReadonlySet<string>): RenderedDoc {
  const ids: string[] = [];
  const links: LinkTarget[] = [];
  const files = new Set<string>();
  let title = '';
  const slug = slugger();
  /** The link as published, or null where the site has no such file. */
  const publishedHref = (href: string): string | null => {
    const target = linkTarget(doc, href);
    links.push(target);
    if (target.kind === 'doc') {
      if (!published.has(target.doc)) return null;
      return href.replace(/\.md(?=$|[?#])/, '.html');
    }
    if (target.kind === 'file') {
      files.add(target.file);
      return href;
    }
    return target.kind === 'source' ? null : href;
  };
  const notOnSite = (href: string, inner: string) =>
    `<span class="not-on-site" title="${escapeHtml(`${href.replace(/^(\.\.\/)+/, '')}: in the project’s source, not on this site`)}">${inner}</span>`;
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading(this, { tokens, depth }: Tokens.Heading) {
        const inner = this.parser.parseInline(tokens);
        const text = plainText(inner);
        if (depth === 1 && title === '') title = text;
        const id = slug(text);
        ids.push(id);
        return `<h${depth} id="${escapeHtml(id)}"><a class="anchor" href="#${escapeHtml(id)}" aria-hidden="true" tabindex="-1">#</a>${inner}</h${depth}>\n`;
      },
      link(this, token: Tokens.Link) {
        const href = publishedHref(token.href);
        const inner = this.parser.parseInline(token.tokens);
        if (href === null) return notOnSite(token.href, inner);
        const title = token.title ? ` title="${escapeHtml(token.title)}"` : '';
        const external = linkTarget(doc, token.href).kind === 'web' ? ' rel="noopener"' : '';
        return `<a href="${escapeHtml(href)}"${title}${external}>${inner}</a>`;
      },
      image(this, token: Tokens.Image) {
        const href = publishedHref(token.href);
        if (href === null) return notOnSite(token.href, escapeHtml(token.text));
        const title = token.title ? ` title="${escapeHtml(token.title)}"` : '';
        return `<img src="${escapeHtml(href)}" alt="${escapeHtml(token.text)}"${title} loading="lazy">`;
      },
    },
  });
  // Wide tables scroll in a box of their own on a phone; the text beside them does not.
  const body = marked
    .parse(markdown, { async: false })
    .replace(/<table>/g, '<div class="table-wrap"><table>')
    .replace(/<\/table>/g, '</table></div>');
  return { body, title: title || doc, ids, links, files: [...files].sort() };
}

/** The page's HTML. `policy`: the Content-Security-Policy for its <meta> (the site's, with
 *  no inline script or style: this page has none). `nav`: the published docs to list, with
 *  their titles, in two groups: the listed docs (using the lab) and those they link to
 *  (reference: how it is built, validated, measured). */
export function docPageHtml(
  doc: string,
  rendered: RenderedDoc,
  policy: string,
  nav: readonly { doc: string; title: string; reference: boolean }[],
): string {
  const depth = doc.split('/').length; // docs/ is one folder below the site's root
  const root = '../'.repeat(depth);
  const toDocs = '../'.repeat(depth - 1);
  const navList = (reference: boolean) =>
    nav
      .filter((item) => item.reference === reference)
      .map(({ doc: d, title }) => {
        const current = d === doc ? ' aria-current="page"' : '';
        return `<li><a href="${escapeHtml(toDocs + pageOf(d))}"${current}>${escapeHtml(title)}</a></li>`;
      })
      .join('\n          ');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta http-equiv="Content-Security-Policy" content="${escapeHtml(policy)}">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${escapeHtml(rendered.title)} · cwndlab docs</title>
    <link rel="icon" href="${root}favicon.svg" type="image/svg+xml">
    <link rel="stylesheet" href="${toDocs}${DOC_STYLESHEET}">
  </head>
  <body>
    <header class="doc-bar">
      <a class="back" href="${root}">← cwndlab: back to the lab</a>
      <span class="source">docs/${escapeHtml(doc)}</span>
    </header>
    <main class="doc">
${rendered.body}
    </main>
    <footer class="doc-nav">
      <nav aria-label="Docs">
        <h2>Docs on this site</h2>
        <div class="doc-nav-groups">
          <div>
            <h3>Using the lab</h3>
            <ul>
          ${navList(false)}
            </ul>
          </div>
          <div>
            <h3>Reference</h3>
            <ul>
          ${navList(true)}
            </ul>
          </div>
        </div>
      </nav>
    </footer>
  </body>
</html>
`;
}

/** The doc pages' stylesheet, in docs/ of the built site. */
export const DOC_STYLESHEET = 'docs.css';
