// The rounds view on the page: one panel of every run (overlay) or one per run (small
// multiples, sharing the rounds shown and the y range), like the window plot in either mode;
// under it the engine's definition of a round, in its own words, and the runs whose rounds
// the engine could not give (and why).
import { useEffect, useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useApp, useAppState } from '../app/AppContext';
import type { AlgorithmName } from '../scenario/algorithms';
import { runLabel } from '../scenario/competition';
import { PanelFigure } from './core/PanelFigure';
import { RoundsController, type RoundsSpec } from './core/RoundsController';
import { ROUNDS_KIND } from './registry';
import { unitText } from './roundsPlot';
import { TextbookControl } from '../textbook/TextbookControl';

function RoundsFigure({
  keys,
  all,
  id,
  single,
}: {
  keys: AlgorithmName[];
  all: AlgorithmName[];
  id: string;
  single: boolean;
}) {
  const keysText = keys.join(',');
  const allText = all.join(',');
  const spec = useMemo<RoundsSpec>(
    () => ({ keys: keysText.split(','), extentKeys: allText.split(',') }),
    [keysText, allText],
  );
  const label = useAppState((s) => (single ? runLabel(s.scenario, keys[0] ?? '') : ''));
  const unit = useAppState((s) => s.unit);
  const title = `${ROUNDS_KIND.title}${single ? ` — ${label}` : ''} (${unitText(unit)})`;
  return (
    <PanelFigure
      controller={RoundsController}
      spec={spec}
      className="plot rounds-plot"
      plot={id}
      heading="h3"
      title={title}
      bodyClass={single ? 'plot-medium' : 'plot-tall'}
      canvasLabel={title}
      hitLabel={`${title}: rounds on the time cursor`}
      helpId={`${id}-help`}
    >
      Hovering a round moves the time cursor to the start of that round; a click pins it there. Left and right arrows
      move the cursor to the previous or next round (Shift: ten rounds), Home and End to the first and last, 0 shows
      every round, Escape clears the cursor. The round containing the cursor is highlighted in every plot of rounds.
    </PanelFigure>
  );
}

/** The engine's definition of a round and the runs without rounds, from the traces. */
function useRoundsNotes(keys: readonly AlgorithmName[]): { definition: string; missing: string[] } {
  const { traces } = useApp();
  // Redrawn with new results (`drawn`): the rounds travel with a run's chunks.
  const drawn = useAppState((s) => s.drawn);
  const labels = useAppState(useShallow((s) => keys.map((k) => runLabel(s.scenario, k))));
  return useMemo(() => {
    void drawn;
    let definition = '';
    const missing: string[] = [];
    keys.forEach((k, i) => {
      const r = traces.get(k)?.rounds;
      if (r && definition === '') definition = r.definition;
      if (r?.unavailable !== undefined) missing.push(`${labels[i] ?? k}: ${r.unavailable}`);
    });
    return { definition, missing };
  }, [traces, keys, labels, drawn]);
}

/** The rounds view of the runs `keys`, in the page's layout. */
export function RoundsPlots({ keys, overlay }: { keys: AlgorithmName[]; overlay: boolean }) {
  const { definition, missing } = useRoundsNotes(keys);
  // Runs made while the view was hidden have no rounds (the worker reads them only for a
  // shown rounds view): shown now, it asks for them.
  const { controller } = useApp();
  useEffect(() => controller.loadRounds(), [controller, keys]);
  const together = overlay || keys.length === 1;
  return (
    <section
      className={together ? 'plot-group rounds-group' : 'plot-group multiples rounds-group'}
      aria-label={ROUNDS_KIND.title}
    >
      {together ? (
        <RoundsFigure keys={keys} all={keys} id={`rounds-${keys.join('-')}`} single={keys.length === 1} />
      ) : (
        keys.map((k) => <RoundsFigure key={k} keys={[k]} all={keys} id={`rounds-${k}`} single />)
      )}
      <TextbookControl />
      {definition !== '' && (
        <p className="plot-note rounds-definition">
          <b>A round:</b> {definition}
        </p>
      )}
      {missing.length > 0 && (
        <p className="plot-note rounds-unavailable" role="note">
          No rounds for {missing.join('; ')}.
        </p>
      )}
    </section>
  );
}
