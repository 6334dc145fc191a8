// The scenario controls: the path, the sender's application, the run; then every other
// engine parameter under "All settings". Which application fields apply to which kind is
// the engine's (`applies_when` in its schema). For the applications that leave the sender
// idle or application-limited (thin, on/off, Poisson), the writes come first, with the
// application write frequency.
import { useApp, useAppState } from '../app/AppContext';
import { useNarrow } from '../app/layout';
import { formatDuration } from '../lib/format';
import { concretePath, getAt, mssOf } from '../scenario/paths';
import { formatNumber, settingsUnder } from '../scenario/params';
import { effectiveValue } from '../state/selectors';
import { AdvancedControls } from './AdvancedControls';
import { CrossTraffic } from './CrossTraffic';
import { ParamControl } from './ParamControl';
import { QueueDiscipline } from './QueueDiscipline';
import { TimelineList } from './TimelineList';

const WRITE_SIZE = 'flows[0].app.write_size';
const WRITE_INTERVAL = 'flows[0].app.write_interval';

/** Applications whose write size and frequency decide whether the sender is idle or
 *  application-limited (where CWV and restart act): their writes are shown first, framed. */
const WRITE_LIMITED = new Set(['thin', 'on_off', 'poisson']);

function num(v: unknown): number {
  return typeof v === 'number' ? v : 0;
}

/** The propagation RTT of flow 0's path: twice the one-way delays of its access links and
 *  the bottleneck (the path as built; queueing adds to it). */
function usePropagationRtt(): number {
  return useAppState(
    (s) =>
      2 *
      (num(effectiveValue(s, 'network.bottleneck.delay')) +
        num(effectiveValue(s, 'flows[0].access.delay')) +
        num(effectiveValue(s, 'flows[0].receiver_access.delay'))),
  );
}

/** A data packet's size on the wire (flow 0: MSS + headers), bytes. */
function usePacketBytes(): number {
  return useAppState((s) => mssOf(s.scenario) + num(getAt(s.scenario, 'flows[0].tcp.header')));
}

/** Propagation RTT and bandwidth–delay product, from the current values. */
function PathFacts() {
  const rtt = usePropagationRtt();
  const bw = useAppState((s) => num(effectiveValue(s, 'network.bottleneck.bandwidth')));
  const pkt = usePacketBytes();
  const bdp = pkt > 0 ? (bw * rtt) / 8 / pkt : 0;
  return (
    <p className="path-facts">
      Propagation RTT ≈ <strong>{formatDuration(rtt)}</strong> · bandwidth × delay ≈{' '}
      <strong>{formatNumber(bdp, 3)}</strong> packets
    </p>
  );
}

/** What the one-way delay gives: the round-trip time a student thinks in. */
function RttOfDelay() {
  const rtt = usePropagationRtt();
  return (
    <span className="rtt-of-delay">
      <strong>RTT ≈ {formatDuration(rtt)}</strong> (twice this delay plus the access links’)
    </span>
  );
}

/** A bit error rate per packet: the engine's loss model loses a packet of n bytes with
 *  probability 1 − (1 − BER)^(8n) (the schema's help for the "ber" model says so; the
 *  engine's ber_packet_loss, which a test compares this with). For display only. */
export function perPacketLoss(ber: number, bytes: number): number {
  return ber <= 0 || bytes <= 0 ? 0 : -Math.expm1(8 * bytes * Math.log1p(-ber));
}

/** "≈ 11 % of 1 500 B packets (1 in 9)". */
export function perPacketText(ber: number, bytes: number): string {
  const p = perPacketLoss(ber, bytes);
  if (p <= 0) return `no ${bytes} B packet is lost`;
  const pct = p * 100;
  const share = pct >= 1 ? `${formatNumber(pct, 2)} %` : `${formatNumber(pct, 2)} %`;
  const oneIn = p >= 1 ? '' : ` (1 in ${formatNumber(1 / p, 2)})`;
  return `≈ ${share} of ${bytes} B packets lost${oneIn}`;
}

/** The bit error rate per packet, with the loss model in force. */
function BerPerPacket({ active }: { active: boolean }) {
  const ber = useAppState((s) => num(effectiveValue(s, BER)));
  const bytes = usePacketBytes();
  return (
    <span className="ber-per-packet">
      Per packet: <strong>{perPacketText(ber, bytes)}</strong>
      {active ? '' : ' once the loss model is “Bit error rate” (choosing a value here sets it).'}
    </span>
  );
}

const LOSS_MODEL = 'network.bottleneck.loss.model';
const BER = 'network.bottleneck.loss.ber';

/** The loss model and its value. The bit error rate stays editable whatever the model: a
 *  value chosen there also makes "Bit error rate" the model (a student told to set a BER of
 *  10⁻⁵ need not find the model first). */
function LossControls() {
  const { controller } = useApp();
  const lossModel = useAppState((s) => String(effectiveValue(s, LOSS_MODEL)));
  const ber = lossModel === 'ber';
  return (
    <>
      <ParamControl path={LOSS_MODEL} />
      {lossModel === 'bernoulli' ? (
        <ParamControl path="network.bottleneck.loss.probability" />
      ) : (
        <ParamControl
          path={BER}
          extra={<BerPerPacket active={ber} />}
          onChange={
            ber
              ? undefined
              : (v) =>
                  controller.setParams([
                    [LOSS_MODEL, 'ber'],
                    [BER, v],
                  ])
          }
        />
      )}
    </>
  );
}

/** The path: bandwidth, delay (with the RTT it gives) and its variation, buffer, queue
 *  discipline and loss. In the scenario panel on wide screens; by the plots on phones
 *  (PathDock), where the discipline comes first (one tap opens the dock, one picks it). */
export function PathGroup({
  headingId = 'grp-path',
  disciplineFirst = false,
}: {
  headingId?: string;
  disciplineFirst?: boolean;
}) {
  return (
    <section className="control-group" aria-labelledby={headingId}>
      <h2 id={headingId}>Path</h2>
      {disciplineFirst && <QueueDiscipline />}
      <ParamControl path="network.bottleneck.bandwidth" />
      <ParamControl path="network.bottleneck.delay" extra={<RttOfDelay />} />
      <PathFacts />
      <ParamControl path="network.bottleneck.delay_variation" />
      <ParamControl path="network.bottleneck.queue_packets" />
      {!disciplineFirst && <QueueDiscipline />}
      <LossControls />
    </section>
  );
}

/** The write interval as a frequency, and the load it offers. */
function WriteRate({ kind }: { kind: string }) {
  const size = useAppState((s) => num(effectiveValue(s, WRITE_SIZE)));
  const interval = useAppState((s) => num(effectiveValue(s, WRITE_INTERVAL)));
  if (interval <= 0) return null;
  const mean = kind === 'poisson' || kind === 'transfers' ? 'mean ' : '';
  const when = kind === 'on_off' ? ' while on' : '';
  // Drawn short transfers: write_size bytes per transfer, a Poisson arrival per mean gap.
  const what = kind === 'transfers' ? 'Transfer arrival rate' : 'Application write frequency';
  const per = kind === 'transfers' ? 'transfers/s' : 'writes/s';
  return (
    <span className="write-rate">
      {what}: {mean}
      <strong>
        {formatNumber(1 / interval, 4)} {per}
      </strong>{' '}
      (Hz){when} · {formatNumber((size * 8) / interval / 1e6, 4)} Mbit/s offered
    </span>
  );
}

function AppField({ path, kind }: { path: string; kind: string }) {
  return <ParamControl path={path} extra={path === WRITE_INTERVAL ? <WriteRate kind={kind} /> : undefined} />;
}

/** What the reserved bandwidth does, with the scheduler in force. */
function ReservedNote() {
  const scheduler = useAppState((s) => String(effectiveValue(s, 'network.bottleneck.scheduler')));
  if (scheduler === 'reservation') {
    return (
      <>
        <strong>Enforced</strong>: with the reservation scheduler (under “Competing traffic”) the bottleneck gives this
        flow its own class and queue and guarantees it this rate. BR-TCP also uses it for its ssthresh (the reserved
        rate&apos;s bandwidth-delay product; BR-TCP needs a value above 0).
      </>
    );
  }
  return (
    <>
      <strong>Not enforced</strong> with the FIFO scheduler: only BR-TCP changes with this value, using it for its
      ssthresh (the reserved rate&apos;s bandwidth-delay product; BR-TCP needs a value above 0). Choose the reservation
      scheduler under “Competing traffic” to have the bottleneck guarantee the rate.
    </>
  );
}

/** The main controls. */
export function Controls() {
  // On phones the path's controls are by the plots (PathDock), not down here.
  const narrow = useNarrow();
  const appKind = useAppState((s) => String(effectiveValue(s, 'flows[0].app.kind')));
  // In a competition each flow's application and reservation are in the flow list.
  const compete = useAppState((s) => s.mode === 'compete');
  const appFields = settingsUnder('flows[].app.kind', appKind).map((p) => concretePath(p, 0));
  const writes: string[] = WRITE_LIMITED.has(appKind)
    ? appFields.filter((p) => p === WRITE_SIZE || p === WRITE_INTERVAL)
    : [];
  const others = appFields.filter((p) => !writes.includes(p));
  return (
    <div className="controls">
      {!narrow && <PathGroup />}
      {!compete && (
        <section className="control-group" aria-labelledby="grp-sender">
          <h2 id="grp-sender">Sender</h2>
          <ParamControl path="flows[0].app.kind" />
          {writes.length > 0 && (
            <div className="app-writes" role="group" aria-labelledby="grp-writes">
              <h3 id="grp-writes">Application writes</h3>
              {writes.map((p) => (
                <AppField key={p} path={p} kind={appKind} />
              ))}
            </div>
          )}
          {others.map((p) => (
            <AppField key={p} path={p} kind={appKind} />
          ))}
          <ParamControl path="flows[0].reserved_bandwidth" note={<ReservedNote />} />
          <ParamControl path="flows[0].ecn" />
        </section>
      )}
      <CrossTraffic />
      <section className="control-group" aria-labelledby="grp-run">
        <h2 id="grp-run">Run</h2>
        <ParamControl path="duration" />
        <ParamControl path="seed" variant="number" />
      </section>
      <TimelineList />
      <AdvancedControls />
    </div>
  );
}
