// Changes recorded while playing: each is {at, set, value} in the scenario's timeline, so it
// replays identically from the start and travels in the link.
import { useApp, useAppState } from '../app/AppContext';
import { formatValue, specOf } from '../scenario/params';
import { timelineOf } from '../scenario/paths';

/** The list of timed changes, each removable. */
export function TimelineList() {
  const { controller } = useApp();
  const entries = timelineOf(useAppState((s) => s.scenario));
  return (
    <section className="control-group timeline" aria-labelledby="grp-timeline">
      <h2 id="grp-timeline">Timeline</h2>
      {entries.length === 0 ? (
        <p className="control-help">
          Move a slider while the run is playing and the change is recorded here at that simulated time. It replays the
          same way from the start and is part of the link.
        </p>
      ) : (
        <ol className="timeline-list">
          {entries.map((e, i) => {
            const path = typeof e.set === 'string' ? e.set : '';
            const spec = specOf(path);
            const at = typeof e.at === 'number' ? e.at : 0;
            const text = `at ${at.toFixed(3)} s: ${spec?.label ?? path} → ${spec ? formatValue(spec, e.value ?? null) : String(e.value)}`;
            return (
              <li key={`${i}-${at}-${path}`}>
                <span>{text}</span>
                <button
                  type="button"
                  onClick={() => controller.removeTimelineEntry(i)}
                  aria-label={`Remove change ${text}`}
                >
                  Remove
                </button>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
