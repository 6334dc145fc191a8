// Start-up: load the engine, read the link, build the store, the workers and the
// controller, keep the address bar in sync, render. If the engine cannot load, say so on
// the page (never a blank page).
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { AppContext, type AppServices } from './app/AppContext';
import { ErrorBoundary } from './app/ErrorBoundary';
import { EngineClient } from './engine/client';
import { poolSize, spawnEngineWorker } from './engine/spawnWorker';
import { TraceStore } from './engine/traceStore';
import { loadEngine, loadFullEngine } from './engine/wasmMain';
import { loadDeferredNow } from './app/Deferred';
import { lastFrameDuration, onAfterFrame, pendingDraws, requestDraw } from './plots/core/scheduler';
import { ALGORITHM_NAMES } from './scenario/algorithms';
import { decodeShareState } from './scenario/url';
import { AppController, type ControllerEnv } from './state/controller';
import { createAppStore } from './state/store';
import { startUrlSync } from './state/urlSync';
import { registerServiceWorker } from './offline/register';
import type { Timing } from './state/types';
import './app/styles.css';

declare global {
  interface Window {
    /** For benchmarks and end-to-end tests: comparison timings (ms). */
    __cwndlab?: { timings: Timing[]; workers: number };
  }
}

const rootEl = document.getElementById('root');
if (!rootEl) throw new Error('no #root element');
const root = createRoot(rootEl);

function fatal(message: string) {
  document.documentElement.dataset.render = 'error';
  root.render(
    <main className="fatal" role="alert">
      <h1>cwndlab could not start</h1>
      <p>{message}</p>
      <p>cwndlab needs a browser with WebAssembly and module workers (a current Chrome, Firefox, Safari or Edge).</p>
    </main>,
  );
}

/** Ends the current task: start-up is several short tasks, not one long one (a phone stays
 *  responsive while the page starts). */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

async function start() {
  document.documentElement.dataset.render = 'busy';
  const engine = await loadEngine();
  await nextTask();
  // A long link (v=5) keeps part of itself after `#~` (scenario/longLink.ts).
  const decoded = decodeShareState(window.location.search + window.location.hash, engine.validate);
  const store = createAppStore(decoded.state);
  store.getState().addNotices(decoded.notices);
  const traces = new TraceStore();
  const env: ControllerEnv = {
    now: () => performance.now(),
    requestFrame: (cb) => requestAnimationFrame(cb),
    cancelFrame: (id) => cancelAnimationFrame(id),
    requestRedraw: () => requestDraw(),
    lastFrameMs: lastFrameDuration,
    reducedMotion: () => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false,
    // Instants for performance traces (the benchmark finds them by name); cleared at once
    // so the page's performance timeline does not grow.
    mark: (name) => {
      performance.mark(name);
      performance.clearMarks(name);
    },
  };
  let controller: AppController | null = null;
  const client = new EngineClient(engine.module, spawnEngineWorker, poolSize(ALGORITHM_NAMES.length), (msg) =>
    controller?.onEngine(msg),
  );
  await nextTask();
  controller = new AppController(store, client, traces, engine.validate, env);
  const c = controller;
  window.__cwndlab = { timings: c.timings, workers: client.size };
  onAfterFrame((report) => {
    // The plots in view, then every plot (a big redraw may take several frames).
    c.frameDrawn(report);
    // A settled signal for screenshots and tests: nothing computing, nothing left to draw.
    const render = c.isIdle() && pendingDraws() === 0 ? 'idle' : 'busy';
    if (document.documentElement.dataset.render !== render) document.documentElement.dataset.render = render;
    // The first view is drawn: load the parts it does not show (app/Deferred.tsx).
    if (render === 'idle' && c.timings.length > 0) loadDeferredNow();
  });
  startUrlSync(store);
  // The parts the default view does not show load once it is drawn (above), or now when the
  // link opens one (an exercise sheet); the theory note needs the full engine (theory_json
  // runs on the page): loaded when the note is first on, then the note and lines redrawn.
  if (decoded.state.sheet) loadDeferredNow();
  const theoryEngine = () =>
    void loadFullEngine().then(() => {
      store.setState({});
      requestDraw();
    });
  if (store.getState().theory) theoryEngine();
  store.subscribe((s, prev) => {
    if (s.theory && !prev.theory) theoryEngine();
  });
  const services: AppServices = { store, controller: c, traces };
  // Not a transition: the run's progress updates the store while the page renders, and each
  // update would restart a transition's render (measured: the first render came late and
  // cost more in all).
  root.render(
    <StrictMode>
      <ErrorBoundary>
        <AppContext.Provider value={services}>
          <App />
        </AppContext.Provider>
      </ErrorBoundary>
    </StrictMode>,
  );
  c.runFull();
}

start().catch((e: unknown) => fatal(e instanceof Error ? e.message : String(e)));
// Offline: a service worker keeps the built site (production builds only).
registerServiceWorker();
