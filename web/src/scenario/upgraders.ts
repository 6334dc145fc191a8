// Versioned links: `v=N` says which format wrote the query. UPGRADERS[n] rewrites the
// key/value pairs of a version n−1 link into version n; reading a link runs every step
// from its version up to URL_VERSION. Version 1 is the first format, so there is no step yet.

/** The query format this build writes. */
export const URL_VERSION = 1;

/** Query pairs in order, as read from the link. */
export type QueryPairs = [string, string][];

/** UPGRADERS[n]: version n−1 → n. */
export const UPGRADERS: Record<number, (pairs: QueryPairs) => QueryPairs> = {};

// A missing step would silently misread old links: refuse to load instead.
for (let v = 2; v <= URL_VERSION; v += 1) {
  if (!UPGRADERS[v]) throw new Error(`scenario URL: no upgrader from v=${v - 1} to v=${v}`);
}
for (const v of Object.keys(UPGRADERS).map(Number)) {
  if (v < 2 || v > URL_VERSION) throw new Error(`scenario URL: upgrader for unknown v=${v}`);
}

/** Rewrites pairs written at `from` into the current version. */
export function upgrade(pairs: QueryPairs, from: number): QueryPairs {
  let out = pairs;
  for (let v = from + 1; v <= URL_VERSION; v += 1) {
    const step = UPGRADERS[v];
    if (step) out = step(out);
  }
  return out;
}
