import { describe, expect, it } from 'vitest';
import { encodeShareState } from '../scenario/url';
import { defaultShareState } from '../scenario/shareState';
import { shareQuery } from './urlSync';

describe('shareQuery', () => {
  it('is the link encodeShareState writes, and follows every change of a part', () => {
    const a = defaultShareState();
    expect(shareQuery(a)).toBe(encodeShareState(a));
    // Another object with the same parts: the same link.
    expect(shareQuery({ ...a })).toBe(encodeShareState(a));
    const b = { ...a, cursor: 2.5 };
    expect(shareQuery(b)).toBe(encodeShareState(b));
    expect(shareQuery(b)).not.toBe(shareQuery(a));
    const c = { ...a, algorithms: ['reno', 'cubic'] as typeof a.algorithms };
    expect(shareQuery(c)).toBe(encodeShareState(c));
    expect(shareQuery(c)).toContain('reno,cubic');
    // Back to the first: encoded again, not the last one kept.
    expect(shareQuery(a)).toBe(encodeShareState(a));
  });
});
