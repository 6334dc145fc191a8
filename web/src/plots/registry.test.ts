// Each plot kind names the engine tables it draws from (what "the data behind the plot"
// exports): every plot has at least one, and every name is one the engine's exporter takes.
import { describe, expect, it } from 'vitest';
import { PLOT_IDS } from '../scenario/shareState';
import { engineWasm } from '../test/wasm';
import { parseVocabulary } from '../export/vocabulary';
import { plotTables, plotTitle, shownPlots, THIN_PLOTS_KIND, TIME_PLOTS } from './registry';

const vocabulary = parseVocabulary(engineWasm().export_tables_json());

describe('plot registry', () => {
  it('every plot names engine tables, each one the exporter takes', () => {
    const names = vocabulary.tables.map((t) => t.name);
    expect(names.length).toBeGreaterThan(0);
    for (const id of PLOT_IDS) {
      const t = plotTables(id);
      expect(t.length, id).toBeGreaterThan(0);
      for (const name of t) expect(names, `${id} → ${name}`).toContain(name);
    }
  });

  it('declares what each plot reads from its trace', () => {
    expect(TIME_PLOTS.window.tables).toEqual(['series', 'validation']);
    expect(TIME_PLOTS.seq.tables).toEqual(['events']);
    expect(TIME_PLOTS.queue.tables).toEqual(['queues']);
    expect(TIME_PLOTS.qdelay.tables).toEqual(['queues']);
    for (const id of ['throughput', 'share', 'fairness'] as const)
      expect(TIME_PLOTS[id].tables).toEqual(['throughput']);
    expect(TIME_PLOTS.rtt.tables).toEqual(['events', 'series']);
    expect(TIME_PLOTS.bbr.tables).toEqual(['events']);
    expect(TIME_PLOTS.writes.tables).toEqual(['writes']);
    expect(THIN_PLOTS_KIND.tables).toEqual(['writes', 'events']);
    expect(plotTables('rounds')).toEqual(['rounds']);
    expect(plotTables('transfers')).toEqual(['transfers', 'pings']);
    expect(plotTitle('transfers')).toBe('Transfers: completion times');
  });

  it('competition plots are shown only in a competition', () => {
    expect(shownPlots(['window', 'share', 'retx', 'queue'], 'compare')).toEqual(['window', 'queue']);
    expect(shownPlots(['window', 'share'], 'compete')).toEqual(['window', 'share']);
  });
});
