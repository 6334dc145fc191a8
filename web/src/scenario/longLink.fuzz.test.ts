// Property tests of long links (issue 25): whatever long lists a scenario holds, the link's
// query stays within QUERY_LIMIT and the link reads back as exactly the same view; the packed
// list form reads back as exactly the plain text it replaced. fast-check draws the cases.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tables } from '../engine/tables';
import type { JsonObject } from '../lib/json';
import { realValidator } from '../test/wasm';
import { crossSources } from './longLink.cases';
import { packList, QUERY_LIMIT, splitLink, unpackList } from './longLink';
import { defaultShareState, type ShareState } from './shareState';
import { decodeShareState, encodeShareState } from './url';

const validate = realValidator();

/** Cases per property: a few dozen in `npm test` (each builds a long link); `CWNDLAB_FUZZ_RUNS=N`
 *  for a longer campaign. */
const RUNS = Number(process.env.CWNDLAB_FUZZ_RUNS ?? 0) || 0;
const runs = (n: number) => ({ numRuns: RUNS || n });
const TIMEOUT = RUNS ? 3_600_000 : 60_000;

/** Numbers as they occur: whole, short decimals, float sums and noise, huge. */
const time = fc.oneof(
  fc.integer({ min: 0, max: 100 }),
  fc.integer({ min: 0, max: 100_000 }).map((n) => n / 1000),
  fc.double({ min: 0, max: 100, noNaN: true, noDefaultInfinity: true }),
);

const drop = fc.record({ segment: fc.integer({ min: 1, max: 2 ** 32 }), attempt: fc.integer({ min: 1, max: 1000 }) });
/** Drop lists as students make them: a pattern (every n-th) or anything. */
const drops = fc.oneof(
  fc
    .tuple(fc.integer({ min: 1, max: 3000 }), fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: 3 }))
    .map(([n, step, attempt]) => Array.from({ length: n }, (_, i) => ({ segment: step * (i + 1), attempt }))),
  fc.array(drop, { maxLength: 1500 }),
);
const write = fc.record({ at: time, bytes: fc.integer({ min: 1, max: 2 ** 40 }) });

const LIVE = tables.schema.params.filter((p) => p.live && !p.path.startsWith('flows[].'));
/** Timeline entries on global live settings, values drawn within each one's range. */
const entry = fc.constantFrom(...LIVE).chain((spec) => {
  const lo = spec.min ?? 0;
  const hi = Math.min(spec.max ?? 1e9, 1e12);
  const value: fc.Arbitrary<JsonObject[string]> =
    spec.type === 'int'
      ? fc.integer({ min: Math.ceil(lo), max: Math.floor(hi) })
      : spec.type === 'float'
        ? fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true })
        : spec.type === 'bool'
          ? fc.boolean()
          : fc.constantFrom(...(spec.options ?? []).map((o) => o.value));
  return fc.record({ at: time, set: fc.constant(spec.path), value });
});

/** What every such state must do: a query within the limit, an exact round trip. */
function checkLong(state: ShareState) {
  const text = encodeShareState(state);
  const { query } = splitLink(text);
  expect(query.length).toBeLessThanOrEqual(QUERY_LIMIT);
  const back = decodeShareState(`?${text}`, validate);
  expect(back.notices).toEqual([]);
  expect(back.state).toEqual(state);
}

function resolved(partial: JsonObject): JsonObject | null {
  const v = validate(JSON.stringify(partial));
  return v.ok ? v.scenario : null;
}

describe('long links, on scenarios fast-check draws', () => {
  it(
    'one flow with long drop and write lists and a long timeline: within the limit, read back exactly',
    () => {
      fc.assert(
        fc.property(
          drops,
          fc.array(write, { minLength: 1, maxLength: 800 }),
          fc.array(entry, { maxLength: 400 }),
          fc.boolean(),
          (d, w, tl, scripted) => {
            const scenario = resolved({
              duration: 100,
              flows: [{ drops: d, app: scripted ? { kind: 'scripted', writes: w } : {} }],
              timeline: [...tl].sort((a, b) => Number(a.at) - Number(b.at)),
            });
            fc.pre(scenario !== null);
            checkLong({ ...defaultShareState(), algorithms: ['reno', 'newreno'], scenario: scenario ?? {} });
          },
        ),
        runs(40),
      );
    },
    TIMEOUT,
  );

  it(
    'up to 64 competing flows with drops, writes and settings of their own, 16 cross sources',
    () => {
      const names = tables.catalogue.map((c) => c.name).filter((n) => n !== 'br_tcp');
      const flow = fc.record({
        algorithm: fc.constantFrom(...names),
        start: time,
        drops: fc.array(drop, { maxLength: 60 }),
        access: fc.record({ delay: fc.double({ min: 0, max: 0.5, noNaN: true }) }),
        app: fc.oneof(
          fc.record({ kind: fc.constant('bulk') }),
          fc.record({ kind: fc.constant('scripted'), writes: fc.array(write, { minLength: 1, maxLength: 40 }) }),
        ),
      });
      fc.assert(
        fc.property(fc.array(flow, { minLength: 1, maxLength: 64 }), fc.boolean(), (flows, cross) => {
          const scenario = resolved({ duration: 100, flows, cross: cross ? crossSources(1) : [] });
          fc.pre(scenario !== null);
          checkLong({ ...defaultShareState(), mode: 'compete', layout: 'overlay', scenario: scenario ?? {} });
        }),
        runs(25),
      );
    },
    TIMEOUT,
  );

  it(
    'a packed list reads back as exactly the plain text it replaces',
    () => {
      const num = fc.oneof(
        fc.integer({ min: -1e6, max: 1e12 }),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.integer({ min: 0, max: 10_000 }).map((n) => n / 100),
      );
      const item = fc.tuple(num, fc.constantFrom('1', '2', '1000', 'f0.app.write_size', 'true'), num);
      fc.assert(
        fc.property(
          fc.array(item, { maxLength: 200 }),
          fc.constantFrom('f3.drops', 'f0.app.writes', 'tl'),
          (items, key) => {
            const plain = items
              .map(([a, b, c]) => (key === 'tl' ? `${String(a)}:${b}:${String(c)}` : `${String(a)}:${String(c)}`))
              .join(',');
            const packed = packList(key, plain);
            if (packed !== null) {
              expect(packed.length).toBeLessThan(plain.length);
              expect(unpackList(key, packed)).toBe(plain);
            }
          },
        ),
        runs(300),
      );
    },
    TIMEOUT,
  );
});
