// One vocabulary (docs/architecture.md): pkg/vocabulary.ts is what the engine in pkg says
// now, and every name the page's style tables and plots key by is one the engine has (belt
// and braces beside the type check, for keys that reach a table at run time).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { vocabularyModule } from '../../../scripts/setup.mjs';
import { EVENT_MARKS, PHASES, WINDOW_EVENT_MARKS } from '../lib/styles';
import { MARKED_EVENTS } from '../plots/roundsPlot';
import { EVENT_CODE } from '../plots/layers';
import { engineWasm } from '../test/wasm';
import {
  EVENT_COLUMNS,
  EVENT_KINDS,
  EVENT_TABLE_KINDS,
  LIMITS,
  PHASE_NAMES,
  QUEUE_COLUMNS,
  SERIES_COLUMNS,
  TABLE_SOURCES,
  TABLES,
  THROUGHPUT_COLUMNS,
  VALIDATION_COLUMNS,
  RECOVERY_COLUMNS,
  WRITE_COLUMNS,
  QDISC_COLUMNS,
} from './pkg/vocabulary';
import { MAX_FLOWS } from '../scenario/competition';

const wasm = engineWasm();
const codes = JSON.parse(wasm.codes_json()) as { events: string[]; phases: string[] };

describe('the generated vocabulary', () => {
  it('is what the engine in pkg says (setup.mjs was run after the last engine change)', () => {
    const generated = readFileSync(join(import.meta.dirname, 'pkg', 'vocabulary.ts'), 'utf8');
    expect(generated).toBe(vocabularyModule(codes, JSON.parse(wasm.vocabulary_json())));
    expect(EVENT_KINDS).toEqual(codes.events);
    expect(PHASE_NAMES).toEqual(codes.phases);
    expect(MAX_FLOWS).toBe(LIMITS.max_flows);
  });

  it('gives every table columns of its engine read, and its kinds to the event tables only', () => {
    const sourceColumns: Record<string, readonly string[]> = {
      series: SERIES_COLUMNS,
      events: EVENT_COLUMNS,
      queue: QUEUE_COLUMNS,
      validation: VALIDATION_COLUMNS,
      recovery: RECOVERY_COLUMNS,
      throughput: THROUGHPUT_COLUMNS,
      writes: WRITE_COLUMNS,
      qdisc: QDISC_COLUMNS,
    };
    for (const [name, columns] of Object.entries(TABLES)) {
      const source = TABLE_SOURCES[name as keyof typeof TABLE_SOURCES];
      for (const c of columns) expect(sourceColumns[source], `${name}.${c}`).toContain(c);
      expect(name in EVENT_TABLE_KINDS, name).toBe(source === 'events');
    }
    const kinds = Object.values(EVENT_TABLE_KINDS).flat();
    expect(new Set(kinds).size).toBe(kinds.length);
    for (const k of kinds) expect(EVENT_KINDS.indexOf(k)).toBeLessThan(LIMITS.event_mask_bits);
  });
});

describe('the page’s style tables', () => {
  it('name only kinds and phases the engine has, and give every phase a look', () => {
    const keys = [...Object.keys(EVENT_MARKS), ...Object.keys(WINDOW_EVENT_MARKS), ...MARKED_EVENTS];
    expect(keys.length).toBeGreaterThan(10);
    for (const k of keys) expect(codes.events, k).toContain(k);
    for (const k of keys) expect(EVENT_CODE.get(k as never), k).toBe(codes.events.indexOf(k));
    expect(PHASES.map((p) => p.name)).toEqual(codes.phases);
    for (const p of PHASES) expect(p.fill, p.name).toMatch(/^#[0-9a-f]{6}$/i);
  });
});
