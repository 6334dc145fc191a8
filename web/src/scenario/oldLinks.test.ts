// Old links open exactly as before long links (v=5) came: every link in the docs, the lessons,
// the end-to-end specs and the unit tests (141, v=1 to v=4, wrong ones included), read and
// written back by the v=4 codec (commit a1a5f7f), gave the link text and the notices (their
// keys) that oldLinks.fixture.json holds; the codec of today gives the same. The written text
// names every value that differs from the engine's defaults and the whole view, so the same
// text is the same state (the round-trip tests in url.test.ts); it is v=4 with no fragment.
// One entry changed on purpose: `?v=2&lesson=fall-floyd-reno-1drops` named a preset without a
// lesson (a notice, no lesson) until Fall & Floyd got lessons (issue 43); it now opens one.
// The three links with cross traffic are written back with one more field per source, ping's
// `interval` at its default (`:0.1`; issue 40's ping sources): they open the same state.
import { describe, expect, it } from 'vitest';
import { realValidator } from '../test/wasm';
import fixture from './oldLinks.fixture.json';
import { decodeShareState, encodeShareState } from './url';

const validate = realValidator();
const LINKS = Object.entries(fixture as Record<string, { written: string; notices: string[] }>);

describe('links from before v=5', () => {
  it('are the 141 links found in docs, lessons and tests', () => {
    expect(LINKS.length).toBe(141);
  });

  it.each(LINKS)('%s reads and is written back as it was', (link, want) => {
    const decoded = decodeShareState(link, validate);
    expect(decoded.notices.map((n) => n.key)).toEqual(want.notices);
    const written = encodeShareState(decoded.state);
    expect(written).toBe(want.written);
    expect(written).toMatch(/^v=4&[^#]*$/);
  });
});
