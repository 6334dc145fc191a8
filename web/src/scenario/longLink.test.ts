// Long links (v=5): the compact list and flow-range forms, the fragment, and what the page
// does with links that are cut short. docs/scenario-url.md "Long links".
import { describe, expect, it } from 'vitest';
import { realValidator } from '../test/wasm';
import {
  compactPairs,
  expandPairs,
  joinFragment,
  joinPairs,
  longLinkText,
  MAX_UNPACKED_ITEMS,
  packList,
  QUERY_LIMIT,
  splitLink,
  unpackList,
} from './longLink';
import { defaultShareState, type ShareState } from './shareState';
import type { QueryPairs } from './upgraders';
import { decodeShareState, encodeShareState, sharePairs } from './url';
import { everyNth, LONG_CASES, longState } from './longLink.cases';

const validate = realValidator();
const noNote = () => {
  throw new Error('no notice expected');
};

describe('packed lists', () => {
  it.each([
    // Drops: segments as steps from the one before, attempt left out while it stays the same.
    ['f0.drops', '14:1,26:1,28:1', '~14,12,2'],
    ['f0.drops', '14:2,26:2,28:1', '~14:2,12,2:1'],
    // A constant step is one item repeated.
    ['f0.drops', Array.from({ length: 100 }, (_, i) => `${10 * (i + 1)}:1`).join(','), '~10*100'],
    // Backwards is a negative step; a far jump down is written as it is (`_`).
    ['f0.drops', '500:1,499:1,3:1', '~500,-1,_3'],
    // Writes: at from the write before, bytes left out while they stay the same.
    ['f0.app.writes', '0.5:1000,1:1000,1.5:1000,2:2000', '~0.5:1000,0.5*2,:2000'],
    // Float steps only where they give back the exact double; otherwise the value as it is.
    ['f0.app.writes', '0.1:100,0.2:100,0.30000000000000004:100,0.4:100', '~0.1:100,0.1*3'],
    // The timeline: the setting and the value left out while they stay the same.
    [
      'tl',
      '3.25:network.bottleneck.bandwidth:4000000,3.5:network.bottleneck.bandwidth:5000000,3.75:network.bottleneck.bandwidth:5000000',
      '~3.25:network.bottleneck.bandwidth:4000000,0.25::5000000,0.25',
    ],
  ])('%s=%s is written %s and read back exactly', (key, plain, packed) => {
    expect(packList(key, plain)).toBe(packed);
    expect(unpackList(key, packed)).toBe(plain);
  });

  it('leaves a list alone when packing does not make it shorter or an item lacks a field', () => {
    expect(packList('f0.drops', '14:2')).toBeNull();
    expect(packList('f0.drops', '14,26:1')).toBeNull();
    expect(packList('tl', '3:f0.app.write_interval:0.1')).toBeNull();
    expect(packList('f0.drops', '')).toBeNull();
  });

  it('refuses what is not a packed list, and lists that would be too long', () => {
    expect(unpackList('f0.drops', '~x:1')).toEqual({ error: '"x:1" does not start with a number' });
    expect(unpackList('f0.drops', '~1:1:1')).toEqual({ error: '"1:1:1" is not a packed item' });
    expect(unpackList('f0.drops', '~1*0')).toEqual({ error: '"1*0" is not a packed item' });
    expect(unpackList('f0.drops', `~1*999999`)).toEqual({ error: `it has more than ${MAX_UNPACKED_ITEMS} items` });
    expect(unpackList('f0.drops', '~')).toBe('');
  });

  it('a bad packed list in a link falls back to the list’s default with notices', () => {
    const { state, notices } = decodeShareState('?v=5&alg=reno&f0.drops=~x', validate);
    expect(state.scenario.flows).toEqual(defaultShareState().scenario.flows);
    expect(notices.map((n) => n.key)).toEqual(['f0.drops', 'f0.drops']);
    expect(notices[0]?.message).toContain('cannot be read');
  });
});

describe('flow ranges', () => {
  it('writes three or more consecutive flows with the same value as one key, and expands it', () => {
    const pairs: QueryPairs = [
      ['v', '4'],
      ['f0.start', '1'],
      ['f1.start', '2'],
      ['f2.start', '2'],
      ['f3.start', '2'],
      ['f4.start', '2'],
      ['f5.start', '3'],
      ['f1.app.kind', 'thin'],
      ['f2.app.kind', 'thin'],
    ];
    const compact = compactPairs(pairs);
    expect(joinPairs(compact)).toBe('v=5&f0.start=1&f1-4.start=2&f5.start=3&f1.app.kind=thin&f2.app.kind=thin');
    expect(expandPairs(compact, noNote)).toEqual([['v', '5'], ...pairs.slice(1)]);
  });

  it('ignores a range that is not one, with a notice', () => {
    const notes: string[] = [];
    expect(expandPairs([['f3-1.start', '2']], (k) => notes.push(k))).toEqual([]);
    expect(notes).toEqual(['f3-1.start']);
  });
});

describe('the fragment', () => {
  it('splits a link at the first #', () => {
    expect(splitLink('?v=5&a=1#~b=2#c')).toEqual({ query: 'v=5&a=1', fragment: '~b=2#c' });
    expect(splitLink('v=4&alg=reno')).toEqual({ query: 'v=4&alg=reno', fragment: '' });
  });

  it('joins the pairs after #~ to the query’s, and says when the link was cut', () => {
    const query: QueryPairs = [
      ['v', '5'],
      ['frag', '17'],
    ];
    expect(joinFragment(query, '~duration=5&seed=7', noNote)).toEqual([
      ['v', '5'],
      ['duration', '5'],
      ['seed', '7'],
    ]);
    const notes: string[] = [];
    const note = (_k: string, m: string) => notes.push(m);
    // Cut in the middle of `seed=7`: the last pair is left out, not misread.
    expect(joinFragment(query, '~duration=5&se', note)).toEqual([
      ['v', '5'],
      ['duration', '5'],
    ]);
    // The fragment replaced by another (an in-page link) or gone.
    expect(joinFragment(query, 'plots', note)).toEqual([['v', '5']]);
    expect(notes).toHaveLength(2);
    expect(notes[0]).toContain('cut short: its part after #~ has 13 of its 17 characters');
    expect(notes[1]).toContain('is missing');
  });
});

describe('long links, whole', () => {
  it('leaves every link that fits as it was (v=4, no fragment)', () => {
    const state: ShareState = { ...defaultShareState(), algorithms: ['reno', 'newreno'] };
    expect(encodeShareState(state)).toBe('v=4&alg=reno,newreno');
    const drops = Array.from({ length: 40 }, (_, i) => ({ segment: 10 * (i + 1), attempt: 1 }));
    const s = longState({ drops });
    const query = encodeShareState(s);
    expect(query).toMatch(/^v=4&/);
    expect(query).toContain('f0.drops=10:1,20:1,30:1');
    // 1 000 drops, every 5th segment: 6 824 bytes with the `?`, below the limit: as before.
    const thousand = encodeShareState(longState({ drops: everyNth(1000, 5) }));
    expect(thousand).toBe(joinPairs(sharePairs(longState({ drops: everyNth(1000, 5) }))));
    expect(thousand.length + 1).toBe(6824);
  });

  it('a v=4 link with a packed-looking list reads as before (a malformed list)', () => {
    const { notices } = decodeShareState('?v=4&alg=reno&f0.drops=~10:1*3', validate);
    expect(notices.map((n) => n.key)).toEqual(['f0.drops']);
    expect(notices[0]?.message).toContain('f0.drops');
  });

  it('a v=4 link ignores its fragment and frag= is an unknown key there, as before', () => {
    const { notices, state } = decodeShareState('?v=4&alg=reno&frag=3#~duration=5', validate);
    expect(state.scenario.duration).toBe(defaultShareState().scenario.duration);
    expect(notices.map((n) => n.key)).toEqual(['frag']);
  });

  it.each(LONG_CASES.map((c) => [c.name, c] as const))(
    '%s: the query stays within the limit and the link reads back exactly',
    (_name, c) => {
      const state = c.state();
      const text = encodeShareState(state);
      const { query } = splitLink(text);
      expect(query.length).toBeLessThanOrEqual(QUERY_LIMIT);
      expect(query).toMatch(/^v=5&/);
      const back = decodeShareState(`?${text}`, validate);
      expect(back.notices).toEqual([]);
      expect(back.state).toEqual(state);
      expect(encodeShareState(back.state)).toBe(text);
    },
  );

  it('prints the lengths of the long cases before (v=4) and after (v=5)', () => {
    const rows = LONG_CASES.map((c) => {
      const state = c.state();
      const before = joinPairs(sharePairs(state)).length + 1;
      const compact = joinPairs(compactPairs(sharePairs(state))).length + 1;
      const { query, fragment } = splitLink(encodeShareState(state));
      return {
        case: c.name,
        before,
        compact,
        query: query.length + 1,
        fragment: fragment.length ? fragment.length + 1 : 0,
      };
    });
    console.log(
      [
        'case | v=4 query | v=5 compact | v=5 query | v=5 fragment',
        ...rows.map((r) => Object.values(r).join(' | ')),
      ].join('\n'),
    );
    expect(rows.every((r) => r.query <= QUERY_LIMIT + 1)).toBe(true);
  });
});

describe('long links in the text the page writes', () => {
  it('a long link round-trips through longLinkText and the decoder alone', () => {
    const pairs = sharePairs(LONG_CASES[0]?.state() ?? defaultShareState());
    const text = longLinkText(pairs);
    expect(text.length).toBeLessThan(joinPairs(pairs).length);
  });
});
