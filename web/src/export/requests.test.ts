// The Export panel's requests and names: table names and order from the engine, the visible
// plots' tables from the plot registry, the runs behind a view (one per compared algorithm,
// in folders when there are several; a competition's one run), the scenario line.
import { describe, expect, it } from 'vitest';
import { tables } from '../engine/tables';
import { runScenario } from '../scenario/algorithms';
import { setAt } from '../scenario/paths';
import { engineWasm } from '../test/wasm';
import { exportRuns, scenarioLine, scenarioName, slug } from './describe';
import {
  allTables,
  archiveName,
  engineOrder,
  figureRuns,
  formatBytes,
  pcapRequest,
  plotKindOf,
  qlogRequest,
  tablesRequest,
  visiblePlotTables,
} from './requests';
import { parseVocabulary } from './vocabulary';

const vocabulary = parseVocabulary(engineWasm().export_tables_json());

describe('export requests', () => {
  it('names tables in the engine’s order, once each', () => {
    expect(allTables(vocabulary)).toEqual(vocabulary.tables.map((t) => t.name));
    expect(engineOrder(['queues', 'series', 'series', 'nonsense'], vocabulary)).toEqual(['series', 'queues']);
    expect(visiblePlotTables(['queue', 'window', 'seq'], 'compare', vocabulary)).toEqual([
      'series',
      'events',
      'queues',
      'validation',
    ]);
    // The competition plots' tables only when competing.
    expect(visiblePlotTables(['share'], 'compare', vocabulary)).toEqual([]);
    expect(visiblePlotTables(['share'], 'compete', vocabulary)).toEqual(['throughput']);
    expect(tablesRequest('json', ['summary'])).toEqual({ format: 'json', tables: ['summary'] });
  });

  it('pcap and qlog requests carry the engine’s defaults', () => {
    expect(pcapRequest('receiver', vocabulary)).toEqual({
      format: 'pcap',
      point: 'receiver',
      snaplen: vocabulary.snaplen.default,
    });
    expect(vocabulary.capture_points.map((p) => p.name)).toContain('sender');
    expect(qlogRequest(2)).toEqual({ format: 'qlog', flow: 2 });
  });

  it('reads a figure’s plot kind from its id', () => {
    expect(plotKindOf('window-reno-newreno')).toBe('window');
    expect(plotKindOf('thin-latency')).toBe('thin');
    expect(plotKindOf('qdelay-all')).toBe('qdelay');
    expect(plotKindOf('bogus')).toBeNull();
  });

  it('a small multiple’s data is its own run’s; an overlaid plot’s every run’s', () => {
    const runs = ['reno', 'newreno', 'newreno_cwv'].map((key) => ({ folder: key, key, scenarioJson: '{}' }));
    expect(figureRuns('window-newreno_cwv', runs).map((r) => r.key)).toEqual(['newreno_cwv']);
    expect(figureRuns('window-reno-newreno-newreno_cwv', runs)).toHaveLength(3);
    expect(figureRuns('thin-latency', runs)).toHaveLength(3);
    const compete = [{ folder: '', key: 'compete', scenarioJson: '{}' }];
    expect(figureRuns('window-flow1', compete)).toEqual(compete);
  });

  it('names files and sizes readably', () => {
    expect(slug('Congestion window — Reno (segments)')).toBe('congestion-window-reno-segments');
    expect(slug('')).toBe('cwndlab');
    expect(archiveName('fall-floyd-reno-3drops', 'window csv')).toBe('cwndlab-fall-floyd-reno-3drops-window-csv');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(2048)).toBe('2.0 kB');
    expect(formatBytes(50 * 1024 * 1024)).toBe('50 MB');
  });

  it('a bad vocabulary parses to an empty one (never throws)', () => {
    expect(parseVocabulary('not json').tables).toEqual([]);
    expect(parseVocabulary('{"tables":[{"name":1},{"name":"series"}]}').tables).toEqual([
      { name: 'series', description: '' },
    ]);
  });
});

describe('the view described', () => {
  const preset = tables.presets.find((p) => p.name === 'cwv-quiescent-100ms');
  if (!preset) throw new Error('no preset');
  const scenario = preset.scenario;

  it('one run per compared algorithm, in folders when there are several; the run’s own scenario', () => {
    const runs = exportRuns({ scenario, mode: 'compare', algorithms: ['newreno', 'newreno_cwv'] });
    expect(runs.map((r) => [r.folder, r.key])).toEqual([
      ['newreno', 'newreno'],
      ['newreno_cwv', 'newreno_cwv'],
    ]);
    expect(JSON.parse(runs[1]?.scenarioJson ?? '')).toEqual(runScenario(scenario, 'newreno_cwv'));
    expect(exportRuns({ scenario, mode: 'compare', algorithms: ['reno'] })[0]?.folder).toBe('');
    expect(exportRuns({ scenario, mode: 'compete', algorithms: ['reno'] })).toEqual([
      { folder: '', key: 'compete', scenarioJson: JSON.stringify(scenario) },
    ]);
  });

  it('names the scenario and says it in one line, in the schema’s units', () => {
    expect(scenarioName({ presetName: 'cwv-quiescent-100ms', lesson: null })).toBe('cwv-quiescent-100ms');
    expect(scenarioName({ presetName: null, lesson: null })).toBe('custom scenario');
    const line = scenarioLine({ scenario, mode: 'compare', algorithms: ['newreno', 'newreno_cwv'] });
    expect(line).toMatch(
      /^NewReno vs NewReno \+ CWV · bottleneck [\d.]+ Mbit\/s, [\d.]+ ms, \d+ packets · 4 s · seed \d+$/,
    );
    // A path that reorders says so; a variation of 0 is no variation.
    const varied = (v: number) =>
      scenarioLine({
        scenario: setAt(scenario, 'network.bottleneck.delay_variation', v),
        mode: 'compare',
        algorithms: ['newreno'],
      });
    expect(varied(0.01)).toMatch(/packets, delay variation 10 ms · 4 s/);
    expect(varied(0)).not.toMatch(/variation/);
  });
});
