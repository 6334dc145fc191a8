// Old links open exactly as before long links (v=5) came: every link in the docs, the lessons,
// the end-to-end specs and the unit tests (141, v=1 to v=4, wrong ones included) read by the
// v=4 codec (commit a1a5f7f) gave the state and notices whose digest oldLinks.fixture.json
// holds; the codec of today gives the same. And each is written back as before: v=4 text.
import { describe, expect, it } from 'vitest';
import { realValidator } from '../test/wasm';
import fixture from './oldLinks.fixture.json';
import { digestOf } from './oldLinks.digest';
import { splitLink } from './longLink';
import { decodeShareState, encodeShareState } from './url';

const validate = realValidator();
const LINKS = Object.entries(fixture as Record<string, string>);

describe('links from before v=5', () => {
  it('are the 141 links found in docs, lessons and tests', () => {
    expect(LINKS.length).toBe(141);
  });

  it.each(LINKS)('%s reads as it did', (link, digest) => {
    const decoded = decodeShareState(link, validate);
    expect(digestOf(decoded)).toBe(digest);
    // Short: written back as a v=4 query, with no fragment.
    const text = encodeShareState(decoded.state);
    expect(text).toMatch(/^v=4&/);
    expect(splitLink(text).fragment).toBe('');
  });
});
