// The transfers view (issue 40, short flows and latency): the CDF of the short transfers'
// completion times, one line per compared run (cdfPlot.ts, kind `transfer`; every run on one
// panel, as the thin-stream CDFs), the engine's count, mean and percentiles of each run's
// transfers under the summary CSV's column names, and each ping source's round trips. Every
// number is the engine's summary (`flows[i].transfers`, `cross[k].ping`); the page sorts the
// completion times for the CDF and computes nothing else.
import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useAppState } from '../app/AppContext';
import { PING_SUMMARY_FIELDS, TRANSFER_SUMMARY_COLUMNS } from '../engine/pkg/vocabulary';
import type { PingSummary, TransferSummary } from '../engine/protocol';
import { runLabel } from '../scenario/competition';
import { formatNumber } from '../scenario/params';
import { getAt } from '../scenario/paths';
import { TRANSFERS_KIND } from './registry';
import { CdfController, type CdfSpec } from './core/CdfController';
import { PanelFigure } from './core/PanelFigure';
import { CDF_KINDS, MARKED_PERCENTILES } from './cdfPlot';
import { pingsOf, transfersOf } from './transferSamples';

/** A summary value as shown: seconds and counts with six significant digits; — for none. */
function cell(v: number | null | undefined): string {
  return typeof v === 'number' ? formatNumber(v, 6) : '—';
}

/** A round trip in ms, for the sentence under the ping table. */
function ms(v: number | null): string {
  return v === null ? '—' : `${formatNumber(v * 1e3, 4)} ms`;
}

function TransferCdf({ keys }: { keys: string[] }) {
  const keysText = keys.join(',');
  const spec = useMemo<CdfSpec>(() => ({ kind: 'transfer', keys: keysText.split(',') }), [keysText]);
  const k = CDF_KINDS.transfer;
  const title = `${k.title} (${k.unit})`;
  return (
    <PanelFigure
      controller={CdfController}
      spec={spec}
      className="plot cdf-plot"
      plot="transfers-cdf"
      heading="h4"
      title={title}
      bodyClass="plot-cdf"
      canvasLabel={`CDF: ${title}`}
      hitLabel={`${title} CDF: value cursor`}
      helpId="cdf-transfer-help"
    >
      Left and right arrows move a value cursor (Shift for bigger steps), Home and End go to the ends of the axis,
      Escape clears it; the readout gives each run&apos;s share of transfers completed within the value.
    </PanelFigure>
  );
}

/** Each run's transfers: the engine's summary, columns named as in summary.csv. */
function TransferTable({ keys }: { keys: string[] }) {
  // Labels and the summaries' own objects: unchanged state, the same values (useShallow).
  const flat = useAppState(useShallow((s) => keys.flatMap((key) => [runLabel(s.scenario, key), transfersOf(s, key)])));
  const rows = keys.map((key, i) => ({
    key,
    label: String(flat[2 * i]),
    t: (flat[2 * i + 1] ?? null) as TransferSummary | null,
  }));
  return (
    <table className="transfer-table" data-table="transfers">
      <caption>Short transfers: the engine&apos;s summary (seconds)</caption>
      <thead>
        <tr>
          <th scope="col">run</th>
          <th scope="col">started</th>
          {TRANSFER_SUMMARY_COLUMNS.map(([column]) => (
            <th key={column} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map(({ key, label, t }) => (
          <tr key={key} data-run={key}>
            <th scope="row">{label}</th>
            <td data-field="started">{t ? t.started : '—'}</td>
            {TRANSFER_SUMMARY_COLUMNS.map(([column, field]) => {
              const v = t ? (t[field as keyof TransferSummary] as number | null) : null;
              return (
                <td key={column} data-field={field} data-value={v ?? ''}>
                  {cell(v)}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Each run's ping sources: the engine's round trips, and what they mean in a sentence. */
function PingTable({ keys }: { keys: string[] }) {
  // Per ping source of each run: its run, label, source, probe size and the summary's own
  // ping object (useShallow: unchanged state, the same values).
  const flat = useAppState(
    useShallow((s) =>
      keys.flatMap((key) =>
        pingsOf(s, key).flatMap((c) => [
          key,
          runLabel(s.scenario, key),
          c.source,
          getAt(s.scenario, `cross[${c.source}].packet_size`) ?? null,
          c.ping,
        ]),
      ),
    ),
  );
  const rows: { key: string; label: string; source: number; size: unknown; ping: PingSummary }[] = [];
  for (let i = 0; i + 4 < flat.length; i += 5) {
    rows.push({
      key: String(flat[i]),
      label: String(flat[i + 1]),
      source: Number(flat[i + 2]),
      size: flat[i + 3],
      ping: flat[i + 4] as PingSummary,
    });
  }
  if (rows.length === 0) return null;
  return (
    <>
      <table className="transfer-table" data-table="pings">
        <caption>Ping probes: round-trip times through the queue (seconds)</caption>
        <thead>
          <tr>
            <th scope="col">run</th>
            <th scope="col">source</th>
            {PING_SUMMARY_FIELDS.map((f) => (
              <th key={f} scope="col">
                {f}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={`${r.key}-${r.source}`} data-run={r.key} data-source={r.source}>
              <th scope="row">{r.label}</th>
              <td>cross[{r.source}]</td>
              {PING_SUMMARY_FIELDS.map((f) => {
                const v = r.ping[f as keyof PingSummary];
                return (
                  <td key={f} data-field={f} data-value={v ?? ''}>
                    {cell(v)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <ul className="ping-notes">
        {rows.map((r) => (
          <li key={`${r.key}-${r.source}`} data-run={r.key} data-source={r.source}>
            {r.label}: a {typeof r.size === 'number' ? `${r.size} B ` : ''}probe (cross[{r.source}]) makes its round
            trip through the queues in {ms(r.ping.p50_s)} (median; 90th percentile {ms(r.ping.p90_s)}, 99th{' '}
            {ms(r.ping.p99_s)}), {r.ping.samples} samples, {r.ping.lost} lost.
          </li>
        ))}
      </ul>
    </>
  );
}

/** The transfers view of the compared runs. */
export function TransfersPlots({ keys }: { keys: string[] }) {
  const marks = MARKED_PERCENTILES.map((p) => `${p}th`).join(' and ');
  return (
    <section className="plot-group transfer-plots" aria-labelledby="transfer-plots-h">
      <h3 id="transfer-plots-h" className="plot-title">
        {TRANSFERS_KIND.title}
      </h3>
      <p className="thin-caption">
        Each short transfer&apos;s completion time, from when it was due until its last byte was acknowledged (the
        engine&apos;s summary, over the run so far; a transfer still running is not counted): the share of transfers
        completed within each value, one line per run, markers at the {marks} percentiles.
      </p>
      <div className="cdf-grid">
        <TransferCdf keys={keys} />
      </div>
      <TransferTable keys={keys} />
      <PingTable keys={keys} />
    </section>
  );
}
