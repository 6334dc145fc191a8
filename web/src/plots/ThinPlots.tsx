// The thin-stream CDFs: four small panels (payload, ITT, sojourn, latency), each with every
// compared algorithm on it, whatever the layout (a CDF is read by comparing the lines). A
// caption says what the samples are: the whole run, or the zoomed time window. A switch sets
// the panels' x axis, linear or logarithmic (in the link as cdfx=).
import { useId, useMemo } from 'react';
import { useApp, useAppState } from '../app/AppContext';
import type { AlgorithmName } from '../scenario/algorithms';
import { CDF_SCALES, type CdfScale } from '../scenario/shareState';
import { CdfController, type CdfSpec } from './core/CdfController';
import { PanelFigure } from './core/PanelFigure';
import { CDF_KINDS, LOG_DECADES, MARKED_PERCENTILES, windowText } from './cdfPlot';
import { THIN_KINDS, type ThinKind } from './thinSamples';

function CdfFigure({ kind, keys }: { kind: ThinKind; keys: AlgorithmName[] }) {
  const keysText = keys.join(',');
  const spec = useMemo<CdfSpec>(() => ({ kind, keys: keysText.split(',') }), [kind, keysText]);
  const k = CDF_KINDS[kind];
  const title = `${k.title} (${k.unit})`;
  return (
    <PanelFigure
      controller={CdfController}
      spec={spec}
      className="plot cdf-plot"
      plot={`thin-${kind}`}
      heading="h4"
      title={title}
      bodyClass="plot-cdf"
      canvasLabel={`CDF: ${title}`}
      hitLabel={`${title} CDF: value cursor`}
      helpId={`cdf-${kind}-help`}
    >
      Left and right arrows move a value cursor (Shift for bigger steps), Home and End go to the ends of the axis,
      Escape clears it; the readout gives each algorithm&apos;s share of {k.items} at or below the value.
    </PanelFigure>
  );
}

const SCALE_LABEL: Record<CdfScale, string> = { linear: 'Linear', log: 'Logarithmic' };

/** Linear or logarithmic x axes for the four panels. */
function ScaleSwitch() {
  const { store } = useApp();
  const scale = useAppState((s) => s.cdfScale);
  const name = useId();
  return (
    <fieldset className="cdf-scale">
      <legend>x axis</legend>
      {CDF_SCALES.map((c) => (
        <label key={c}>
          <input type="radio" name={name} checked={scale === c} onChange={() => store.getState().setCdfScale(c)} />
          {SCALE_LABEL[c]}
        </label>
      ))}
    </fieldset>
  );
}

/** The four CDF panels of the compared runs, with their caption. */
export function ThinPlots({ keys }: { keys: AlgorithmName[] }) {
  const xDomain = useAppState((s) => s.xDomain);
  // While playing, the samples are those of the run so far.
  const live = useAppState((s) => s.live);
  const log = useAppState((s) => s.cdfScale === 'log');
  const marks = MARKED_PERCENTILES.map((p) => `${p}th`).join(' and ');
  return (
    <section className="plot-group thin-plots" aria-labelledby="thin-plots-h">
      <div className="thin-head">
        <h3 id="thin-plots-h" className="plot-title">
          Thin stream: CDFs
        </h3>
        <ScaleSwitch />
      </div>
      <p className="thin-caption">
        The share of data packets (payload, ITT) or of delivered writes (sojourn, latency) at or below each value, exact
        (every sample), one line per algorithm, markers at the {marks} percentiles;{' '}
        {xDomain || !live ? windowText(xDomain) : 'over the run so far, while it plays'}.
        {xDomain ? ' Double-click a time plot (or press 0 on it) to take the whole run.' : ''}
        {log
          ? ` Logarithmic x axes: from the decade below a panel’s smallest value above 0 (at most ${LOG_DECADES} ` +
            'decades below the end) to just past its largest value; 0, and anything below the start, is drawn at the axis ' +
            'start, where the line rises by its share.'
          : ''}
      </p>
      <div className="cdf-grid">
        {THIN_KINDS.map((kind) => (
          <CdfFigure key={kind} kind={kind} keys={keys} />
        ))}
      </div>
    </section>
  );
}
