// The first view as HTML, put into index.html at build time (prerender/vitePlugin.ts):
// the page's first paint, before any script has arrived, shows what the app's first render
// shows for the link without a query — the default scenario's page with nothing computed yet
// ("Starting the simulation engine…", every result a dash), laid out as on a phone (the
// parts below the fold there mount after the first paint: app/layout.ts). The app then
// takes it over (start.tsx: on a phone it hydrates it, elsewhere it renders in its place).
// Rendered in Node by React's server renderer from the same tree (app/AppRoot.tsx), store
// and controller start.tsx builds; the engine is never loaded or asked anything, so nothing
// in it is computed.
import { renderToString } from 'react-dom/server';
import type { AppServices } from '../app/AppContext';
import { AppRoot } from '../app/AppRoot';
import type { Engine } from '../engine/client';
import { TraceStore } from '../engine/traceStore';
import { acceptedAsIs } from '../engine/validation';
import { decodeShareState } from '../scenario/url';
import { AppController, type ControllerEnv } from '../state/controller';
import { createAppStore } from '../state/store';

/** What a page opened without a query renders first (start.tsx before the engine is there). */
export function renderFirstView(): string {
  const store = createAppStore(decodeShareState('').state);
  const traces = new TraceStore();
  const refuse = (what: string) => () => {
    throw new Error(`the prerendered page may not ${what}`);
  };
  const env: ControllerEnv = {
    now: () => 0,
    requestFrame: refuse('request a frame'),
    cancelFrame: () => {},
    requestRedraw: () => {},
    lastFrameMs: () => 0,
    reducedMotion: () => false,
  };
  // A render asks the engine nothing (runs start from start.tsx): no engine, no workers.
  const engine: Engine = {
    start: refuse('start a run'),
    advance: refuse('advance a run'),
    change: refuse('change a run'),
    cancel: refuse('cancel a run'),
    ahead: refuse('compute ahead'),
    explain: refuse('ask for an explanation'),
    size: 1,
  };
  const controller = new AppController(store, engine, traces, acceptedAsIs, env);
  const services: AppServices = { store, controller, traces };
  const html = renderToString(<AppRoot services={services} />);
  // A part the server renderer gave up on (an error, or a component that suspended) is
  // marked for the page to render instead: the page would report it while hydrating.
  if (html.includes('<!--$!-->')) throw new Error('the first view has a part that could not be rendered at build time');
  return html;
}
