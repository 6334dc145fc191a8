// The React half of a plot or CDF panel: renders the elements and hands them to its
// controller (PlotController, CdfController), created in an effect and disposed in its
// cleanup (so StrictMode's double effects leave exactly one controller bound to the live
// nodes). Spec changes reach the live controller without recreating it.
import { useEffect, useRef, type ReactNode } from 'react';
import { useApp } from '../../app/AppContext';
import type { TraceStore } from '../../engine/traceStore';
import type { AppStore } from '../../state/store';
import type { PlotElements } from './panel';

/** What the figure needs of its controller. */
interface PanelController<Spec> {
  setSpec(spec: Spec): void;
  dispose(): void;
}

interface Props<Spec> {
  /** The controller's class (constructed once the elements exist). */
  controller: new (els: PlotElements, spec: Spec, store: AppStore, traces: TraceStore) => PanelController<Spec>;
  spec: Spec;
  /** The figure's class and data-plot attribute. */
  className: string;
  plot: string;
  heading: 'h3' | 'h4';
  title: string;
  /** The plot body's size class (plot-tall, plot-cdf, …). */
  bodyClass: string;
  /** Names of the canvas (until the controller describes what it drew) and of the hit area. */
  canvasLabel: string;
  hitLabel: string;
  helpId: string;
  /** The keyboard and pointer help, for screen readers. */
  children: ReactNode;
}

/** A figure: title, cursor readout, canvas with SVG axes, keyboard- and pointer-driven. */
export function PanelFigure<Spec>({
  controller: Controller,
  spec,
  className,
  plot,
  heading: Heading,
  title,
  bodyClass,
  canvasLabel,
  hitLabel,
  helpId,
  children,
}: Props<Spec>) {
  const { store, traces } = useApp();
  const root = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const svg = useRef<SVGSVGElement>(null);
  const hit = useRef<HTMLDivElement>(null);
  const cursor = useRef<HTMLDivElement>(null);
  const readout = useRef<HTMLDivElement>(null);
  const live = useRef<PanelController<Spec> | null>(null);
  const specRef = useRef(spec);
  specRef.current = spec;

  useEffect(() => {
    if (!root.current || !canvas.current || !svg.current || !hit.current || !cursor.current || !readout.current) return;
    const c = new Controller(
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
    live.current = c;
    return () => {
      c.dispose();
      live.current = null;
    };
  }, [Controller, store, traces]);

  useEffect(() => {
    live.current?.setSpec(spec);
  }, [spec]);

  return (
    <figure className={className} data-plot={plot}>
      <figcaption className="plot-head">
        <Heading className="plot-title">{title}</Heading>
        <div className="readout" ref={readout} aria-live="off" />
      </figcaption>
      <div className={`plot-body ${bodyClass}`} ref={root}>
        <canvas ref={canvas} role="img" aria-label={canvasLabel} />
        <svg ref={svg} className="plot-axes" aria-hidden="true">
          <g className="x-axis" />
          <g className="y-axis" />
        </svg>
        <div ref={hit} className="plot-hit" tabIndex={0} role="group" aria-label={hitLabel} aria-describedby={helpId}>
          <div ref={cursor} className="cursor-line" />
        </div>
        <p id={helpId} className="visually-hidden">
          {children}
        </p>
      </div>
    </figure>
  );
}
