// The engine export requests the Export panel makes, and the names of what it saves. Table
// names, their order and the capture points come from the engine (vocabulary.ts); which
// tables a plot draws from comes from the plot registry. Nothing here formats data.
import type { JsonObject } from '../lib/json';
import { plotTables, shownPlots } from '../plots/registry';
import type { Mode } from '../scenario/competition';
import { PLOT_IDS, type PlotId } from '../scenario/shareState';
import type { ExportVocabulary } from './vocabulary';
import { slug, type ExportRun } from './describe';

/** The key of the notices about exports (a refused or failed export). */
export const EXPORT_NOTICE = 'export';

/** The trace tables' formats. */
export type TableFormat = 'csv' | 'json';

/** `tables` once each, in the engine's file order (names the engine lacks left out). */
export function engineOrder(tables: readonly string[], vocabulary: ExportVocabulary): string[] {
  const wanted = new Set(tables);
  return vocabulary.tables.map((t) => t.name).filter((name) => wanted.has(name));
}

/** The tables behind the visible plots, once each, in the engine's file order. */
export function visiblePlotTables(plots: readonly PlotId[], mode: Mode, vocabulary: ExportVocabulary): string[] {
  return engineOrder(
    shownPlots(plots, mode).flatMap((p) => plotTables(p)),
    vocabulary,
  );
}

/** The plot kind of a figure on the page (its data-plot id starts with the kind: window-…,
 *  thin-latency, …), or null. */
export function plotKindOf(figureId: string): PlotId | null {
  const kind = figureId.split('-')[0] ?? '';
  return (PLOT_IDS as readonly string[]).includes(kind) ? (kind as PlotId) : null;
}

/** A request for `tables` (the engine's names) in `format`. */
export function tablesRequest(format: TableFormat, tables: readonly string[]): JsonObject {
  return { format, tables: [...tables] };
}

/** Every table the engine has. */
export function allTables(vocabulary: ExportVocabulary): string[] {
  return vocabulary.tables.map((t) => t.name);
}

/** A packet capture at `point` (the engine's capture point names). */
export function pcapRequest(point: string, vocabulary: ExportVocabulary): JsonObject {
  return { format: 'pcap', point, snaplen: vocabulary.snaplen.default };
}

/** One flow's qlog. */
export function qlogRequest(flow: number): JsonObject {
  return { format: 'qlog', flow };
}

/** The archive's name: cwndlab, the scenario's name, what it holds. */
export function archiveName(scenario: string, what: string): string {
  return `cwndlab-${slug(scenario)}-${slug(what)}`;
}

/** A size in bytes as people read it. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} kB`;
  return `${(n / (1024 * 1024)).toFixed(n < 10 * 1024 * 1024 ? 1 : 0)} MB`;
}

/** The runs a figure on the page draws, of the view's runs: a small multiple's one run, an
 *  overlaid plot's every run (its id ends with the run keys, `window-reno`,
 *  `window-reno-newreno`; a competition's one run is every flow's). */
export function figureRuns(figureId: string, runs: readonly ExportRun[]): ExportRun[] {
  const keys = figureId.split('-').slice(1);
  const mine = runs.filter((r) => keys.includes(r.key));
  return mine.length > 0 ? mine : [...runs];
}
