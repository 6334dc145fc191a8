// Phones: the path's controls (RTT, bandwidth, buffer, loss) by the plots they change, in a
// bar held at the bottom of the screen while the plots are in view. Closed, the bar reads
// the path in one line; open, it holds the same controls the scenario panel has on wide
// screens (on phones the scenario panel, below everything, leaves them out).
import { useState } from 'react';
import { useAppState } from '../app/AppContext';
import { useNarrow } from '../app/layout';
import { formatDuration } from '../lib/format';
import { formatValue, requireSpec } from '../scenario/params';
import { effectiveValue } from '../state/selectors';
import { PathGroup } from './Controls';
import { QDISC } from './QueueDiscipline';

const num = (v: unknown) => (typeof v === 'number' ? v : 0);

/** "RTT 200 ms · 800 kbit/s · 8 packets · no random loss": the path in one line. */
function PathLine() {
  const line = useAppState((s) => {
    const at = (p: string) => effectiveValue(s, p);
    const rtt =
      2 *
      (num(at('network.bottleneck.delay')) +
        num(at('flows[0].access.delay')) +
        num(at('flows[0].receiver_access.delay')));
    const model = String(at('network.bottleneck.loss.model'));
    const qdisc = String(at(QDISC));
    const loss =
      model === 'ber'
        ? `BER ${formatValue(requireSpec('network.bottleneck.loss.ber'), at('network.bottleneck.loss.ber'))}`
        : model === 'bernoulli'
          ? `loss ${formatValue(requireSpec('network.bottleneck.loss.probability'), at('network.bottleneck.loss.probability'))}`
          : 'no random loss';
    // A managed queue comes first: the phone's bar cuts the line's end.
    return [
      ...(qdisc === requireSpec(QDISC).default ? [] : [formatValue(requireSpec(QDISC), qdisc)]),
      `RTT ${formatDuration(rtt)}`,
      formatValue(requireSpec('network.bottleneck.bandwidth'), at('network.bottleneck.bandwidth')),
      `buffer ${formatValue(requireSpec('network.bottleneck.queue_packets'), at('network.bottleneck.queue_packets'))}`,
      loss,
    ].join(' · ');
  });
  return <span className="path-line">{line}</span>;
}

/** The path bar under the plots (phones only; nothing on wider screens). */
export function PathDock() {
  const narrow = useNarrow();
  const [open, setOpen] = useState(false);
  if (!narrow) return null;
  return (
    <details className="path-dock" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>
        <span className="path-dock-title">Path</span> <PathLine />
      </summary>
      {open && (
        <div className="path-dock-body">
          <PathGroup headingId="grp-path-dock" disciplineFirst />
        </div>
      )}
    </details>
  );
}
