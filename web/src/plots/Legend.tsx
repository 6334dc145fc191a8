// What the lines, patterns and marks mean. Every algorithm is shown with its colour, dash and
// marker; phases with colour, pattern and short name; events with their glyph.
import { narrowLayout } from '../app/layout';
import { Term } from '../explain/Term';
import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useAppState } from '../app/AppContext';
import { algorithmLabel } from '../scenario/algorithms';
import { flowAlgorithm, flowLabel, flowsOf, flowStyle } from '../scenario/competition';
import { useApp } from '../app/AppContext';
import { AlgorithmSwatch } from '../lib/AlgorithmSwatch';
import {
  BBR_LINES,
  EVENT_MARKS,
  PHASES,
  SERIES_STYLES,
  NEW_CWV_SERIES,
  VALIDATION_SERIES,
  WINDOW_EVENT_MARKS,
  windowEventPath,
  type WindowEventLook,
} from '../lib/styles';
import { selectBbr, selectNewCwv, selectSack, selectWindowValidation } from '../state/selectors';
import { SACK_LOOK } from './sackMarks';
import { RTO_DASH } from './rttPlot';
import { BOTTLENECK_DASH, NETWORK_WIDTH, SOJOURN_WIDTH } from './core/plotStyle';
import { DisciplineLegend } from './QdiscLegend';

function Line({ color, dash, width = 2.5 }: { color: string; dash: readonly number[]; width?: number }) {
  return (
    <svg width="34" height="12" aria-hidden="true" className="legend-swatch">
      <line x1="1" y1="6" x2="33" y2="6" stroke={color} strokeWidth={width} strokeDasharray={dash.join(' ')} />
    </svg>
  );
}

function Glyph({ kind }: { kind: 'down' | 'x' | 'ring' | 'bar' }) {
  return (
    <svg width="14" height="14" viewBox="-7 -7 14 14" aria-hidden="true" className="legend-swatch">
      {kind === 'down' && <path d="M-5,-4H5L0,4Z" fill="#777" stroke="#111" />}
      {kind === 'x' && <path d="M-5,-5L5,5M5,-5L-5,5" stroke="#111" strokeWidth="2" />}
      {kind === 'ring' && <circle r="3.5" fill="#fff" stroke="#777" strokeWidth="2" />}
    </svg>
  );
}

function WindowEventGlyph({ look }: { look: WindowEventLook }) {
  return (
    <svg width="14" height="14" viewBox="-7 -7 14 14" aria-hidden="true" className="legend-swatch">
      <path
        d={windowEventPath(look, 4.5)}
        fill={look.filled ? '#777' : '#fff'}
        stroke={look.filled ? '#111' : '#555'}
        strokeWidth={look.filled ? 1 : 1.8}
      />
    </svg>
  );
}

/** A write of the write timeline: sojourn bar, then the delivery line. */
function WriteSwatch() {
  return (
    <svg width="46" height="12" aria-hidden="true" className="legend-swatch">
      <rect
        x="1.5"
        y={6 - SOJOURN_WIDTH / 2}
        width="19"
        height={SOJOURN_WIDTH}
        fill="#333"
        fillOpacity="0.3"
        stroke="#333"
      />
      <line x1="20" y1="6" x2="45" y2="6" stroke="#333" strokeWidth={NETWORK_WIDTH} />
    </svg>
  );
}

/** A competition's flows, each with a box that shows or hides it in every plot (at least
 *  one stays shown); `hide=` in the link. */
function FlowLegend() {
  const { store } = useApp();
  const scenario = useAppState((s) => s.scenario);
  const hidden = useAppState((s) => s.hidden);
  const count = flowsOf(scenario).length;
  const st = store.getState();
  return (
    <div className="legend-flows">
      <ul className="legend-row legend-flow-list" aria-label="Flows (untick to hide one from the plots)">
        {Array.from({ length: count }, (_, i) => {
          const shown = !hidden.includes(i);
          const last = shown && hidden.length >= count - 1;
          return (
            <li key={i} className={shown ? undefined : 'legend-hidden'}>
              <label>
                <input
                  type="checkbox"
                  checked={shown}
                  aria-disabled={last || undefined}
                  onChange={() => {
                    if (!last) st.toggleHidden(i);
                  }}
                />
                <AlgorithmSwatch
                  algorithm={flowAlgorithm(scenario, i)}
                  style={flowStyle(i)}
                  width={40}
                  className="legend-swatch"
                />
                {flowLabel(scenario, i)}
              </label>
            </li>
          );
        })}
      </ul>
      {hidden.length > 0 && (
        <button type="button" className="link-button" onClick={() => st.setHidden([])}>
          Show all {count} flows ({hidden.length} hidden)
        </button>
      )}
    </div>
  );
}

/** Below this width the legend starts collapsed (the one-column layout). */

/** The legend above the plots. */
export function Legend() {
  const algorithms = useAppState(useShallow((s) => s.algorithms));
  const compete = useAppState((s) => s.mode === 'compete');
  const layout = useAppState((s) => s.layout);
  const validation = useAppState(selectWindowValidation);
  const sack = useAppState(selectSack);
  const writes = useAppState((s) => s.plots.includes('writes'));
  const rtt = useAppState((s) => s.plots.includes('rtt'));
  const bbr = useAppState(selectBbr);
  const bbrPlot = useAppState((s) => s.plots.includes('bbr'));
  // Open where there is room; a phone starts with the plots (one tap opens it).
  const [open, setOpen] = useState(() => !narrowLayout());
  const newCwv = useAppState(selectNewCwv);
  const strip = Object.values(WINDOW_EVENT_MARKS).filter((look) => look.onStrip);
  const series = Object.entries(SERIES_STYLES).filter(
    ([k]) =>
      (validation || !(VALIDATION_SERIES as readonly string[]).includes(k)) &&
      (newCwv || !(NEW_CWV_SERIES as readonly string[]).includes(k)),
  );
  return (
    <details className="legend" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>
        {compete ? 'Legend: flows (show or hide), lines, phases and marks' : 'Legend: lines, phases and marks'}
      </summary>
      {compete ? (
        <FlowLegend />
      ) : (
        <ul className="legend-row" aria-label="Algorithms">
          {algorithms.map((a) => (
            <li key={a}>
              <AlgorithmSwatch algorithm={a} width={46} className="legend-swatch" />
              {algorithmLabel(a)}
            </li>
          ))}
          {layout === 'overlay' && <li className="legend-note">(overlaid: colour, dash and marker per algorithm)</li>}
        </ul>
      )}
      <ul className="legend-row" aria-label="Window series">
        {series.map(([k, st]) => (
          <li key={k}>
            <Line color={`rgba(40,40,40,${st.alpha})`} dash={st.dash} width={st.width + 0.5} />
            <Term name={k}>{st.label}</Term>
          </li>
        ))}
        {bbr && (
          <li>
            <Line color="#333" dash={BBR_LINES.bdp.dash} width={BBR_LINES.bdp.width + 0.5} />
            {BBR_LINES.bdp.label}
          </li>
        )}
      </ul>
      <ul className="legend-row" aria-label="Phases">
        {PHASES.filter((p) => bbr || p.bbr !== true).map((p) => (
          <li key={p.name}>
            <span className={`phase-swatch hatch-${p.hatch}`} style={{ backgroundColor: p.fill }} aria-hidden="true">
              {p.short}
            </span>
            <Term name={p.label}>{p.label}</Term>
          </li>
        ))}
      </ul>
      <ul className="legend-row" aria-label="Marks">
        {Object.entries(EVENT_MARKS).map(([k, m]) => (
          <li key={k}>
            <Glyph kind={m.glyph} />
            <Term name={k}>{m.label}</Term>
          </li>
        ))}
        <li>
          <b className="legend-r" aria-hidden="true">
            R
          </b>
          retransmission
        </li>
        <li>
          <b className="legend-x" aria-hidden="true">
            ✕
          </b>
          drop
        </li>
      </ul>
      <DisciplineLegend />
      {sack && (
        <ul className="legend-row" aria-label="SACK marks">
          {([SACK_LOOK.sack_block, SACK_LOOK.dsack] as const).map((look) => (
            <li key={look.term}>
              <svg width="10" height="14" aria-hidden="true" className="legend-swatch">
                <line x1="5" y1="1" x2="5" y2="13" stroke={look.color} strokeWidth="2.5" />
              </svg>
              <Term term={look.term}>{look.label}</Term>
            </li>
          ))}
          {([SACK_LOOK.marked_lost, SACK_LOOK.tail_loss_probe] as const).map((look) => (
            <li key={look.glyph}>
              <b className="legend-r" style={{ color: look.color }} aria-hidden="true">
                {look.glyph}
              </b>
              <Term term={look.term}>{look.label}</Term>
            </li>
          ))}
        </ul>
      )}
      {rtt && (
        <ul className="legend-row" aria-label="Round-trip time">
          <li>
            <svg width="14" height="12" aria-hidden="true" className="legend-swatch">
              <circle cx="7" cy="6" r="2.5" fill="#555" />
            </svg>
            RTT sample (Karn-valid)
          </li>
          <li>
            <Line color="#333" dash={[]} width={2} />
            SRTT
          </li>
          <li>
            <Line color="#333" dash={RTO_DASH} width={1.5} />
            retransmission timeout (RTO)
          </li>
          <li>
            <b className="legend-r" aria-hidden="true">
              S
            </b>
            spurious retransmission (an earlier copy had arrived)
          </li>
        </ul>
      )}
      {bbr && bbrPlot && (
        <ul className="legend-row" aria-label="BBR's model">
          <li>
            <Line color="#333" dash={BBR_LINES.btlBw.dash} width={BBR_LINES.btlBw.width + 0.5} />
            {BBR_LINES.btlBw.label}
          </li>
          <li>
            <Line color="#333" dash={BBR_LINES.pacing.dash} width={BBR_LINES.pacing.width + 0.5} />
            {BBR_LINES.pacing.label} (gain × BtlBw)
          </li>
          <li>
            <Line color="#555" dash={BOTTLENECK_DASH} width={1.5} />
            the bottleneck’s rate
          </li>
        </ul>
      )}
      {writes && (
        <ul className="legend-row" aria-label="Writes">
          <li>
            <WriteSwatch />
            write timeline: each write at the height of its latency, from when it was written through its sojourn in the
            send buffer (bar) and its time in the network until delivered in order (line); a tick starts a write sent at
            once
          </li>
        </ul>
      )}
      {validation && (
        <ul className="legend-row" aria-label="Window validation marks">
          {Object.entries(WINDOW_EVENT_MARKS)
            .filter(([, look]) => !look.onStrip && (newCwv || !look.newCwv))
            .map(([k, look]) => (
              <li key={k}>
                <WindowEventGlyph look={look} />
                {look.label}
              </li>
            ))}
          {newCwv && (
            <li>
              {strip[0] && <WindowEventGlyph look={strip[0]} />}
              <span className="nvp-swatch" aria-hidden="true" />
              {strip[1] && <WindowEventGlyph look={strip[1]} />}
              non-validated phase (new CWV), begins … ends
            </li>
          )}
        </ul>
      )}
    </details>
  );
}
