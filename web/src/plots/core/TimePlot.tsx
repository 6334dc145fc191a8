// A plot on the shared time axis: the figure (PanelFigure.tsx) with a PlotController.
import { PanelFigure } from './PanelFigure';
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
  return (
    <PanelFigure
      controller={PlotController}
      spec={spec}
      className="plot"
      plot={id}
      heading="h3"
      title={title}
      bodyClass={`plot-${size}`}
      canvasLabel={title}
      hitLabel={`${title}: cursor and zoom`}
      helpId={`${id}-help`}
    >
      Left and right arrows move the time cursor (Shift for bigger steps), ] and [ move it to the next or previous
      marked event, plus and minus zoom, 0 shows the whole run, Escape clears the cursor. With a mouse: drag to pan,
      Ctrl and wheel to zoom, double-click to reset.
    </PanelFigure>
  );
}
