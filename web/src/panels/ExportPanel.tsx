// Take the run elsewhere: the data behind the visible plots (or every table) as CSV or JSON,
// the summary and the scenario, each plot or the whole view as PNG and SVG, a packet
// capture (pcap) and a qlog trace, and a printable handout. Data files are made by the
// engine in a worker (the CLI's `--out` files, byte for byte); images are drawn by the plots'
// own draw code (export/figures.ts). A refused export shows the engine's reason as a notice.
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useApp, useAppState } from '../app/AppContext';
import { ExportShell } from './ExportShell';
import { exportRuns, scenarioLine, scenarioName, slug } from '../export/describe';
import { plotSvg, pngScale, svgToPng, viewSvg, visibleFigures, type SvgImage } from '../export/figures';
import {
  allTables,
  engineOrder,
  EXPORT_NOTICE,
  figureRuns,
  plotKindOf,
  archiveName,
  formatBytes,
  pcapRequest,
  qlogRequest,
  tablesRequest,
  visiblePlotTables,
  type TableFormat,
} from '../export/requests';
import { pageExporter, saveBlob } from '../export/service';
import { exportVocabulary } from '../export/vocabulary';
import type { JsonObject } from '../lib/json';
import { flowLabel, flowsOf } from '../scenario/competition';
import { plotTables } from '../plots/registry';
import { docPage } from '../docs/published';

/** A running data export. */
interface Busy {
  token: number;
  label: string;
  progress: number;
  cancel: () => void;
}

/** The plots on the page, as the image choice lists them (read after each render). */
function useFigures(open: boolean): { id: string; title: string }[] {
  const drawn = useAppState((s) => s.drawn);
  const plots = useAppState((s) => s.plots);
  const layout = useAppState((s) => s.layout);
  const keys = useAppState((s) => s.keys);
  const [list, setList] = useState<{ id: string; title: string }[]>([]);
  useEffect(() => {
    if (!open) return;
    const id = requestAnimationFrame(() => {
      const next = visibleFigures().map((f) => ({ id: f.id, title: f.title }));
      setList((prev) => (JSON.stringify(prev) === JSON.stringify(next) ? prev : next));
    });
    return () => cancelAnimationFrame(id);
  }, [open, drawn, plots, layout, keys]);
  return list;
}

/** The Export panel, whole (its frame is ExportShell.tsx; the page loads this body later). */
export function ExportPanel() {
  return <ExportShell Body={ExportBody} />;
}

/** What the Export panel holds under its summary line; `open`: whether it is shown. */
export function ExportBody({ open }: { open: boolean }) {
  const { store } = useApp();
  const vocabulary = exportVocabulary();
  const mode = useAppState((s) => s.mode);
  const plots = useAppState((s) => s.plots);
  const scenario = useAppState((s) => s.scenario);
  const algorithms = useAppState((s) => s.algorithms);
  const [format, setFormat] = useState<TableFormat>('csv');
  const [figure, setFigure] = useState('');
  const [point, setPoint] = useState(vocabulary.capture_points[0]?.name ?? 'sender');
  const [qlogFlow, setQlogFlow] = useState(0);
  const [busy, setBusy] = useState<Busy | null>(null);
  const [message, setMessage] = useState('');
  const token = useRef(0);
  const figures = useFigures(open);
  const name = useId();
  const flows = flowsOf(scenario);
  const chosen = figures.find((f) => f.id === figure) ?? figures[0];
  const plotTablesNow = visiblePlotTables(plots, mode, vocabulary);
  const chosenKind = chosen ? plotKindOf(chosen.id) : null;
  const chosenTables = chosenKind ? engineOrder(plotTables(chosenKind), vocabulary) : [];
  // A plot of every run is named by its kind ("window"), a small multiple by its run too.
  // Only while the menu is open: building every run's scenario cost ~2 ms per slider step.
  const allRuns = useMemo(
    () => (open ? exportRuns({ scenario, mode, algorithms }) : []),
    [open, scenario, mode, algorithms],
  );
  const chosenName =
    chosen && figureRuns(chosen.id, allRuns).length < allRuns.length ? chosen.id : (chosenKind ?? 'plot');
  const limitMb = Math.round(vocabulary.page_limit_bytes / (1 << 20));

  const notice = useCallback(
    (text: string) => store.getState().addNotices([{ key: EXPORT_NOTICE, message: text }]),
    [store],
  );

  /** An engine export of the view's runs: progress, Cancel, then the download. */
  const runExport = async (what: string, request: JsonObject, figureId?: string) => {
    const exporter = pageExporter();
    if (!exporter) {
      notice('Export: the engine has not loaded yet; try again in a moment.');
      return;
    }
    const s = store.getState();
    token.current += 1;
    const mine = token.current;
    const runs = figureId === undefined ? exportRuns(s) : figureRuns(figureId, exportRuns(s));
    const task = exporter.run(request, runs, {
      zipName: archiveName(scenarioName(s), what),
      onProgress: (progress) => setBusy((b) => (b && b.token === mine ? { ...b, progress } : b)),
    });
    setBusy({ token: mine, label: what, progress: 0, cancel: task.cancel });
    setMessage(`Exporting ${what}…`);
    try {
      const out = await task.promise;
      if (token.current !== mine) return;
      if (out) {
        saveBlob(out.blob, out.name);
        // An export that failed before (e.g. its worker stopped) is no longer news.
        store.getState().dismissNoticesAbout(EXPORT_NOTICE);
        const n = out.files.length;
        const saved = `Saved ${out.name}: ${n} file${n === 1 ? '' : 's'}, ${formatBytes(out.blob.size)}.`;
        setMessage([saved, ...out.notes.map((note) => `Note: ${note}.`)].join(' '));
      } else {
        setMessage('Export cancelled.');
      }
    } catch (e) {
      if (token.current !== mine) return;
      const reason = e instanceof Error ? e.message : String(e);
      notice(`Export of ${what} not made: ${reason}`);
      setMessage(`Export of ${what} not made (see the notice above).`);
    } finally {
      if (token.current === mine) setBusy(null);
    }
  };

  /** An image of one plot or of the whole view, as SVG or PNG (2× this screen's ratio). */
  const imageExport = async (target: 'plot' | 'view', kind: 'svg' | 'png') => {
    const s = store.getState();
    const dpr = Math.max(1, window.devicePixelRatio || 1);
    const legend = document.querySelector('.plots-panel .legend');
    let image: SvgImage | null;
    let base: string;
    try {
      if (target === 'plot') {
        const fig = visibleFigures().find((f) => f.id === chosen?.id);
        base = archiveName(scenarioName(s), fig?.id ?? 'plot');
        image = fig ? plotSvg(fig, legend, 2 * dpr, slug(fig.id)) : null;
      } else {
        const stack = document.querySelector<HTMLElement>('.plot-stack');
        base = archiveName(scenarioName(s), 'view');
        image = stack
          ? viewSvg({ title: `cwndlab — ${scenarioName(s)}`, line: scenarioLine(s), legend, stack, dpr: 2 * dpr })
          : null;
      }
      if (!image) {
        setMessage('No plot is shown to export.');
        return;
      }
      if (kind === 'svg') {
        saveBlob(new Blob([image.svg], { type: 'image/svg+xml' }), `${base}.svg`);
        setMessage(`Saved ${base}.svg (${image.width} × ${image.height} px).`);
      } else {
        const scale = pngScale(image.width, image.height, 2 * dpr);
        const png = await svgToPng(image, scale);
        saveBlob(png, `${base}.png`);
        const w = Math.round(image.width * scale);
        const h = Math.round(image.height * scale);
        setMessage(`Saved ${base}.png (${w} × ${h} pixels, ${formatBytes(png.size)}).`);
      }
    } catch (e) {
      notice(`The ${kind.toUpperCase()} image was not made: ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  // The print support (PrintHandout) prepares the plots on beforeprint and undoes it after.
  const print = () => window.print();

  const disabled = busy !== null;
  const point0 = vocabulary.capture_points.find((p) => p.name === point);
  return (
    <div className="export-body">
      <div className="export-row" role="radiogroup" aria-label="Data format">
        <span className="export-label">Data as</span>
        {(['csv', 'json'] as const).map((f) => (
          <label key={f}>
            <input type="radio" name={name} checked={format === f} onChange={() => setFormat(f)} />
            {f.toUpperCase()}
          </label>
        ))}
      </div>

      <fieldset className="export-group">
        <legend>One plot</legend>
        <div className="export-row">
          <label className="export-label" htmlFor={`${name}-plot`}>
            Plot
          </label>
          <select
            id={`${name}-plot`}
            value={chosen?.id ?? ''}
            onChange={(e) => setFigure(e.target.value)}
            disabled={figures.length === 0}
          >
            {figures.map((f) => (
              <option key={f.id} value={f.id}>
                {f.title}
              </option>
            ))}
          </select>
        </div>
        <div className="export-row">
          <button
            type="button"
            disabled={disabled || chosenTables.length === 0}
            onClick={() => void runExport(`${chosenName} ${format}`, tablesRequest(format, chosenTables), chosen?.id)}
          >
            Data ({format.toUpperCase()})
          </button>
          <button type="button" disabled={!chosen} onClick={() => void imageExport('plot', 'png')}>
            PNG
          </button>
          <button type="button" disabled={!chosen} onClick={() => void imageExport('plot', 'svg')}>
            SVG
          </button>
        </div>
        {chosenTables.length > 0 && <p className="export-note">Its data: {chosenTables.join(', ')}.</p>}
      </fieldset>

      <fieldset className="export-group">
        <legend>Every visible plot</legend>
        <div className="export-row">
          <button
            type="button"
            disabled={disabled || plotTablesNow.length === 0}
            onClick={() => void runExport(`plots ${format}`, tablesRequest(format, plotTablesNow))}
          >
            Data ({format.toUpperCase()})
          </button>
          <button type="button" disabled={figures.length === 0} onClick={() => void imageExport('view', 'png')}>
            PNG
          </button>
          <button type="button" disabled={figures.length === 0} onClick={() => void imageExport('view', 'svg')}>
            SVG
          </button>
          <button
            type="button"
            disabled={disabled || vocabulary.tables.length === 0}
            onClick={() => void runExport(`all ${format}`, tablesRequest(format, allTables(vocabulary)))}
          >
            All data
          </button>
        </div>
        <p className="export-note">
          {plotTablesNow.length > 0 ? `The visible plots draw from ${plotTablesNow.join(', ')}; ` : ''}
          all data is every table. The files of <code>cwndlab run --out DIR</code>, byte for byte
          {mode === 'compare' ? ', one folder per algorithm' : ''}. Images: the plots with their titles and the legend;
          PNG at twice this screen’s pixel ratio, SVG as vectors drawn by the same code.
        </p>
        <details className="export-tables">
          <summary>What each table holds</summary>
          <ul>
            {vocabulary.tables.map((t) => (
              <li key={t.name}>
                <b>{t.name}</b>: {t.description}
              </li>
            ))}
          </ul>
        </details>
      </fieldset>

      <fieldset className="export-group">
        <legend>Summary and scenario</legend>
        <div className="export-row">
          <span className="export-label">Summary table</span>
          <button
            type="button"
            disabled={disabled}
            onClick={() => void runExport('summary csv', tablesRequest('csv', ['summary']))}
          >
            CSV
          </button>
          <button
            type="button"
            disabled={disabled}
            onClick={() => void runExport('summary json', tablesRequest('json', ['summary']))}
          >
            JSON
          </button>
        </div>
        <div className="export-row">
          <span className="export-label">Scenario</span>
          <button
            type="button"
            disabled={disabled}
            onClick={() => void runExport('scenario', tablesRequest('json', ['scenario']))}
          >
            JSON
          </button>
        </div>
        <p className="export-note">
          <code>cwndlab run scenario.json</code> runs it unchanged, to the same digest
          {mode === 'compare' ? ' (one per algorithm)' : ''}.
        </p>
      </fieldset>

      <fieldset className="export-group">
        <legend>Packets</legend>
        <div className="export-row">
          <label className="export-label" htmlFor={`${name}-point`}>
            Capture at
          </label>
          <select id={`${name}-point`} value={point} onChange={(e) => setPoint(e.target.value)}>
            {vocabulary.capture_points.map((p) => (
              <option key={p.name} value={p.name}>
                {p.name}
              </option>
            ))}
          </select>
          <button
            type="button"
            disabled={disabled || vocabulary.capture_points.length === 0}
            onClick={() => void runExport(`${point} pcap`, pcapRequest(point, vocabulary))}
          >
            pcap
          </button>
        </div>
        {point0 && <p className="export-note">{point0.description}.</p>}
        <p className="export-note">
          pcap: the packets as tcpdump saves them (first {vocabulary.snaplen.default} bytes of each), for Wireshark.
        </p>
        <div className="export-row">
          {mode === 'compete' && (
            <>
              <label className="export-label" htmlFor={`${name}-flow`}>
                Flow
              </label>
              <select
                id={`${name}-flow`}
                value={Math.min(qlogFlow, flows.length - 1)}
                onChange={(e) => setQlogFlow(Number(e.target.value))}
              >
                {flows.map((_, i) => (
                  <option key={i} value={i}>
                    {flowLabel(scenario, i)}
                  </option>
                ))}
              </select>
            </>
          )}
          <button
            type="button"
            disabled={disabled}
            onClick={() => {
              const flow = mode === 'compete' ? Math.min(qlogFlow, flows.length - 1) : 0;
              void runExport(`flow ${flow} qlog`, qlogRequest(flow));
            }}
          >
            qlog
          </button>
        </div>
        <p className="export-note">
          qlog: the sender’s congestion control as a qlog trace (events and metrics over time), for qvis.{' '}
          <a href={docPage('export.md')} target="_blank" rel="noopener">
            Formats and limits
          </a>
        </p>
      </fieldset>

      {busy && (
        <div className="export-progress" role="group" aria-label="Export in progress">
          <label>
            Exporting {busy.label}…{' '}
            <progress max={1} value={busy.progress}>
              {Math.round(busy.progress * 100)}%
            </progress>
          </label>
          <button type="button" onClick={busy.cancel}>
            Cancel
          </button>
        </div>
      )}
      <p className="export-status" role="status" aria-live="polite">
        {message}
      </p>
      <div className="export-row">
        <button type="button" onClick={print}>
          Print handout…
        </button>
        {limitMb > 0 && (
          <span className="export-note">
            Files up to {limitMb} MB per run are made here; larger runs are refused (use the command line).
          </span>
        )}
      </div>
    </div>
  );
}
