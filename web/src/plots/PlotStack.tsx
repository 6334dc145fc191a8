// The plots of the page: each visible kind, either overlaid (one plot, every algorithm) or
// as small multiples (one plot per algorithm, sharing the time window and the y range). In
// a competition the runs are the shown flows: the window, time–sequence and write plots
// follow the layout (one plot per flow, or every flow in one), the plots of the shared
// bottleneck (queue, throughput, share, fairness, retransmitted fraction) are one plot.
import { Fragment, useMemo, type ReactNode } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useAppState } from '../app/AppContext';
import { formatDuration } from '../lib/format';
import type { AlgorithmName } from '../scenario/algorithms';
import { flowIndexOf, runLabel } from '../scenario/competition';
import type { AppState } from '../state/types';
import { bbrKeys } from '../scenario/bbr';
import type { PlotSpec } from './core/PlotController';
import { TimePlot } from './core/TimePlot';
import { THROUGHPUT_COLUMN_SHORT, wantedBinWidth } from './throughputPlot';
import {
  ROUNDS_KIND,
  shownPlots,
  THIN_PLOTS_KIND,
  TIME_PLOTS as KINDS,
  plotUnit,
  TRANSFERS_KIND,
  type TimePlotId,
} from './registry';
import { lazyModule, useLazyModule, type LazyModule } from './core/lazyModule';
import { TheoryNote } from '../theory/TheoryNote';

// The thin-stream CDFs and the rounds view: loaded when first shown (core/lazyModule.ts).
const thinPlots = lazyModule(() => import('./ThinPlots').then((m) => m.ThinPlots));
const roundsPlots = lazyModule(() => import('./RoundsPlots').then((m) => m.RoundsPlots));
const transfersPlots = lazyModule(() => import('./TransfersPlots').then((m) => m.TransfersPlots));

/** Plots of the shared bottleneck: in a competition one plot of every shown flow, whatever
 *  the layout. */
const RUN_WIDE: ReadonlySet<TimePlotId> = new Set(['queue', 'qdelay', 'throughput', 'share', 'fairness', 'retx']);

/** The keys shown: every run, less the hidden flows of a competition (selects a string, so
 *  the component re-renders only when it changes). */
function shownKeysText(s: AppState): string {
  if (s.mode !== 'compete' || s.hidden.length === 0) return s.keys.join(',');
  return s.keys.filter((k) => !s.hidden.includes(flowIndexOf(k) ?? -1)).join(',');
}

/** The BBR runs among the page's runs (a string, like shownKeysText). */
function bbrKeysText(s: AppState): string {
  return bbrKeys(s.mode, s.algorithms, s.scenario).join(',');
}

/** The bins of the throughput plot (and of the competition plots): "1 s bins". */
function useBinWidthText(): string {
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
  return `${formatDuration(width)} bins`;
}

/** What a plot's title adds after its unit. */
function useDetail(kind: TimePlotId): string {
  const column = useAppState((s) => s.throughputColumn);
  const bins = useBinWidthText();
  switch (kind) {
    case 'throughput':
      return `, ${bins}, ${THROUGHPUT_COLUMN_SHORT[column]}`;
    case 'share':
      return ` capacity, ${bins}, stacked`;
    case 'fairness':
      return `, ${bins}, bytes delivered`;
    case 'retx':
      return `, ${bins}`;
    default:
      return '';
  }
}

/** A plot's place while its code loads (the same title and height, so nothing moves when
 *  it arrives), or why it could not load. */
function PlotLoading({
  title,
  size,
  error,
}: {
  title: string;
  size: 'tall' | 'medium' | 'short';
  error: string | null;
}) {
  return (
    <figure className="plot plot-loading">
      <figcaption className="plot-head">
        <h3 className="plot-title">{title}</h3>
      </figcaption>
      <div className={`plot-body plot-${size}`}>
        <p className={error ? 'plot-note' : 'deferred-loading'} role="status">
          {error ? `This plot could not be loaded (${error}). Reload the page to try again.` : 'Loading the plot…'}
        </p>
      </div>
    </figure>
  );
}

/** `show(value)` once the lazily loaded `module` is there, its stand-in until then. */
function WhenLoaded<T>({
  module,
  title,
  show,
}: {
  module: LazyModule<T>;
  title: string;
  show: (value: T) => ReactNode;
}) {
  const { value, error } = useLazyModule(module);
  return value ? show(value) : <PlotLoading title={title} size="medium" error={error} />;
}

function PlotFor({
  kind,
  keys,
  all,
  id,
  single,
  compete,
  wide = false,
}: {
  kind: TimePlotId;
  keys: AlgorithmName[];
  all: AlgorithmName[];
  id: string;
  /** One run's plot of several (a small multiple): smaller. */
  single: boolean;
  compete: boolean;
  /** Full size even for one run (the one BBR run of a comparison, across the page). */
  wide?: boolean;
}) {
  const k = KINDS[kind];
  const { value: def, error } = useLazyModule(k.plot);
  const keysText = keys.join(',');
  const allText = all.join(',');
  const spec = useMemo<PlotSpec | null>(
    () =>
      def && {
        def,
        keys: keysText.split(','),
        extentKeys: allText.split(','),
        name: k.name,
      },
    [k, def, keysText, allText],
  );
  const label = useAppState((s) => (keys.length === 1 ? runLabel(s.scenario, keys[0] ?? '') : ''));
  // A plot of one run says whose it is and is smaller (a competition's plots of the shared
  // bottleneck are about every flow, even when one is shown).
  const one = single || (keys.length === 1 && !(compete && RUN_WIDE.has(kind)));
  const detail = useDetail(kind);
  const unit = useAppState((s) => plotUnit(k, s.unit));
  const title = `${k.title}${one ? ` — ${label}` : ''} (${unit}${detail})`;
  const size = !one || wide ? k.size : k.size === 'tall' ? 'medium' : 'short';
  if (!spec) return <PlotLoading title={title} size={size} error={error} />;
  return <TimePlot id={id} title={title} spec={spec} size={size} />;
}

/** Every visible plot. */
export function PlotStack() {
  const keysText = useAppState(shownKeysText);
  const compete = useAppState((s) => s.mode === 'compete');
  const plots = useAppState(useShallow((s) => s.plots));
  const layout = useAppState((s) => s.layout);
  const keys = useMemo(() => (keysText === '' ? [] : keysText.split(',')), [keysText]);
  const bbrText = useAppState(bbrKeysText);
  const labels = useAppState(useShallow((s) => keys.map((k) => runLabel(s.scenario, k))));
  // BBR's model plot, one per run: only the BBR runs have one (the others are named below
  // it); with no BBR run, one plot that says so.
  const bbrOnly = useMemo(() => {
    const set = new Set(bbrText === '' ? [] : bbrText.split(','));
    return keys.filter((k) => set.has(k));
  }, [keys, bbrText]);
  const shown = shownPlots(plots, compete ? 'compete' : 'compare');
  if (shown.length === 0) {
    return <p className="empty-plots">No plot is shown. Tick a plot under “View” to see it.</p>;
  }
  const each = compete ? 'flow' : 'algorithm';
  return (
    <div className="plot-stack">
      {shown.map((kind) => (
        <Fragment key={kind}>
          {kind === 'thin' ? (
            <WhenLoaded
              key={kind}
              module={thinPlots}
              title={THIN_PLOTS_KIND.title}
              show={(ThinPlots) => <ThinPlots keys={keys} />}
            />
          ) : kind === 'transfers' ? (
            <WhenLoaded
              key={kind}
              module={transfersPlots}
              title={TRANSFERS_KIND.title}
              show={(TransfersPlots) => <TransfersPlots keys={keys} />}
            />
          ) : kind === 'rounds' ? (
            <WhenLoaded
              key={kind}
              module={roundsPlots}
              title={ROUNDS_KIND.title}
              show={(RoundsPlots) => <RoundsPlots keys={keys} overlay={layout === 'overlay'} />}
            />
          ) : kind === 'bbr' && layout !== 'overlay' && keys.length > 1 && bbrOnly.length > 0 ? (
            <section
              key={kind}
              className={bbrOnly.length > 1 ? 'plot-group multiples' : 'plot-group'}
              aria-label={`${KINDS[kind].title}, one plot per BBR ${each}`}
            >
              {/* One BBR run: its plot across the page, where its lines have room. */}
              {bbrOnly.map((a) => (
                <PlotFor
                  key={a}
                  kind={kind}
                  keys={[a]}
                  all={bbrOnly}
                  id={`${kind}-${a}`}
                  single={bbrOnly.length > 1}
                  wide={bbrOnly.length === 1}
                  compete={compete}
                />
              ))}
              {bbrOnly.length < keys.length && (
                <p className="plot-note">
                  Not BBR, so no model to show:{' '}
                  {keys.flatMap((k, i) => (bbrOnly.includes(k) ? [] : [labels[i] ?? k])).join(', ')}.
                </p>
              )}
            </section>
          ) : layout === 'overlay' || keys.length === 1 || (compete && RUN_WIDE.has(kind)) ? (
            <section key={kind} className="plot-group" aria-label={KINDS[kind].title}>
              <PlotFor
                kind={kind}
                keys={keys}
                all={keys}
                id={compete ? `${kind}-all` : `${kind}-${keys.join('-')}`}
                single={false}
                compete={compete}
              />
            </section>
          ) : (
            <section
              key={kind}
              className="plot-group multiples"
              aria-label={`${KINDS[kind].title}, one plot per ${each}`}
            >
              {keys.map((a) => (
                <PlotFor key={a} kind={kind} keys={[a]} all={keys} id={`${kind}-${a}`} single compete={compete} />
              ))}
            </section>
          )}
          {/* The Mathis and Padhye estimates' note (theory=1). */}
          {kind === 'throughput' && <TheoryNote />}
        </Fragment>
      ))}
    </div>
  );
}
