// The practice key of the link (docs/scenario-url.md): `practice=predict`, `predict-every`,
// with an optional run; a view key, so links without it open exactly as before.
import { describe, expect, it } from 'vitest';
import { realValidator } from '../test/wasm';
import { defaultShareState } from '../scenario/shareState';
import { decodeShareState, encodeShareState } from '../scenario/url';

const validate = realValidator();
const decode = (q: string) => decodeShareState(q, validate);

describe('practice= in the link', () => {
  it('reads predict, predict-every and a run, and writes them back the same', () => {
    expect(decode('?v=4&alg=reno,newreno&practice=predict').state.practice).toEqual({ scope: 'events', run: null });
    expect(decode('?v=4&alg=reno,newreno&practice=predict-every').state.practice).toEqual({
      scope: 'every',
      run: null,
    });
    expect(decode('?v=4&mode=compete&flows=2&practice=predict:flow1').state.practice).toEqual({
      scope: 'events',
      run: 'flow1',
    });
    for (const link of ['alg=reno,newreno&duration=5&practice=predict', 'alg=reno&practice=predict-every:reno']) {
      const { state, notices } = decode(`?v=4&${link}`);
      expect(notices).toEqual([]);
      expect(encodeShareState(state)).toBe(`v=4&${link}`);
    }
  });

  it('leaves old links unchanged: no practice, nothing written', () => {
    for (const v of [1, 2, 3, 4]) {
      const { state } = decode(`?v=${v}&alg=reno,newreno&duration=5`);
      expect(state.practice).toBeNull();
      expect(encodeShareState(state)).not.toContain('practice');
    }
    expect(encodeShareState(defaultShareState())).not.toContain('practice');
  });

  it('names a bad value with what is allowed, and opens without practice', () => {
    for (const bad of ['quiz', 'predict:tahoe', 'predict:', 'PREDICT']) {
      const { state, notices } = decode(`?v=4&alg=reno,newreno&practice=${bad}`);
      expect(state.practice).toBeNull();
      const n = notices.find((x) => x.key === 'practice');
      expect(n?.message).toContain(`practice=${bad}`);
      expect(n?.message).toContain('predict-every');
      expect(n?.message).toContain('reno, newreno');
    }
  });
});
