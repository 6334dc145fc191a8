// The docs the site publishes as pages of its own (docs/NAME.md → docs/NAME.html in the built
// site, made by the build: vitePlugin.ts). The list is here, in one place, and the page links
// to a doc only through docPage(), whose argument must be on it. Besides these, the build
// publishes every doc of docs/ that a published doc links to, so no link between docs breaks.
// Plain data: the page imports it (no Node, no Markdown renderer in the page's bundle).

/** The docs a reader of the page is sent to: the export formats (the Export panel), the
 *  link format, the explanations, the parameters and the lesson guides (what a lecturer
 *  prepares a class from). Paths relative to docs/. */
export const PUBLISHED_DOCS = [
  'export.md',
  'scenario-url.md',
  'explanations.md',
  'parameters.md',
  'lessons/README.md',
  'lessons/br-tcp.md',
  'lessons/cwv.md',
  'lessons/fall-floyd.md',
  'lessons/internet.md',
  'lessons/jacobson.md',
  'lessons/netsim.md',
  'lessons/textbook.md',
  'lessons/thin-streams.md',
] as const;

export type PublishedDoc = (typeof PUBLISHED_DOCS)[number];

/** The built site's folder of the doc pages. */
export const DOCS_DIR = 'docs';

/** The page (relative to docs/) a doc (relative to docs/) is published as. */
export function pageOf(doc: string): string {
  return doc.replace(/\.md$/, '.html');
}

/** The link from the app's page (the site's root) to a published doc, at `anchor` if given. */
export function docPage(doc: PublishedDoc, anchor?: string): string {
  return `${DOCS_DIR}/${pageOf(doc)}${anchor ? `#${anchor}` : ''}`;
}
