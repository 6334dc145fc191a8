// The Export panel's frame: its summary line, open or closed. The page shows it at once and
// loads what it holds (ExportPanel.tsx's ExportBody, with the full engine) after the first
// view is drawn (app/Deferred.tsx), or as soon as it is opened; the same element throughout,
// so nothing moves and the focus stays.
import { Suspense, useState, type ComponentType } from 'react';
import { DeferredPart, loadDeferredNow } from '../app/Deferred';

export function ExportShell({ Body }: { Body: ComponentType<{ open: boolean }> }) {
  const [open, setOpen] = useState(false);
  const loading = open ? (
    <p className="deferred-loading" role="status">
      Loading…
    </p>
  ) : null;
  return (
    <details className="export" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary onClick={() => loadDeferredNow()}>Export and print</summary>
      <Suspense fallback={loading}>
        <DeferredPart fallback={loading}>
          <Body open={open} />
        </DeferredPart>
      </Suspense>
    </details>
  );
}
