// A digest of what reading a link gives (state and notices), for oldLinks.test.ts: JSON with
// keys sorted, then SHA-256 (the first 16 hex digits).
import { createHash } from 'node:crypto';

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v !== null && typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
    );
  }
  // -0 and 0 differ for toEqual: keep them apart here too.
  return Object.is(v, -0) ? '-0' : v;
}

export function digestOf(decoded: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(canonical(decoded)))
    .digest('hex')
    .slice(0, 16);
}
