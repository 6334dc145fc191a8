// The plots of the page: each visible kind, either overlaid (one plot, every algorithm) or
// as small multiples (one plot per algorithm, sharing the time window and the y range).
import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useAppState } from '../app/AppContext';
import { formatDuration } from '../lib/format';
import { algorithmLabel, type AlgorithmName } from '../scenario/algorithms';
import type { PlotId } from '../scenario/shareState';
import type { PlotDef } from './core/types';
import type { PlotSpec } from './core/PlotController';
import { TimePlot } from './core/TimePlot';
import { queuePlot } from './queuePlot';
import { seqPlot } from './seqPlot';
import { THROUGHPUT_COLUMN_SHORT, throughputPlot, wantedBinWidth } from './throughputPlot';
import { ThinPlots } from './ThinPlots';
import { windowPlot } from './windowPlot';
import { writesPlot } from './writesPlot';

/** The plots on the shared time axis. */
type TimePlotId = Exclude<PlotId, 'thin'>;

/** Every plot kind, in one place: the time plots by definition; `thin` is the group of
 *  thin-stream CDF panels (ThinPlots), whose x axis is a value. */
const KINDS: Record<TimePlotId, { def: PlotDef; title: string; name: string; size: 'tall' | 'medium' | 'short' }> = {
  window: { def: windowPlot, title: 'Congestion window', name: 'congestion window', size: 'tall' },
  seq: { def: seqPlot, title: 'Time–sequence', name: 'time–sequence', size: 'tall' },
  queue: { def: queuePlot, title: 'Bottleneck queue', name: 'queue', size: 'short' },
  throughput: { def: throughputPlot, title: 'Throughput', name: 'throughput', size: 'medium' },
  writes: { def: writesPlot, title: 'Writes', name: 'write timeline', size: 'medium' },
};

/** The throughput plot says per what bin and what it counts ("1 s bins, delivered"). */
function useThroughputTitle(): string {
  const column = useAppState((s) => s.throughputColumn);
  const width = useAppState((s) =>
    wantedBinWidth({
      scenario: s.scenario,
      series: s.series,
      overlay: false,
      pxTime: 0,
      throughputBin: s.throughputBin,
      throughputColumn: s.throughputColumn,
    }),
  );
  return `${formatDuration(width)} bins, ${THROUGHPUT_COLUMN_SHORT[column]}`;
}

function PlotFor({ kind, keys, all }: { kind: TimePlotId; keys: AlgorithmName[]; all: AlgorithmName[] }) {
  const k = KINDS[kind];
  const keysText = keys.join(',');
  const allText = all.join(',');
  const spec = useMemo<PlotSpec>(
    () => ({
      def: k.def,
      keys: keysText.split(','),
      extentKeys: allText.split(','),
      name: k.name,
    }),
    [k, keysText, allText],
  );
  const who = keys.length === 1 ? ` — ${algorithmLabel(keys[0] ?? '')}` : '';
  const detail = useThroughputTitle();
  return (
    <TimePlot
      id={`${kind}-${keys.join('-')}`}
      title={`${k.title}${who} (${k.def.yLabel}${kind === 'throughput' ? `, ${detail}` : ''})`}
      spec={spec}
      size={keys.length > 1 ? k.size : k.size === 'tall' ? 'medium' : 'short'}
    />
  );
}

/** Every visible plot. */
export function PlotStack() {
  const algorithms = useAppState(useShallow((s) => s.algorithms));
  const plots = useAppState(useShallow((s) => s.plots));
  const layout = useAppState((s) => s.layout);
  if (plots.length === 0) {
    return <p className="empty-plots">No plot is shown. Tick a plot under “View” to see it.</p>;
  }
  return (
    <div className="plot-stack">
      {plots.map((kind) =>
        kind === 'thin' ? (
          <ThinPlots key={kind} keys={algorithms} />
        ) : layout === 'overlay' || algorithms.length === 1 ? (
          <section key={kind} className="plot-group" aria-label={KINDS[kind].title}>
            <PlotFor kind={kind} keys={algorithms} all={algorithms} />
          </section>
        ) : (
          <section
            key={kind}
            className="plot-group multiples"
            aria-label={`${KINDS[kind].title}, one plot per algorithm`}
          >
            {algorithms.map((a) => (
              <PlotFor key={a} kind={kind} keys={[a]} all={algorithms} />
            ))}
          </section>
        ),
      )}
    </div>
  );
}
