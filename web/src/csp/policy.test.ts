// The Content-Security-Policy the build puts in the page and in dist/_headers (policy.ts).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashSource, headersFile, inlineParts, metaTag, policyFor } from './policy';

const PAGE = `<!doctype html><html><head><meta charset="UTF-8" />
<script type="module" crossorigin src="./assets/index-abc.js"></script>
<style>.a{color:red}</style>
</head><body><div id="root"></div><script>window.x = 1</script></body></html>`;

describe('the content security policy', () => {
  it('hashes an inline element’s exact contents (SHA-256, base64)', () => {
    const expected = createHash('sha256').update('.a{color:red}').digest('base64');
    expect(hashSource('.a{color:red}')).toBe(`'sha256-${expected}'`);
  });

  it('finds the inline styles and scripts, never a script with src', () => {
    expect(inlineParts(PAGE)).toEqual({ scripts: ['window.x = 1'], styles: ['.a{color:red}'] });
  });

  it('allows the origin, wasm compilation and the hashed inline parts, nothing inline or remote else', () => {
    const { meta, header } = policyFor(PAGE);
    const directive = (name: string) =>
      meta
        .split('; ')
        .find((d) => d.startsWith(`${name} `))
        ?.slice(name.length + 1);
    expect(directive('default-src')).toBe("'self'");
    expect(directive('script-src')).toBe(`'self' 'wasm-unsafe-eval' ${hashSource('window.x = 1')}`);
    expect(directive('style-src')).toBe(`'self' ${hashSource('.a{color:red}')}`);
    expect(directive('style-src-attr')).toBe("'unsafe-inline'");
    expect(directive('worker-src')).toBe("'self'");
    expect(directive('connect-src')).toBe("'self'");
    expect(directive('img-src')).toBe("'self' blob: data:");
    expect(directive('object-src')).toBe("'none'");
    expect(directive('base-uri')).toBe("'self'");
    expect(directive('form-action')).toBe("'self'");
    // No source outside the origin, no eval, no inline script by keyword.
    expect(meta).not.toMatch(/https?:|\*|'unsafe-eval'/);
    expect(directive('script-src')).not.toContain('unsafe-inline');
    // frame-ancestors is ignored in a <meta>: the header only.
    expect(meta).not.toContain('frame-ancestors');
    expect(header).toBe(`${meta}; frame-ancestors 'self'`);
  });

  it('writes a meta element and a header file that carry it', () => {
    const { meta, header } = policyFor(PAGE);
    expect(metaTag(meta)).toBe(`<meta http-equiv="Content-Security-Policy" content="${meta}">`);
    expect(metaTag('a "b" & c')).toContain('content="a &quot;b&quot; &amp; c"');
    expect(headersFile(header)).toContain(`/*\n  Content-Security-Policy: ${header}\n`);
  });
});
