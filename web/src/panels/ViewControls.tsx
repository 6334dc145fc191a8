// What the plots show: layout, which plots, which window series, and how the throughput
// plot bins and what it counts.
import { useShallow } from 'zustand/react/shallow';
import { useApp, useAppState } from '../app/AppContext';
import { useNarrow } from '../app/layout';
import { formatDuration } from '../lib/format';
import { TheoryToggle } from '../theory/TheoryNote';
import { THROUGHPUT_COLUMN_TEXT } from '../plots/throughputPlot';
import { autoBinWidth, binChoices } from '../plots/throughputBins';
import { durationOf, getAt } from '../scenario/paths';
import {
  COMPETITION_PLOTS,
  LAYOUTS,
  PLOT_IDS,
  THROUGHPUT_COLUMNS,
  type Layout,
  type PlotId,
  type ThroughputColumn,
} from '../scenario/shareState';
import { NEW_CWV_SERIES, SERIES_STYLES, VALIDATION_SERIES } from '../lib/styles';
import { selectNewCwv, selectWindowValidation } from '../state/selectors';
import type { SeriesVisibility } from '../state/types';
import { unitEntry, unitLabel, WINDOW_UNITS } from '../lib/units';

const LAYOUT_LABEL: Record<Layout, string> = { multiples: 'One plot per algorithm', overlay: 'Overlay' };
/** In a competition the runs are flows. */
const COMPETE_LAYOUT_LABEL: Record<Layout, string> = { multiples: 'One plot per flow', overlay: 'Every flow in one' };
const PLOT_LABEL: Record<PlotId, string> = {
  window: 'Window',
  seq: 'Time–sequence',
  queue: 'Queue',
  qdelay: 'Queueing delay',
  throughput: 'Throughput',
  share: 'Share of the bottleneck',
  fairness: 'Fairness (Jain)',
  retx: 'Retransmitted fraction',
  rtt: 'RTT and RTO',
  writes: 'Writes (timeline)',
  thin: 'Thin-stream CDFs',
  bbr: 'BBR’s model (BtlBw, pacing)',
  rounds: 'Rounds (cwnd per round)',
  transfers: 'Transfers (completion times, ping)',
};

/** The throughput plot's bin width (whole engine bins) and what it counts. */
function ThroughputOptions() {
  const { store } = useApp();
  const chosen = useAppState((s) => s.throughputBin);
  const column = useAppState((s) => s.throughputColumn);
  const base = useAppState((s) => {
    const b = getAt(s.scenario, 'trace.throughput_bin');
    return typeof b === 'number' && b > 0 ? b : 0;
  });
  const duration = useAppState((s) => durationOf(s.scenario, 1));
  if (!(base > 0)) return null;
  const choices = binChoices(base);
  // A width from a link that is not one of the choices is still shown (and kept).
  if (chosen !== null && !choices.includes(chosen)) choices.push(chosen);
  choices.sort((a, b) => a - b);
  const st = store.getState();
  return (
    <fieldset className="throughput-options">
      <legend>Throughput plot</legend>
      <label>
        Bin width
        <select
          value={chosen === null ? 'auto' : String(chosen)}
          onChange={(e) => st.setThroughputBin(e.target.value === 'auto' ? null : Number(e.target.value))}
        >
          <option value="auto">Automatic ({formatDuration(autoBinWidth(duration, base))})</option>
          {choices.map((w) => (
            <option key={w} value={String(w)}>
              {formatDuration(w)}
              {w === base ? ' (the engine’s bin)' : ''}
            </option>
          ))}
        </select>
      </label>
      <label>
        Bytes counted
        <select value={column} onChange={(e) => st.setThroughputColumn(e.target.value as ThroughputColumn)}>
          {THROUGHPUT_COLUMNS.map((c) => (
            <option key={c} value={c}>
              {THROUGHPUT_COLUMN_TEXT[c]}
            </option>
          ))}
        </select>
      </label>
      <TheoryToggle />
    </fieldset>
  );
}

/** The one unit of every window and byte count on the page (`unit=`): the plots, their
 *  readouts, the Why card, practice, the rounds view and the sheets follow it. The units
 *  and their descriptions are the engine's. */
function UnitChoice() {
  const { store } = useApp();
  const unit = useAppState((s) => s.unit);
  return (
    <fieldset className="unit-choice">
      <legend>Windows in</legend>
      {WINDOW_UNITS.map((u) => (
        <label key={u} title={unitEntry(u).description}>
          <input type="radio" name="unit" value={u} checked={unit === u} onChange={() => store.getState().setUnit(u)} />
          {unitLabel(u)}
        </label>
      ))}
    </fieldset>
  );
}

/** The view options above the plots. */
export function ViewControls() {
  const { store } = useApp();
  const layout = useAppState((s) => s.layout);
  const plots = useAppState(useShallow((s) => s.plots));
  const compete = useAppState((s) => s.mode === 'compete');
  const series = useAppState((s) => s.series);
  const unit = useAppState((s) => s.unit);
  const narrow = useNarrow();
  // W_used only exists for runs with an idle policy, pipeACK for new CWV runs.
  const validation = useAppState(selectWindowValidation);
  const newCwv = useAppState(selectNewCwv);
  const lines = (Object.keys(SERIES_STYLES) as (keyof SeriesVisibility)[]).filter(
    (k) =>
      (validation || !(VALIDATION_SERIES as readonly string[]).includes(k)) &&
      (newCwv || !(NEW_CWV_SERIES as readonly string[]).includes(k)),
  );
  const st = store.getState();
  const body = (
    <div className="view-controls">
      <fieldset>
        <legend>Layout</legend>
        {LAYOUTS.map((l) => (
          <label key={l}>
            <input type="radio" name="layout" checked={layout === l} onChange={() => st.setLayout(l)} />
            {(compete ? COMPETE_LAYOUT_LABEL : LAYOUT_LABEL)[l]}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Plots</legend>
        {PLOT_IDS.filter((p) => compete || !COMPETITION_PLOTS.includes(p)).map((p) => (
          <label key={p}>
            <input type="checkbox" checked={plots.includes(p)} onChange={() => st.togglePlot(p)} />
            {PLOT_LABEL[p]}
          </label>
        ))}
      </fieldset>
      <UnitChoice />
      <fieldset>
        <legend>Window lines</legend>
        {lines.map((k) => (
          <label key={k}>
            <input type="checkbox" checked={series[k]} onChange={() => st.toggleSeries(k)} />
            {SERIES_STYLES[k].label}
          </label>
        ))}
      </fieldset>
      {(plots.includes('throughput') ||
        (compete && plots.some((p) => COMPETITION_PLOTS.includes(p) && p !== 'fairness'))) && <ThroughputOptions />}
    </div>
  );
  if (!narrow) return body;
  // Phones: folded into one line, so the first plot is on the first screen.
  const shown = plots.length === 0 ? 'no plot' : `${plots.length} plot${plots.length === 1 ? '' : 's'}`;
  return (
    <details className="view-fold">
      <summary>
        View: {(compete ? COMPETE_LAYOUT_LABEL : LAYOUT_LABEL)[layout]} · {shown} · {unitLabel(unit)}
      </summary>
      {body}
    </details>
  );
}
