// The React half of a plot: renders the elements and hands them to a PlotController,
// created in an effect and disposed in its cleanup (so StrictMode's double effects leave
// exactly one controller bound to the live nodes).
import { useEffect, useRef } from 'react';
import { useApp } from '../../app/AppContext';
import { PlotController, type PlotSpec } from './PlotController';

interface Props {
  id: string;
  title: string;
  spec: PlotSpec;
  /** CSS height class: tall | medium | short. */
  size: 'tall' | 'medium' | 'short';
}

/** A time plot: title, cursor readout, canvas with SVG axes, keyboard- and pointer-driven. */
export function TimePlot({ id, title, spec, size }: Props) {
  const { store, traces } = useApp();
  const root = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const svg = useRef<SVGSVGElement>(null);
  const hit = useRef<HTMLDivElement>(null);
  const cursor = useRef<HTMLDivElement>(null);
  const readout = useRef<HTMLDivElement>(null);
  const controller = useRef<PlotController | null>(null);
  const specRef = useRef(spec);
  specRef.current = spec;

  useEffect(() => {
    if (!root.current || !canvas.current || !svg.current || !hit.current || !cursor.current || !readout.current) return;
    const c = new PlotController(
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

  const helpId = `${id}-help`;
  return (
    <figure className="plot" data-plot={id}>
      <figcaption className="plot-head">
        <h3 className="plot-title">{title}</h3>
        <div className="readout" ref={readout} aria-live="off" />
      </figcaption>
      <div className={`plot-body plot-${size}`} ref={root}>
        <canvas ref={canvas} role="img" aria-label={title} />
        <svg ref={svg} className="plot-axes" aria-hidden="true">
          <g className="x-axis" />
          <g className="y-axis" />
        </svg>
        <div
          ref={hit}
          className="plot-hit"
          tabIndex={0}
          role="group"
          aria-label={`${title}: cursor and zoom`}
          aria-describedby={helpId}
        >
          <div ref={cursor} className="cursor-line" />
        </div>
        <p id={helpId} className="visually-hidden">
          Left and right arrows move the time cursor (Shift for bigger steps), ] and [ move it to the next or previous
          marked event, plus and minus zoom, 0 shows the whole run, Escape clears the cursor. With a mouse: drag to pan,
          Ctrl and wheel to zoom, double-click to reset.
        </p>
      </div>
    </figure>
  );
}
