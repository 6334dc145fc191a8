// The numbers a comparison is about, per algorithm (one column each, so four algorithms fit
// on a phone). Every number comes from the engine's summary.
import { useShallow } from 'zustand/react/shallow';
import { useAppState } from '../app/AppContext';
import type { FlowSummary } from '../engine/protocol';
import { algStyle, markerPath } from '../lib/styles';
import { variantLabel } from '../scenario/algorithms';
import { formatNumber } from '../scenario/params';
import type { RunInfo } from '../state/types';

const ROWS: { label: string; title: string; value: (f: FlowSummary) => string }[] = [
  {
    label: 'Goodput (Mbit/s)',
    title: 'Data delivered in order to the receiver per second',
    value: (f) => formatNumber(f.goodput_bps / 1e6, 4),
  },
  { label: 'Retransmissions', title: 'Segments sent more than once', value: (f) => String(f.retransmits) },
  { label: 'Timeouts', title: 'Retransmission timer expiries', value: (f) => String(f.timeouts) },
  { label: 'Fast retransmits', title: '3rd duplicate ACK responses', value: (f) => String(f.fast_retransmits) },
  { label: 'Partial ACKs', title: 'NewReno partial acknowledgments', value: (f) => String(f.partial_acks) },
  {
    label: 'Mean cwnd (segments)',
    title: 'Time-averaged congestion window',
    value: (f) => formatNumber(f.mean_cwnd_segments, 4),
  },
  { label: 'cwnd variation', title: 'Coefficient of variation of cwnd', value: (f) => formatNumber(f.cwnd_cv, 3) },
  {
    label: 'Drops',
    title: 'Packets lost: queue overflow + random errors + scripted',
    value: (f) => String(f.drops.queue + f.drops.error + f.drops.scripted),
  },
];

function cell(run: RunInfo | undefined, row: (typeof ROWS)[number]): string {
  if (!run) return '—';
  if (run.status === 'error') return 'error';
  const f = run.summary?.flows[0];
  if (run.status === 'stopped') return f ? `${row.value(f)}*` : 'not run';
  return f ? row.value(f) : '…';
}

/** The summary table. */
export function SummaryTable() {
  const algorithms = useAppState(useShallow((s) => s.algorithms));
  const runs = useAppState((s) => s.runs);
  const running = algorithms.some((a) => runs[a]?.status === 'running');
  return (
    <section className="summary" aria-labelledby="summary-h">
      <h2 id="summary-h">Summary</h2>
      <div className="table-scroll">
        <table data-testid="summary" aria-busy={running}>
          <thead>
            <tr>
              <th scope="col">Metric</th>
              {algorithms.map((a) => {
                const st = algStyle(a);
                return (
                  <th key={a} scope="col">
                    <span className="alg-head">
                      <svg width="28" height="12" viewBox="-14 -6 28 12" aria-hidden="true">
                        <line x1="-13" x2="13" stroke={st.color} strokeWidth="2" strokeDasharray={st.dash.join(' ')} />
                        <path d={markerPath(st.marker, 4)} fill={st.color} stroke="#fff" />
                      </svg>
                      {variantLabel(a)}
                    </span>
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {ROWS.map((row) => (
              <tr key={row.label}>
                <th scope="row" title={row.title}>
                  {row.label}
                </th>
                {algorithms.map((a) => (
                  <td key={a}>{cell(runs[a], row)}</td>
                ))}
              </tr>
            ))}
            <tr className="digest-row">
              <th scope="row" title="64-bit digest of every output column: equal digests mean identical runs">
                Run digest
              </th>
              {algorithms.map((a) => (
                <td key={a}>
                  <code>{runs[a]?.summary?.digest ?? '…'}</code>
                </td>
              ))}
            </tr>
          </tbody>
        </table>
      </div>
      {algorithms.some((a) => runs[a]?.status === 'stopped' && runs[a]?.summary) && (
        <p className="status">* stopped before the end: numbers so far.</p>
      )}
    </section>
  );
}
