// The link keys of the rounds view and projector mode: `plots=…,rounds` and `projector=1`
// are new view keys (no new format version, docs/scenario-url.md): links without them open
// exactly as before, and a page reading a bad value says so and falls back.
import { describe, expect, it } from 'vitest';
import { realValidator } from '../test/wasm';
import { defaultShareState } from './shareState';
import { decodeShareState, encodeShareState } from './url';

const decode = (q: string) => decodeShareState(q, realValidator());

describe('link keys of the rounds view and projector mode', () => {
  it('keeps the rounds view among the plots, after the others', () => {
    const state = { ...defaultShareState(), plots: ['window' as const, 'rounds' as const] };
    const query = encodeShareState(state);
    expect(query).toContain('plots=window,rounds');
    const back = decode(`?${query}`);
    expect(back.notices).toEqual([]);
    expect(back.state.plots).toEqual(['window', 'rounds']);
    expect(decode('?v=4&alg=reno&plots=rounds,seq').state.plots).toEqual(['seq', 'rounds']);
  });

  it('writes projector=1 only when on, and reads it back', () => {
    expect(encodeShareState(defaultShareState())).not.toContain('projector');
    const on = encodeShareState({ ...defaultShareState(), projector: true });
    expect(on).toContain('projector=1');
    const back = decode(`?${on}`);
    expect(back.notices).toEqual([]);
    expect(back.state.projector).toBe(true);
    expect(decode('?v=4&alg=reno&projector=0').state.projector).toBe(false);
  });

  it('opens old links unchanged: no projector mode, the same plots, no notices', () => {
    for (const q of ['?v=4&alg=reno,newreno', '?v=3&alg=reno,newreno&plots=window,seq']) {
      const d = decode(q);
      expect(d.notices).toEqual([]);
      expect(d.state.projector).toBe(false);
      expect(d.state.plots).not.toContain('rounds');
    }
  });

  it('names a bad projector value and stays off', () => {
    const d = decode('?v=4&alg=reno&projector=yes');
    expect(d.state.projector).toBe(false);
    expect(d.notices.find((n) => n.key === 'projector')?.message).toContain('projector=yes is not 1 (on) or 0 (off)');
  });
});
