// The shareable link: the whole scenario, the algorithms, the timeline and the view in a
// readable query string (docs/scenario-url.md). Example:
//   ?v=2&alg=newreno,newreno_cwv&network.bottleneck.bandwidth=4000000&f0.app.kind=on_off
//    &tl=3.25:network.bottleneck.loss.ber:0.00001&t=3.5
// Only values that differ from the engine's defaults are written; numbers are written with
// String(x), which round-trips every double, so a link reproduces the run bit for bit.
// Reading never throws: every field that cannot be used falls back to its default alone,
// with a notice naming it and what is allowed.
import { tables, type ParamSpec, type Scenario } from '../engine/tables';
import type { Validation } from '../engine/validation';
import { isJsonObject, jsonEqual, type JsonObject, type JsonValue } from '../lib/json';
import { ALGORITHM_NAMES, algorithmLabel, DEFAULT_SELECTION, isAlgorithm, orderAlgorithms } from './algorithms';
import { allowedText, formatValue, listText, parseDecimal, parseValueText, PARAMS, specOf, valueText } from './params';
import { concretePath, durationOf, getAt, pathOfUrlKey, setAt, splitFlowPath, timelineOf, urlKeyOf } from './paths';
import {
  CDF_SCALES,
  defaultLayout,
  defaultPlots,
  defaultShareState,
  LAYOUTS,
  PLOT_IDS,
  THROUGHPUT_COLUMNS,
  type CdfScale,
  type Layout,
  type Notice,
  type ShareState,
  type ThroughputColumn,
} from './shareState';
import { PLAIN_VERSION, upgrade, URL_VERSION, versionsReadingOtherwise, type QueryPairs } from './upgraders';
import { expandPairs, joinFragment, LONG_VERSION, longLinkText, splitLink } from './longLink';
import { practiceText, readPractice } from '../practice/link';
import { readSheet, readTheory, sheetText } from '../sheet/link';
import { readConvention } from '../textbook/link';
import { isWindowUnit, WINDOW_UNITS } from '../lib/units';
import { readSweep, sweepPairs } from '../sweep/link';
import { flowAlgorithm, flowBaseline, MAX_FLOWS, MODES, runKeysOf, withFlowAlgorithm, type Mode } from './competition';
import { presetNamed, presetStatus, presetView } from './presets';
import { withCourseStop } from '../course/course';

/** The engine's validator (`validate_json`), parsed: resolves a partial scenario. */
export type Validator = (scenarioJson: string) => Validation;

/** Keys that are not scenario parameters. */
const VIEW_KEYS = new Set([
  'v',
  'mode',
  'alg',
  't',
  'x',
  'layout',
  'plots',
  'bin',
  'tput',
  'cdfx',
  'unit',
  'lesson',
  'preset',
  'tl',
  'flows',
  'hide',
  'why',
  'practice',
  'projector',
  'sheet',
  'theory',
  'tb',
  'tbsheet',
  'sweep',
  'sweepseeds',
  'sweepalg',
  'sweepm',
  'course',
]);

/** Parameters that are not written as `key=value`: the version is `v`, the timeline `tl`. */
const NOT_A_KEY = new Set(['version', 'timeline']);

/** Flow indices beyond this are refused before the engine sees them (it allows far fewer). */
const MAX_FLOW_INDEX = 999;

function flowsOf(s: Scenario): JsonObject[] {
  return Array.isArray(s.flows) ? s.flows.filter(isJsonObject) : [];
}

function textOf(spec: ParamSpec, value: JsonValue): string {
  return spec.type === 'list' ? listText(spec.items ?? [], value) : valueText(value);
}

/**
 * Scenario + selection + view → the link's text after '?': a v=4 query, or, when that would
 * pass QUERY_LIMIT bytes, the v=5 long form (compact lists, and the rest after `#~`; see
 * longLink.ts). Append it to the page's path after `?`.
 */
export function encodeShareState(state: ShareState): string {
  return longLinkText(sharePairs(state));
}

/** Scenario + selection + view → the pairs of its v=4 query, in order. */
export function sharePairs(state: ShareState): QueryPairs {
  const compete = state.mode === 'compete';
  // A competition's flows name their own algorithms; `alg` belongs to comparisons.
  const pairs: QueryPairs = compete
    ? [
        ['v', String(PLAIN_VERSION)],
        ['mode', 'compete'],
      ]
    : [
        ['v', String(PLAIN_VERSION)],
        ['alg', orderAlgorithms(state.algorithms).join(',')],
      ];
  const flows = flowsOf(state.scenario);
  if (flows.length !== 1) pairs.push(['flows', String(flows.length)]);
  // In a competition each flow is read as its algorithm first (the entry's settings), then
  // its own keys: a flow's key is written when it differs from what its algorithm implies.
  const baselines = compete ? flows.map((_, i) => flowBaseline(flowAlgorithm(state.scenario, i))) : [];
  for (const spec of PARAMS) {
    if (NOT_A_KEY.has(spec.path)) continue;
    const isFlow = spec.path.startsWith('flows[].');
    const indices = isFlow ? flows.map((_, i) => i) : [-1];
    for (const i of indices) {
      // The compared flow's algorithm comes from `alg`; its catalogue-controlled settings
      // are written (below) only when they differ from the defaults, i.e. for custom.
      if (!compete && i === 0 && spec.path === 'flows[].algorithm') continue;
      const path = i < 0 ? spec.path : concretePath(spec.path, i);
      const value = getAt(state.scenario, path);
      const baseline =
        compete && i >= 0 && spec.path !== 'flows[].algorithm'
          ? getAt({ flows: [baselines[i] ?? {}] }, concretePath(spec.path, 0))
          : spec.default;
      if (value === undefined || jsonEqual(value, baseline)) continue;
      pairs.push([urlKeyOf(path), textOf(spec, value)]);
    }
  }
  const timeline = timelineOf(state.scenario);
  if (timeline.length > 0) {
    const items = timeline.map((e) => {
      const set = typeof e.set === 'string' ? e.set : '';
      const value = e.value ?? null;
      return `${valueText(e.at ?? 0)}:${urlKeyOf(set)}:${valueText(value)}`;
    });
    pairs.push(['tl', items.join(',')]);
  }
  // The preset the scenario came from, while it is recognisable; never on a link without a
  // setting (a bare `preset=NAME` opens the preset itself).
  const preset = presetNamed(state.preset);
  const hasSetting = pairs.some(([k]) => !VIEW_KEYS.has(k) || k === 'tl' || k === 'flows');
  const stillPreset =
    preset && hasSetting && presetStatus(preset, state.scenario, state.mode, state.algorithms).kind !== 'gone';
  if (state.cursor !== null) pairs.push(['t', String(state.cursor)]);
  if (state.xDomain) pairs.push(['x', `${state.xDomain[0]}:${state.xDomain[1]}`]);
  const def = defaultShareState();
  if (state.layout !== defaultLayout(state.mode)) pairs.push(['layout', state.layout]);
  const defPlots = defaultPlots(state.mode);
  if (state.plots.length !== defPlots.length || state.plots.some((p, i) => p !== defPlots[i])) {
    pairs.push(['plots', state.plots.join(',') || 'none']);
  }
  if (state.throughputBin !== null) pairs.push(['bin', String(state.throughputBin)]);
  if (state.throughputColumn !== def.throughputColumn) pairs.push(['tput', state.throughputColumn]);
  if (state.cdfScale !== def.cdfScale) pairs.push(['cdfx', state.cdfScale]);
  if (state.unit !== def.unit) pairs.push(['unit', state.unit]);
  if (state.lesson !== null) pairs.push(['lesson', state.lesson]);
  if (stillPreset) pairs.push(['preset', preset.name]);
  if (compete && state.hidden.length > 0) pairs.push(['hide', state.hidden.join(',')]);
  if (state.why) pairs.push(['why', `${state.why.key}:${state.why.index}`]);
  if (state.practice) pairs.push(['practice', practiceText(state.practice)]);
  if (state.projector) pairs.push(['projector', '1']);
  // Exercise sheets and the theory lines (web/src/sheet, web/src/theory).
  if (state.sheet) pairs.push(['sheet', sheetText(state.sheet)]);
  if (state.sheet?.textbook) pairs.push(['tbsheet', state.sheet.textbook]);
  if (state.theory) pairs.push(['theory', '1']);
  // The textbook model beside the rounds view (web/src/textbook).
  if (state.textbook) pairs.push(['tb', state.textbook]);
  // The sweep view (web/src/sweep/link.ts).
  pairs.push(...sweepPairs(state.sweep));
  return pairs;
}

/** A decoded link and everything in it that could not be used. */
export interface Decoded {
  state: ShareState;
  notices: Notice[];
}

function paramName(spec: ParamSpec, key: string): string {
  return `${spec.label} (${key})`;
}

function fallbackText(spec: ParamSpec): string {
  return `Using the default, ${formatValue(spec, spec.default)}.`;
}

/**
 * Reads a link's query string, with its fragment when it has one (`location.search +
 * location.hash`); never throws. `validate` is the engine's own check (cross-field).
 */
export function decodeShareState(search: string, validate?: Validator): Decoded {
  const notices: Notice[] = [];
  const note = (key: string, message: string) => notices.push({ key, message });
  const state = defaultShareState();

  // Pairs in order; the first of a repeated key wins. A long link (v=5) first joins the
  // pairs after `#~` to the query's and expands its compact forms into v=4 pairs.
  const link = splitLink(search);
  let raw: QueryPairs = [...new URLSearchParams(link.query)];
  const firstV = raw.find(([k]) => k === 'v')?.[1] ?? '';
  if (/^\d+$/.test(firstV) && Number(firstV) >= LONG_VERSION) {
    raw = expandPairs(joinFragment(raw, link.fragment, note), note);
  }
  let pairs: QueryPairs = [];
  const seen = new Set<string>();
  for (const [k, v] of raw) {
    if (seen.has(k)) {
      note(k, `"${k}" appears more than once in the link; using the first value.`);
      continue;
    }
    seen.add(k);
    pairs.push([k, v]);
  }
  if (pairs.length === 0) return { state, notices };

  // Version.
  const vText = pairs.find(([k]) => k === 'v')?.[1];
  if (vText === undefined) {
    // A hand-typed link (`?practice=predict`) opens quietly as the current format, unless
    // an older version would read its keys differently (docs/scenario-url.md, `v`).
    const older = versionsReadingOtherwise(pairs, DEFAULT_SELECTION);
    if (older.length > 0) {
      note(
        'v',
        `This link has no format version (v=), and links of v=${older.join(', v=')} read its keys differently; ` +
          `reading it as v=${PLAIN_VERSION}, the current format (add v=N if an older page made it).`,
      );
    }
  } else if (!/^\d+$/.test(vText) || Number(vText) < 1) {
    note('v', `v=${vText} is not a link format version; reading the link as v=${PLAIN_VERSION}.`);
  } else if (Number(vText) > URL_VERSION) {
    note(
      'v',
      `This link was made by a newer cwndlab (v=${vText}); this page reads v=${URL_VERSION}. ` +
        'Anything it does not know is reset to the default; reload the page to get the newest version.',
    );
  } else {
    pairs = upgrade(pairs, Number(vText), note);
  }

  // A lesson of the course (`course=<id>`, web/src/course) opens its preset as `preset=` does.
  pairs = withCourseStop(pairs, note);

  // The preset the scenario came from (`preset=NAME`). A link with no setting of its own
  // (no parameter, `tl` or `flows`) opens the preset as the menu loads it.
  const presetText = pairs.find(([k]) => k === 'preset')?.[1];
  const preset = presetText === undefined ? undefined : presetNamed(presetText);
  if (presetText !== undefined && !preset) {
    note(
      'preset',
      `preset=${presetText} is not a preset (the Preset menu and \`cwndlab presets\` list them); ` +
        'the link’s settings are used as they are.',
    );
  }
  const barePreset = preset && !pairs.some(([k]) => !VIEW_KEYS.has(k) || k === 'tl' || k === 'flows') ? preset : null;
  if (preset) state.preset = preset.name;

  // The mode first: it decides what `f<i>.algorithm` means and the view's defaults.
  const modeText = pairs.find(([k]) => k === 'mode')?.[1];
  if (modeText !== undefined) {
    if ((MODES as readonly string[]).includes(modeText)) state.mode = modeText as Mode;
    else note('mode', `mode=${modeText} is not a mode (allowed: ${MODES.join(', ')}); comparing algorithms.`);
  }
  // A preset with several flows is a competition.
  if (barePreset && Array.isArray(barePreset.scenario.flows) && barePreset.scenario.flows.length > 1) {
    state.mode = 'compete';
  }
  const compete = state.mode === 'compete';
  state.layout = defaultLayout(state.mode);
  state.plots = defaultPlots(state.mode);

  // Flow count first, so per-flow keys land in existing flows.
  let flowCount = 1;
  const flowsText = pairs.find(([k]) => k === 'flows')?.[1];
  if (flowsText !== undefined) {
    const n = parseDecimal(flowsText);
    if (n !== null && Number.isInteger(n) && n >= 1 && n <= MAX_FLOW_INDEX + 1) flowCount = n;
    else note('flows', `flows=${flowsText} is not a number of flows; using 1.`);
  }
  for (const [k] of pairs) {
    const f = splitFlowPath(pathOfUrlKey(k));
    if (f && f.flow <= MAX_FLOW_INDEX) flowCount = Math.max(flowCount, f.flow + 1);
  }
  // A competition keeps as many flows as the engine runs (a comparison leaves the count to
  // the engine's validation, below, as it always has).
  const maxFlows = compete ? MAX_FLOWS : null;
  if (maxFlows !== null && flowCount > maxFlows) {
    note(
      'flows',
      `flows=${flowCount}: the engine runs 1 to ${maxFlows} flows in one run (allowed: flows=1 to flows=${maxFlows}); ` +
        `keeping flows 0 to ${maxFlows - 1}.`,
    );
    flowCount = maxFlows;
  }
  let scenario: Scenario = state.scenario;
  const defaultFlow = flowsOf(scenario)[0] ?? {};
  scenario = { ...scenario, flows: Array.from({ length: flowCount }, () => structuredClone(defaultFlow)) };

  // In a competition each flow's algorithm applies first (the entry's settings, as the
  // engine expands a flow that names one), then the flow's own keys override it.
  const isAlgorithmKey = (key: string) => /^f\d+\.algorithm$/.test(key);
  if (compete) {
    const spec = specOf('flows[].algorithm');
    for (const [key, text] of pairs) {
      const flow = splitFlowPath(pathOfUrlKey(key));
      if (!spec || !flow || !isAlgorithmKey(key) || flow.flow >= flowCount) continue;
      const checked = parseValueText(spec, text);
      if (checked.ok && typeof checked.value === 'string') {
        scenario = withFlowAlgorithm(scenario, flow.flow, checked.value);
      } else {
        const why = checked.ok ? 'is not an algorithm' : checked.reason;
        note(key, `${paramName(spec, key)}: "${text}" ${why}; ${allowedText(spec)}. ${fallbackText(spec)}`);
      }
    }
  }

  for (const [key, text] of pairs) {
    if (VIEW_KEYS.has(key)) continue;
    if (compete && isAlgorithmKey(key) && (splitFlowPath(pathOfUrlKey(key))?.flow ?? Infinity) < flowCount) continue;
    const path = pathOfUrlKey(key);
    const spec = specOf(path);
    const flow = splitFlowPath(path);
    const wellFormed = spec && !NOT_A_KEY.has(spec.path) && (flow !== null) === spec.path.startsWith('flows[].');
    if (!spec || !wellFormed) {
      note(key, `"${key}" is not a cwndlab setting; it was ignored.`);
      continue;
    }
    if (flow && flow.flow > MAX_FLOW_INDEX) {
      note(key, `${paramName(spec, key)}: there is no flow ${flow.flow}; it was ignored.`);
      continue;
    }
    // Beyond the engine's limit (a competition keeps the first flows; the notice says so).
    if (flow && flow.flow >= flowCount) continue;
    if (!compete && path === 'flows[0].algorithm') {
      note(key, `${key}: the compared algorithms are chosen with alg=; "${text}" was ignored.`);
      continue;
    }
    const checked = parseValueText(spec, text);
    if (checked.ok) {
      scenario = setAt(scenario, path, checked.value);
    } else {
      note(key, `${paramName(spec, key)}: "${text}" ${checked.reason}; ${allowedText(spec)}. ${fallbackText(spec)}`);
    }
  }

  const tl = pairs.find(([k]) => k === 'tl')?.[1];
  if (tl !== undefined) scenario = { ...scenario, timeline: decodeTimeline(tl, note) };

  const algText = pairs.find(([k]) => k === 'alg')?.[1];
  if (barePreset) {
    const named = orderAlgorithms((algText ?? '').split(',').filter(isAlgorithm));
    const opened = presetView(barePreset, state.mode, named.length > 0 ? named : state.algorithms);
    scenario = opened.scenario;
    // The link's own choices win: its algorithms, plots and lesson.
    if (named.length === 0) state.algorithms = opened.algorithms;
    if (!pairs.some(([k]) => k === 'plots')) {
      const extra = opened.plots;
      state.plots = PLOT_IDS.filter((p) => state.plots.includes(p) || extra.includes(p));
    }
    if (!pairs.some(([k]) => k === 'lesson') && barePreset.lesson) state.lesson = barePreset.name;
  }

  scenario = validateWithFallback(scenario, validate, note, maxFlows ?? 1);
  state.scenario = scenario;
  const duration = durationOf(scenario, Infinity);

  // Selection.
  if (algText !== undefined) {
    const names = algText.split(',').map((s) => s.trim());
    const bad = names.filter((n) => n !== '' && !isAlgorithm(n));
    if (bad.length > 0) {
      const allowed = ALGORITHM_NAMES.join(', ');
      const what = bad.length === 1 ? 'is not an algorithm' : 'are not algorithms';
      note('alg', `alg: ${bad.map((b) => `"${b}"`).join(', ')} ${what} (allowed: ${allowed}); ignored.`);
    }
    const good = orderAlgorithms(names.filter(isAlgorithm));
    if (good.length > 0) state.algorithms = good;
    else
      note('alg', `alg=${algText} names no algorithm; comparing ${DEFAULT_SELECTION.map(algorithmLabel).join(', ')}.`);
  }

  // View.
  const tText = pairs.find(([k]) => k === 't')?.[1];
  if (tText !== undefined) {
    const t = parseDecimal(tText);
    // `+ 0` reads -0 as 0 (the link it writes back says t=0).
    if (t !== null && t >= 0 && t <= duration) state.cursor = t + 0;
    else note('t', `Cursor t=${tText} is not a time within the run (0 to ${duration} s); no cursor.`);
  }
  const xText = pairs.find(([k]) => k === 'x')?.[1];
  if (xText !== undefined) {
    const [a, b, ...rest] = xText.split(':').map(parseDecimal);
    if (a != null && b != null && rest.length === 0 && a >= 0 && a < b && b <= duration) {
      state.xDomain = [a + 0, b];
    } else {
      note(
        'x',
        `Zoom x=${xText} is not a time range from:to within the run (0 to ${duration} s); showing the whole run.`,
      );
    }
  }
  const layoutText = pairs.find(([k]) => k === 'layout')?.[1];
  if (layoutText !== undefined) {
    if ((LAYOUTS as readonly string[]).includes(layoutText)) state.layout = layoutText as Layout;
    else
      note('layout', `layout=${layoutText} is not a layout (allowed: ${LAYOUTS.join(', ')}); using ${state.layout}.`);
  }
  const plotsText = pairs.find(([k]) => k === 'plots')?.[1];
  if (plotsText !== undefined) {
    const names = plotsText === 'none' ? [] : plotsText.split(',');
    const bad = names.filter((n) => !(PLOT_IDS as readonly string[]).includes(n));
    if (bad.length > 0) {
      note('plots', `plots: ${bad.join(', ')} is not a plot (allowed: ${PLOT_IDS.join(', ')}); ignored.`);
    }
    state.plots = PLOT_IDS.filter((p) => names.includes(p));
  }
  const binText = pairs.find(([k]) => k === 'bin')?.[1];
  if (binText !== undefined) {
    const w = parseDecimal(binText);
    if (w !== null && w > 0) state.throughputBin = w;
    else
      note(
        'bin',
        `Throughput bin bin=${binText} is not a width in seconds (a number above 0); choosing one from the run’s length.`,
      );
  }
  const tputText = pairs.find(([k]) => k === 'tput')?.[1];
  if (tputText !== undefined) {
    if ((THROUGHPUT_COLUMNS as readonly string[]).includes(tputText)) {
      state.throughputColumn = tputText as ThroughputColumn;
    } else {
      note(
        'tput',
        `tput=${tputText} is not what the throughput plot can count (allowed: ${THROUGHPUT_COLUMNS.join(', ')}); ` +
          `using ${state.throughputColumn}.`,
      );
    }
  }
  const cdfxText = pairs.find(([k]) => k === 'cdfx')?.[1];
  if (cdfxText !== undefined) {
    if ((CDF_SCALES as readonly string[]).includes(cdfxText)) {
      state.cdfScale = cdfxText as CdfScale;
    } else {
      note(
        'cdfx',
        `cdfx=${cdfxText} is not an x axis of the thin-stream CDFs (allowed: ${CDF_SCALES.join(', ')}); ` +
          `using ${state.cdfScale}.`,
      );
    }
  }
  const unitText = pairs.find(([k]) => k === 'unit')?.[1];
  if (unitText !== undefined) {
    if (isWindowUnit(unitText)) {
      state.unit = unitText;
    } else {
      note(
        'unit',
        `unit=${unitText} is not a unit windows are shown in (allowed: ${WINDOW_UNITS.join(', ')}); ` +
          `using ${state.unit}.`,
      );
    }
  }
  const hideText = pairs.find(([k]) => k === 'hide')?.[1];
  if (hideText !== undefined) {
    const n = flowsOf(state.scenario).length;
    const items = hideText === '' ? [] : hideText.split(',');
    const good = items
      .map(parseDecimal)
      .filter((i): i is number => i !== null && Number.isInteger(i) && i >= 0 && i < n);
    if (!compete) {
      note('hide', `hide=${hideText}: hiding flows applies to competition mode (mode=compete); ignored.`);
    } else {
      if (good.length !== items.length) {
        note(
          'hide',
          `hide=${hideText}: flows to hide are flow numbers 0 to ${n - 1}, comma-separated; others ignored.`,
        );
      }
      state.hidden = [...new Set(good)].sort((a, b) => a - b).slice(0, Math.max(0, n - 1));
    }
  }
  const whyText = pairs.find(([k]) => k === 'why')?.[1];
  if (whyText !== undefined) {
    // Which runs exist is known once the state is: an algorithm compared, or a flow.
    const m = /^([a-z0-9_]+):(\d{1,9})$/.exec(whyText);
    const keys = runKeysOf(state.mode, state.algorithms, state.scenario);
    if (m && keys.includes(m[1] ?? '')) {
      state.why = { key: m[1] ?? '', index: Number(m[2]) };
    } else {
      note(
        'why',
        `why=${whyText} is not a decision of this page's runs (allowed: run:index, the run one of ` +
          `${keys.join(', ')}, the index a whole number); no decision is selected.`,
      );
    }
  }
  const projectorText = pairs.find(([k]) => k === 'projector')?.[1];
  if (projectorText !== undefined) {
    if (projectorText === '1' || projectorText === '0') state.projector = projectorText === '1';
    else note('projector', `projector=${projectorText} is not 1 (on) or 0 (off); projector mode is off.`);
  }
  const practiceValue = pairs.find(([k]) => k === 'practice')?.[1];
  if (practiceValue !== undefined) {
    // Predict-then-reveal practice (web/src/practice): a view key, as `why`.
    const read = readPractice(practiceValue, runKeysOf(state.mode, state.algorithms, state.scenario));
    if ('error' in read) note('practice', read.error);
    else state.practice = read;
  }
  // Exercise sheets and the theory lines (web/src/sheet, web/src/theory): view keys.
  const sheetValue = pairs.find(([k]) => k === 'sheet')?.[1];
  if (sheetValue !== undefined) {
    const read = readSheet(sheetValue);
    if ('error' in read) note('sheet', read.error);
    else state.sheet = read;
  }
  // The textbook model (web/src/textbook): the rounds view's line, and the sheet's model.
  const tbsheetValue = pairs.find(([k]) => k === 'tbsheet')?.[1];
  if (tbsheetValue !== undefined && state.sheet) {
    const read = readConvention('tbsheet', tbsheetValue);
    if (typeof read === 'object') note('tbsheet', read.error);
    else state.sheet = { ...state.sheet, textbook: read };
  }
  const tbValue = pairs.find(([k]) => k === 'tb')?.[1];
  if (tbValue !== undefined) {
    const read = readConvention('tb', tbValue);
    if (typeof read === 'object') note('tb', read.error);
    else state.textbook = read;
  }
  const theoryValue = pairs.find(([k]) => k === 'theory')?.[1];
  if (theoryValue !== undefined) {
    const read = readTheory(theoryValue);
    if (typeof read === 'object') note('theory', read.error);
    else state.theory = read;
  }
  // The sweep view (web/src/sweep/link.ts): view keys.
  const sweepRead = readSweep((key) => pairs.find(([k]) => k === key)?.[1]);
  for (const [key, message] of sweepRead.notes) note(key, message);
  state.sweep = sweepRead.sweep;
  const lessonText = pairs.find(([k]) => k === 'lesson')?.[1];
  if (lessonText !== undefined) {
    if (tables.presets.some((p) => p.name === lessonText && p.lesson)) state.lesson = lessonText;
    else note('lesson', `lesson=${lessonText} is not a preset with a lesson; no lesson is shown.`);
  }
  return { state, notices };
}

function decodeTimeline(text: string, note: (key: string, message: string) => void): JsonObject[] {
  const out: JsonObject[] = [];
  if (text.trim() === '') return out;
  for (const [n, item] of text.split(',').entries()) {
    const where = `Timeline change ${n + 1} (tl=${item})`;
    const m = /^([^:]*):([^:]*):(.*)$/.exec(item);
    if (!m) {
      note('tl', `${where} is not time:setting:value; it was dropped.`);
      continue;
    }
    const [, atText = '', key = '', valueTextRaw = ''] = m;
    const at = parseDecimal(atText);
    if (at === null || at < 0) {
      note('tl', `${where}: "${atText}" is not a time in seconds; the change was dropped.`);
      continue;
    }
    const path = pathOfUrlKey(key);
    const spec = specOf(path);
    if (!spec || NOT_A_KEY.has(spec.path) || (splitFlowPath(path) !== null) !== spec.path.startsWith('flows[].')) {
      note('tl', `${where}: "${key}" is not a cwndlab setting; the change was dropped.`);
      continue;
    }
    if (!spec.live) {
      note('tl', `${where}: ${spec.label} (${key}) cannot change during a run; the change was dropped.`);
      continue;
    }
    const checked = parseValueText(spec, valueTextRaw);
    if (!checked.ok) {
      note('tl', `${where}: "${valueTextRaw}" ${checked.reason}; ${allowedText(spec)}. The change was dropped.`);
      continue;
    }
    out.push({ at, set: path, value: checked.value });
  }
  return out;
}

/** The longest prefix of an engine problem path that names a parameter (or null). */
function paramPathOfProblem(path: string): string | null {
  let p = path;
  for (;;) {
    const spec = specOf(p);
    if (spec && !NOT_A_KEY.has(spec.path)) return p;
    const cut = Math.max(p.lastIndexOf('.'), p.lastIndexOf('['));
    if (cut <= 0) return null;
    p = p.slice(0, cut);
  }
}

/**
 * Lets the engine check what the table cannot (e.g. rwnd ≥ MSS, a timeline change after the
 * end). Each field it refuses goes back to its default, one at a time, with a notice.
 */
function validateWithFallback(
  scenario: Scenario,
  validate: Validator | undefined,
  note: (key: string, message: string) => void,
  keepFlows = 1,
): Scenario {
  if (!validate) return scenario;
  let current = scenario;
  const reset = new Set<string>();
  for (let round = 0; round < 6; round += 1) {
    const result = validate(JSON.stringify(current));
    if (result.ok) return result.scenario;
    let progressed = false;
    const dropTimeline = new Set<number>();
    for (const problem of result.problems) {
      const tm = /^timeline\[(\d+)\]/.exec(problem.path);
      if (tm) {
        dropTimeline.add(Number(tm[1]));
        note('tl', `Timeline change ${Number(tm[1]) + 1}: ${problem.text}; the change was dropped.`);
        progressed = true;
        continue;
      }
      if (problem.path === 'flows') {
        const keep = Math.min(keepFlows, flowsOf(current).length - 1);
        current = { ...current, flows: flowsOf(current).slice(0, Math.max(1, keep)) };
        note(
          'flows',
          `flows: ${problem.message}; keeping ${keep > 1 ? `the first ${keep} flows` : 'the first flow only'}.`,
        );
        progressed = true;
        continue;
      }
      const path = paramPathOfProblem(problem.path);
      const spec = path ? specOf(path) : undefined;
      if (!path || !spec) continue;
      // A problem about a per-flow setting across flows (`flows[].reserved_bandwidth`: the
      // reservations add up to more than the link) resets it in every flow that sets it.
      const paths = path.startsWith('flows[].')
        ? flowsOf(current)
            .map((_, i) => concretePath(path, i))
            .filter((p) => !jsonEqual(getAt(current, p), spec.default))
        : [path];
      for (const p of paths) {
        if (reset.has(p)) continue;
        reset.add(p);
        current = setAt(current, p, structuredClone(spec.default));
        const key = urlKeyOf(p);
        note(key, `${paramName(spec, key)}: ${problem.text}. ${fallbackText(spec)}`);
        progressed = true;
      }
    }
    if (dropTimeline.size > 0 && Array.isArray(current.timeline)) {
      current = { ...current, timeline: current.timeline.filter((_, i) => !dropTimeline.has(i)) };
    }
    if (!progressed) break;
  }
  const fallback = validate(JSON.stringify(defaultShareState().scenario));
  note('', 'The settings in this link do not form a scenario the engine accepts; showing the default scenario.');
  return fallback.ok ? fallback.scenario : defaultShareState().scenario;
}
