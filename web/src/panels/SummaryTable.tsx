// The numbers a comparison is about, per algorithm. Every number comes from the engine's
// summary.
import { Term } from '../explain/Term';
import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useApp, useAppState } from '../app/AppContext';
import { samePackets } from '../engine/traceStore';
import { kindsOf, WINDOW_EVENT_MARKS } from '../lib/styles';
import { EVENT_CODE } from '../plots/layers';
import type { FlowSummary, RunSummary } from '../engine/protocol';
import { AlgorithmSwatch } from '../lib/AlgorithmSwatch';
import { algorithmLabel, runSettings, type AlgorithmName } from '../scenario/algorithms';
import { identicalRuns, type RunFacts } from '../scenario/identical';
import { formatNumber } from '../scenario/params';
import { getAt } from '../scenario/paths';
import { crossLabel } from '../scenario/cross';
import { isJsonObject, type JsonObject } from '../lib/json';
import { reportsProgress, summaryShown } from '../state/selectors';
import type { RunInfo } from '../state/types';
import { amountNumber, unitLabel, type WindowUnit } from '../lib/units';

/** A row of the table: a metric of a run's summary (undefined while the summary lacks it). */
interface Row {
  label: string;
  title: string;
  value: (s: RunSummary) => string | undefined;
  /** Several numbers in a cell: it may wrap between them in a narrow column. */
  multi?: boolean;
}

/** Rows of the compared flow's metrics, windows in `unit`. */
const flowRowsIn = (unit: WindowUnit): { label: string; title: string; value: (f: FlowSummary) => string }[] => [
  {
    label: 'Goodput (Mbit/s)',
    title: 'Data delivered in order to the receiver per second',
    value: (f) => formatNumber(f.goodput_bps / 1e6, 4),
  },
  // The soft hyphen lets the header break in a narrow column.
  { label: 'Retrans\u00admissions', title: 'Segments sent more than once', value: (f) => String(f.retransmits) },
  { label: 'Timeouts', title: 'Retransmission timer expiries', value: (f) => String(f.timeouts) },
  { label: 'Fast retransmits', title: '3rd duplicate ACK responses', value: (f) => String(f.fast_retransmits) },
  { label: 'Partial ACKs', title: 'NewReno partial acknowledgments', value: (f) => String(f.partial_acks) },
  {
    label: `Mean cwnd (${unitLabel(unit)})`,
    title: 'Time-averaged congestion window',
    value: (f) => (unit === 'bytes' ? amountNumber(f.mean_cwnd_bytes, unit, 1) : formatNumber(f.mean_cwnd_segments, 4)),
  },
  { label: 'cwnd variation', title: 'Coefficient of variation of cwnd', value: (f) => formatNumber(f.cwnd_cv, 3) },
  {
    label: 'Drops',
    title: 'Packets lost: queue overflow + random errors + scripted',
    value: (f) => String(f.drops.queue + f.drops.error + f.drops.scripted),
  },
  {
    label: 'Max burst (packets)',
    title: 'Most data packets sent back to back at one instant',
    value: (f) => String(f.max_burst_packets),
  },
  {
    label: 'Window decays',
    title: 'cwnd reductions by the idle policy: decays after idle or while application-limited, restarts',
    value: (f) => String(f.window_decays),
  },
];

/** Rows of the compared flow's metrics, from its summary. */
function flowRows(rows: { label: string; title: string; value: (f: FlowSummary) => string; multi?: boolean }[]): Row[] {
  return rows.map((r) => ({
    ...r,
    value: (s: RunSummary) => {
      const f = s.flows[0];
      return f ? r.value(f) : undefined;
    },
  }));
}

/** ms with four significant digits, or a dash when undefined. */
function ms(v: number | null): string {
  return v === null ? '—' : formatNumber(v * 1e3, 4);
}

/** Between the numbers of one cell. */
const SEP = ' · ';

/** A mean and a 95th percentile the engine gives in ms, four significant digits each. */
function meanP95(mean: number | null, p95: number | null): string {
  return [mean, p95].map((v) => (v === null ? '—' : formatNumber(v, 4))).join(SEP);
}

/** The delay rows (issue 43): what a bufferbloat experiment is about. */
const DELAY_ROWS: { label: string; title: string; value: (f: FlowSummary) => string; multi: boolean }[] = [
  {
    label: 'Queueing delay mean · p95 (ms)',
    title:
      'Queueing delay of the data packets at the bottleneck (from entering its queue to the start of their transmission): mean, and the nearest-rank 95th percentile from the engine’s histogram (at most 0.2 % below the exact value)',
    value: (f) => meanP95(f.qdelay_mean_ms, f.qdelay_p95_ms),
    multi: true,
  },
  {
    label: 'RTT mean · p95 (ms)',
    title:
      'The RTT samples the sender took (the dots of the RTT plot, not SRTT): mean, and the nearest-rank 95th percentile (at most 0.2 % below the exact value)',
    value: (f) => meanP95(f.rtt_mean_ms, f.rtt_p95_ms),
    multi: true,
  },
];

const rowsIn = (unit: WindowUnit): Row[] => flowRows([...flowRowsIn(unit), ...DELAY_ROWS]);

/** The 50th, 90th and 99th percentiles of a thin-stream measurement, ms. */
function percentiles(p50: number | null, p90: number | null, p99: number | null): string {
  return [p50, p90, p99].map(ms).join(SEP);
}

/** A cell of several numbers, each kept whole: one line where the column is wide, one number
 *  per line where it is narrow (a phone), so neighbouring columns never run together. */
function multiCell(text: string) {
  const parts = text.split(SEP);
  return parts.map((p, k) => (
    <span key={k} className="part">
      {p}
      {k < parts.length - 1 && <span className="sep">{SEP}</span>}
    </span>
  ));
}

const PERCENTILE_NOTE =
  'nearest-rank 50th, 90th and 99th percentiles from the engine’s histograms (each at most 0.2 % below the exact value)';

/** Rows shown when a compared sender writes (every application but bulk): source 004's
 *  thin-stream measurements. */
const THIN_ROWS: Row[] = flowRows([
  {
    label: 'Packets sent',
    title: 'Data packets sent, retransmissions included',
    value: (f) => String(f.data_packets_sent),
  },
  {
    label: 'Mean payload (B)',
    title: 'Mean payload of the data packets sent, bytes',
    value: (f) => formatNumber(f.mean_payload_bytes, 4),
  },
  {
    label: 'ITT p50 · p90 · p99 (ms)',
    title: `Inter-transmission time (from one data packet to the next): ${PERCENTILE_NOTE}`,
    value: (f) => percentiles(f.itt_p50_s, f.itt_p90_s, f.itt_p99_s),
    multi: true,
  },
  {
    label: 'Sojourn p50 · p90 · p99 (ms)',
    title: `Sojourn time of the writes delivered (written until their last byte was first sent): ${PERCENTILE_NOTE}`,
    value: (f) => percentiles(f.sojourn_p50_s, f.sojourn_p90_s, f.sojourn_p99_s),
    multi: true,
  },
  {
    label: 'Latency p50 · p90 · p99 (ms)',
    title: `Latency of the writes delivered (written until delivered in order): ${PERCENTILE_NOTE}`,
    value: (f) => percentiles(f.latency_p50_s, f.latency_p90_s, f.latency_p99_s),
    multi: true,
  },
]);

/** Two rows per cross-traffic source: what it delivered, and what the queue dropped. */
function crossRows(sources: readonly JsonObject[]): Row[] {
  return sources.flatMap((source, i) => [
    {
      label: `cross ${i} delivered (Mbit/s)`,
      title: `${crossLabel(i, source)}: bytes delivered at its sink per second of the run`,
      value: (s: RunSummary) => {
        const c = s.cross?.[i];
        return c ? formatNumber(c.delivered_bps / 1e6, 4) : undefined;
      },
    },
    {
      label: `cross ${i} queue drops`,
      title: `${crossLabel(i, source)}: packets dropped by a full queue`,
      value: (s: RunSummary) => {
        const c = s.cross?.[i];
        return c ? String(c.queue_drops) : undefined;
      },
    },
  ]);
}

const DIGEST_TITLE = '64-bit digest of every output column: equal digests mean identical runs';

/** A run's cell: `summary` is the one shown (summaryShown; a stopped run's own numbers so far). */
function cell(status: RunInfo['status'] | undefined, summary: RunSummary | null, row: Row): string {
  if (!status) return '—';
  if (status === 'error') return 'error';
  const v = summary ? row.value(summary) : undefined;
  if (status === 'stopped') return v !== undefined ? `${v}*` : 'not run';
  return v ?? '…';
}

function AlgHead({ a }: { a: AlgorithmName }) {
  return (
    <span className="alg-head">
      <AlgorithmSwatch algorithm={a} width={28} height={12} strokeWidth={2} />
      {algorithmLabel(a)}
    </span>
  );
}

/** Marks that record new CWV's bookkeeping or window changes, which runs without an idle
 *  policy do not have (the packets and windows are compared instead). */
const VALIDATION_KINDS: ReadonlySet<number> = new Set(
  kindsOf(WINDOW_EVENT_MARKS).flatMap((n) => EVENT_CODE.get(n) ?? []),
);

/** Runs that traced identically, with the reason when the settings and summaries show it. */
function IdenticalNotes({
  algorithms,
  statuses,
  summaries,
}: {
  algorithms: AlgorithmName[];
  statuses: (RunInfo['status'] | undefined)[];
  summaries: (RunSummary | null)[];
}) {
  const { traces } = useApp();
  const scenario = useAppState((s) => s.scenario);
  const notes = useMemo(() => {
    const facts: RunFacts[] = [];
    algorithms.forEach((name, i) => {
      const summary = summaries[i];
      const flow = summary?.flows[0];
      if (statuses[i] !== 'done' || !summary?.finished || !flow) return;
      facts.push({ name, digest: summary.digest, flow, settings: runSettings(scenario, name) });
    });
    const same = (a: AlgorithmName, b: AlgorithmName) => {
      const ta = traces.get(a);
      const tb = traces.get(b);
      return !!ta && !!tb && samePackets(ta, tb, VALIDATION_KINDS);
    };
    return identicalRuns(facts, { appKind: String(getAt(scenario, 'flows[0].app.kind')) }, same);
  }, [algorithms, statuses, summaries, scenario, traces]);
  if (notes.length === 0) return null;
  return (
    <ul className="identical" aria-label="Identical runs">
      {notes.map((n) => (
        <li key={n.names.join(',')}>
          {n.text}
          {!n.sameDigest && (
            <span className="identical-why">
              {' '}
              (Their digests differ: new CWV also logs its phase changes, which move no window.)
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}

/**
 * The summary table, in two orientations: one column per algorithm where the space is
 * narrow (a side panel, a phone), one row per algorithm where it is wide. CSS (a container
 * query) shows the one that fits; the other is display:none, so assistive technology reads
 * one table.
 */
export function SummaryTable() {
  const algorithms = useAppState(useShallow((s) => s.algorithms));
  // Only what the table shows, per algorithm: live progress replaces `runs` every frame, but
  // these change only when a summary or a status does.
  const statuses = useAppState(useShallow((s) => algorithms.map((a) => s.runs[a]?.status)));
  const summaries = useAppState(useShallow((s) => algorithms.map((a) => summaryShown(s.runs[a]))));
  // Busy (numbers greyed) only for long runs: a re-run that finishes within a frame or two
  // swaps the numbers once, without greying them first.
  const running = useAppState((s) => algorithms.some((a) => reportsProgress(s.runs[a])));
  const digest = (i: number) => <code>{summaries[i]?.digest ?? '…'}</code>;
  // Rows for the scenario's cross traffic (none without it).
  const cross = useAppState((s) => s.scenario.cross);
  // The thin-stream rows when a compared sender writes (its summary counts writes).
  const writes = summaries.some((s) => typeof s?.flows[0]?.writes === 'number');
  const unit = useAppState((s) => s.unit);
  const rows = useMemo(
    () => [
      ...rowsIn(unit),
      ...(writes ? THIN_ROWS : []),
      ...crossRows(Array.isArray(cross) ? cross.filter(isJsonObject) : []),
    ],
    [cross, writes, unit],
  );
  return (
    <section className="summary" aria-labelledby="summary-h" data-testid="summary">
      <h2 id="summary-h">Summary</h2>
      {/* Focusable so the table can be scrolled sideways from the keyboard if it overflows. */}
      <div className="table-scroll by-metric" tabIndex={0} role="region" aria-label="Summary table">
        <table aria-busy={running} aria-label="Summary, one column per algorithm">
          <thead>
            <tr>
              <th scope="col">Metric</th>
              {algorithms.map((a) => (
                <th key={a} scope="col">
                  <AlgHead a={a} />
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.label}>
                <th scope="row" title={row.title}>
                  <Term name={row.label}>{row.label}</Term>
                </th>
                {algorithms.map((a, i) => (
                  <td key={a} className={row.multi ? 'multi' : undefined}>
                    {row.multi
                      ? multiCell(cell(statuses[i], summaries[i] ?? null, row))
                      : cell(statuses[i], summaries[i] ?? null, row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="table-scroll by-algorithm" tabIndex={0} role="region" aria-label="Summary table">
        <table aria-busy={running} aria-label="Summary, one row per algorithm">
          <thead>
            <tr>
              <th scope="col">Algorithm</th>
              {rows.map((row) => (
                <th key={row.label} scope="col" title={row.title}>
                  <Term name={row.label}>{row.label}</Term>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {algorithms.map((a, i) => (
              <tr key={a}>
                <th scope="row">
                  <AlgHead a={a} />
                </th>
                {rows.map((row) => (
                  <td key={row.label}>{cell(statuses[i], summaries[i] ?? null, row)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="digests" title={DIGEST_TITLE}>
        Run digests (equal digests mean identical runs):{' '}
        {algorithms.map((a, i) => (
          <span key={a}>
            {i > 0 ? ' · ' : ''}
            {algorithmLabel(a)} {digest(i)}
          </span>
        ))}
      </p>
      <IdenticalNotes algorithms={algorithms} statuses={statuses} summaries={summaries} />
      {statuses.some((st, i) => st === 'stopped' && summaries[i]) && (
        <p className="status">* stopped before the end: numbers so far.</p>
      )}
    </section>
  );
}
