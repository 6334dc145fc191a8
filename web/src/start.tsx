// Start-up (imported by main.tsx once the UI runtime is evaluated): load the engine, read the
// link, build the store, the workers and the controller, keep the address bar in sync,
// render. If the engine cannot load, say so on the page (never a blank page).
import './app/svgFocus';
import { createRoot, type Root } from 'react-dom/client';
import type { AppServices } from './app/AppContext';
import { AppRoot } from './app/AppRoot';
import { hydrateInParts } from './app/HydratedLater';
import { narrowLayout } from './app/layout';
import { EngineClient } from './engine/client';
import { poolSize, spawnEngineWorker } from './engine/spawnWorker';
import { TraceStore } from './engine/traceStore';
import { acceptedAsIs } from './engine/validation';
import { loadEngine, loadFullEngine } from './engine/wasmMain';
import { loadTeaching } from './engine/teaching';
import { loadDeferredNow } from './app/Deferred';
import { holdIdle, lastFrameDuration, onAfterFrame, pendingDraws, requestDraw } from './plots/core/scheduler';
import { prerenderStats, setWorlds } from './plots/core/prerender';
import { loadInteraction } from './plots/core/loadInteraction';
import { ALGORITHM_NAMES } from './scenario/algorithms';
import { decodeShareState, type Validator } from './scenario/url';
import { AppController, type ControllerEnv } from './state/controller';
import { createAppStore } from './state/store';
import { shareStateOf, startUrlSync } from './state/urlSync';
import { registerServiceWorker } from './offline/register';
import type { AppState, Timing } from './state/types';

declare global {
  interface Window {
    /** For benchmarks and end-to-end tests: comparison timings (ms), and how many runs
     *  computed ahead the page holds. */
    __cwndlab?: {
      timings: Timing[];
      workers: number;
      aheadReady: () => number;
      prerender: () => { ahead: number; used: number; pending: boolean };
    };
  }
}

const rootFound = document.getElementById('root');
if (!rootFound) throw new Error('no #root element');
const rootEl: HTMLElement = rootFound;
let root: Root | null = null;

function fatal(message: string) {
  document.documentElement.dataset.render = 'error';
  root ??= createRoot(rootEl);
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

/** Resolves after the next frame has been painted (or after 100 ms without frames). */
const paintedOnce = () =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 100);
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(timer);
        resolve();
      }, 0),
    );
  });

/** The data fields of a state (no actions): what replaces a store's state. */
function dataOf(state: AppState): Partial<AppState> {
  return Object.fromEntries(Object.entries(state).filter(([, v]) => typeof v !== 'function')) as Partial<AppState>;
}

async function start() {
  document.documentElement.dataset.render = 'busy';
  // The engine loads while the page renders: the first render needs only the link read with
  // the engine's tables (part of the script). The engine's own check of the link (its
  // cross-field rules) and the first run come when it is there; until then the page does
  // not count as idle, and the engine workers hold what they are sent.
  const engineLoad = loadEngine();
  const releaseIdle = holdIdle();
  // The scripts' evaluation was one long task already: the rest in tasks of its own.
  await nextTask();
  // A long link (v=5) keeps part of itself after `#~` (scenario/longLink.ts).
  const search = window.location.search + window.location.hash;
  const early = decodeShareState(search);
  const store = createAppStore(early.state);
  // A link that opens a lesson: its text (the teaching chunk) loads with the engine and is
  // there at the first render, so the lesson panel does not push the page down later.
  const lessonTexts = early.state.lesson !== null ? loadTeaching() : null;
  const traces = new TraceStore();
  /** The engine's validator once loaded; before that a change is taken as it is (the
   *  engine's worker checks what it runs, and the link is checked again on arrival). */
  let engineValidate: Validator | null = null;
  const validate: Validator = (json) => (engineValidate ? engineValidate(json) : acceptedAsIs(json));
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
    prerender: setWorlds,
  };
  let controller: AppController | null = null;
  const client = new EngineClient(
    engineLoad.then((e) => e.module),
    spawnEngineWorker,
    poolSize(ALGORITHM_NAMES.length),
    (msg) => controller?.onEngine(msg),
  );
  controller = new AppController(store, client, traces, validate, env);
  const c = controller;
  window.__cwndlab = {
    timings: c.timings,
    workers: client.size,
    aheadReady: () => client.aheadReady(),
    prerender: prerenderStats,
  };
  onAfterFrame((report) => {
    // The plots in view, then every plot (a big redraw may take several frames).
    c.frameDrawn(report);
    // A settled signal for screenshots and tests: nothing computing, nothing left to draw.
    const render = c.isIdle() && pendingDraws() === 0 ? 'idle' : 'busy';
    if (document.documentElement.dataset.render !== render) document.documentElement.dataset.render = render;
    // The first view is drawn: load the parts it does not show (app/Deferred.tsx), the
    // teaching texts (lessons, steps, rules: engine/teaching.ts) and the plots' pointer
    // interactions (plots/core/loadInteraction.ts).
    if (render === 'idle' && c.timings.length > 0) {
      loadDeferredNow();
      void loadTeaching();
      // The plots' wheel, drag and pinch zoom and the overview's brush (their keyboard
      // zoom works from the start).
      loadInteraction().catch(() => {});
    }
  });
  // The parts the default view does not show load once it is drawn (above), or now when the
  // link opens one (an exercise sheet); the theory note needs the full engine (theory_json
  // runs on the page): loaded when the note is first on, then the note and lines redrawn.
  if (early.state.sheet) loadDeferredNow();
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
  // The HTML holds the first view for a link without a query, rendered at build time
  // (src/prerender) as a phone's first render shows it (index.html keeps only the header for
  // a link with a query).
  const prerendered = rootEl.querySelector('.layout') !== null;
  if (prerendered && narrowLayout()) {
    // A phone: the app hydrates the HTML (it renders the same tree from the same state), in
    // parts between which the page stays responsive (app/HydratedLater.tsx), and nothing on
    // screen is replaced. The engine's part below starts once every part is done, so no
    // engine result meets a half-hydrated page.
    root = await hydrateInParts(
      rootEl,
      (committed) => <AppRoot services={services} onCommitted={committed} />,
      (changed) => store.subscribe(changed),
      () => <AppRoot key="rendered-anew" services={services} />,
    );
  } else {
    // Elsewhere the first render differs (the parts a phone mounts later are in it): let the
    // prerendered view be painted first, so the first paint never waits for the scripts to
    // run (one frame, or 100 ms where frames do not come, as in a background tab), then
    // render in its place. Not a transition: the run's progress updates the store while
    // the page renders, and each update would restart a transition's render (measured: the
    // first render came late and cost more in all).
    if (prerendered) await paintedOnce();
    if (lessonTexts) await lessonTexts;
    root = createRoot(rootEl);
    root.render(<AppRoot services={services} />);
  }
  const engine = await engineLoad;
  engineValidate = engine.validate;
  // The page's first validation comes after a worker's (engine.worker.ts): the wasm code it
  // runs is then compiled already, off the main thread. At most a second's wait: a worker
  // that cannot start is the run's to report.
  await Promise.race([client.started(), new Promise((resolve) => setTimeout(resolve, 1000))]);
  await nextTask();
  // The link read again with the engine's check: where it changes something (a link whose
  // settings break a cross-field rule), the checked state replaces the first one, unless the
  // page was changed meanwhile; its notices are shown either way.
  const decoded = decodeShareState(search, engine.validate);
  const unchanged =
    JSON.stringify(shareStateOf(store.getState())) ===
    JSON.stringify(shareStateOf(createAppStore(early.state).getState()));
  if (unchanged && JSON.stringify(decoded.state) !== JSON.stringify(early.state)) {
    store.setState(dataOf(createAppStore(decoded.state).getState()));
  }
  store.getState().addNotices(decoded.notices);
  startUrlSync(store);
  c.runFull();
  releaseIdle();
}

start().catch((e: unknown) => fatal(e instanceof Error ? e.message : String(e)));
// Offline: a service worker keeps the built site (production builds only).
registerServiceWorker();
