// Versioned links: `v=N` says which format wrote the query. UPGRADERS[n] rewrites the
// key/value pairs of a version n−1 link into version n; reading a link runs every step
// from its version up to URL_VERSION (docs/scenario-url.md, "Versioning").

/** The newest query format this build reads (and writes for long links: v=5, longLink.ts). */
export const URL_VERSION = 5;

/** The version of a link that needs none of v=5's long-link forms: such a link is written
 *  exactly as v=4 wrote it, so it keeps its text and opens on pages from before v=5. */
export const PLAIN_VERSION = 4;

/** Query pairs in order, as read from the link. */
export type QueryPairs = [string, string][];

/** Records a notice about a key of the link. */
export type Note = (key: string, message: string) => void;

/** One format step: the pairs of a version n−1 link as version n reads them. */
export type Upgrader = (pairs: QueryPairs, note: Note) => QueryPairs;

/** The variants a v=1 link compared when it named none: the engine's variants at the time. */
export const V1_VARIANTS = ['old_tahoe', 'tahoe', 'reno', 'newreno'] as const;

/**
 * v=1 → v=2. In v=1 `alg` listed the engine's loss-recovery variants; in v=2 it lists the
 * names of the engine's algorithm catalogue, which include every variant name with the same
 * meaning (the entry of a variant sets that variant and leaves the idle and growth rules at
 * their defaults, as every v=1 run had them), so the pairs carry over unchanged: same runs,
 * same digests. Two things v=1 read its own way are kept as they were:
 *   - a link without `alg` compared every variant v=1 had: it gets `alg=` with those four
 *     names, whatever v=2's default selection is and whichever variants the engine has since
 *     gained (this is history, so the list is frozen here);
 *   - `f0.variant` was ignored with a notice (v=2 reads it as a setting of "custom"): it is
 *     dropped with the same notice.
 */
export function v1ToV2(pairs: QueryPairs, note: Note): QueryPairs {
  const out = pairs.filter(([k, v]) => {
    if (k !== 'f0.variant') return true;
    note(k, `${k}: the compared algorithms are chosen with alg=; "${v}" was ignored.`);
    return false;
  });
  if (!out.some(([k]) => k === 'alg')) {
    out.push(['alg', V1_VARIANTS.join(',')]);
  }
  return out;
}

/**
 * v=2 → v=3. The engine's default for `flows[].cc.br_recovery` changed from `set_cwnd`
 * (BR-TCP's rule read literally) to `newreno`. A v=2 link that runs BR-TCP (`br_tcp` in
 * `alg`, or a flow whose `f<i>.variant` is `br_tcp`) without naming `br_recovery` ran
 * `set_cwnd`: every flow of it gets `f<i>.cc.br_recovery=set_cwnd`, so it opens with the
 * same runs as before. Other links carry over unchanged.
 */
export function v2ToV3(pairs: QueryPairs): QueryPairs {
  const alg = (pairs.find(([k]) => k === 'alg')?.[1] ?? '').split(',');
  const brTcp = alg.includes('br_tcp') || pairs.some(([k, v]) => /^f\d+\.variant$/.test(k) && v === 'br_tcp');
  if (!brTcp) return pairs;
  const flowsText = pairs.find(([k]) => k === 'flows')?.[1];
  const n = flowsText !== undefined && /^\d+$/.test(flowsText) ? Math.max(1, Number(flowsText)) : 1;
  const out: QueryPairs = [...pairs];
  for (let i = 0; i < n; i += 1) {
    const key = `f${i}.cc.br_recovery`;
    if (!out.some(([k]) => k === key)) out.push([key, 'set_cwnd']);
  }
  return out;
}

/**
 * v=3 → v=4. v=4 adds `why=run:index`, the decision the explanation inspector shows; a
 * v=3 link has none and opens exactly as before (no decision selected), so the pairs carry
 * over unchanged. The version is raised so that a page older than explanations says the
 * link is newer than it instead of calling `why` an unknown setting.
 */
export function v3ToV4(pairs: QueryPairs): QueryPairs {
  return pairs;
}

/**
 * v=4 → v=5. v=5 adds the long-link forms (packed lists, flow ranges, pairs after `#~`;
 * longLink.ts), which the decoder expands into v=4 pairs before reading; a v=4 link uses
 * none of them and carries over unchanged.
 */
export function v4ToV5(pairs: QueryPairs): QueryPairs {
  return pairs;
}

/** UPGRADERS[n]: version n−1 → n. */
export const UPGRADERS: Record<number, Upgrader> = { 2: v1ToV2, 3: v2ToV3, 4: v3ToV4, 5: v4ToV5 };

// A missing step would silently misread old links: refuse to load instead.
for (let v = 2; v <= URL_VERSION; v += 1) {
  if (!UPGRADERS[v]) throw new Error(`scenario URL: no upgrader from v=${v - 1} to v=${v}`);
}
for (const v of Object.keys(UPGRADERS).map(Number)) {
  if (v < 2 || v > URL_VERSION) throw new Error(`scenario URL: upgrader for unknown v=${v}`);
}

/** Rewrites pairs written at `from` into the current version. */
export function upgrade(pairs: QueryPairs, from: number, note: Note = () => {}): QueryPairs {
  let out = pairs;
  for (let v = from + 1; v <= URL_VERSION; v += 1) {
    const step = UPGRADERS[v];
    if (step) out = step(out, note);
  }
  return out;
}

/**
 * The older versions (1 … PLAIN_VERSION−1) that would read these pairs differently from
 * PLAIN_VERSION: what decides whether a link typed without `v` needs a notice. A v=1 link
 * without `alg` compared V1_VARIANTS; while those are `defaultAlg` (the page's default
 * selection) that reads the same as PLAIN_VERSION's default, so it is not a difference.
 */
export function versionsReadingOtherwise(pairs: QueryPairs, defaultAlg: readonly string[]): number[] {
  const plain = JSON.stringify(upgrade(pairs, PLAIN_VERSION));
  const hasAlg = pairs.some(([k]) => k === 'alg');
  const sameDefault = defaultAlg.join(',') === V1_VARIANTS.join(',');
  const out: number[] = [];
  for (let v = 1; v < PLAIN_VERSION; v += 1) {
    let old = upgrade(pairs, v);
    if (!hasAlg && sameDefault) old = old.filter(([k]) => k !== 'alg');
    if (JSON.stringify(old) !== plain) out.push(v);
  }
  return out;
}
