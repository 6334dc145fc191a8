// Property tests of the scenario loader and the engine behind it (issue 25): whatever JSON
// arrives, the engine's validation answers (a resolved scenario or named problems) and never
// traps, and a scenario it accepts builds and runs (within an event budget) without a trap.
// fast-check draws the inputs; a failure prints the smallest one and its seed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../lib/json';
import { setAt } from '../scenario/paths';
import { engineWasm, realValidator } from '../test/wasm';
import { tables, type ItemField, type ParamSpec } from './tables';

const wasm = engineWasm();
const validate = realValidator();

/** Cases per property: a few hundred in `npm test`; `CWNDLAB_FUZZ_RUNS=N` for a campaign. */
const RUNS = Number(process.env.CWNDLAB_FUZZ_RUNS ?? 0) || 0;
const runs = (n: number) => ({ numRuns: RUNS || n });
const TIMEOUT = RUNS ? 3_600_000 : 60_000;

/** Events a drawn scenario may run (so a huge bandwidth or duration cannot hang the test). */
const EVENT_BUDGET = 20_000;

/** A number at, inside or beyond a range's edges, or not a number at all. */
function numberNear(
  min: number | undefined,
  max: number | undefined,
  int: boolean,
  inRange: boolean,
): fc.Arbitrary<JsonValue> {
  const lo = min ?? -1e9;
  const hi = max ?? 1e9;
  const edges = [lo, hi, 0, -1, 1, lo - 1, hi + 1, hi * 2, (lo + hi) / 2];
  const inside = int
    ? fc.integer({ min: Math.ceil(Math.max(lo, -(2 ** 31))), max: Math.floor(Math.min(hi, 2 ** 31 - 1)) })
    : fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true });
  if (inRange) {
    const ends = int ? [Math.ceil(lo), Math.floor(hi)] : [lo, hi];
    return fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...ends) }, { weight: 3, arbitrary: inside });
  }
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...edges.map((e) => (int ? Math.round(e) : e))) },
    { weight: 4, arbitrary: inside },
    { weight: 1, arbitrary: fc.constantFrom<JsonValue>('12', null, true, [], {}) },
  );
}

function itemValue(f: ItemField, inRange: boolean): fc.Arbitrary<JsonValue> {
  if (f.type === 'int' || f.type === 'float') return numberNear(f.min, f.max, f.type === 'int', inRange);
  const options = (f.options ?? []).map((o) => o.value);
  if (f.type === 'enum') return fc.constantFrom<JsonValue>(...(inRange ? options : [...options, 'bogus']));
  if (f.type === 'bool') return fc.constantFrom<JsonValue>(...(inRange ? [true, false] : [true, false, 'no']));
  if (f.type === 'path') {
    const live = tables.schema.params.filter((p) => p.live).map((p) => p.path);
    return fc.constantFrom<JsonValue>(...(inRange ? live : [...live, 'no.such']));
  }
  return fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom<JsonValue>('x', true, null));
}

/**
 * A value for a parameter. `inRange` false: edges, beyond the edges, lists of drawn items, wrong
 * types. `inRange` true: only values the parameter's range and choices allow (the scenario may
 * still be refused for how its parameters combine).
 */
function valueOf(p: ParamSpec, inRange: boolean): fc.Arbitrary<JsonValue> {
  switch (p.type) {
    case 'int':
    case 'float':
      return numberNear(p.min, p.max, p.type === 'int', inRange);
    case 'enum': {
      const options = (p.options ?? []).map((o) => o.value);
      return fc.constantFrom<JsonValue>(...(inRange ? options : [...options, 'bogus', 3]));
    }
    case 'bool':
      return fc.constantFrom<JsonValue>(...(inRange ? [true, false] : [true, false, 0, 'true']));
    case 'list': {
      const fields = p.items ?? [];
      const item = fc
        .tuple(...fields.map((f) => fc.option(itemValue(f, inRange), { nil: undefined })))
        .map((vs) => Object.fromEntries(fields.flatMap((f, i) => (vs[i] === undefined ? [] : [[f.name, vs[i]]]))));
      const items = fc.array(item, { maxLength: 6 });
      return inRange ? items : fc.oneof(items, fc.constantFrom<JsonValue>('none', 5, null));
    }
  }
}

const PARAMS = tables.schema.params;

/** A partial scenario: up to eight parameters set to drawn values (the engine fills the rest). */
const partialScenario = (inRange: boolean): fc.Arbitrary<JsonValue> =>
  fc
    .array(
      fc.integer({ min: 0, max: PARAMS.length - 1 }).chain((i) => {
        const p = PARAMS[i] as ParamSpec;
        return valueOf(p, inRange).map((v) => [p.path.replace('flows[].', 'flows[0].'), v] as const);
      }),
      { maxLength: 8 },
    )
    .map((pairs) => {
      let s: JsonValue = {};
      for (const [path, v] of pairs) s = setAt(s as never, path, v) as JsonValue;
      return s;
    });

/**
 * Half the draws anywhere (mostly refused), half within each parameter's range (mostly built and
 * run), so both the refusals and the engine get exercised on every seed.
 */
const scenario: fc.Arbitrary<JsonValue> = fc.oneof(partialScenario(false), partialScenario(true));

/** What every answer of the validation must be. */
function checkValidation(json: string) {
  const v = validate(json);
  if (!v.ok) {
    expect(v.problems.length).toBeGreaterThan(0);
    for (const p of v.problems) expect(typeof p.text === 'string' && p.text.length > 0).toBe(true);
  }
  return v;
}

describe('the scenario loader and the engine, on inputs fast-check draws', () => {
  it(
    'any JSON at all: the validation answers with a scenario or named problems, never a trap',
    () => {
      fc.assert(
        fc.property(fc.jsonValue({ maxDepth: 4 }), (v) => {
          checkValidation(JSON.stringify(v));
        }),
        runs(300),
      );
    },
    TIMEOUT,
  );

  it(
    'scenarios with parameters at and beyond their edges: refused with reasons, or built and run without a trap',
    () => {
      let accepted = 0;
      let cases = 0;
      fc.assert(
        fc.property(scenario, (s) => {
          cases += 1;
          const json = JSON.stringify(s);
          const v = checkValidation(json);
          if (!v.ok) return;
          accepted += 1;
          const sim = new wasm.Sim(json);
          try {
            let events = 0;
            while (events < EVENT_BUDGET && !sim.run_events(2_000)) events += 2_000;
            const summary = JSON.parse(sim.summary_json()) as { flows: unknown[] };
            expect(Array.isArray(summary.flows)).toBe(true);
          } finally {
            sim.free();
          }
        }),
        runs(200),
      );
      // The draw must reach the engine, not only its refusals: about half the cases are accepted
      // (100-114 of 200 over six seeds), so a fifth is ~9 standard deviations below (no flake).
      expect(accepted, `${accepted} of ${cases} accepted`).toBeGreaterThan(cases / 5);
    },
    TIMEOUT,
  );
});
