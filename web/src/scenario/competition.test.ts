// Competition mode in the link (mode=compete, flows=N and the f<i>. keys) and the scenario
// rules of the mode: a flow's algorithm choice, comparison ↔ competition.
import { describe, expect, it } from 'vitest';
import { tables } from '../engine/tables';
import { engineWasm, realValidator } from '../test/wasm';
import { catalogueEntry, CUSTOM } from './algorithms';
import {
  flowAlgorithm,
  flowBaseline,
  flowIndexOf,
  flowKey,
  flowLabel,
  flowsOf,
  hiddenAfterRemoval,
  MAX_FLOWS,
  runKeysOf,
  toComparison,
  toCompetition,
  withFlowAlgorithm,
} from './competition';
import { requireSpec } from './params';
import { getAt, setAt } from './paths';
import { defaultShareState, type ShareState } from './shareState';
import { decodeShareState, encodeShareState } from './url';

const validate = realValidator();
const wasm = engineWasm();

function decode(query: string) {
  return decodeShareState(query, validate);
}

function roundTrip(state: ShareState) {
  const query = encodeShareState(state);
  return { query, ...decode(`?${query}`) };
}

function digestOf(scenario: object): string {
  const sim = new wasm.Sim(JSON.stringify(scenario));
  sim.run_to_end();
  const d = sim.digest();
  sim.free();
  return d;
}

function noticeFor(notices: { key: string; message: string }[], key: string): string {
  const found = notices.filter((n) => n.key === key);
  expect(found, `notices: ${JSON.stringify(notices)}`).toHaveLength(1);
  return found[0]?.message ?? '';
}

/** NewReno from 0 s, Reno from 3 s as a thin stream, Old Tahoe from 6 s with a reservation;
 *  flow 2 hidden. */
const LINK =
  '?v=4&mode=compete&flows=3&duration=12&f1.algorithm=reno&f2.algorithm=old_tahoe&f1.start=3&f2.start=6' +
  '&f2.reserved_bandwidth=500000&f1.app.kind=thin&f1.app.write_size=200&hide=2';

describe('competition mode in the link', () => {
  it('reads mode=compete, every flow’s keys and the hidden flows, without notices', () => {
    const { state, notices } = decode(LINK);
    expect(notices).toEqual([]);
    expect(state.mode).toBe('compete');
    expect(flowsOf(state.scenario).map((f) => f.algorithm)).toEqual(['newreno', 'reno', 'old_tahoe']);
    // The entry's settings came with the name (the engine's rule for a flow naming one).
    expect(getAt(state.scenario, 'flows[1].variant')).toBe('reno');
    expect(getAt(state.scenario, 'flows[2].variant')).toBe('old_tahoe');
    expect(getAt(state.scenario, 'flows[1].app.write_size')).toBe(200);
    expect(getAt(state.scenario, 'flows[2].reserved_bandwidth')).toBe(500000);
    expect(state.hidden).toEqual([2]);
    // The mode's own view defaults.
    expect(state.layout).toBe('overlay');
    expect(state.plots).toEqual(['window', 'queue', 'throughput', 'share', 'fairness', 'retx']);
  });

  it('writes a short link (a flow’s algorithm, not the settings it implies) that reads back bit for bit', () => {
    const first = decode(LINK).state;
    const { query, state, notices } = roundTrip(first);
    expect(notices).toEqual([]);
    expect(state).toEqual(first);
    expect(query).toBe(LINK.slice(1));
    expect(query).not.toContain('variant');
    expect(query).not.toContain('alg=');
    // The same run: the engine's digest of the scenario read back is the original's.
    expect(digestOf(state.scenario)).toBe(digestOf(first.scenario));
  });

  it('round-trips flows whose settings differ from their entry, and custom flows', () => {
    let s = decode('?v=3&mode=compete&flows=3').state.scenario;
    s = withFlowAlgorithm(s, 1, 'linux_3_15');
    // Flow 1's initial window differs from its profile's (even though it is the default's).
    s = setAt(s, 'flows[1].tcp.initial_window', 2);
    // Flow 2: Reno with CWV, which no entry is.
    s = setAt(s, 'flows[2].variant', 'reno');
    s = setAt(s, 'flows[2].cc.idle_policy', 'rfc2861');
    const checked = validate(JSON.stringify(s));
    if (!checked.ok) throw new Error('refused');
    const state: ShareState = { ...defaultShareState(), mode: 'compete', scenario: checked.scenario };
    state.layout = 'multiples';
    state.plots = ['window', 'seq'];
    const { query, state: back, notices } = roundTrip(state);
    expect(notices).toEqual([]);
    expect(back.scenario).toEqual(state.scenario);
    expect(back.layout).toBe('multiples');
    expect(back.plots).toEqual(['window', 'seq']);
    // Its own initial window makes flow 1 custom (as the engine names it): the link writes
    // custom and every setting that differs from the defaults.
    expect(flowAlgorithm(back.scenario, 1)).toBe(CUSTOM);
    expect(query).toContain('f1.algorithm=custom');
    expect(query).toContain('f1.cc.growth_gate=linux_3_15');
    expect(getAt(back.scenario, 'flows[1].tcp.initial_window')).toBe(2);
    expect(flowAlgorithm(back.scenario, 2)).toBe(CUSTOM);
    expect(query).toContain('f2.variant=reno');
    expect(digestOf(back.scenario)).toBe(digestOf(state.scenario));
  });

  it('reads the documented example link (docs/scenario-url.md) without notices and writes it back', () => {
    const doc =
      'v=4&mode=compete&flows=3&duration=30&f1.algorithm=reno&f2.algorithm=old_tahoe&f1.start=2&f2.start=4' +
      '&f2.reserved_bandwidth=500000&f1.app.kind=thin&f1.app.write_size=200&bin=5&hide=2';
    const { state, notices } = decode(`?${doc}`);
    expect(notices).toEqual([]);
    expect(encodeShareState(state)).toBe(doc);
  });

  it('leaves old links as they were: no mode is a comparison, with its own defaults', () => {
    for (const q of ['?v=1&alg=reno,newreno', '?v=2&alg=reno,newreno', '?v=3&alg=reno,newreno']) {
      const { state, notices } = decode(q);
      expect(notices).toEqual([]);
      expect(state.mode).toBe('compare');
      expect(state.layout).toBe('multiples');
      expect(state.plots).toEqual(['window', 'seq', 'queue']);
      expect(encodeShareState(state)).toBe('v=4&alg=reno,newreno');
    }
    // A comparison link with several flows keeps reading flow 1's own keys as before.
    const old = decode('?v=3&alg=reno&flows=2&f1.algorithm=reno&f1.variant=reno&f1.start=1').state;
    expect(old.mode).toBe('compare');
    expect(getAt(old.scenario, 'flows[1].variant')).toBe('reno');
    expect(encodeShareState(old)).toContain('f1.algorithm=reno&f1.variant=reno');
    // f0.algorithm stays refused in a comparison (alg= chooses).
    expect(noticeFor(decode('?v=3&alg=reno&f0.algorithm=tahoe').notices, 'f0.algorithm')).toContain('alg=');
  });

  it('names the key and the allowed values for a bad algorithm, too many flows, a bad mode or hidden flow', () => {
    const bad = decode('?v=3&mode=compete&flows=4&f3.algorithm=vegas&f1.algorithm=reno');
    const msg = noticeFor(bad.notices, 'f3.algorithm');
    expect(msg).toContain('f3.algorithm');
    expect(msg).toContain('"vegas"');
    for (const e of tables.catalogue) expect(msg).toContain(e.name);
    // That flow alone falls back (to the default algorithm); the others keep theirs.
    expect(flowsOf(bad.state.scenario).map((f) => f.algorithm)).toEqual(['newreno', 'reno', 'newreno', 'newreno']);

    const many = decode('?v=3&mode=compete&flows=100&f99.start=1&f70.algorithm=reno');
    expect(MAX_FLOWS).toBe(64);
    const m = noticeFor(many.notices, 'flows');
    expect(m).toContain('flows=100');
    expect(m).toContain('flows=1 to flows=64');
    expect(flowsOf(many.state.scenario)).toHaveLength(64);

    expect(noticeFor(decode('?v=3&mode=race').notices, 'mode')).toContain('allowed: compare, compete');
    expect(decode('?v=3&mode=race').state.mode).toBe('compare');
    const hide = decode('?v=3&mode=compete&flows=3&hide=1,7,x');
    expect(noticeFor(hide.notices, 'hide')).toContain('0 to 2');
    expect(hide.state.hidden).toEqual([1]);
    // Every flow hidden: one stays shown.
    expect(decode('?v=3&mode=compete&flows=2&hide=0,1').state.hidden).toEqual([0]);
    expect(noticeFor(decode('?v=3&alg=reno&hide=1').notices, 'hide')).toContain('mode=compete');
  });
});

describe('a flow’s algorithm and the two modes', () => {
  it('puts an entry’s settings on one flow, and takes a profile’s own settings away again', () => {
    const base = decode('?v=3&mode=compete&flows=2').state.scenario;
    const linux = withFlowAlgorithm(base, 1, 'linux_3_15');
    const entry = catalogueEntry('linux_3_15');
    for (const [k, v] of Object.entries(entry?.settings ?? {})) expect(getAt(linux, `flows[1].${k}`)).toEqual(v);
    expect(getAt(linux, 'flows[1].tcp.initial_window')).toBe(10);
    // Flow 0 untouched.
    expect(flowsOf(linux)[0]).toEqual(flowsOf(base)[0]);
    const back = withFlowAlgorithm(linux, 1, 'newreno');
    expect(flowsOf(back)[1]).toEqual(flowsOf(base)[1]);
    expect(flowBaseline('linux_3_15')).toEqual(
      flowsOf(withFlowAlgorithm({ flows: [flowsOf(base)[0] ?? {}] }, 0, 'linux_3_15'))[0],
    );
  });

  it('takes a custom flow’s algorithm rules away when it is given an entry', () => {
    // Flow 1 is CUBIC with C = 0.2 (custom): made Reno, it is Reno, not Reno's variant on
    // CUBIC's congestion avoidance; CUBIC's settings, C among them, go back to the defaults.
    const base = decode('?v=3&mode=compete&flows=2').state.scenario;
    const custom = setAt(
      setAt(withFlowAlgorithm(base, 1, 'cubic'), 'flows[1].cc.cubic_c', 0.2),
      'flows[1].algorithm',
      CUSTOM,
    );
    const reno = withFlowAlgorithm(custom, 1, 'reno');
    const cubic = catalogueEntry('cubic');
    for (const k of Object.keys(cubic?.rules ?? {})) {
      expect(getAt(reno, `flows[1].${k}`), k).toEqual(requireSpec(`flows[].${k}`).default);
    }
    expect(getAt(reno, 'flows[1].variant')).toBe('reno');
    expect(flowsOf(reno)[1]).toEqual(flowsOf(withFlowAlgorithm(base, 1, 'reno'))[1]);
  });

  it('turns a comparison into one flow per algorithm, and back', () => {
    const base = decode('?v=3&alg=tahoe,reno&network.bottleneck.delay=0.1').state.scenario;
    const c = toCompetition(base, ['reno', 'tahoe', 'newreno_cwv']);
    expect(flowsOf(c).map((f) => f.algorithm)).toEqual(['tahoe', 'reno', 'newreno_cwv']);
    expect(getAt(c, 'flows[2].cc.idle_policy')).toBe('rfc2861');
    expect(getAt(c, 'network.bottleneck.delay')).toBe(0.1);
    // At most the engine's limit.
    expect(flowsOf(toCompetition(base, ['reno', 'tahoe', 'newreno'], 2))).toHaveLength(2);
    const back = toComparison(c);
    expect(back.algorithms).toEqual(['tahoe', 'reno', 'newreno_cwv']);
    expect(flowsOf(back.scenario)).toHaveLength(1);
    expect(flowsOf(back.scenario)[0]).toEqual(flowsOf(base)[0]);
  });

  it('names and numbers flows as the page shows them', () => {
    const s = decode(LINK).state.scenario;
    expect(runKeysOf('compete', ['reno'], s)).toEqual(['flow0', 'flow1', 'flow2']);
    expect(runKeysOf('compare', ['reno'], s)).toEqual(['reno']);
    expect(flowKey(12)).toBe('flow12');
    expect(flowIndexOf('flow12')).toBe(12);
    expect(flowIndexOf('reno')).toBeNull();
    expect(flowLabel(s, 2)).toBe('flow 2 · Old Tahoe');
    expect(hiddenAfterRemoval([0, 2, 5], 2)).toEqual([0, 4]);
  });
});
