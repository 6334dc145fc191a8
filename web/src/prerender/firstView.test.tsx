// The first view rendered at build time: what it shows (the default page with nothing
// computed, laid out as a phone's first render), that it needs nothing of the engine, and
// where it goes in index.html. Hydration of it in a real page: e2e/first-view.spec.ts.
import { readFileSync } from 'node:fs';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DeferredPart, loadDeferredNow } from '../app/Deferred';
import { renderFirstView } from './firstView';
import { withFirstView } from './vitePlugin';

describe('the prerendered first view', () => {
  const html = renderFirstView();

  it('is the default page before any result: header, summary of dashes, status, the Why panel', () => {
    expect(html).toContain('<h1>cwndlab</h1>');
    expect(html).toContain('Summary');
    expect(html).toContain('Starting the simulation engine…');
    expect(html).toContain('Why? Step through the decisions');
    // No number computed: every result cell is a dash, no digest.
    expect(html).not.toMatch(/<td[^>]*>\d/);
    // The link field is empty (no page address at build time): an empty value attribute,
    // written `value` or `value=""`.
    expect(html).toMatch(/<input id="share-url"[^>]*\svalue(="")?[\s/>]/);
  });

  it('leaves out what a phone mounts after its first paint, and every deferred part', () => {
    expect(html).toContain('class="panel controls-panel"');
    expect(html).not.toContain('plot-stack');
    expect(html).not.toContain('<canvas');
    expect(html).not.toContain('<!--$!-->');
  });

  it('goes into #root in place of its placeholder, markers and whitespace included', () => {
    const page = readFileSync(new URL('../../index.html', import.meta.url), 'utf8');
    const out = withFirstView(page, '<div class="app">X</div>');
    expect(out).toContain('<div id="root"><div class="app">X</div></div>');
    expect(out).not.toContain('<!--first-view-->');
    expect(out).not.toContain('<!--/first-view-->');
    expect(() => withFirstView('<div id="root"></div>', 'X')).toThrow(/no <div id="root">/);
  });
});

describe('DeferredPart', () => {
  it('is its fallback at build time even once the gate is open, as the page is while it hydrates', () => {
    loadDeferredNow();
    expect(renderToString(<DeferredPart fallback={<i>stand-in</i>}>{<b>part</b>}</DeferredPart>)).toBe(
      '<i>stand-in</i>',
    );
  });
});
