// A sweep in the link (docs/scenario-url.md): `sweep=PATH:FROM:TO:N[:log]` opens the sweep view
// varying PATH over the range (the CLI's `--param PATH --range FROM:TO:N[:log]`; a per-flow
// parameter, every flow's, is written `f.x` for the CLI's `flows[].x`), with
// `sweepseeds=S` seeds per point (1 to S, the CLI's `--seeds S`), `sweepalg=a,b` the
// algorithms (absent: the page's compared ones) and `sweepm=METRIC` the plotted metric.
// An enumerated setting is swept over a list of its values instead, `sweep=PATH:V1,V2,…`
// (two fields, where a range has four or five: the CLI's `--values V1,V2,…`), in that order.
// View keys that no older link has: old links open without a sweep.
import { tables } from '../engine/tables';
import { specOf } from '../scenario/params';

/** The sweep a link opens. FROM and TO are kept as their exact text (the engine reads them). */
export interface SweepLink {
  param: string;
  from: string;
  to: string;
  points: number;
  log: boolean;
  /** An enumerated setting's values, in the order swept (the range fields then unused:
   *  from and to '', points their count, log false); absent for a range. */
  values?: string[];
  seeds: number;
  /** Catalogue names; null: the page's compared algorithms. */
  algorithms: string[] | null;
  metric: string;
}

/** Seeds per point when nobody says. */
export const DEFAULT_SEEDS = 3;
/** The metrics a sweep reports, from the engine (tables.json `sweep`). */
export const METRICS = tables.sweep.metrics;
/** The metric plotted when nobody says: the engine's first (goodput). */
export const DEFAULT_METRIC = METRICS[0]?.name ?? 'goodput_bps';

/** The range as the engine and the CLI write it: `FROM:TO:N[:log]`. */
export function rangeText(s: Pick<SweepLink, 'from' | 'to' | 'points' | 'log'>): string {
  return `${s.from}:${s.to}:${s.points}${s.log ? ':log' : ''}`;
}

/** A per-flow parameter (`flows[].x`, every flow, as the CLI's path says) is `f.x` in the
 *  link (brackets would be escaped), as one flow's is `f0.x`. */
function paramKey(path: string): string {
  return path.startsWith('flows[].') ? `f.${path.slice('flows[].'.length)}` : path;
}

function paramOfKey(key: string): string {
  return key.startsWith('f.') ? `flows[].${key.slice(2)}` : key;
}

/** The link's pairs for a sweep (none without one). */
export function sweepPairs(s: SweepLink | null): [string, string][] {
  if (!s) return [];
  const axis = s.values ? s.values.join(',') : rangeText(s);
  const pairs: [string, string][] = [['sweep', `${paramKey(s.param)}:${axis}`]];
  if (s.seeds !== DEFAULT_SEEDS) pairs.push(['sweepseeds', String(s.seeds)]);
  if (s.algorithms) pairs.push(['sweepalg', s.algorithms.join(',')]);
  if (s.metric !== DEFAULT_METRIC) pairs.push(['sweepm', s.metric]);
  return pairs;
}

const NUMBER = /^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;

/** The sweep of a link's `sweep=PATH:V1,V2,…` (an enumerated setting's values), or the
 *  note on why not. Values the setting does not have are left out and named. */
function readList(text: string, key: string, list: string, notes: [string, string][]): SweepLink | null {
  const param = paramOfKey(key);
  const spec = specOf(param);
  const allowed = spec?.type === 'enum' ? (spec.options ?? []).map((o) => o.value) : [];
  if (!spec || spec.type !== 'enum') {
    notes.push([
      'sweep',
      `sweep=${text} is not a sweep: a list of values (PATH:V1,V2) is for an enumerated setting, and ${param} ` +
        `${spec ? 'is numeric (write PATH:FROM:TO:N or PATH:FROM:TO:N:log)' : 'is not a setting'}; no sweep is shown.`,
    ]);
    return null;
  }
  const asked = list.split(',').filter((v) => v !== '');
  const values = asked.filter((v, i) => allowed.includes(v) && asked.indexOf(v) === i);
  const unknown = asked.filter((v) => !allowed.includes(v));
  const twice = [...new Set(asked.filter((v, i) => allowed.includes(v) && asked.indexOf(v) !== i))];
  const problems: string[] = [];
  const allowedText = `(allowed: ${allowed.join(', ')})`;
  if (unknown.length > 0)
    problems.push(
      `${unknown.join(', ')} ${unknown.length === 1 ? 'is not a value' : 'are not values'} of ${param} ${allowedText}`,
    );
  else if (values.length === 0) problems.push(`no value of ${param} is given ${allowedText}`);
  if (twice.length > 0) problems.push(`${twice.join(', ')} given more than once`);
  if (problems.length > 0) {
    const outcome = values.length ? `${values.join(', ')} swept.` : 'no sweep is shown.';
    notes.push(['sweep', `sweep=${text}: ${problems.join('; ')}; ${outcome}`]);
    if (values.length === 0) return null;
  }
  return {
    param,
    from: '',
    to: '',
    points: values.length,
    log: false,
    values,
    seeds: DEFAULT_SEEDS,
    algorithms: null,
    metric: DEFAULT_METRIC,
  };
}

/**
 * Reads the sweep keys: the sweep, or null without `sweep=`; a key that cannot be used is
 * named in `notes` (with what is allowed) and the sweep opens without it, or not at all when
 * `sweep=` itself is unusable. The range's limits (a log range above 0, the most runs) are the
 * engine's to check when the sweep is planned; its message is shown in the view.
 */
export function readSweep(get: (key: string) => string | undefined): {
  sweep: SweepLink | null;
  notes: [string, string][];
} {
  const notes: [string, string][] = [];
  const text = get('sweep');
  if (text === undefined) {
    for (const k of ['sweepseeds', 'sweepalg', 'sweepm']) {
      if (get(k) !== undefined)
        notes.push([k, `${k}= needs sweep=PATH:FROM:TO:N or sweep=PATH:V1,V2; it was not used.`]);
    }
    return { sweep: null, notes };
  }
  const list = /^([^:]+):([^:]+)$/.exec(text);
  const sweep = list ? readList(text, list[1] ?? '', list[2] ?? '', notes) : readRange(text, notes);
  if (!sweep) return { sweep: null, notes };
  readViewKeys(sweep, get, notes);
  return { sweep, notes };
}

/** The sweep of a link's `sweep=PATH:FROM:TO:N[:log]`, or the note on why not. */
function readRange(text: string, notes: [string, string][]): SweepLink | null {
  const m = /^([^:]+):([^:]+):([^:]+):(\d{1,6})(:log)?$/.exec(text);
  const [param, from, to, points] = [paramOfKey(m?.[1] ?? ''), m?.[2] ?? '', m?.[3] ?? '', m?.[4] ?? ''];
  const spec = specOf(param);
  if (!m || !spec || (spec.type !== 'int' && spec.type !== 'float') || !NUMBER.test(from) || !NUMBER.test(to)) {
    notes.push([
      'sweep',
      `sweep=${text} is not a sweep (allowed: PATH:FROM:TO:N or PATH:FROM:TO:N:log, PATH a numeric ` +
        `parameter, FROM and TO numbers, N a whole number of points; or PATH:V1,V2 for an enumerated ` +
        `setting's values); no sweep is shown.`,
    ]);
    return null;
  }
  return {
    param,
    from,
    to,
    points: Number(points),
    log: m[5] !== undefined,
    seeds: DEFAULT_SEEDS,
    algorithms: null,
    metric: DEFAULT_METRIC,
  };
}

/** Reads the keys beside `sweep=` (seeds, algorithms, metric) into the sweep. */
function readViewKeys(sweep: SweepLink, get: (key: string) => string | undefined, notes: [string, string][]): void {
  const seeds = get('sweepseeds');
  if (seeds !== undefined) {
    if (/^\d{1,4}$/.test(seeds) && Number(seeds) >= 1) sweep.seeds = Number(seeds);
    else
      notes.push([
        'sweepseeds',
        `sweepseeds=${seeds} is not a whole number of seeds, 1 or more; ${DEFAULT_SEEDS} are run.`,
      ]);
  }
  const algs = get('sweepalg');
  if (algs !== undefined) {
    const names = algs.split(',').filter((a) => a !== '');
    const unknown = names.filter((a) => !tables.catalogue.some((e) => e.name === a));
    if (names.length > 0 && unknown.length === 0) sweep.algorithms = names;
    else
      notes.push([
        'sweepalg',
        `sweepalg=${algs} names ${unknown.length ? unknown.join(', ') : 'no algorithm'} (allowed: the catalogue's ` +
          `names, comma-separated); the compared algorithms are swept.`,
      ]);
  }
  const metric = get('sweepm');
  if (metric !== undefined) {
    if (METRICS.some((x) => x.name === metric)) sweep.metric = metric;
    else
      notes.push([
        'sweepm',
        `sweepm=${metric} is not a sweep metric (allowed: ${METRICS.map((x) => x.name).join(', ')}); ${DEFAULT_METRIC} is plotted.`,
      ]);
  }
}

/** The sweep of a lesson (its `sweep` field, the link's sweep keys `sweep=PATH:…&sweepm=…`):
 *  read by the same rules as a link's, with the same notes. */
export function readSweepKeys(keys: string): ReturnType<typeof readSweep> {
  const params = new URLSearchParams(keys);
  const unknown = [...params.keys()].filter((k) => !['sweep', 'sweepseeds', 'sweepalg', 'sweepm'].includes(k));
  const read = readSweep((k) => params.get(k) ?? undefined);
  for (const k of unknown)
    read.notes.push([k, `${k}= is not a sweep key (allowed: sweep, sweepseeds, sweepalg, sweepm).`]);
  return read;
}
