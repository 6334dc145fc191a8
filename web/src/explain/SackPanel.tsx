// The SACK sender at the cursor, for runs with SACK on: the scoreboard and pipe (pipe,
// SACKed, deemed lost; the SACK blocks of the last ACK), PRR's counters, RACK's reordering
// window and the loss timer, and whether a tail loss probe is out. Every value is a row of
// the engine's recovery series or SACK-block events; the terms are the engine's glossary's.
import { useApp, useAppState } from '../app/AppContext';
import { runLabel } from '../scenario/competition';
import { flowSettingOf } from '../scenario/algorithms';
import { mssOfFlow } from '../scenario/paths';
import { decisionTime, segments, segmentWord } from './headline';
import { amountText, unitLabel } from '../lib/units';
import { LOSS_TIMER_KINDS } from '../engine/pkg/vocabulary';
import { sackStateAt } from './sackState';
import { Term } from './Term';

/** A byte count in the page's unit: "3 segments (4380 B)" or "4 380 B". */
function Bytes({ bytes, mss }: { bytes: number; mss: number }) {
  const unit = useAppState((s) => s.unit);
  if (unit === 'bytes') return <>{amountText(bytes, unit, mss)}</>;
  return (
    <>
      {segments(bytes, mss)} {segmentWord(bytes, mss)} ({bytes} B)
    </>
  );
}

/** The SACK state of the focused run at the cursor (nothing for a run without SACK). */
export function SackPanel({ keyName }: { keyName: string | null }) {
  const { traces } = useApp();
  useAppState((s) => s.drawn);
  const scenario = useAppState((s) => s.scenario);
  const unit = useAppState((s) => s.unit);
  const t = useAppState((s) => s.hover ?? s.cursor ?? (s.live ? s.time : null));
  const trace = keyName ? traces.get(keyName) : undefined;
  if (!keyName || !trace || trace.tables.recovery.length === 0) return null;
  const at = t ?? trace.now;
  const st = sackStateAt(trace, at);
  const mss = mssOfFlow(scenario, 0);
  // PRR counts in cwnd's unit: bytes, or segments when cwnd counts segments.
  const prrUnit = flowSettingOf(scenario, keyName, 'cc.units') === 'segments' ? 'segments' : 'B';
  return (
    <section className="sack-state why-values" aria-label="SACK state at the cursor" data-t={at}>
      <h3>
        SACK state of {runLabel(scenario, keyName)} at t = {decisionTime(at)}
      </h3>
      {!st ? (
        <p className="muted">No SACK state yet at this time.</p>
      ) : (
        <dl>
          <div>
            <dt>
              <Term term="pipe">pipe</Term>
            </dt>
            <dd data-field="pipe">
              <Bytes bytes={st.pipe} mss={mss} />
            </dd>
          </div>
          <div>
            <dt>
              <Term term="sacked">SACKed</Term>
            </dt>
            <dd data-field="sacked">
              <Bytes bytes={st.sacked} mss={mss} />
            </dd>
          </div>
          <div>
            <dt>
              <Term term="lost">deemed lost</Term>
            </dt>
            <dd data-field="lost">
              <Bytes bytes={st.lost} mss={mss} />
            </dd>
          </div>
          <div>
            <dt>
              <Term term="sack_block">SACK blocks</Term> of the last ACK
            </dt>
            <dd data-field="blocks">
              {!st.ack
                ? '—'
                : st.ack.blocks.length === 0
                  ? `none (ACK at ${decisionTime(st.ack.t)})`
                  : st.ack.blocks
                      .map(
                        (b) =>
                          `${b.dsack ? 'D-SACK ' : ''}${segments(b.seq, mss, unit)}–${segments(b.seq + b.len, mss, unit)}`,
                      )
                      .join(', ') + ` (${unitLabel(unit)}; ACK at ${decisionTime(st.ack.t)})`}
            </dd>
          </div>
          <div>
            <dt>in recovery</dt>
            <dd data-field="recovery">
              {st.inRecovery ? (
                <>
                  yes, until <Term term="recovery_point">RecoveryPoint</Term>{' '}
                  {st.recoveryPoint === null ? '—' : `${segments(st.recoveryPoint, mss, unit)} (${unitLabel(unit)})`}
                </>
              ) : (
                'no'
              )}
            </dd>
          </div>
          <div>
            <dt>
              <Term term="prr">PRR</Term>: <Term term="prr_delivered">prr_delivered</Term> /{' '}
              <Term term="prr_out">prr_out</Term>
            </dt>
            <dd data-field="prr">
              {st.prrDelivered} / {st.prrOut} {prrUnit}
            </dd>
          </div>
          <div>
            <dt>
              <Term term="reo_wnd">reordering window</Term>
            </dt>
            <dd data-field="reo_wnd">
              {st.reoWnd === null ? 'none (RACK off)' : `${(st.reoWnd * 1000).toFixed(3)} ms`}
            </dd>
          </div>
          <div>
            <dt>loss timer</dt>
            <dd data-field="timer">
              {st.timerAt === null
                ? 'not armed'
                : `${LOSS_TIMER_KINDS[st.timerKind] ?? st.timerKind}, fires at t = ${decisionTime(st.timerAt)}`}
            </dd>
          </div>
          <div>
            <dt>
              <Term term="tlp">tail loss probe</Term> out
            </dt>
            <dd data-field="probe">{st.probeOut ? 'yes' : 'no'}</dd>
          </div>
        </dl>
      )}
    </section>
  );
}
