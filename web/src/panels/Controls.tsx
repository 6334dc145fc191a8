// The scenario controls: the path, the sender's application, the run; then every other
// engine parameter under "All settings". Which application fields apply to which kind
// follows the engine's help texts (write size and interval for CBR, thin and on/off; on and
// off periods for on/off; a byte count for bulk; scripted writes for scripted).
import { useAppState } from '../app/AppContext';
import { formatDuration } from '../lib/format';
import { getAt, mssOf } from '../scenario/paths';
import { formatNumber } from '../scenario/params';
import { effectiveValue } from '../state/selectors';
import { AdvancedControls } from './AdvancedControls';
import { ParamControl } from './ParamControl';
import { TimelineList } from './TimelineList';

const APP_FIELDS: Record<string, string[]> = {
  bulk: ['flows[0].app.bytes'],
  cbr: ['flows[0].app.write_size', 'flows[0].app.write_interval'],
  thin: ['flows[0].app.write_size', 'flows[0].app.write_interval'],
  on_off: ['flows[0].app.write_size', 'flows[0].app.write_interval', 'flows[0].app.on', 'flows[0].app.off'],
  scripted: ['flows[0].app.writes'],
};

function num(v: unknown): number {
  return typeof v === 'number' ? v : 0;
}

/** Propagation RTT and bandwidth–delay product, from the current values. */
function PathFacts() {
  const rtt = useAppState(
    (s) =>
      2 *
      (num(effectiveValue(s, 'network.bottleneck.delay')) +
        num(effectiveValue(s, 'flows[0].access.delay')) +
        num(effectiveValue(s, 'flows[0].receiver_access.delay'))),
  );
  const bw = useAppState((s) => num(effectiveValue(s, 'network.bottleneck.bandwidth')));
  const pkt = useAppState((s) => mssOf(s.scenario) + num(getAt(s.scenario, 'flows[0].tcp.header')));
  const bdp = pkt > 0 ? (bw * rtt) / 8 / pkt : 0;
  return (
    <p className="path-facts">
      Propagation RTT ≈ <strong>{formatDuration(rtt)}</strong> · bandwidth × delay ≈{' '}
      <strong>{formatNumber(bdp, 3)}</strong> packets
    </p>
  );
}

function WriteRate() {
  const size = useAppState((s) => num(effectiveValue(s, 'flows[0].app.write_size')));
  const interval = useAppState((s) => num(effectiveValue(s, 'flows[0].app.write_interval')));
  if (interval <= 0) return null;
  return (
    <span>
      = {formatNumber(1 / interval, 4)} writes/s, {formatNumber((size * 8) / interval / 1e6, 4)} Mbit/s offered
    </span>
  );
}

/** The main controls. */
export function Controls() {
  const lossModel = useAppState((s) => String(effectiveValue(s, 'network.bottleneck.loss.model')));
  const appKind = useAppState((s) => String(effectiveValue(s, 'flows[0].app.kind')));
  const appFields = APP_FIELDS[appKind] ?? [];
  return (
    <div className="controls">
      <section className="control-group" aria-labelledby="grp-path">
        <h2 id="grp-path">Path</h2>
        <ParamControl path="network.bottleneck.bandwidth" />
        <ParamControl path="network.bottleneck.delay" />
        <PathFacts />
        <ParamControl path="network.bottleneck.queue_packets" />
        <ParamControl path="network.bottleneck.loss.model" />
        <ParamControl
          path="network.bottleneck.loss.ber"
          disabled={lossModel !== 'ber'}
          note={lossModel !== 'ber' ? 'Used when the loss model is “Bit error rate”.' : undefined}
        />
        {lossModel === 'bernoulli' && <ParamControl path="network.bottleneck.loss.probability" />}
      </section>
      <section className="control-group" aria-labelledby="grp-sender">
        <h2 id="grp-sender">Sender</h2>
        <ParamControl
          path="flows[0].reserved_bandwidth"
          note={
            <>
              <strong>Not used yet.</strong> Only BR-TCP uses a reserved bandwidth, and BR-TCP is not in this release:
              no current algorithm changes with this value.
            </>
          }
        />
        <ParamControl path="flows[0].app.kind" />
        {appFields.map((p) => (
          <ParamControl key={p} path={p} extra={p === 'flows[0].app.write_interval' ? <WriteRate /> : undefined} />
        ))}
      </section>
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
