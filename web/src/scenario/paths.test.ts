import { describe, expect, it } from 'vitest';
import { concretePath, getAt, pathOfUrlKey, schemaPathOf, setAt, urlKeyOf } from './paths';

describe('parameter paths', () => {
  it('converts between schema paths, concrete paths and URL keys', () => {
    expect(concretePath('flows[].app.kind', 2)).toBe('flows[2].app.kind');
    expect(schemaPathOf('flows[2].app.kind')).toBe('flows[].app.kind');
    expect(urlKeyOf('flows[12].app.kind')).toBe('f12.app.kind');
    expect(pathOfUrlKey('f12.app.kind')).toBe('flows[12].app.kind');
    expect(pathOfUrlKey('f012.app.kind')).toBe('f012.app.kind');
    expect(urlKeyOf('network.bottleneck.delay')).toBe('network.bottleneck.delay');
    expect(pathOfUrlKey('duration')).toBe('duration');
  });

  it('reads and writes nested and per-flow fields without mutating', () => {
    const doc = { a: { b: 1 }, flows: [{ x: { y: 2 } }] };
    expect(getAt(doc, 'a.b')).toBe(1);
    expect(getAt(doc, 'flows[0].x.y')).toBe(2);
    expect(getAt(doc, 'flows[3].x.y')).toBeUndefined();
    expect(getAt(doc, 'a.b.c')).toBeUndefined();
    const next = setAt(doc, 'flows[0].x.y', 5);
    expect(getAt(next, 'flows[0].x.y')).toBe(5);
    expect(doc.flows[0]?.x.y).toBe(2);
    expect(getAt(setAt(doc, 'a.c.d', true), 'a.c.d')).toBe(true);
  });
});
