// One line on what the engine is doing: progress of long runs, or how fast the last
// comparison was computed and drawn.
import { useApp, useAppState } from '../app/AppContext';
import type { TraceStore } from '../engine/traceStore';
import { formatNumber } from '../scenario/params';
import { durationOf } from '../scenario/paths';
import { reportsProgress } from '../state/selectors';
import type { AppState } from '../state/types';

/** Progress of long runs, or null. Only runs that have reported progress count: a
 *  comparison that finishes within a frame or two keeps the last line in place instead of
 *  flashing "Computing…". */
function progressText(s: AppState): string | null {
  if (s.live) return null;
  const running = s.keys.filter((a) => reportsProgress(s.runs[a]));
  if (running.length === 0) return null;
  const done = Math.min(...running.map((a) => s.runs[a]?.now ?? 0));
  const percent = formatNumber((100 * done) / durationOf(s.scenario, 1), 3);
  if (s.mode === 'compete') return `Computing the competition (${running.length} flows)… ${percent}%`;
  return `Computing ${running.length} run${running.length === 1 ? '' : 's'}… ${percent}%`;
}

/** The line when no long run is in progress. */
function statusText(s: AppState): string {
  if (s.live) {
    return s.playing
      ? 'Playing live: changes are recorded on the timeline.'
      : 'Paused. Any change now re-runs to the end.';
  }
  if (s.keys.some((a) => s.runs[a]?.status === 'stopped')) {
    return 'Stopped. Change a setting or press Play to run again.';
  }
  // A failed run (e.g. an engine worker that stopped): no timing that reads as a success.
  if (s.keys.some((a) => s.runs[a]?.status === 'error')) {
    return 'Not every run finished (see the message above). Change a setting to try again.';
  }
  const timing = s.timing;
  // Nothing computed yet: the page is drawn before the engine has loaded (start.tsx).
  if (!timing) return s.keys.some((a) => s.runs[a]?.status === 'done') ? 'Ready.' : 'Starting the simulation engine…';
  const runs = `${timing.runs} run${timing.runs === 1 ? '' : 's'}`;
  const workers = `${timing.workers} worker${timing.workers === 1 ? '' : 's'}`;
  const shown = formatNumber(timing.drawnMs ?? timing.resultsMs, 3);
  // The first comparison also waits for the workers to start.
  const after = timing.gen === 1 ? 'after the engine started' : 'after the change';
  // Results computed while the slider had the focus, before the key press asked for them.
  const ahead =
    timing.aheadRuns <= 0
      ? ''
      : timing.aheadRuns >= timing.runs
        ? ', ahead of the key press'
        : `, ${timing.aheadRuns} of them ahead of the key press`;
  return `${runs} computed in ${formatNumber(timing.computeMs, 2)} ms on ${workers}${ahead}; on screen ${shown} ms ${after}.`;
}

/** A note when a shown run's rows were reduced (bounded recording, engine/core/src/bounded.rs),
 *  with the engine's numbers: where the reduction began (the earliest of the runs shown)
 *  and the bucket width. Null while every row is kept. */
export function reducedText(s: AppState, traces: TraceStore): string | null {
  let at = Infinity;
  let width = 0;
  for (const k of s.keys) {
    const r = traces.get(k)?.reduced;
    if (!r) continue;
    at = Math.min(at, r.at);
    width = Math.max(width, r.width);
  }
  if (!Number.isFinite(at)) return null;
  return (
    `Detail reduced from t = ${formatNumber(at, 4)} s: first, last, minimum and maximum per ` +
    `${formatNumber(width, 3)} s; losses, retransmissions and marks all kept. ` +
    `Zoomed in closer than that, the plots show ${formatNumber(width, 3)} s buckets.`
  );
}

/** The status line. Its selectors return strings, so the line re-renders only when its
 *  text changes (not on every live frame). */
export function Status() {
  const { controller, traces } = useApp();
  const progress = useAppState(progressText);
  const text = useAppState(statusText);
  // The traces change with `drawn`, which changes the state: the selector is re-run then.
  const reduced = useAppState((s) => reducedText(s, traces));
  const note =
    reduced === null ? null : (
      <p className="status reduced-note" data-testid="reduced-note">
        {reduced}
      </p>
    );
  if (progress !== null) {
    return (
      <>
        <p className="status status-line" data-testid="status">
          {progress}{' '}
          <button type="button" onClick={() => controller.stop()}>
            Stop
          </button>
        </p>
        {note}
      </>
    );
  }
  return (
    <>
      <p className="status status-line" data-testid="status">
        {text}
      </p>
      {note}
    </>
  );
}
