// The legend's row for a queue discipline at the bottleneck (none under drop-tail): what
// the queue plots add, in the looks qdiscLayers.ts draws them with.
import { useAppState } from '../app/AppContext';
import { requireSpec, settingsUnder } from '../scenario/params';
import { effectiveValue } from '../state/selectors';
import {
  disciplineLabel,
  DROP_COLOR,
  DROPPING_FILL,
  MARK_COLOR,
  PROBABILITY_COLOR,
  STATE_DASH,
  TARGET_DASH,
} from './qdiscLayers';

const QDISC = 'network.bottleneck.qdisc';

function Swatch({ color, dash, width = 2 }: { color: string; dash: readonly number[]; width?: number }) {
  return (
    <svg width="34" height="12" aria-hidden="true" className="legend-swatch">
      <line x1="1" y1="6" x2="33" y2="6" stroke={color} strokeWidth={width} strokeDasharray={dash.join(' ')} />
    </svg>
  );
}

/** The discipline's marks and lines, named as its parameters are (the schema's). */
export function DisciplineLegend() {
  const kind = useAppState((s) => String(effectiveValue(s, QDISC)));
  if (kind === requireSpec(QDISC).default) return null;
  const own = settingsUnder(QDISC, kind).map((p) => p.slice(p.lastIndexOf('.') + 1));
  const target = own.includes('target');
  const thresholds = own.includes('min_th');
  return (
    <ul className="legend-row legend-qdisc" aria-label={`Queue discipline: ${disciplineLabel(kind)}`}>
      <li>
        <svg width="14" height="14" viewBox="-7 -7 14 14" aria-hidden="true" className="legend-swatch">
          <path d="M-5,-5L5,5M5,-5L-5,5" stroke={DROP_COLOR} strokeWidth="2" />
        </svg>
        drop by {disciplineLabel(kind)} (on the queue line)
      </li>
      <li>
        <svg width="14" height="14" viewBox="-7 -7 14 14" aria-hidden="true" className="legend-swatch">
          <path d="M0,-5L5,0L0,5L-5,0Z" fill={MARK_COLOR} stroke="#fff" />
        </svg>
        CE mark (ECN) instead of a drop
      </li>
      {target && (
        <>
          <li>
            <Swatch color="#555" dash={TARGET_DASH} width={1.5} />
            target delay
          </li>
          <li>
            <Swatch color="#333" dash={STATE_DASH} width={1.5} />
            sojourn of the departing packet
          </li>
          <li>
            <span className="legend-band" style={{ backgroundColor: DROPPING_FILL }} aria-hidden="true" />
            dropping state
          </li>
        </>
      )}
      {thresholds && (
        <>
          <li>
            <Swatch color="#555" dash={TARGET_DASH} width={1.5} />
            min_th, max_th
          </li>
          <li>
            <Swatch color="#333" dash={STATE_DASH} width={1.5} />
            average queue
          </li>
        </>
      )}
      {(thresholds || target) && (
        <li>
          <Swatch color={PROBABILITY_COLOR} dash={[]} width={1.5} />
          drop probability, where the discipline keeps one (right scale)
        </li>
      )}
    </ul>
  );
}
