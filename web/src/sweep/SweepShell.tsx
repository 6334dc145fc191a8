// The sweep view's frame, under the view controls: its summary line, open or closed. The page
// shows it at once and loads what it holds (SweepPanel.tsx's SweepBody, with the full engine)
// after the first view is drawn (app/Deferred.tsx), or as soon as it is opened. A link with a
// sweep (`sweep=`) opens it, as does a lesson's sweep button; closing it takes the sweep out of
// the link.
import { Suspense, useEffect, useState, type ComponentType } from 'react';
import { loadDeferredNow } from '../app/Deferred';
import { useApp, useAppState } from '../app/AppContext';
// Its styles (sweep.css) are imported by main.tsx with the page's.

export function SweepShell({ Body }: { Body: ComponentType<{ open: boolean }> }) {
  const { store } = useApp();
  const fromLink = useAppState((s) => s.sweep !== null);
  const [open, setOpen] = useState(fromLink);
  // A sweep put in the store while the view is closed (a lesson's button) opens it.
  useEffect(() => {
    if (fromLink) setOpen(true);
  }, [fromLink]);
  // A link that opens the view loads its chunk at once.
  useEffect(() => {
    if (open) loadDeferredNow();
  }, [open]);
  return (
    <details
      className="sweep"
      open={open}
      onToggle={(e) => {
        const now = e.currentTarget.open;
        setOpen(now);
        if (!now) store.getState().setSweep(null);
      }}
    >
      <summary onClick={() => loadDeferredNow()}>Sweep a parameter (curves over many runs)</summary>
      {open ? (
        <Suspense
          fallback={
            <p className="deferred-loading" role="status">
              Loading…
            </p>
          }
        >
          <Body open={open} />
        </Suspense>
      ) : null}
    </details>
  );
}
