import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { directives, policyText } from '../csp/policy';
import { docPage, PUBLISHED_DOCS } from './published';
import { linkTarget, renderDoc, slugger } from './render';
import { buildDocsSite, DOC_POLICY } from './site';

const DOCS = fileURLToPath(new URL('../../../docs/', import.meta.url));

describe('a doc rendered as a page', () => {
  const md = [
    '# Export: formats',
    '',
    'See [the CLI](cli.md#cwndlab-run), [qlog](#qlog-traces), [lessons](lessons/README.md),',
    '[the changelog](../CHANGELOG.md), [qvis](https://qvis.quictools.info) and [a draft](draft.md).',
    '',
    '![The panel](images/export-panel.png "Export panel")',
    '',
    '## qlog traces',
    '',
    '| Column | Unit |',
    '|---|--:|',
    '| `cwnd_bytes` | bytes |',
    '',
    '## CUBIC (RFC 9438; `engine/core/src/tcp/cc/cubic.rs`)',
    '',
    '## qlog traces',
  ].join('\n');
  const published = new Set(['export.md', 'cli.md', 'lessons/README.md']);
  const page = renderDoc('export.md', md, published);

  it('has its first heading as title, and GitHub’s heading ids, repeats numbered', () => {
    expect(page.title).toBe('Export: formats');
    expect(page.ids).toEqual([
      'export-formats',
      'qlog-traces',
      'cubic-rfc-9438-enginecoresrctcpcccubicrs',
      'qlog-traces-1',
    ]);
    expect(page.body).toContain('<h2 id="qlog-traces">');
    expect(page.body).toContain('<code>engine/core/src/tcp/cc/cubic.rs</code>');
  });

  it('links published docs as pages (anchor kept), keeps anchors, web links and images of docs/', () => {
    expect(page.body).toContain('<a href="cli.html#cwndlab-run">the CLI</a>');
    expect(page.body).toContain('<a href="lessons/README.html">lessons</a>');
    expect(page.body).toContain('<a href="#qlog-traces">qlog</a>');
    expect(page.body).toContain('<a href="https://qvis.quictools.info" rel="noopener">qvis</a>');
    expect(page.body).toContain('<img src="images/export-panel.png" alt="The panel" title="Export panel"');
    expect(page.files).toEqual(['images/export-panel.png']);
  });

  it('shows a link the site cannot follow (the source tree, an unpublished doc) as text naming the file', () => {
    expect(page.body).not.toMatch(/href="[^"]*\.md/);
    expect(page.body).toContain(
      '<span class="not-on-site" title="CHANGELOG.md: in the project’s source, not on this site">the changelog</span>',
    );
    expect(page.body).toContain('title="draft.md: in the project’s source, not on this site">a draft</span>');
  });

  it('renders GitHub tables (alignment too), in a box that scrolls', () => {
    expect(page.body).toMatch(/<div class="table-wrap"><table>\s*<thead>/);
    expect(page.body).toContain('<th align="right">Unit</th>');
    expect(page.body).toContain('<td><code>cwnd_bytes</code></td>');
  });

  it('tells where a link goes from where it is written', () => {
    expect(linkTarget('lessons/netsim.md', '../validation.md#3-the-netsim-lab')).toEqual({
      kind: 'doc',
      doc: 'validation.md',
      hash: '#3-the-netsim-lab',
    });
    expect(linkTarget('lessons/README.md', 'fall-floyd.md')).toEqual({
      kind: 'doc',
      doc: 'lessons/fall-floyd.md',
      hash: '',
    });
    expect(linkTarget('lessons/internet.md', '../../README.md#command-line')).toEqual({
      kind: 'source',
      path: 'README.md',
    });
    expect(linkTarget('export.md', 'images/a%20b.png')).toEqual({ kind: 'file', file: 'images/a b.png', hash: '' });
    expect(linkTarget('export.md', 'mailto:x@example.org').kind).toBe('web');
  });

  it('numbers repeated ids as GitHub does, even against an id that looks numbered', () => {
    const slug = slugger();
    expect(['A b', 'A b', 'a-b-1', 'A b'].map(slug)).toEqual(['a-b', 'a-b-1', 'a-b-1-1', 'a-b-2']);
    expect(slugger()('Long links (v=5)')).toBe('long-links-v5');
  });
});

describe('the docs of the built site', () => {
  const read = (doc: string) => (existsSync(DOCS + doc) ? readFileSync(DOCS + doc, 'utf8') : null);
  const site = buildDocsSite(read, (file) => existsSync(DOCS + file));

  it('publishes every listed doc and every doc they link to, with no broken link or anchor', () => {
    expect(site.problems).toEqual([]);
    for (const doc of PUBLISHED_DOCS) expect(site.pages.has(doc.replace(/\.md$/, '.html'))).toBe(true);
    expect(site.pages.has('cli.html')).toBe(true); // export.md links to it
    expect(site.files).toContain('images/export-panel.png');
    for (const html of site.pages.values()) expect(html).not.toMatch(/href="(?!https?:)[^"]*\.md[#"]/);
  });

  it('pages: a title, the way back to the lab, the stylesheet as a file, the site’s policy, no inline style or script', () => {
    const html = site.pages.get('lessons/README.html') ?? '';
    expect(html).toContain('<title>Lesson guides · cwndlab docs</title>');
    expect(html).toContain('<a class="back" href="../../">');
    expect(html).toContain('<link rel="stylesheet" href="../docs.css">');
    expect(html).toContain('<a href="../export.html">');
    expect(html).toContain('<a href="../lessons/README.html" aria-current="page">');
    expect(DOC_POLICY).toBe(policyText(directives([], [])));
    expect(DOC_POLICY).toContain("style-src 'self'");
    for (const page of site.pages.values()) {
      expect(page).not.toMatch(/<script|<style|\son[a-z]+=/i);
      expect(page).toContain(DOC_POLICY.replace(/'/g, "'"));
    }
  });

  it('reports what is broken', () => {
    const docs: Record<string, string> = {
      'a.md': '# A\n\n[b](b.md#nowhere) [c](c.md) [top](#a) [gone](#gone) ![x](images/none.png)',
      'b.md': '# B\n',
    };
    const broken = buildDocsSite(
      (d) => docs[d] ?? null,
      () => false,
      ['a.md'],
    );
    expect(broken.problems).toEqual([
      'a.md: links to docs/c.md, which is not there',
      'a.md: shows or links to docs/images/none.png, which is not there',
      'a.md: links to b.md#nowhere, no such heading',
      'a.md: links to a.md#gone, no such heading',
    ]);
    expect([...broken.pages.keys()]).toEqual(['a.html', 'b.html']);
  });

  it('the page links to a published doc by its page', () => {
    expect(docPage('export.md')).toBe('docs/export.html');
    expect(docPage('lessons/README.md', 'in-class-predict-then-reveal')).toBe(
      'docs/lessons/README.html#in-class-predict-then-reveal',
    );
  });
});
