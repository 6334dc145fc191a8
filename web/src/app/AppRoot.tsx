// The app as rendered into #root, with its services: the same tree in the page (start.tsx)
// and in the first view prerendered at build time (prerender/firstView.tsx), which the page
// may hydrate (start.tsx) — so both must stay one component.
import { StrictMode, useEffect } from 'react';
import { App } from './App';
import { AppContext, type AppServices } from './AppContext';
import { ErrorBoundary } from './ErrorBoundary';

/** `onCommitted`: called once the tree is on the page (its first commit). */
export function AppRoot({ services, onCommitted }: { services: AppServices; onCommitted?: () => void }) {
  useEffect(() => onCommitted?.(), [onCommitted]);
  return (
    <StrictMode>
      <ErrorBoundary>
        <AppContext.Provider value={services}>
          <App />
        </AppContext.Provider>
      </ErrorBoundary>
    </StrictMode>
  );
}
