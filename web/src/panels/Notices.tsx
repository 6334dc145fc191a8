// What was not used and why: fields of a link that fell back to their defaults, values the
// engine refused, runs that failed (an engine worker that stopped: in plain words, with its
// technical cause folded). Announced politely; each can be dismissed.
import { useApp, useAppState } from '../app/AppContext';
import { ENGINE_NOTICE } from '../engine/protocol';
import { EXPORT_NOTICE } from '../export/requests';

/** The banner's heading: what the notices are about. */
function heading(keys: readonly string[]): string {
  const exports = keys.filter((k) => k === EXPORT_NOTICE).length;
  const engine = keys.filter((k) => k === ENGINE_NOTICE).length;
  const settings = keys.length - exports - engine;
  const parts: string[] = [];
  if (engine > 0) parts.push('the simulation engine stopped');
  if (settings > 0) parts.push(settings === 1 ? 'One setting was not used' : `${settings} settings were not used`);
  if (exports > 0) parts.push(exports === 1 ? 'an export was not made' : `${exports} exports were not made`);
  const text = parts.join('; ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The notices banner (renders nothing when there are none). */
export function Notices() {
  const { store } = useApp();
  const notices = useAppState((s) => s.notices);
  return (
    <div className="notices" role="status" aria-live="polite">
      {notices.length > 0 && (
        <section className="notice-box" aria-labelledby="notices-h">
          <h2 id="notices-h">{heading(notices.map((n) => n.key))}</h2>
          <ul>
            {notices.map((n) => (
              <li key={n.id} data-key={n.key}>
                <span>
                  {n.message}
                  {n.detail && (
                    <details className="notice-detail">
                      <summary>Technical details</summary>
                      <code>{n.detail}</code>
                    </details>
                  )}
                </span>
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
