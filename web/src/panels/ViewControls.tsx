// What the plots show: layout, which plots, which window series.
import { useShallow } from 'zustand/react/shallow';
import { useApp, useAppState } from '../app/AppContext';
import { LAYOUTS, PLOT_IDS, type Layout, type PlotId } from '../scenario/shareState';
import { NEW_CWV_SERIES, SERIES_STYLES, VALIDATION_SERIES } from '../lib/styles';
import { selectNewCwv, selectWindowValidation } from '../state/selectors';
import type { SeriesVisibility } from '../state/types';

const LAYOUT_LABEL: Record<Layout, string> = { multiples: 'One plot per algorithm', overlay: 'Overlay' };
const PLOT_LABEL: Record<PlotId, string> = { window: 'Window', seq: 'Time–sequence', queue: 'Queue' };

/** The view options above the plots. */
export function ViewControls() {
  const { store } = useApp();
  const layout = useAppState((s) => s.layout);
  const plots = useAppState(useShallow((s) => s.plots));
  const series = useAppState((s) => s.series);
  // W_used only exists for runs with an idle policy, pipeACK for new CWV runs.
  const validation = useAppState(selectWindowValidation);
  const newCwv = useAppState(selectNewCwv);
  const lines = (Object.keys(SERIES_STYLES) as (keyof SeriesVisibility)[]).filter(
    (k) =>
      (validation || !(VALIDATION_SERIES as readonly string[]).includes(k)) &&
      (newCwv || !(NEW_CWV_SERIES as readonly string[]).includes(k)),
  );
  const st = store.getState();
  return (
    <div className="view-controls">
      <fieldset>
        <legend>Layout</legend>
        {LAYOUTS.map((l) => (
          <label key={l}>
            <input type="radio" name="layout" checked={layout === l} onChange={() => st.setLayout(l)} />
            {LAYOUT_LABEL[l]}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Plots</legend>
        {PLOT_IDS.map((p) => (
          <label key={p}>
            <input type="checkbox" checked={plots.includes(p)} onChange={() => st.togglePlot(p)} />
            {PLOT_LABEL[p]}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Window lines</legend>
        {lines.map((k) => (
          <label key={k}>
            <input type="checkbox" checked={series[k]} onChange={() => st.toggleSeries(k)} />
            {SERIES_STYLES[k].label}
          </label>
        ))}
      </fieldset>
    </div>
  );
}
