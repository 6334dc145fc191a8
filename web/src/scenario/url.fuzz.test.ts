// Property tests of the link decoder (issue 25, first part): whatever a link holds, reading
// it gives a scenario the engine accepts and plain-text notices, never an exception.
// fast-check draws the links; a failure prints the smallest link that fails and its seed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tables } from '../engine/tables';
import { realValidator } from '../test/wasm';
import { encodeShareState, decodeShareState } from './url';
import { defaultShareState } from './shareState';

const validate = realValidator();

/** Cases per property: a few hundred in `npm test`; `CWNDLAB_FUZZ_RUNS=N` for a longer campaign. */
const RUNS = Number(process.env.CWNDLAB_FUZZ_RUNS ?? 0) || 0;
const runs = (n: number) => ({ numRuns: RUNS || n });
/** A campaign takes as long as it takes. */
const TIMEOUT = RUNS ? 3_600_000 : 30_000;

/** The keys a link may hold: view keys and every schema parameter's short key, as the
 *  encoder writes them (read from a link of the default view and from the schema). */
const VIEW_KEYS = ['v', 'mode', 'alg', 't', 'x', 'layout', 'plots', 'bin', 'tput', 'cdfx', 'lesson', 'tl', 'flows'];
const PARAM_KEYS = tables.schema.params.map((p) => p.path.replace('flows[].', 'f0.'));
const KEYS = [...VIEW_KEYS, ...PARAM_KEYS];

/** Values as people and broken tools write them: numbers at and beyond every edge, lists,
 *  words, escapes, markup, and anything at all. */
const value = fc.oneof(
  fc.constantFrom('', '0', '-1', '1e308', '-0', 'NaN', 'Infinity', '9007199254740993', '0x10', '1,2', ',,', '%', '%zz'),
  fc.double().map(String),
  fc.integer({ min: -1e12, max: 1e12 }).map(String),
  fc.constantFrom(...tables.catalogue.map((c) => c.name)).map((n) => `${n},${n},bogus`),
  fc.constantFrom('<img src=x onerror=alert(1)>', '"><script>alert(1)</script>', '&amp;', '\u0000', '\u202e'),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
);

/** A query of known and unknown keys with such values, URL-encoded or not. */
const query = fc
  .tuple(
    fc.array(fc.tuple(fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 12 })), value), { maxLength: 12 }),
    fc.boolean(),
  )
  .map(([pairs, encode]) =>
    pairs.map(([k, v]) => (encode ? `${encodeURIComponent(k)}=${encodeURIComponent(v)}` : `${k}=${v}`)).join('&'),
  );

/** What every decoded link must be: a scenario the engine accepts, plain-text notices. */
function checkDecoded(search: string) {
  const { state, notices } = decodeShareState(search, validate);
  const v = validate(JSON.stringify(state.scenario));
  expect(v.ok, `scenario from ?${search}: ${JSON.stringify(v)}`).toBe(true);
  for (const n of notices) {
    expect(typeof n.key).toBe('string');
    expect(typeof n.message).toBe('string');
    expect(n.message.length).toBeGreaterThan(0);
  }
  // The decoded view writes a link that reads back to the same state, without notices.
  const again = decodeShareState(`?${encodeShareState(state)}`, validate);
  expect(again.notices).toEqual([]);
  expect(again.state).toEqual(state);
}

describe('the link decoder, on links fast-check draws', () => {
  it(
    'any string at all: a valid scenario and notices, never an exception',
    () => {
      fc.assert(
        fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (s) => checkDecoded(s)),
        runs(300),
      );
    },
    TIMEOUT,
  );

  it(
    'known and unknown keys with edge, odd and hostile values',
    () => {
      fc.assert(
        fc.property(query, (q) => checkDecoded(`?${q}`)),
        runs(400),
      );
    },
    TIMEOUT,
  );

  it(
    'a valid link with one value replaced: still valid, the rest kept',
    () => {
      const base = encodeShareState(defaultShareState());
      fc.assert(
        fc.property(fc.constantFrom(...KEYS), value, (k, v) => {
          checkDecoded(`?${base}&${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
        }),
        runs(300),
      );
    },
    TIMEOUT,
  );
});
