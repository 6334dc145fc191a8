import { describe, expect, it } from 'vitest';
import { getAt } from '../scenario/paths';
import { defaultShareState } from '../scenario/shareState';
import { createAppStore } from './store';

describe('the app store', () => {
  it('starts from a share state, with every slice', () => {
    const init = { ...defaultShareState(), algorithms: ['reno'], cursor: 2, layout: 'overlay' as const };
    const s = createAppStore(init).getState();
    expect(s).toMatchObject({ algorithms: ['reno'], cursor: 2, layout: 'overlay', playing: false, speed: 1, gen: 0 });
    expect(s.scenario).toEqual(init.scenario);
  });

  it('keeps the selection in the engine’s order and never empty', () => {
    const store = createAppStore();
    store.getState().setAlgorithms(['newreno', 'tahoe', 'newreno']);
    expect(store.getState().algorithms).toEqual(['tahoe', 'newreno']);
    store.getState().toggleAlgorithm('tahoe');
    store.getState().toggleAlgorithm('newreno');
    expect(store.getState().algorithms).toEqual(['newreno']);
    store.getState().setAlgorithms([]);
    expect(store.getState().algorithms).toEqual(['newreno']);
    store.getState().toggleAlgorithm('old_tahoe');
    expect(store.getState().algorithms).toEqual(['old_tahoe', 'newreno']);
  });

  it('sets one parameter immutably and forgets the preset it came from', () => {
    const store = createAppStore();
    store.getState().setScenario(store.getState().scenario, 'netsim-reno');
    const before = store.getState().scenario;
    store.getState().setParamValue('flows[0].app.kind', 'cbr');
    const s = store.getState();
    expect(getAt(s.scenario, 'flows[0].app.kind')).toBe('cbr');
    expect(getAt(before, 'flows[0].app.kind')).toBe('bulk');
    expect(s.presetName).toBeNull();
  });

  it('removes one timeline entry', () => {
    const store = createAppStore();
    store.getState().setTimeline([
      { at: 1, set: 'seed', value: 1 },
      { at: 2, set: 'seed', value: 2 },
    ]);
    store.getState().removeTimelineEntry(0);
    expect(store.getState().scenario.timeline).toEqual([{ at: 2, set: 'seed', value: 2 }]);
  });

  it('records progress only for the current comparison', () => {
    const store = createAppStore();
    store.getState().comparisonStarted(3, ['reno', 'newreno'], {});
    store.getState().runsProgress(2, new Map([['reno', { status: 'done' }]]), false);
    store.getState().runsProgress(3, new Map([['tahoe', { status: 'done' }]]), false);
    expect(store.getState().runs.reno?.status).toBe('running');
    expect(store.getState().runs.tahoe).toBeUndefined();
    store.getState().runsProgress(3, new Map([['reno', { status: 'done', now: 20 }]]), false);
    expect(store.getState().runs.reno).toMatchObject({ status: 'done', now: 20 });
  });

  it('treats an equal time window as no change (linked zoom cannot loop)', () => {
    const store = createAppStore();
    let changes = 0;
    store.subscribe((s, p) => {
      if (s.xDomain !== p.xDomain) changes += 1;
    });
    store.getState().setXDomain([1, 2]);
    store.getState().setXDomain([1, 2 + 1e-15]);
    store.getState().setXDomain(null);
    store.getState().setXDomain(null);
    expect(changes).toBe(2);
  });

  it('keeps plots in page order when toggled back on', () => {
    const store = createAppStore();
    store.getState().togglePlot('window');
    expect(store.getState().plots).toEqual(['seq', 'queue']);
    store.getState().togglePlot('window');
    expect(store.getState().plots).toEqual(['window', 'seq', 'queue']);
  });

  it('shows the throughput plot in page order (once), and keeps its bin width and column', () => {
    const store = createAppStore();
    const plots = store.getState().plots;
    store.getState().showPlot('queue');
    expect(store.getState().plots).toBe(plots); // already shown: no change
    store.getState().togglePlot('seq');
    store.getState().showPlot('throughput');
    store.getState().showPlot('throughput');
    expect(store.getState().plots).toEqual(['window', 'queue', 'throughput']);
    store.getState().togglePlot('seq');
    expect(store.getState().plots).toEqual(['window', 'seq', 'queue', 'throughput']);
    expect(store.getState().throughputBin).toBeNull();
    store.getState().setThroughputBin(0.1);
    store.getState().setThroughputColumn('bottleneck');
    expect(store.getState()).toMatchObject({ throughputBin: 0.1, throughputColumn: 'bottleneck' });
  });

  it('adds, dismisses and clears notices', () => {
    const store = createAppStore();
    store.getState().addNotices([
      { key: 'a', message: 'A' },
      { key: 'b', message: 'B' },
    ]);
    const [first] = store.getState().notices;
    store.getState().dismissNotice(first?.id ?? -1);
    expect(store.getState().notices.map((n) => n.key)).toEqual(['b']);
    store.getState().clearNotices();
    expect(store.getState().notices).toEqual([]);
  });

  it('does not repeat a notice already shown', () => {
    const store = createAppStore();
    store.getState().addNotices([{ key: 'a', message: 'A' }]);
    store.getState().addNotices([
      { key: 'a', message: 'A' },
      { key: 'b', message: 'B' },
      { key: 'b', message: 'B' },
    ]);
    expect(store.getState().notices.map((n) => n.key)).toEqual(['a', 'b']);
  });
});
