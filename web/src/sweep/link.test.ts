// The sweep over an enumerated setting in the link (`sweep=PATH:V1,V2`): written and read back
// in the order given, told apart from a range (every old link opens as before), bad input named
// with the allowed values; and every lesson's sweep keys read by the same rules and planned by
// the engine on the preset's scenario.
import { describe, expect, it } from 'vitest';
import { tables } from '../engine/tables';
import { realValidator } from '../test/wasm';
import { defaultShareState, type ShareState } from '../scenario/shareState';
import { decodeShareState, encodeShareState } from '../scenario/url';
import { readSweepKeys, type SweepLink } from './link';
import { definitionOf, planSweep } from './sweep';

const validate = realValidator();

function roundTrip(state: ShareState) {
  const query = encodeShareState(state);
  return { query, ...decodeShareState(`?${query}`, validate) };
}

const decode = (query: string) => decodeShareState(query, validate);

/** The one notice about `key` (fails when there is none or several). */
function noticeFor(notices: { key: string; message: string }[], key: string): string {
  const found = notices.filter((n) => n.key === key);
  expect(found, `notices: ${JSON.stringify(notices)}`).toHaveLength(1);
  return found[0]?.message ?? '';
}

const QDISCS = (tables.schema.params.find((p) => p.path === 'network.bottleneck.qdisc')?.options ?? []).map(
  (o) => o.value,
);

const list: SweepLink = {
  param: 'network.bottleneck.qdisc',
  from: '',
  to: '',
  points: 3,
  log: false,
  values: ['pie', 'droptail', 'codel'],
  seeds: 1,
  algorithms: ['cubic'],
  metric: 'qdelay_mean_ms',
};

describe('a sweep over an enumerated setting in the link', () => {
  it('is written PATH:V1,V2,… and read back in the same order', () => {
    const { query, state, notices } = roundTrip({ ...defaultShareState(), sweep: list });
    expect(notices).toEqual([]);
    expect(query).toContain('sweep=network.bottleneck.qdisc:pie,droptail,codel&sweepseeds=1&sweepalg=cubic');
    expect(query).toContain('sweepm=qdelay_mean_ms');
    expect(state.sweep).toEqual(list);
    // A per-flow setting is written f.x, as a range's is.
    const app: SweepLink = { ...list, param: 'flows[].app.kind', values: ['bulk', 'cbr'], points: 2 };
    const back = roundTrip({ ...defaultShareState(), sweep: app });
    expect(back.query).toContain('sweep=f.app.kind:bulk,cbr&');
    expect(back.state.sweep).toEqual(app);
  });

  it('leaves every range link as it was (four or five fields)', () => {
    const range = decode('?v=4&sweep=network.bottleneck.loss.ber:1e-7:1e-4:4:log&sweepseeds=2');
    expect(range.notices).toEqual([]);
    expect(range.state.sweep).toEqual({
      param: 'network.bottleneck.loss.ber',
      from: '1e-7',
      to: '1e-4',
      points: 4,
      log: true,
      seeds: 2,
      algorithms: null,
      metric: 'goodput_bps',
    });
    expect(range.state.sweep).not.toHaveProperty('values');
    expect(encodeShareState(range.state)).toContain('sweep=network.bottleneck.loss.ber:1e-7:1e-4:4:log&');
  });

  it('names an unknown value and the allowed ones, and sweeps the rest', () => {
    const bad = decode('?v=4&sweep=network.bottleneck.qdisc:droptail,cake,codel');
    expect(noticeFor(bad.notices, 'sweep')).toBe(
      `sweep=network.bottleneck.qdisc:droptail,cake,codel: cake is not a value of network.bottleneck.qdisc ` +
        `(allowed: ${QDISCS.join(', ')}); droptail, codel swept.`,
    );
    expect(bad.state.sweep?.values).toEqual(['droptail', 'codel']);
    const none = decode('?v=4&sweep=network.bottleneck.qdisc:cake,sfq');
    expect(noticeFor(none.notices, 'sweep')).toContain('cake, sfq are not values of network.bottleneck.qdisc');
    expect(noticeFor(none.notices, 'sweep')).toContain('no sweep is shown');
    expect(none.state.sweep).toBeNull();
    const twice = decode('?v=4&sweep=network.bottleneck.qdisc:codel,pie,codel');
    expect(noticeFor(twice.notices, 'sweep')).toBe(
      'sweep=network.bottleneck.qdisc:codel,pie,codel: codel given more than once; codel, pie swept.',
    );
    expect(twice.state.sweep?.values).toEqual(['codel', 'pie']);
  });

  it('refuses a list for a numeric setting, naming the range forms', () => {
    const num = decode('?v=4&sweep=network.bottleneck.delay:0.01,0.02&alg=reno');
    expect(noticeFor(num.notices, 'sweep')).toContain(
      'a list of values (PATH:V1,V2) is for an enumerated setting, and network.bottleneck.delay is numeric (write PATH:FROM:TO:N or PATH:FROM:TO:N:log)',
    );
    expect(num.state.sweep).toBeNull();
    // The rest of the link still opens.
    expect(num.state.algorithms).toEqual(['reno']);
    const unknown = decode('?v=4&sweep=network.nothing:a,b');
    expect(noticeFor(unknown.notices, 'sweep')).toContain('network.nothing is not a setting');
  });
});

/** What is wrong with a lesson's sweep keys on its preset's scenario (nothing: []). */
function lessonSweepProblems(keys: string, scenario: object): string[] {
  const read = readSweepKeys(keys);
  const problems = read.notes.map(([k, m]) => `${k}: ${m}`);
  if (!read.sweep) return problems.length ? problems : ['no sweep'];
  const algorithms = read.sweep.algorithms ?? ['newreno'];
  const plan = planSweep(definitionOf(read.sweep, algorithms), JSON.stringify(scenario));
  if (!plan.ok) problems.push(`the engine: ${plan.error.message}`);
  return problems;
}

describe('a lesson’s sweep', () => {
  const bloat = tables.presets.find((p) => p.name === 'cubic-bufferbloat');

  it('is read by the link’s rules and planned by the engine on the preset’s scenario', () => {
    expect(bloat).toBeDefined();
    const scenario = bloat?.scenario ?? {};
    const good = 'sweep=network.bottleneck.qdisc:droptail,codel,fq_codel,pie&sweepm=qdelay_mean_ms&sweepalg=cubic';
    expect(lessonSweepProblems(good, scenario)).toEqual([]);
    expect(readSweepKeys(good).sweep).toMatchObject({ values: ['droptail', 'codel', 'fq_codel', 'pie'] });
    expect(lessonSweepProblems('sweep=network.bottleneck.qdisc:droptail,cake', scenario)[0]).toContain('cake');
    expect(lessonSweepProblems('sweep=network.bottleneck.qdisc:codel&sweepx=1', scenario)).toEqual([
      'sweepx: sweepx= is not a sweep key (allowed: sweep, sweepseeds, sweepalg, sweepm).',
    ]);
    expect(lessonSweepProblems('sweepm=goodput_bps', scenario)[0]).toContain('needs sweep=');
    // The engine refuses what the scenario cannot take (a discipline with the reservation scheduler).
    const reserved = { ...scenario, network: { bottleneck: { scheduler: 'reservation' } } };
    const refused = lessonSweepProblems('sweep=network.bottleneck.qdisc:droptail,codel', reserved);
    expect(refused.join(' ')).toContain('cannot be combined with network.bottleneck.scheduler');
  });

  it('is, for every preset that has one, usable as it stands', () => {
    for (const p of tables.presets) {
      expect(p.lesson === null || 'sweep' in p.lesson, `${p.name}: the lesson carries its sweep field`).toBe(true);
      if (p.lesson?.sweep) expect(lessonSweepProblems(p.lesson.sweep, p.scenario), p.name).toEqual([]);
    }
  });
});
