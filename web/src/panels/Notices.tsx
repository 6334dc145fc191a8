// What was not used and why: fields of a link that fell back to their defaults, values the
// engine refused, runs that failed. Announced politely; each can be dismissed.
import { useApp, useAppState } from '../app/AppContext';

/** The notices banner (renders nothing when there are none). */
export function Notices() {
  const { store } = useApp();
  const notices = useAppState((s) => s.notices);
  return (
    <div className="notices" role="status" aria-live="polite">
      {notices.length > 0 && (
        <section className="notice-box" aria-labelledby="notices-h">
          <h2 id="notices-h">
            {notices.length === 1 ? 'One setting was not used' : `${notices.length} settings were not used`}
          </h2>
          <ul>
            {notices.map((n) => (
              <li key={n.id} data-key={n.key}>
                <span>{n.message}</span>
                <button
                  type="button"
                  onClick={() => store.getState().dismissNotice(n.id)}
                  aria-label={`Dismiss: ${n.message}`}
                >
                  ✕
                </button>
              </li>
            ))}
          </ul>
          {notices.length > 1 && (
            <button type="button" className="link-button" onClick={() => store.getState().clearNotices()}>
              Dismiss all
            </button>
          )}
        </section>
      )}
    </div>
  );
}
