import { describe, expect, it } from 'vitest';
import { tables } from '../engine/tables';
import { realValidator } from '../test/wasm';
import {
  ALGORITHM_NAMES,
  CONTROLLED_KEYS,
  CUSTOM,
  DEFAULT_SELECTION,
  isCustomFlow,
  withDefaultAlgorithm,
} from './algorithms';
import { requireSpec } from './params';
import { CROSS_SPEC } from './cross';
import { jsonEqual } from '../lib/json';
import { getAt, setAt } from './paths';
import { defaultShareState, type ShareState } from './shareState';
import { decodeShareState, encodeShareState } from './url';
import { MAX_PRESET_CHANGES, presetNamed, presetStatus, presetView } from './presets';

const validate = realValidator();

function roundTrip(state: ShareState) {
  const query = encodeShareState(state);
  return { query, ...decodeShareState(`?${query}`, validate) };
}

function decode(query: string) {
  return decodeShareState(query, validate);
}

/** The one notice about `key` (fails when there is none or several). */
function noticeFor(notices: { key: string; message: string }[], key: string): string {
  const found = notices.filter((n) => n.key === key);
  expect(found, `notices: ${JSON.stringify(notices)}`).toHaveLength(1);
  return found[0]?.message ?? '';
}

describe('the scenario URL: round trip', () => {
  it('writes the default page as a short readable query and reads it back unchanged', () => {
    const { query, state, notices } = roundTrip(defaultShareState());
    expect(query).toBe('v=4&alg=old_tahoe,tahoe,reno,newreno');
    expect(notices).toEqual([]);
    expect(state).toEqual(defaultShareState());
  });

  it('reads an empty query as the default page without notices', () => {
    expect(decode('')).toEqual({ state: defaultShareState(), notices: [] });
  });

  it.each(tables.presets.map((p) => [p.name, p.scenario] as const))(
    'round-trips preset %s exactly (its own algorithm, or the defaults the comparison chooses from)',
    (_name, scenario) => {
      for (const s of [scenario, withDefaultAlgorithm(scenario)]) {
        const state: ShareState = { ...defaultShareState(), scenario: s };
        const { query, state: back, notices } = roundTrip(state);
        expect(notices).toEqual([]);
        expect(back.scenario).toEqual(state.scenario);
        // Flow 0's algorithm is `alg`'s business; its catalogue settings appear only when
        // they are not the defaults (a preset's own algorithm, run as custom).
        expect(query).not.toContain('f0.algorithm');
        for (const k of CONTROLLED_KEYS) {
          const isDefault = jsonEqual(getAt(s, `flows[0].${k}`), requireSpec(`flows[].${k}`).default);
          expect(query.includes(`f0.${k}=`), k).toBe(!isDefault);
        }
      }
    },
  );

  it('round-trips a comparison of catalogue names: alg=newreno,newreno_cwv', () => {
    const state: ShareState = { ...defaultShareState(), algorithms: ['newreno', 'newreno_cwv'] };
    const { query, state: back, notices } = roundTrip(state);
    expect(query).toBe('v=4&alg=newreno,newreno_cwv');
    expect(notices).toEqual([]);
    expect(back).toEqual(state);
  });

  it('round-trips a custom flow 0 (its settings written, not its name) compared with catalogue names', () => {
    let scenario = defaultShareState().scenario;
    scenario = setAt(scenario, 'flows[0].variant', 'reno');
    scenario = setAt(scenario, 'flows[0].cc.idle_policy', 'rfc2861');
    const state: ShareState = { ...defaultShareState(), scenario, algorithms: ['newreno_cwv', CUSTOM] };
    const { query, state: back, notices } = roundTrip(state);
    expect(notices).toEqual([]);
    expect(query).toContain('alg=newreno_cwv,custom');
    expect(query).toContain('f0.variant=reno');
    expect(query).toContain('f0.cc.idle_policy=rfc2861');
    expect(query).not.toContain('f0.algorithm');
    expect(back.algorithms).toEqual(['newreno_cwv', CUSTOM]);
    // The engine names what the settings match: no catalogue entry.
    expect(getAt(back.scenario, 'flows[0].algorithm')).toBe(CUSTOM);
    expect(getAt(back.scenario, 'flows[0].variant')).toBe('reno');
    expect(getAt(back.scenario, 'flows[0].cc.idle_policy')).toBe('rfc2861');
  });

  it('round-trips the SACK settings (flows[].sack.*) as f0.sack.* keys; a link without them opens without SACK', () => {
    let scenario = defaultShareState().scenario;
    scenario = setAt(scenario, 'flows[0].sack.enabled', true);
    scenario = setAt(scenario, 'flows[0].sack.budget', 'prr_ssrb');
    scenario = setAt(scenario, 'flows[0].sack.rack', true);
    scenario = setAt(scenario, 'flows[0].sack.tlp', true);
    scenario = setAt(scenario, 'flows[0].sack.blocks', 4);
    const state: ShareState = { ...defaultShareState(), scenario };
    const { query, state: back, notices } = roundTrip(state);
    expect(notices).toEqual([]);
    for (const k of ['f0.sack.enabled=true', 'f0.sack.budget=prr_ssrb', 'f0.sack.rack=true', 'f0.sack.blocks=4']) {
      expect(query).toContain(k);
    }
    expect(getAt(back.scenario, 'flows[0].sack.enabled')).toBe(true);
    expect(getAt(back.scenario, 'flows[0].sack.budget')).toBe('prr_ssrb');
    expect(getAt(back.scenario, 'flows[0].sack.tlp')).toBe(true);
    expect(getAt(back.scenario, 'flows[0].sack.blocks')).toBe(4);
    // An older link (no sack keys) opens as before: SACK off, no notice.
    const old = decodeShareState('v=4&alg=newreno&preset=fall-floyd-newreno-3drops', validate);
    expect(old.notices).toEqual([]);
    expect(getAt(old.state.scenario, 'flows[0].sack.enabled') ?? false).toBe(false);
  });

  it('round-trips the lesson shown, and names a lesson that does not exist', () => {
    const name = tables.presets.find((p) => p.lesson)?.name ?? 'none';
    const state: ShareState = { ...defaultShareState(), lesson: name };
    const { query, state: back, notices } = roundTrip(state);
    expect(query).toContain(`lesson=${name}`);
    expect(notices).toEqual([]);
    expect(back.lesson).toBe(name);
    const bad = decode('?v=2&lesson=fall-floyd-vegas-1drops');
    expect(noticeFor(bad.notices, 'lesson')).toContain('not a preset with a lesson');
    expect(bad.state.lesson).toBeNull();
  });

  it('keeps every double bit for bit (values, timeline times, cursor, zoom)', () => {
    let scenario = defaultShareState().scenario;
    scenario = setAt(scenario, 'network.bottleneck.delay', 0.1 + 0.2);
    scenario = setAt(scenario, 'network.bottleneck.loss.model', 'ber');
    scenario = setAt(scenario, 'network.bottleneck.loss.ber', 1.234567890123456e-7);
    scenario = setAt(scenario, 'seed', Number.MAX_SAFE_INTEGER);
    scenario = setAt(scenario, 'flows[0].app.write_interval', 1 / 3);
    scenario = {
      ...scenario,
      timeline: [
        { at: 1 / 3, set: 'network.bottleneck.bandwidth', value: 4000000 },
        { at: 2.000000001, set: 'flows[0].app.write_interval', value: 0.1 + 0.7 },
        { at: 5, set: 'network.bottleneck.loss.model', value: 'bernoulli' },
      ],
    };
    const state: ShareState = {
      scenario,
      mode: 'compare',
      algorithms: ['reno', 'newreno'],
      cursor: Math.PI,
      xDomain: [0.1 + 0.2, 7 / 3],
      layout: 'overlay',
      plots: ['window', 'queue'],
      lesson: null,
      preset: null,
      throughputBin: 0.1 + 0.2,
      throughputColumn: 'bottleneck',
      cdfScale: 'log',
      unit: 'bytes',
      hidden: [],
      why: { key: 'newreno', index: 29 },
      practice: { scope: 'events', run: 'newreno' },
      projector: true,
      sheet: { number: 3, count: 8 },
      theory: true,
      textbook: null,
      sweep: {
        param: 'network.bottleneck.loss.ber',
        from: '1e-7',
        to: '1.5e-4',
        points: 7,
        log: true,
        seeds: 4,
        algorithms: ['reno', 'cubic'],
        metric: 'retransmits',
      },
    };
    const { query, state: back, notices } = roundTrip(state);
    expect(notices).toEqual([]);
    expect(back).toEqual(state);
    expect(query).toContain('why=newreno:29');
    expect(query).toContain('unit=bytes');
    expect(query).toContain('practice=predict:newreno');
    // Readable: plain keys, commas and colons unescaped.
    expect(query).toContain('alg=reno,newreno');
    expect(query).toContain('tl=0.3333333333333333:network.bottleneck.bandwidth:4000000,');
    expect(query).toContain('f0.app.write_interval=0.3333333333333333');
    expect(query).toContain('bin=0.30000000000000004&tput=bottleneck');
  });

  it('round-trips lists (scripted drops) and extra flows', () => {
    let scenario = defaultShareState().scenario;
    scenario = setAt(scenario, 'flows[0].drops', [
      { segment: 14, attempt: 1 },
      { segment: 28, attempt: 2 },
    ]);
    const flow1 = structuredClone((scenario.flows as object[])[0]) as Record<string, unknown>;
    scenario = { ...scenario, flows: [...(scenario.flows as object[]), flow1] } as typeof scenario;
    scenario = setAt(scenario, 'flows[1].variant', 'reno');
    // Resolved, as the engine names it (flows other than 0 keep their own algorithm).
    scenario = setAt(scenario, 'flows[1].algorithm', 'reno');
    scenario = setAt(scenario, 'flows[1].start', 2.5);
    scenario = setAt(scenario, 'flows[1].drops', []);
    const state = { ...defaultShareState(), scenario };
    const { query, state: back, notices } = roundTrip(state);
    expect(notices).toEqual([]);
    expect(query).toContain('f0.drops=14:1,28:2');
    expect(query).toContain('flows=2');
    expect(query).toContain('f1.variant=reno');
    expect(query).toContain('f1.algorithm=reno');
    expect(back.scenario).toEqual(scenario);
  });
});

describe('the scenario URL: cross traffic, the bottleneck scheduler and the throughput plot', () => {
  const komuro = tables.presets.find((p) => p.name === 'br-tcp-komuro');

  it('writes cross-traffic sources as a list (kind:rate:… in the schema’s order) and reads them back', () => {
    let scenario = defaultShareState().scenario;
    scenario = setAt(scenario, 'network.bottleneck.scheduler', 'reservation');
    scenario = setAt(scenario, 'network.bottleneck.borrow', true);
    scenario = setAt(scenario, 'flows[0].reserved_bandwidth', 1000000);
    scenario = setAt(scenario, 'trace.throughput_bin', 0.05);
    const source = { kind: 'on_off', rate: 700000, packet_size: 1000, start: 0.5, stop: 9, on: 0.25, off: 1 / 3 };
    scenario = {
      ...scenario,
      cross: [
        { ...source, reverse: false },
        { kind: 'poisson', rate: 300000, packet_size: 200, start: 0, stop: 0, on: 1, off: 1, reverse: true },
      ],
    };
    const state: ShareState = { ...defaultShareState(), scenario, algorithms: ['newreno', 'br_tcp'] };
    const { query, state: back, notices } = roundTrip(state);
    expect(notices).toEqual([]);
    expect(query).toContain('network.bottleneck.scheduler=reservation&network.bottleneck.borrow=true');
    expect(query).toContain(
      'cross=on_off:700000:1000:0.5:9:0.25:0.3333333333333333:false,poisson:300000:200:0:0:1:1:true',
    );
    expect(query).toContain('trace.throughput_bin=0.05');
    // Each item read back has every field of the engine's list, `interval` (ping's) at its
    // default.
    const interval = CROSS_SPEC.items?.find((f) => f.name === 'interval')?.default;
    expect(interval).toBeTypeOf('number');
    expect(back.scenario).toEqual({
      ...scenario,
      cross: (scenario.cross as Record<string, unknown>[]).map((c) => ({ ...c, interval })),
    });
  });

  it('the BR-TCP presets round-trip exactly, cross traffic and scheduler included', () => {
    expect(komuro).toBeDefined();
    const state: ShareState = { ...defaultShareState(), scenario: komuro?.scenario ?? {} };
    const { query, state: back, notices } = roundTrip(state);
    expect(notices).toEqual([]);
    expect(query).toContain('cross=cbr:100000000:1500:0:0:1:1:false');
    expect(query).toContain('network.bottleneck.scheduler=reservation');
    expect(back.scenario).toEqual(state.scenario);
  });

  it('fields a list item leaves out take the engine’s defaults', () => {
    const { state, notices } = decode('?v=2&cross=cbr:5000000,on_off:1000000::::2:3');
    expect(notices).toEqual([]);
    const cross = state.scenario.cross as Record<string, unknown>[];
    expect(cross).toHaveLength(2);
    expect(cross[0]).toMatchObject({ kind: 'cbr', rate: 5000000, packet_size: 1500, reverse: false });
    expect(cross[1]).toMatchObject({ kind: 'on_off', rate: 1000000, on: 2, off: 3, stop: 0 });
  });

  it.each([
    ['cross', 'udp:1000000', 'whose kind is not one of cbr, poisson, on_off'],
    ['cross', 'cbr:fast', 'whose rate is not a number'],
    ['cross', 'cbr:10', 'whose rate is out of range'],
    ['cross', 'cbr:1000000:1500:0:0:1:1:maybe', 'whose reverse is not true or false'],
    ['network.bottleneck.scheduler', 'wfq', 'not one of the choices'],
    ['network.bottleneck.borrow', 'yes', 'not true or false'],
  ])('%s=%s is refused with a notice and falls back to the default', (key, value, reason) => {
    const { state, notices } = decode(`?v=2&${key}=${value}`);
    expect(noticeFor(notices, key)).toContain(reason);
    expect(state.scenario).toEqual(defaultShareState().scenario);
  });

  it('reservations above the bandwidth: the engine’s message, and the field falls back', () => {
    const { state, notices } = decode(
      '?v=2&network.bottleneck.scheduler=reservation&f0.reserved_bandwidth=5000000&cross=cbr:1000000',
    );
    const msg = noticeFor(notices, 'f0.reserved_bandwidth');
    expect(msg).toContain('Reserved bandwidth');
    expect(getAt(state.scenario, 'flows[0].reserved_bandwidth')).toBe(0);
    // The rest of the link still applies.
    expect(getAt(state.scenario, 'network.bottleneck.scheduler')).toBe('reservation');
    expect(state.scenario.cross).toHaveLength(1);
  });

  it('too many sources: the engine’s limit is named and the list falls back to none', () => {
    const many = Array.from({ length: 17 }, () => 'cbr:1000').join(',');
    const { state, notices } = decode(`?v=2&cross=${many}`);
    expect(noticeFor(notices, 'cross')).toMatch(/at most \d+/);
    expect(state.scenario.cross).toEqual([]);
  });

  it('keeps the throughput plot’s bin width and column, and names bad ones', () => {
    const state: ShareState = {
      ...defaultShareState(),
      plots: ['window', 'throughput'],
      throughputBin: 5,
      throughputColumn: 'bottleneck',
    };
    const { query, state: back, notices } = roundTrip(state);
    expect(notices).toEqual([]);
    expect(query).toContain('plots=window,throughput&bin=5&tput=bottleneck');
    expect(back).toEqual(state);
    const bad = decode('?v=2&bin=0&tput=goodput');
    expect(noticeFor(bad.notices, 'bin')).toContain('bin=0 is not a width');
    expect(noticeFor(bad.notices, 'tput')).toContain('allowed: delivered, bottleneck');
    expect(bad.state.throughputBin).toBeNull();
    expect(bad.state.throughputColumn).toBe('delivered');
  });

  it('keeps the write timeline and the thin-stream CDFs in plots= (no new version: old links are unchanged)', () => {
    const state: ShareState = { ...defaultShareState(), plots: ['window', 'writes', 'thin'], xDomain: [2, 4] };
    const { query, state: back, notices } = roundTrip(state);
    expect(notices).toEqual([]);
    expect(query).toContain('x=2:4&plots=window,writes,thin');
    expect(back).toEqual(state);
    // Written in page order, whatever order the link had.
    expect(decode('?v=3&plots=thin,window').state.plots).toEqual(['window', 'thin']);
    // A thin-stream sender without plots= shows the usual three plots.
    expect(decode('?v=3&f0.app.kind=thin').state.plots).toEqual(['window', 'seq', 'queue']);
    const bad = decode('?v=3&plots=window,cdf');
    expect(noticeFor(bad.notices, 'plots')).toContain(
      'allowed: window, seq, queue, qdelay, throughput, share, fairness, retx, rtt, writes, thin, bbr',
    );
  });

  it('keeps BBR’s model plot in plots= (no new version: old links mean what they did), and names a bad one', () => {
    const state: ShareState = {
      ...defaultShareState(),
      algorithms: ['cubic', 'bbr'],
      plots: ['window', 'qdelay', 'bbr'],
    };
    const { query, state: back, notices } = roundTrip(state);
    expect(notices).toEqual([]);
    expect(query).toBe('v=4&alg=cubic,bbr&plots=window,qdelay,bbr');
    expect(back).toEqual(state);
    // Page order, wherever the link put it; a link without plots= shows the usual three.
    expect(decode('?v=4&plots=bbr,window').state.plots).toEqual(['window', 'bbr']);
    expect(decode('?v=4&alg=bbr').state.plots).toEqual(['window', 'seq', 'queue']);
    // An old link's plots are read as before (v=3 had no bbr).
    expect(decode('?v=3&plots=window,rtt,thin').state.plots).toEqual(['window', 'rtt', 'thin']);
    const bad = decode('?v=4&alg=bbr&plots=window,bbr,model');
    expect(noticeFor(bad.notices, 'plots')).toBe(
      'plots: model is not a plot (allowed: window, seq, queue, qdelay, throughput, share, fairness, retx, rtt, writes, thin, bbr, rounds, transfers); ignored.',
    );
    expect(bad.state.plots).toEqual(['window', 'bbr']);
  });

  it('keeps the CDFs’ x axis in cdfx= (linear unwritten: old links open as before), and names a bad one', () => {
    // The default is linear, and a link without cdfx reads as linear.
    expect(defaultShareState().cdfScale).toBe('linear');
    expect(decode('?v=3&plots=window,thin').state.cdfScale).toBe('linear');
    expect(encodeShareState({ ...defaultShareState(), plots: ['window', 'thin'] })).not.toContain('cdfx');
    const state: ShareState = { ...defaultShareState(), plots: ['window', 'thin'], cdfScale: 'log' };
    const { query, state: back, notices } = roundTrip(state);
    expect(notices).toEqual([]);
    expect(query).toBe('v=4&alg=old_tahoe,tahoe,reno,newreno&plots=window,thin&cdfx=log');
    expect(back).toEqual(state);
    // Spelled out, linear is read too (and not written back).
    const linear = decode('?v=3&cdfx=linear');
    expect(linear.notices).toEqual([]);
    expect(linear.state.cdfScale).toBe('linear');
    expect(encodeShareState(linear.state)).not.toContain('cdfx');
    // A bad value: named with the allowed ones; the axis stays linear and the rest applies.
    const bad = decode('?v=3&cdfx=logarithmic&plots=window,thin&duration=5');
    expect(noticeFor(bad.notices, 'cdfx')).toBe(
      'cdfx=logarithmic is not an x axis of the thin-stream CDFs (allowed: linear, log); using linear.',
    );
    expect(bad.state.cdfScale).toBe('linear');
    expect(bad.state.plots).toEqual(['window', 'thin']);
    expect(getAt(bad.state.scenario, 'duration')).toBe(5);
    // It is a view key, not a setting: no "not a cwndlab setting" notice.
    expect(bad.notices).toHaveLength(1);
  });

  it('keeps the unit of windows in unit= (segments unwritten: old links open in segments), and names a bad one', () => {
    expect(defaultShareState().unit).toBe('segments');
    expect(decode('?v=4&plots=window').state.unit).toBe('segments');
    expect(encodeShareState(defaultShareState())).not.toContain('unit');
    const state: ShareState = { ...defaultShareState(), unit: 'bytes' };
    const { query, state: back, notices } = roundTrip(state);
    expect(notices).toEqual([]);
    expect(query).toBe('v=4&alg=old_tahoe,tahoe,reno,newreno&unit=bytes');
    expect(back).toEqual(state);
    const spelled = decode('?v=4&unit=segments');
    expect(spelled.notices).toEqual([]);
    expect(encodeShareState(spelled.state)).not.toContain('unit');
    const bad = decode('?v=4&unit=packets&duration=5');
    expect(noticeFor(bad.notices, 'unit')).toBe(
      'unit=packets is not a unit windows are shown in (allowed: segments, bytes); using segments.',
    );
    expect(bad.state.unit).toBe('segments');
    expect(getAt(bad.state.scenario, 'duration')).toBe(5);
    expect(bad.notices).toHaveLength(1);
  });

  it('old links open unchanged: no cross traffic, FIFO, the same three plots, no new keys written', () => {
    for (const q of ['?v=1&alg=reno,newreno&duration=5', '?v=2&alg=reno,newreno&duration=5']) {
      const { state, notices } = decode(q);
      expect(notices).toEqual([]);
      expect(state.scenario.cross).toEqual([]);
      expect(getAt(state.scenario, 'network.bottleneck.scheduler')).toBe('fifo');
      expect(getAt(state.scenario, 'network.bottleneck.borrow')).toBe(false);
      expect(state.plots).toEqual(['window', 'seq', 'queue']);
      expect(state.throughputBin).toBeNull();
      expect(encodeShareState(state)).toBe('v=4&alg=reno,newreno&duration=5');
    }
  });
});

describe('the scenario URL: the sweep view (sweep, sweepseeds, sweepalg, sweepm)', () => {
  const sweep = {
    param: 'flows[].app.write_interval',
    from: '0.01',
    to: '0.2',
    points: 5,
    log: false,
    seeds: 3,
    algorithms: null,
    metric: 'goodput_bps',
  };

  it('writes a sweep readably and reads it back; defaults are not written', () => {
    const state: ShareState = { ...defaultShareState(), sweep };
    const { query, state: back, notices } = roundTrip(state);
    expect(notices).toEqual([]);
    expect(back.sweep).toEqual(sweep);
    expect(query).toContain('sweep=f.app.write_interval:0.01:0.2:5');
    expect(query).not.toContain('sweepseeds');
    expect(query).not.toContain('sweepm');
    expect(query).not.toContain('sweepalg');
    const log = roundTrip({
      ...defaultShareState(),
      sweep: { ...sweep, log: true, seeds: 2, metric: 'timeouts', algorithms: ['reno'] },
    });
    expect(log.query).toContain('sweep=f.app.write_interval:0.01:0.2:5:log&sweepseeds=2&sweepalg=reno&sweepm=timeouts');
    expect(log.state.sweep?.log).toBe(true);
  });

  it('opens an old link (no sweep keys) without a sweep', () => {
    expect(decode('?v=4&alg=reno').state.sweep).toBeNull();
    expect(decode('?v=2').state.sweep).toBeNull();
  });

  it('names a sweep key it cannot use and what is allowed', () => {
    const bad = decode('?v=4&sweep=network.bottleneck.scheduler:1:2:3');
    expect(noticeFor(bad.notices, 'sweep')).toContain('PATH a numeric parameter');
    expect(bad.state.sweep).toBeNull();
    const parts = decode('?v=4&sweep=seed.x:1:2:3');
    expect(parts.state.sweep).toBeNull();
    const keys = decode('?v=4&sweep=network.bottleneck.delay:0.01:0.1:4&sweepseeds=0&sweepalg=vegas&sweepm=speed');
    expect(keys.state.sweep).toMatchObject({
      param: 'network.bottleneck.delay',
      seeds: 3,
      algorithms: null,
      metric: 'goodput_bps',
    });
    expect(noticeFor(keys.notices, 'sweepseeds')).toContain('1 or more');
    expect(noticeFor(keys.notices, 'sweepalg')).toContain('vegas');
    expect(noticeFor(keys.notices, 'sweepm')).toContain('goodput_bps');
    const alone = decode('?v=4&sweepseeds=2');
    expect(noticeFor(alone.notices, 'sweepseeds')).toContain('needs sweep=');
  });
});

describe('the scenario URL: bad input', () => {
  it('reads t=-0 and x=-0:… as 0, so the link it writes back reads the same (found by url.fuzz.test.ts)', () => {
    const { state, notices } = decode('?v=4&t=-0&x=-0:5');
    expect(notices).toEqual([]);
    expect(Object.is(state.cursor, 0)).toBe(true);
    expect(Object.is(state.xDomain?.[0], 0)).toBe(true);
    expect(decode(`?${encodeShareState(state)}`).state).toEqual(state);
  });

  const def = defaultShareState().scenario;

  it('a value that is not a number: notice with name and range, that field alone falls back', () => {
    const { state, notices } = decode('?v=2&network.bottleneck.bandwidth=abc&network.bottleneck.queue_packets=50');
    const msg = noticeFor(notices, 'network.bottleneck.bandwidth');
    expect(msg).toContain('Bottleneck bandwidth');
    expect(msg).toContain('"abc" is not a number');
    expect(msg).toContain('allowed whole numbers 1000 to 100000000000 bit/s (0.001 to 100000 Mbit/s)');
    expect(msg).toContain('Using the default, 2 Mbit/s');
    expect(getAt(state.scenario, 'network.bottleneck.bandwidth')).toBe(getAt(def, 'network.bottleneck.bandwidth'));
    expect(getAt(state.scenario, 'network.bottleneck.queue_packets')).toBe(50);
  });

  it.each([
    ['duration', '-5', 'out of range', 'allowed 0.001 to 100000 s'],
    ['duration', '1e9', 'out of range', 'allowed 0.001 to 100000 s'],
    ['network.bottleneck.loss.ber', '0.5', 'out of range', 'allowed 0 to 0.01 1/bit'],
    ['network.bottleneck.queue_packets', '2.5', 'not a whole number', 'allowed whole numbers 1 to 1000000 packets'],
    ['network.bottleneck.queue_packets', '0x10', 'not a number', 'allowed whole numbers'],
    ['network.bottleneck.queue_packets', '', 'not a number', 'allowed whole numbers'],
    ['duration', 'Infinity', 'not a number', 'allowed 0.001 to 100000 s'],
    ['f0.app.kind', 'telnet', 'not one of the choices', 'allowed: bulk, cbr, thin, on_off, scripted'],
    ['f0.tcp.nagle', 'yes', 'not true or false', 'allowed: true, false'],
    ['f0.drops', '14:x', 'not a number', 'segment:attempt'],
    ['f0.drops', '14:1:9', 'too many fields', 'segment:attempt'],
  ])('%s=%s: "%s", names the allowed values, keeps the default', (key, value, reason, allowed) => {
    const { state, notices } = decode(`?v=2&${key}=${encodeURIComponent(value)}`);
    const msg = noticeFor(notices, key);
    expect(msg).toContain(reason);
    expect(msg).toContain(allowed);
    expect(state.scenario).toEqual(def);
  });

  it('an unknown parameter is named and ignored; the rest of the link is used', () => {
    const { state, notices } = decode('?v=2&bandwith=3&duration=7&network.bottleneck=1&f0.tcp=2&f0.seed=3');
    expect(noticeFor(notices, 'bandwith')).toContain('"bandwith" is not a cwndlab setting');
    expect(noticeFor(notices, 'network.bottleneck')).toContain('not a cwndlab setting');
    expect(noticeFor(notices, 'f0.tcp')).toContain('not a cwndlab setting');
    expect(noticeFor(notices, 'f0.seed')).toContain('not a cwndlab setting');
    expect(state.scenario.duration).toBe(7);
  });

  it('a flow index written with leading zeros or beyond reach is refused', () => {
    const { notices, state } = decode('?v=2&f00.start=1&f5000.start=1');
    expect(noticeFor(notices, 'f00.start')).toContain('not a cwndlab setting');
    expect(noticeFor(notices, 'f5000.start')).toContain('there is no flow 5000');
    expect(state.scenario.flows).toEqual(def.flows);
  });

  it('the compared algorithm is not taken from f0.algorithm, nor from a v=1 link’s f0.variant', () => {
    const a = decode('?v=2&f0.algorithm=reno');
    expect(noticeFor(a.notices, 'f0.algorithm')).toContain('alg=');
    expect(a.state).toEqual(defaultShareState());
    const b = decode('?v=1&f0.variant=reno');
    expect(noticeFor(b.notices, 'f0.variant')).toContain('alg=');
    expect(b.state.scenario).toEqual(defaultShareState().scenario);
    expect(b.state.algorithms).toEqual(['old_tahoe', 'tahoe', 'reno', 'newreno']);
  });

  it('opens a v=1 link as before: its variant names are catalogue names, the pairs are kept', () => {
    const { state, notices } = decode('?v=1&alg=reno,newreno&network.bottleneck.queue_packets=9&t=2');
    expect(notices).toEqual([]);
    expect(state.algorithms).toEqual(['reno', 'newreno']);
    expect(getAt(state.scenario, 'network.bottleneck.queue_packets')).toBe(9);
    expect(state.cursor).toBe(2);
    expect(isCustomFlow(state.scenario)).toBe(false);
    // Rewritten, it is a v=3 link with the same pairs.
    expect(encodeShareState(state)).toBe('v=4&alg=reno,newreno&network.bottleneck.queue_packets=9&t=2');
    // v=1 without alg= compared every variant (the engine's flows[].variant choices).
    const all = decode('?v=1&duration=5');
    expect(all.notices).toEqual([]);
    expect(all.state.algorithms).toEqual(['old_tahoe', 'tahoe', 'reno', 'newreno']);
  });

  it('opens a v=2 link running BR-TCP with the recovery it had then (set_cwnd); others unchanged', () => {
    const old = decode('?v=2&alg=newreno,br_tcp&f0.reserved_bandwidth=1000000');
    expect(old.notices).toEqual([]);
    expect(getAt(old.state.scenario, 'flows[0].cc.br_recovery')).toBe('set_cwnd');
    expect(encodeShareState(old.state)).toContain('f0.cc.br_recovery=set_cwnd');
    // Read again, the rewritten link keeps it.
    const again = decode(`?${encodeShareState(old.state)}`);
    expect(getAt(again.state.scenario, 'flows[0].cc.br_recovery')).toBe('set_cwnd');
    // A v=3 link gets the engine's current default; a v=2 link that names it keeps its value.
    const now = decode('?v=3&alg=newreno,br_tcp&f0.reserved_bandwidth=1000000');
    expect(getAt(now.state.scenario, 'flows[0].cc.br_recovery')).toBe(requireSpec('flows[].cc.br_recovery').default);
    const named = decode('?v=2&alg=br_tcp&f0.reserved_bandwidth=1000000&f0.cc.br_recovery=newreno');
    expect(getAt(named.state.scenario, 'flows[0].cc.br_recovery')).toBe('newreno');
    // Without BR-TCP nothing is added.
    const plain = decode('?v=2&alg=reno,newreno&duration=5');
    expect(encodeShareState(plain.state)).toBe('v=4&alg=reno,newreno&duration=5');
  });

  it('opens a v=3 link exactly as before: no decision selected, the same state as the same link at v=4', () => {
    const link = 'alg=reno,newreno&duration=5&t=2.5&lesson=cwv-quiescent-100ms';
    const old = decode(`?v=3&${link}`);
    const now = decode(`?v=4&${link}`);
    expect(old.notices).toEqual([]);
    expect(old.state).toEqual(now.state);
    expect(old.state.why).toBeNull();
    expect(encodeShareState(old.state)).toBe(`v=4&${link}`);
  });

  it('reads the selected decision why=run:index, and names a bad one with what is allowed', () => {
    expect(decode('?v=4&alg=reno,newreno&why=newreno:29').state.why).toEqual({ key: 'newreno', index: 29 });
    expect(decode('?v=4&mode=compete&flows=2&why=flow1:3').state.why).toEqual({ key: 'flow1', index: 3 });
    for (const bad of ['tahoe:3', 'reno', 'reno:-1', 'reno:x', 'flow0:1']) {
      const { notices, state } = decode(`?v=4&alg=reno,newreno&why=${bad}`);
      expect(state.why).toBeNull();
      const message = noticeFor(notices, 'why');
      expect(message).toContain(`why=${bad}`);
      expect(message).toContain('reno, newreno');
    }
  });

  it('a hand-typed link without a version opens quietly as the current format when every version reads it alike', () => {
    for (const q of [
      '?duration=5',
      '?practice=predict',
      '?alg=reno,newreno&sheet=2',
      '?lesson=fall-floyd-reno-3drops',
    ]) {
      const { notices } = decode(q);
      expect(
        notices.filter((n) => n.key === 'v'),
        q,
      ).toEqual([]);
    }
    const { notices, state } = decode('?duration=5&practice=predict');
    expect(notices).toEqual([]);
    expect(state.scenario.duration).toBe(5);
    expect(state.practice).toEqual({ scope: 'events', run: null });
    // Read as v=4: the same state as the link with v=4.
    expect(state).toEqual(decode('?v=4&duration=5&practice=predict').state);
  });

  it('a link without a version keeps a notice where an older version would read it otherwise', () => {
    // v=2 ran BR-TCP with br_recovery=set_cwnd (v=2 → v=3); v=4 runs the engine's default.
    const br = decode('?alg=newreno,br_tcp');
    expect(noticeFor(br.notices, 'v')).toContain('no format version');
    expect(noticeFor(br.notices, 'v')).toContain('v=1, v=2');
    expect(br.state).toEqual(decode('?v=4&alg=newreno,br_tcp').state);
    // v=1 ignored f0.variant with its own notice.
    expect(noticeFor(decode('?f0.variant=reno').notices, 'v')).toContain('v=1');
  });

  it('a newer version says so and reads what it can', () => {
    const { notices, state } = decode('?v=7&duration=5');
    expect(noticeFor(notices, 'v')).toContain('newer cwndlab (v=7)');
    expect(state.scenario.duration).toBe(5);
  });

  it.each(['x', '0', '-1', '1.5'])('a malformed version v=%s is named', (v) => {
    const { notices } = decode(`?v=${v}`);
    expect(noticeFor(notices, 'v')).toContain('not a link format version');
  });

  it('a repeated key uses the first value and says so', () => {
    const { notices, state } = decode('?v=2&duration=5&duration=9');
    expect(noticeFor(notices, 'duration')).toContain('more than once');
    expect(state.scenario.duration).toBe(5);
  });

  it('unknown algorithms are dropped with a notice naming the catalogue; none left means the default', () => {
    const a = decode('?v=2&alg=reno,vegas,newreno_cwv');
    const msg = noticeFor(a.notices, 'alg');
    expect(msg).toContain('"vegas" is not an algorithm');
    expect(msg).toContain(`allowed: ${ALGORITHM_NAMES.join(', ')}`);
    expect(msg).toContain('newreno_newcwv');
    expect(a.state.algorithms).toEqual(['reno', 'newreno_cwv']);
    const b = decode('?v=2&alg=,');
    expect(noticeFor(b.notices, 'alg')).toContain('names no algorithm');
    expect(b.state.algorithms).toEqual([...DEFAULT_SELECTION]);
    const c = decode('?v=2&alg=westwood,vegas');
    expect(noticeFor(c.notices.slice(0, 1), 'alg')).toContain('"westwood", "vegas" are not algorithms');
    expect(c.state.algorithms).toEqual([...DEFAULT_SELECTION]);
  });

  it('a cursor or zoom outside the run is dropped with a notice', () => {
    const { notices, state } = decode('?v=2&duration=10&t=11&x=4:2');
    expect(noticeFor(notices, 't')).toContain('0 to 10 s');
    expect(noticeFor(notices, 'x')).toContain('not a time range');
    expect(state.cursor).toBeNull();
    expect(state.xDomain).toBeNull();
    expect(state.scenario.duration).toBe(10);
  });

  it('an unknown layout or plot is named', () => {
    const { notices, state } = decode('?v=2&layout=grid&plots=window,fft');
    expect(noticeFor(notices, 'layout')).toContain('layout=grid');
    expect(noticeFor(notices, 'plots')).toContain('fft');
    expect(state.layout).toBe('multiples');
    expect(state.plots).toEqual(['window']);
  });

  it('drops each bad timeline change alone and keeps the good ones', () => {
    const tl = [
      '1:network.bottleneck.bandwidth:4000000', // good
      'garbage', // not time:setting:value
      'soon:network.bottleneck.bandwidth:1', // bad time
      '2:network.bottleneck.bandwith:1', // unknown setting
      '3:duration:5', // not live
      '4:network.bottleneck.loss.ber:7', // out of range
      '30:network.bottleneck.delay:0.1', // after the end (engine check)
    ].join(',');
    const { notices, state } = decode(`?v=2&tl=${tl}`);
    const messages = notices.filter((n) => n.key === 'tl').map((n) => n.message);
    expect(messages).toHaveLength(6);
    expect(messages.join('\n')).toMatch(/tl=garbage\) is not time:setting:value/);
    expect(messages.join('\n')).toMatch(/"soon" is not a time/);
    expect(messages.join('\n')).toMatch(/"network.bottleneck.bandwith" is not a cwndlab setting/);
    expect(messages.join('\n')).toMatch(/cannot change during a run/);
    expect(messages.join('\n')).toMatch(/allowed 0 to 0.01 1\/bit/);
    expect(messages.join('\n')).toMatch(/after the end of the run/);
    expect(state.scenario.timeline).toEqual([{ at: 1, set: 'network.bottleneck.bandwidth', value: 4000000 }]);
  });

  it('a combination only the engine can refuse falls back for that field alone', () => {
    // rwnd below the MSS passes the table's range check; the engine refuses it.
    const { notices, state } = decode('?v=2&f0.tcp.rwnd=1000&duration=8');
    const msg = noticeFor(notices, 'f0.tcp.rwnd');
    expect(msg).toContain('Receiver window');
    // The engine's own one-line text: the path, then the value it refuses.
    expect(msg).toContain('flows[0].tcp.rwnd = 1000 B is smaller than the MSS (1460 B)');
    expect(getAt(state.scenario, 'flows[0].tcp.rwnd')).toBe(getAt(def, 'flows[0].tcp.rwnd'));
    expect(state.scenario.duration).toBe(8);
  });

  it('never throws, whatever the query', () => {
    for (const q of ['?%%%', '?&&&=', '?=1', '?v', '?tl=::::', '?x=::', '?alg', '?flows=-3', '?f0.drops=,,,']) {
      const r = decode(q);
      expect(r.state.scenario.version).toBe(1);
    }
  });
});

describe('the scenario URL: the preset a scenario came from (preset=)', () => {
  const RENO = 'fall-floyd-reno-3drops';
  const reno = presetNamed(RENO);
  if (!reno) throw new Error(`no ${RENO}`);
  /** The page right after the menu loaded `name`. */
  const loaded = (name: string): ShareState => {
    const p = presetNamed(name);
    if (!p) throw new Error(name);
    const v = presetView(p, 'compare', defaultShareState().algorithms);
    return {
      ...defaultShareState(),
      mode: v.mode,
      scenario: v.scenario,
      algorithms: v.algorithms,
      lesson: name,
      preset: name,
    };
  };

  it('keeps the preset, its lesson and its runs through a link', () => {
    const state = loaded(RENO);
    const { query, state: back, notices } = roundTrip(state);
    expect(notices).toEqual([]);
    expect(query).toContain(`preset=${RENO}`);
    expect(query).toContain(`lesson=${RENO}`);
    expect(query).toContain('alg=reno,newreno');
    expect(back.preset).toBe(RENO);
    expect(back.lesson).toBe(RENO);
    expect(back.scenario).toEqual(state.scenario);
    expect(presetStatus(reno, back.scenario, back.mode, back.algorithms)).toEqual({ kind: 'same' });
  });

  it('names a changed preset as changed, and drops it once it is no longer recognisable', () => {
    const moved = {
      ...loaded(RENO),
      scenario: setAt(loaded(RENO).scenario, 'network.bottleneck.bandwidth', 1_000_000),
    };
    const { query, state: back } = roundTrip(moved);
    expect(query).toContain(`preset=${RENO}`);
    expect(back.preset).toBe(RENO);
    const status = presetStatus(reno, back.scenario, back.mode, back.algorithms);
    expect(status).toEqual({ kind: 'changed', settings: [requireSpec('network.bottleneck.bandwidth').label] });
    // More settings changed than MAX_PRESET_CHANGES: a custom scenario, no preset in the link.
    let far = moved.scenario;
    const more = ['network.bottleneck.delay', 'network.bottleneck.queue_packets', 'seed', 'duration'];
    for (const [i, path] of more.slice(0, MAX_PRESET_CHANGES).entries()) far = setAt(far, path, i + 2);
    expect(presetStatus(reno, far, 'compare', moved.algorithms).kind).toBe('gone');
    const gone = roundTrip({ ...moved, scenario: far });
    expect(gone.query).not.toContain('preset=');
    expect(gone.state.preset).toBeNull();
    // Flows added: no longer the preset either.
    expect(presetStatus(reno, { ...moved.scenario, flows: [{}, {}] }, 'compare', moved.algorithms).kind).toBe('gone');
  });

  it('opens a bare preset=NAME as the menu loads the preset', () => {
    const { state, notices } = decode(`?v=4&preset=${RENO}`);
    expect(notices).toEqual([]);
    const menu = loaded(RENO);
    expect(state.scenario).toEqual(menu.scenario);
    expect(state.algorithms).toEqual(['reno', 'newreno']);
    expect([state.preset, state.lesson, state.mode]).toEqual([RENO, RENO, 'compare']);
    // The link's own algorithms win; a preset of several flows is a competition.
    expect(decode(`?v=4&alg=tahoe&preset=${RENO}`).state.algorithms).toEqual(['tahoe']);
    const four = decode('?v=4&preset=jacobson-four-new').state;
    expect(four.mode).toBe('compete');
    expect(four.scenario.flows).toHaveLength(4);
    // A sender that writes brings the thin-stream plots, as the menu does.
    expect(decode('?v=4&preset=thin-50b-10ms').state.plots).toContain('thin');
  });

  it('opens an old link without preset= as before, and names a preset that does not exist', () => {
    const old = `?v=4&alg=reno,newreno&${encodeShareState(loaded(RENO))
      .split('&')
      .slice(2)
      .filter((p) => !p.startsWith('preset='))
      .join('&')}`;
    const { state, notices } = decode(old);
    expect(notices).toEqual([]);
    expect(state.preset).toBeNull();
    expect(state.scenario).toEqual(loaded(RENO).scenario);
    const bad = decode(`?v=4&preset=fall-floyd-vegas-3drops&duration=5`);
    expect(noticeFor(bad.notices, 'preset')).toContain('preset=fall-floyd-vegas-3drops is not a preset');
    expect([bad.state.preset, getAt(bad.state.scenario, 'duration')]).toEqual([null, 5]);
  });

  it('round-trips short transfers and a ping source, with the transfers view', () => {
    let scenario = defaultShareState().scenario;
    scenario = setAt(scenario, 'flows[0].app.kind', 'transfers');
    scenario = setAt(scenario, 'flows[0].app.writes', [
      { at: 0.5, bytes: 14600 },
      { at: 2, bytes: 100000 },
    ]);
    scenario = setAt(scenario, 'cross', [{ kind: 'ping', packet_size: 64, interval: 0.02 }]);
    const state: ShareState = { ...defaultShareState(), scenario, plots: ['window', 'transfers'] };
    const { query, state: back, notices } = roundTrip(state);
    expect(notices).toEqual([]);
    expect(query, query).toContain('plots=window,transfers');
    expect(back.scenario.cross, query).toHaveLength(1);
    expect(getAt(back.scenario, 'flows[0].app.kind')).toBe('transfers');
    expect(getAt(back.scenario, 'flows[0].app.writes')).toEqual([
      { at: 0.5, bytes: 14600 },
      { at: 2, bytes: 100000 },
    ]);
    expect((back.scenario.cross as Record<string, unknown>[])[0]).toMatchObject({
      kind: 'ping',
      packet_size: 64,
      interval: 0.02,
    });
    expect(back.plots).toEqual(['window', 'transfers']);
  });
});
