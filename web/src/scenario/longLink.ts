// Long links (format v=5, docs/scenario-url.md "Long links"). A link whose query would pass
// QUERY_LIMIT bytes is written in a compact form, and what still does not fit goes after
// `#~`, in the fragment, which browsers never send to a server. Every step is a rewrite of
// the v=4 query's text, so reading a v=5 link is: join the fragment's pairs to the query's,
// expand the compact forms back into v=4 pairs, then read those as a v=4 link. A link that
// fits is written exactly as before, with v=4.
//
//   packed lists  `f0.drops=~14:1,12,2`         = `f0.drops=14:1,26:1,28:1`
//                 `f0.drops=~10:1*100`          = `f0.drops=10:1,20:1,…,1000:1`
//                 `tl=~3.25:f0.app.write_interval:0.1,0.5::0.2`
//                                               = `tl=3.25:f0.app.write_interval:0.1,3.75:f0.app.write_interval:0.2`
//   flow ranges   `f1-63.start=2`               = `f1.start=2&f2.start=2&…&f63.start=2`
//   fragment      `?v=5&…&frag=1234#~tl=~…`     the pairs after `#~` follow the query's;
//                                               frag is the fragment's length (a cut link is noticed)
import type { Note, QueryPairs } from './upgraders';

/** The most bytes the query (after `?`) may have: RFC 9110 asks servers to accept URIs of
 *  8 000 octets, Apache's and nginx's request lines are 8 KiB; 1 000 are left for the method,
 *  the path and the protocol of the request line. */
export const QUERY_LIMIT = 7000;

/** The version a link with any long-link form carries. */
export const LONG_VERSION = 5;

/** Starts a packed list's value, and the fragment that holds a link's pairs. */
export const PACK_MARK = '~';

/** The query key that gives the fragment's length. */
export const FRAG_KEY = 'frag';

/** Keys whose values are lists packable by position: the first field a number (drops:
 *  segment, writes: at, the timeline: at). */
const PACKABLE = /^(f\d+\.drops|f\d+\.app\.writes|tl)$/;

/** The number of fields of each packable list's items. */
function fieldCount(key: string): number {
  return key === 'tl' ? 3 : 2;
}

/** Defaults of the fields after the first (the "previous item" of the first one). */
function fieldDefaults(key: string): string[] {
  // Scripted drops: attempt defaults to 1 (the engine's schema).
  return key.endsWith('.drops') ? ['1'] : [];
}

/** Characters left unescaped so the query stays readable (allowed in a query by RFC 3986). */
export function enc(text: string): string {
  return encodeURIComponent(text).replace(/%2C/g, ',').replace(/%3A/g, ':');
}

/** Pairs → `k=v&k=v`. */
export function joinPairs(pairs: QueryPairs): string {
  return pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&');
}

const DECIMAL = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

function num(text: string): number | null {
  if (!DECIMAL.test(text)) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

/** The shortest decimal d with previous + d exactly the value (in the reader's floating
 *  point: `prev + Number(d)`), or null. Times summed step by step (0.01 + 0.01 + …) get their
 *  step back (`0.01`), however long the sums' own decimals are. */
function stepText(prev: number, value: number): string | null {
  const d = value - prev;
  if (!Number.isFinite(d)) return null;
  for (let p = 1; p <= 17; p += 1) {
    const text = String(Number(d.toPrecision(p)));
    if (Object.is(prev + Number(text), value)) return text;
  }
  return null;
}

/** The first field, relative to the item before: `d` (previous + d) or `_a` (a). The step
 *  before's text is kept where it fits, so that equal steps make runs. */
function firstText(prev: number, value: number, prevStep: string | null): string {
  const abs = `_${String(value)}`;
  if (prevStep !== null && Object.is(prev + Number(prevStep), value)) return prevStep;
  const step = stepText(prev, value);
  return step !== null && step.length <= abs.length ? step : abs;
}

/** A plain list (`a:b,c:d`, every item with every field) → its packed form, or null. */
export function packList(key: string, plain: string): string | null {
  if (plain === '') return null;
  const n = fieldCount(key);
  const items = plain.split(',').map((item) => item.split(':'));
  if (items.some((fields) => fields.length !== n || fields.some((f) => f === ''))) return null;
  let prevFirst = 0;
  let prevStep: string | null = null;
  let prevRest = fieldDefaults(key);
  const texts: string[] = [];
  for (const fields of items) {
    const first = num(fields[0] ?? '');
    if (first === null || String(first) !== fields[0]) return null;
    const rest = fields.slice(1);
    const firstPart = firstText(prevFirst, first, prevStep);
    const sameStep = firstPart === prevStep;
    prevStep = firstPart.startsWith('_') ? null : firstPart;
    const parts = [firstPart, ...rest.map((f, i) => (f === prevRest[i] ? '' : f))];
    while (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
    // The step before again, with other fields to write: left empty (`::5000000`).
    if (sameStep && parts.length > 1) parts[0] = '';
    texts.push(parts.join(':'));
    prevFirst = first;
    prevRest = rest;
  }
  // Runs of the same item text: `text*n`.
  const out: string[] = [];
  for (let i = 0; i < texts.length;) {
    let j = i + 1;
    while (j < texts.length && texts[j] === texts[i]) j += 1;
    const run = j - i;
    const t = texts[i] ?? '';
    if (run >= 2 && `${t}*${run}`.length < (t.length + 1) * run) out.push(`${t}*${run}`);
    else for (let k = i; k < j; k += 1) out.push(t);
    i = j;
  }
  const packed = `${PACK_MARK}${out.join(',')}`;
  // Written only when it reads back as the very same text, and is shorter.
  return packed.length < plain.length && unpackList(key, packed) === plain ? packed : null;
}

/** Most items a packed list may expand to (a link cannot make the page build a huge list). */
export const MAX_UNPACKED_ITEMS = 100_000;

/** A packed list (`~…`) → its plain text; an error message when it is not one. */
export function unpackList(key: string, packed: string): string | { error: string } {
  const body = packed.slice(PACK_MARK.length);
  if (body === '') return '';
  const n = fieldCount(key);
  let prevFirst = 0;
  let prevStep: number | null = null;
  let prevRest = fieldDefaults(key);
  const out: string[] = [];
  for (const item of body.split(',')) {
    const m = /^(.*?)(?:\*(\d{1,6}))?$/.exec(item);
    const text = m?.[1] ?? '';
    const times = m?.[2] === undefined ? 1 : Number(m[2]);
    const fields = text.split(':');
    if (fields.length > n || times < 1) return { error: `"${item}" is not a packed item` };
    const f0 = fields[0] ?? '';
    const absolute = f0.startsWith('_');
    // Empty: the step of the item before again.
    const step: number | null = f0 === '' ? prevStep : num(absolute ? f0.slice(1) : f0);
    if (step === null) return { error: `"${item}" does not start with a number` };
    prevStep = absolute ? null : step;
    if (out.length + times > MAX_UNPACKED_ITEMS) {
      return { error: `it has more than ${MAX_UNPACKED_ITEMS} items` };
    }
    for (let k = 0; k < times; k += 1) {
      const first = absolute ? step : prevFirst + step;
      const rest = Array.from({ length: n - 1 }, (_, i) => {
        const f = fields[i + 1];
        return f === undefined || f === '' ? (prevRest[i] ?? '') : f;
      });
      out.push([String(first), ...rest].join(':').replace(/:+$/, ''));
      prevFirst = first;
      prevRest = rest;
    }
  }
  return out.join(',');
}

const FLOW_KEY = /^f(0|[1-9]\d{0,2})\.(.+)$/;
const FLOW_RANGE = /^f(0|[1-9]\d{0,2})-([1-9]\d{0,2})\.(.+)$/;

/** `f1.x=a&f2.x=a&f3.x=a` → `f1-3.x=a` (runs of three or more consecutive flows). */
function rangeFlows(pairs: QueryPairs): QueryPairs {
  const out: QueryPairs = [];
  for (let i = 0; i < pairs.length;) {
    const [k, v] = pairs[i] ?? ['', ''];
    const m = FLOW_KEY.exec(k);
    let j = i + 1;
    if (m) {
      let flow = Number(m[1]);
      for (; j < pairs.length; j += 1) {
        const [k2, v2] = pairs[j] ?? ['', ''];
        const m2 = FLOW_KEY.exec(k2);
        if (!m2 || m2[2] !== m[2] || v2 !== v || Number(m2[1]) !== flow + 1) break;
        flow += 1;
      }
    }
    if (m && j - i >= 3) out.push([`f${m[1]}-${Number(m[1]) + (j - i) - 1}.${m[2]}`, v]);
    else out.push(...pairs.slice(i, m ? j : i + 1));
    i = m ? j : i + 1;
  }
  return out;
}

/** The v=4 pairs of a link → their compact v=5 pairs: packed lists, flow ranges. */
export function compactPairs(pairs: QueryPairs): QueryPairs {
  const packed: QueryPairs = pairs.map(([k, v]) => {
    if (k === 'v') return [k, String(LONG_VERSION)];
    if (!PACKABLE.test(k)) return [k, v];
    return [k, packList(k, v) ?? v];
  });
  return rangeFlows(packed);
}

/** The compact v=5 pairs → v=4 pairs (flow ranges expanded, packed lists unpacked). */
export function expandPairs(pairs: QueryPairs, note: Note): QueryPairs {
  const out: QueryPairs = [];
  for (const [k, v] of pairs) {
    const r = FLOW_RANGE.exec(k);
    if (r) {
      const [from, to] = [Number(r[1]), Number(r[2])];
      if (from >= to) {
        note(k, `"${k}" is not a range of flows (f<from>-<to>. with from below to); it was ignored.`);
        continue;
      }
      for (let f = from; f <= to; f += 1) out.push(expandValue(`f${f}.${r[3]}`, v, note));
      continue;
    }
    out.push(expandValue(k, v, note));
  }
  return out;
}

function expandValue(k: string, v: string, note: Note): [string, string] {
  if (!PACKABLE.test(k) || !v.startsWith(PACK_MARK)) return [k, v];
  const plain = unpackList(k, v);
  if (typeof plain === 'string') return [k, plain];
  // Left as it is: the list's own reader refuses it with its notice (the list's default).
  note(k, `${k}: the packed list "${v.slice(0, 40)}${v.length > 40 ? '…' : ''}" cannot be read: ${plain.error}.`);
  return [k, v];
}

/** A link's text after `?`: the query, and the fragment after `#~` when the query does not fit. */
export function longLinkText(v4pairs: QueryPairs): string {
  const plain = joinPairs(v4pairs);
  if (plain.length <= QUERY_LIMIT) return plain;
  const pairs = compactPairs(v4pairs);
  const compact = joinPairs(pairs);
  if (compact.length <= QUERY_LIMIT) return compact;
  // The query keeps pairs in order while they fit (with room for `&frag=N`), the fragment
  // the rest, in order.
  const room = QUERY_LIMIT - `&${FRAG_KEY}=`.length - 10;
  let used = 0;
  let cut = 0;
  for (; cut < pairs.length; cut += 1) {
    const [k, v] = pairs[cut] ?? ['', ''];
    const len = `${enc(k)}=${enc(v)}`.length + (cut > 0 ? 1 : 0);
    if (cut > 0 && used + len > room) break;
    used += len;
  }
  const fragment = joinPairs(pairs.slice(cut));
  const query = joinPairs([...pairs.slice(0, cut), [FRAG_KEY, String(fragment.length)]]);
  return `${query}#${PACK_MARK}${fragment}`;
}

/** Splits `?query#fragment` (either part may be missing). */
export function splitLink(text: string): { query: string; fragment: string } {
  const at = text.indexOf('#');
  const query = (at < 0 ? text : text.slice(0, at)).replace(/^\?/, '');
  return { query, fragment: at < 0 ? '' : text.slice(at + 1) };
}

/** The pairs of a v=5 link: the query's (without `frag`), then the fragment's, with a
 *  notice when the fragment is missing or was cut short. */
export function joinFragment(query: QueryPairs, fragment: string, note: Note): QueryPairs {
  const fragText = query.find(([k]) => k === FRAG_KEY)?.[1];
  const pairs = query.filter(([k]) => k !== FRAG_KEY);
  if (fragText === undefined) return pairs;
  const want = Number(fragText);
  const ours = fragment.startsWith(PACK_MARK);
  const body = ours ? fragment.slice(PACK_MARK.length) : '';
  if (!/^\d+$/.test(fragText)) {
    note(FRAG_KEY, `${FRAG_KEY}=${fragText} is not a length; reading the part after #~ as it is.`);
  } else if (body.length !== want) {
    const what = ours ? `has ${body.length} of its ${want} characters` : 'is missing';
    note(
      FRAG_KEY,
      `This link was cut short: its part after #~ ${what} (some mail and chat programs cut long links). ` +
        'Settings from the missing part are at their defaults; ask for the whole link.',
    );
    if (!ours) return pairs;
    // The last pair may have been cut in the middle: leave it out.
    const fragPairs: QueryPairs = [...new URLSearchParams(body)];
    return [...pairs, ...(body.length < want ? fragPairs.slice(0, -1) : fragPairs)];
  }
  return [...pairs, ...new URLSearchParams(body)];
}
