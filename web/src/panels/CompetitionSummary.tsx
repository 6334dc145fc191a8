// The numbers of a competition, per flow and for the whole run: goodput and each flow's share
// of it, the retransmitted fraction (retransmissions / data packets sent, from the engine's
// counts), timeouts and fast retransmits, mean cwnd, drops, completion, and Jain's fairness
// index of the run. Every number comes from the engine's summary of the one run.
import { useShallow } from 'zustand/react/shallow';
import { useAppState } from '../app/AppContext';
import type { RunSummary } from '../engine/protocol';
import { AlgorithmSwatch } from '../lib/AlgorithmSwatch';
import { retransmittedFractions, runJainIndex } from '../plots/competitionBins';
import { flowAlgorithm, flowKey, flowLabel, flowsOf, flowStyle } from '../scenario/competition';
import { formatNumber, formatValue, requireSpec } from '../scenario/params';
import { getAt } from '../scenario/paths';
import { reportsProgress, summaryShown } from '../state/selectors';
import { SummaryTable } from './SummaryTable';
import { amountNumber, unitEntry } from '../lib/units';

const KIND_SPEC = requireSpec('flows[].app.kind');

function pct(x: number): string {
  return Number.isFinite(x) ? `${formatNumber(100 * x, 3)} %` : '—';
}

const JAIN_TITLE =
  'Jain’s fairness index of the flows’ goodputs, each over its own active time (from its start to its ' +
  'completion, or to the end): (Σx)² / (n·Σx²), 1 when every flow got the same, 1/n when one got everything';

/** One row per flow, a total row, Jain's index and the run's digest. */
export function CompetitionSummary() {
  const unit = useAppState((s) => s.unit);
  // The unit's symbol keeps the column narrow: "seg", "B".
  const cwndHead = unitEntry(unit).symbol;
  const scenario = useAppState((s) => s.scenario);
  const status = useAppState((s) => s.runs[flowKey(0)]?.status);
  const summary: RunSummary | null = useAppState((s) => summaryShown(s.runs[flowKey(0)]));
  const running = useAppState((s) => reportsProgress(s.runs[flowKey(0)]));
  const hidden = useAppState(useShallow((s) => s.hidden));
  const n = flowsOf(scenario).length;
  const flows = summary?.flows ?? [];
  const ready = summary !== null && flows.length === n;
  const fr = ready ? retransmittedFractions(summary) : null;
  const jain = ready ? runJainIndex(scenario, summary) : NaN;
  const delivered = flows.reduce((a, f) => a + f.delivered_bytes, 0);
  const stopped = status === 'stopped';
  const star = stopped ? '*' : '';
  const cellOr = (v: string | undefined) =>
    status === 'error' ? 'error' : ready && v !== undefined ? `${v}${star}` : '…';
  const sum = (pick: (f: RunSummary['flows'][number]) => number) => flows.reduce((a, f) => a + pick(f), 0);
  // Completion only for finite transfers (a bulk size above 0, or a flow that completed).
  const finite =
    flows.some((f) => f.completion_time_s !== null) ||
    flowsOf(scenario).some((_, i) => {
      const bytes = getAt(scenario, `flows[${i}].app.bytes`);
      return getAt(scenario, `flows[${i}].app.kind`) === 'bulk' && typeof bytes === 'number' && bytes > 0;
    });
  const retxCell = (retx: number, sent: number, fraction: number, spurious?: number) => (
    <span className="cell-value">
      {cellOr(pct(fraction))}
      <span className="cell-sub">
        {retx} of {sent}
        {spurious !== undefined ? `, ${spurious} spurious` : ''}
      </span>
    </span>
  );
  return (
    <section className="summary competition-summary" aria-labelledby="summary-h" data-testid="summary">
      <h2 id="summary-h">Summary</h2>
      <p className="fairness-facts">
        <span title={JAIN_TITLE}>
          Jain’s fairness index (whole run): <strong data-testid="jain">{cellOr(formatNumber(jain, 4))}</strong>
        </span>
        <span>
          Retransmitted (all flows): <strong data-testid="retx-total">{cellOr(fr ? pct(fr.total) : undefined)}</strong>
          {fr && ready ? ` of ${sum((f) => f.data_packets_sent)} data packets` : ''}
        </span>
      </p>
      <div className="table-scroll" tabIndex={0} role="region" aria-label="Summary table">
        <table aria-busy={running} aria-label="Summary, one row per flow" className="flow-summary">
          <thead>
            <tr>
              <th scope="col">Flow</th>
              <th
                scope="col"
                title="Data delivered in order to the receiver per second of the flow’s transfer (from its start to its completion, or to the end)"
              >
                Goodput (Mbit/s)
              </th>
              <th scope="col" title="The flow’s part of all bytes delivered">
                Share of bytes
              </th>
              <th scope="col" title="Retransmissions over data packets sent (retransmissions included)">
                Retrans&shy;mitted
              </th>
              <th scope="col" title="Retransmission timer expiries">
                Timeouts
              </th>
              <th scope="col" title="3rd duplicate ACK responses">
                Fast retrans&shy;mits
              </th>
              <th scope="col" title="Time-averaged congestion window">
                Mean cwnd ({cwndHead})
              </th>
              <th scope="col" title="Packets lost: queue overflow + random errors + scripted">
                Drops
              </th>
              {finite && (
                <th scope="col" title="When a finite transfer had all its data acknowledged">
                  Done at (s)
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {Array.from({ length: n }, (_, i) => {
              const f = flows[i];
              const kind = getAt(scenario, `flows[${i}].app.kind`);
              const start = getAt(scenario, `flows[${i}].start`);
              return (
                <tr key={i} className={hidden.includes(i) ? 'flow-hidden' : undefined} data-flow={i}>
                  <th scope="row">
                    <span className="alg-head">
                      <AlgorithmSwatch
                        algorithm={flowAlgorithm(scenario, i)}
                        style={flowStyle(i)}
                        width={28}
                        height={12}
                        strokeWidth={2}
                      />
                      {flowLabel(scenario, i)}
                    </span>
                    <span className="flow-sub">
                      {formatValue(KIND_SPEC, kind ?? 'bulk')}, from {formatNumber(Number(start ?? 0), 6)} s
                    </span>
                  </th>
                  <td data-label="Goodput (Mbit/s)">{cellOr(f && formatNumber(f.transfer_goodput_bps / 1e6, 4))}</td>
                  <td data-label="Share of bytes">
                    {cellOr(f && delivered > 0 ? pct(f.delivered_bytes / delivered) : '—')}
                  </td>
                  <td data-label="Retransmitted" data-testid={`retx-${i}`}>
                    {f && ready
                      ? retxCell(f.retransmits, f.data_packets_sent, fr?.flows[i] ?? NaN, f.spurious_retransmits)
                      : cellOr(undefined)}
                  </td>
                  <td data-label="Timeouts">{cellOr(f && String(f.timeouts))}</td>
                  <td data-label="Fast retransmits">{cellOr(f && String(f.fast_retransmits))}</td>
                  <td data-label={`Mean cwnd (${cwndHead})`}>
                    {cellOr(
                      f &&
                        (unit === 'bytes'
                          ? amountNumber(f.mean_cwnd_bytes, unit, 1)
                          : formatNumber(f.mean_cwnd_segments, 4)),
                    )}
                  </td>
                  <td data-label="Drops">{cellOr(f && String(f.drops.queue + f.drops.error + f.drops.scripted))}</td>
                  {finite && (
                    <td data-label="Done at (s)">
                      {cellOr(f && (f.completion_time_s === null ? '—' : formatNumber(f.completion_time_s, 6)))}
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">All flows</th>
              <td data-label="Goodput (Mbit/s)" title="Bytes delivered by every flow per second of the run">
                {cellOr(summary ? formatNumber((delivered * 8) / Math.max(1e-9, summary.now_s) / 1e6, 4) : undefined)}
              </td>
              <td data-label="Share of bytes">{cellOr(delivered > 0 ? '100 %' : '—')}</td>
              <td data-label="Retransmitted">
                {fr && ready
                  ? retxCell(
                      sum((f) => f.retransmits),
                      sum((f) => f.data_packets_sent),
                      fr.total,
                    )
                  : cellOr(undefined)}
              </td>
              <td data-label="Timeouts">{cellOr(String(sum((f) => f.timeouts)))}</td>
              <td data-label="Fast retransmits">{cellOr(String(sum((f) => f.fast_retransmits)))}</td>
              <td data-label={`Mean cwnd (${cwndHead})`}>—</td>
              <td data-label="Drops">{cellOr(String(sum((f) => f.drops.queue + f.drops.error + f.drops.scripted)))}</td>
              {finite && <td data-label="Done at (s)">—</td>}
            </tr>
          </tfoot>
        </table>
      </div>
      <p className="digests" title="64-bit digest of every output column: equal digests mean identical runs">
        Run digest: <code>{summary?.digest ?? '…'}</code>
      </p>
      {stopped && summary && <p className="status">* stopped before the end: numbers so far.</p>}
    </section>
  );
}

/** The summary of the page's mode. */
export function Summary() {
  const compete = useAppState((s) => s.mode === 'compete');
  return compete ? <CompetitionSummary /> : <SummaryTable />;
}
