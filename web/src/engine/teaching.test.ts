// The engine's vocabulary in two parts (scripts/setup.mjs): what the first view needs is in
// tables.json, bundled with the page; the teaching texts (lessons, steps, rules) are in
// teaching.json, a chunk loaded later. Nothing is lost or duplicated in the split, and the
// rules are there once loaded.
import { describe, expect, it } from 'vitest';
import { splitTables } from '../../../scripts/setup.mjs';
import { ruleSpecs } from '../explain/vocabulary';
import { tables } from './tables';
import { loadTeaching, teaching } from './teaching';
import { engineWasm } from '../test/wasm';

const wasm = engineWasm();

describe('the teaching texts', () => {
  it('are not in the first view’s tables, and load as their own chunk with every rule', async () => {
    expect(teaching()).toBeNull();
    expect(ruleSpecs()).toEqual([]);
    const t = await loadTeaching();
    expect(t).not.toBeNull();
    if (!t) return;
    expect(teaching()).toBe(t);
    const rules = JSON.parse(wasm.rules_json()) as { rules: { id: string }[]; kinds: unknown[] };
    expect(ruleSpecs().map((r) => r.id)).toEqual(rules.rules.map((r) => r.id));
    const first = JSON.stringify(tables);
    for (const [name, lesson] of Object.entries(t.lessons)) {
      expect(first.includes(lesson.look), `${name}'s lesson text in tables.json`).toBe(false);
    }
    for (const r of t.rules) expect(first.includes(`"${r.formula}"`) && r.formula.length > 20).toBe(false);
  });

  it('split from the engine’s answers loses nothing but the catalogue’s machines (read from the running engine)', async () => {
    const presets = JSON.parse(wasm.presets_json()) as {
      name: string;
      lesson: Record<string, unknown> | null;
      steps?: unknown[];
    }[];
    const catalogue = JSON.parse(wasm.catalogue_json()) as Record<string, unknown>[];
    const rules = JSON.parse(wasm.rules_json()) as Record<string, unknown>;
    const t = await loadTeaching();
    // What setup wrote is the split of what this engine answers.
    const split = splitTables({
      schema: tables.schema,
      defaultScenario: tables.defaultScenario,
      presets,
      families: JSON.parse(wasm.preset_families_json()) as unknown,
      course: JSON.parse(wasm.course_json()) as unknown[],
      codes: tables.codes,
      catalogue,
      rules,
      limits: tables.limits,
      sweep: tables.sweep,
    });
    expect(JSON.parse(JSON.stringify(split.tables))).toEqual(tables);
    expect(split.teaching).toEqual(t);
    // Put back together, the presets are the engine's.
    const joined = tables.presets.map((p) => {
      const lesson = p.lesson ? { ...t?.lessons[p.name], ...p.lesson } : null;
      const steps = t?.steps[p.name];
      return { ...p, lesson, ...(steps ? { steps } : {}) };
    });
    const engine = presets.map((p) => (p.steps?.length === 0 ? { ...p, steps: undefined } : p));
    expect(JSON.parse(JSON.stringify(joined))).toEqual(JSON.parse(JSON.stringify(engine)));
    expect(tables.catalogue).toEqual(catalogue.map(({ machine: _m, ...e }) => e));
    expect(tables.glossary).toEqual(rules.glossary);
    // Every step names rules the engine has.
    const ids = new Set(t?.rules.map((r) => r.id));
    for (const steps of Object.values(t?.steps ?? {}))
      for (const s of steps) for (const id of s.rules) expect(ids).toContain(id);
  });

  it('stop the build when the engine writes a field the split does not place', () => {
    const base = {
      schema: {},
      defaultScenario: {},
      codes: {},
      limits: {},
      sweep: {},
      rules: { rules: [], kinds: [], glossary: [] },
      course: [],
    };
    expect(() => splitTables({ ...base, presets: [{ name: 'x', extra: 1 }], catalogue: [] })).toThrow(/"extra"/);
    expect(() => splitTables({ ...base, presets: [], catalogue: [{ name: 'y', colour: 'red' }] })).toThrow(/"colour"/);
    expect(() => splitTables({ ...base, presets: [], catalogue: [], course: [{ id: 'z', level: 2 }] })).toThrow(
      /"level"/,
    );
    expect(() => splitTables({ ...base, presets: [], catalogue: [] })).not.toThrow();
  });
});
