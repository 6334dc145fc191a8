// The page's first engine (web/src/engine/pkg/lite: engine/wasm without `tools`) leaves out
// the schema's and the catalogue's help texts (cwndlab-core's `help-text` feature): the page
// shows them from tables.json, written from the full engine, which has them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tables } from './tables';

const pkg = join(import.meta.dirname, 'pkg');
const full = readFileSync(join(pkg, 'cwndlab_wasm_bg.wasm'));
const lite = readFileSync(join(pkg, 'lite', 'cwndlab_wasm_bg.wasm'));

/** Every help text of the schema and description of the catalogue, as tables.json has them. */
function helpTexts(): string[] {
  const out: string[] = [];
  for (const p of tables.schema.params) {
    out.push(p.help);
    for (const o of p.options ?? []) out.push(o.help);
    for (const f of p.items ?? []) {
      out.push(f.help);
      for (const o of f.options ?? []) out.push(o.help);
    }
  }
  for (const e of tables.catalogue) out.push(e.description);
  // Long enough not to occur in other text by chance.
  return [...new Set(out)].filter((t) => t.length >= 40);
}

describe('the first view’s engine', () => {
  it('has no help text; the full engine, from which tables.json is written, has every one', () => {
    const texts = helpTexts();
    expect(texts.length).toBeGreaterThan(100);
    const inFull = texts.filter((t) => full.includes(Buffer.from(t)));
    const inLite = texts.filter((t) => lite.includes(Buffer.from(t)));
    expect(inFull.length).toBe(texts.length);
    expect(inLite).toEqual([]);
  });
});
