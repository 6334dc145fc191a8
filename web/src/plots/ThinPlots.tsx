// The thin-stream CDFs: four small panels (payload, ITT, sojourn, latency), each with every
// compared algorithm on it, whatever the layout (a CDF is read by comparing the lines). A
// caption says what the samples are: the whole run, or the zoomed time window.
import { useEffect, useMemo, useRef } from 'react';
import { useApp, useAppState } from '../app/AppContext';
import type { AlgorithmName } from '../scenario/algorithms';
import { CdfController, type CdfSpec } from './core/CdfController';
import { CDF_KINDS, MARKED_PERCENTILES, windowText } from './cdfPlot';
import { THIN_KINDS, type ThinKind } from './thinSamples';

function CdfFigure({ kind, keys }: { kind: ThinKind; keys: AlgorithmName[] }) {
  const { store, traces } = useApp();
  const root = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const svg = useRef<SVGSVGElement>(null);
  const hit = useRef<HTMLDivElement>(null);
  const cursor = useRef<HTMLDivElement>(null);
  const readout = useRef<HTMLDivElement>(null);
  const controller = useRef<CdfController | null>(null);
  const keysText = keys.join(',');
  const spec = useMemo<CdfSpec>(() => ({ kind, keys: keysText.split(',') }), [kind, keysText]);
  const specRef = useRef(spec);
  specRef.current = spec;

  useEffect(() => {
    if (!root.current || !canvas.current || !svg.current || !hit.current || !cursor.current || !readout.current) return;
    const c = new CdfController(
      {
        root: root.current,
        canvas: canvas.current,
        svg: svg.current,
        hit: hit.current,
        cursor: cursor.current,
        readout: readout.current,
      },
      specRef.current,
      store,
      traces,
    );
    controller.current = c;
    return () => {
      c.dispose();
      controller.current = null;
    };
  }, [store, traces]);

  useEffect(() => {
    controller.current?.setSpec(spec);
  }, [spec]);

  const k = CDF_KINDS[kind];
  const title = `${k.title} (${k.unit})`;
  const helpId = `cdf-${kind}-help`;
  return (
    <figure className="plot cdf-plot" data-plot={`thin-${kind}`}>
      <figcaption className="plot-head">
        <h4 className="plot-title">{title}</h4>
        <div className="readout" ref={readout} aria-live="off" />
      </figcaption>
      <div className="plot-body plot-cdf" ref={root}>
        <canvas ref={canvas} role="img" aria-label={`CDF: ${title}`} />
        <svg ref={svg} className="plot-axes" aria-hidden="true">
          <g className="x-axis" />
          <g className="y-axis" />
        </svg>
        <div
          ref={hit}
          className="plot-hit"
          tabIndex={0}
          role="group"
          aria-label={`${title} CDF: value cursor`}
          aria-describedby={helpId}
        >
          <div ref={cursor} className="cursor-line" />
        </div>
        <p id={helpId} className="visually-hidden">
          Left and right arrows move a value cursor (Shift for bigger steps), Home and End go to the ends of the axis,
          Escape clears it; the readout gives each algorithm&apos;s share of {k.items} at or below the value.
        </p>
      </div>
    </figure>
  );
}

/** The four CDF panels of the compared runs, with their caption. */
export function ThinPlots({ keys }: { keys: AlgorithmName[] }) {
  const xDomain = useAppState((s) => s.xDomain);
  // While playing, the samples are those of the run so far.
  const live = useAppState((s) => s.live);
  const marks = MARKED_PERCENTILES.map((p) => `${p}th`).join(' and ');
  return (
    <section className="plot-group thin-plots" aria-labelledby="thin-plots-h">
      <h3 id="thin-plots-h" className="plot-title">
        Thin stream: CDFs
      </h3>
      <p className="thin-caption">
        The share of data packets (payload, ITT) or of delivered writes (sojourn, latency) at or below each value, exact
        (every sample), one line per algorithm, markers at the {marks} percentiles;{' '}
        {xDomain || !live ? windowText(xDomain) : 'over the run so far, while it plays'}.
        {xDomain ? ' Double-click a time plot (or press 0 on it) to take the whole run.' : ''}
      </p>
      <div className="cdf-grid">
        {THIN_KINDS.map((kind) => (
          <CdfFigure key={kind} kind={kind} keys={keys} />
        ))}
      </div>
    </section>
  );
}
