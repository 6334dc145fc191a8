// One line on what the engine is doing: progress of long runs, or how fast the last
// comparison was computed and drawn.
import { useShallow } from 'zustand/react/shallow';
import { useApp, useAppState } from '../app/AppContext';
import { formatNumber } from '../scenario/params';
import { durationOf } from '../state/selectors';

/** The status line. */
export function Status() {
  const { controller } = useApp();
  const algorithms = useAppState(useShallow((s) => s.algorithms));
  const runs = useAppState((s) => s.runs);
  const live = useAppState((s) => s.live);
  const playing = useAppState((s) => s.playing);
  const timing = useAppState((s) => s.timing);
  const duration = useAppState(durationOf);
  // Only runs that have reported progress, i.e. long ones: a comparison that finishes
  // within a frame or two keeps the last line in place instead of flashing "Computing…".
  const running = algorithms.filter((a) => runs[a]?.status === 'running' && (runs[a]?.now ?? 0) > 0);
  let text: string;
  if (live) {
    text = playing
      ? 'Playing live: changes are recorded on the timeline.'
      : 'Paused. Any change now re-runs to the end.';
  } else if (running.length > 0) {
    const done = Math.min(...running.map((a) => runs[a]?.now ?? 0));
    text = `Computing ${running.length} run${running.length === 1 ? '' : 's'}… ${formatNumber((100 * done) / (duration || 1), 3)}%`;
    return (
      <p className="status" data-testid="status">
        {text}{' '}
        <button type="button" onClick={() => controller.stop()}>
          Stop
        </button>
      </p>
    );
  } else if (algorithms.some((a) => runs[a]?.status === 'stopped')) {
    text = 'Stopped. Change a setting or press Play to run again.';
  } else if (timing) {
    const runs = `${timing.runs} run${timing.runs === 1 ? '' : 's'}`;
    const workers = `${timing.workers} worker${timing.workers === 1 ? '' : 's'}`;
    const shown = formatNumber(timing.drawnMs ?? timing.resultsMs, 3);
    // The first comparison also waits for the workers to start.
    const after = timing.gen === 1 ? 'after the engine started' : 'after the change';
    text = `${runs} computed in ${formatNumber(timing.computeMs, 2)} ms on ${workers}; on screen ${shown} ms ${after}.`;
  } else {
    text = 'Ready.';
  }
  return (
    <p className="status" data-testid="status">
      {text}
    </p>
  );
}
