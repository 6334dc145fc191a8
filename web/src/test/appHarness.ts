// The real app services (store, engine client with in-process workers, controller) for
// tests, with animation frames flushed by hand.
import { EngineClient } from '../engine/client';
import { TraceStore } from '../engine/traceStore';
import { decodeShareState } from '../scenario/url';
import { AppController, type ControllerEnv } from '../state/controller';
import { createAppStore } from '../state/store';
import type { World } from '../plots/core/prerender';
import { InProcessWorker } from './inProcessWorker';
import { realValidator } from './wasm';

/** Builds the app as start.tsx does, from a query string. */
export function createHarness(query = '', workers = 2, reducedMotion = false) {
  // Time advances one 60 Hz frame per flushed frame: timings in tests never depend on the
  // machine's speed.
  let frameClock = 0;
  const engineValidate = realValidator();
  // Counts the engine validations the page asks for (computing ahead spares some).
  let validations = 0;
  const validate: typeof engineValidate = (json) => {
    validations += 1;
    return engineValidate(json);
  };
  const decoded = decodeShareState(query, validate);
  const store = createAppStore(decoded.state);
  store.getState().addNotices(decoded.notices);
  const traces = new TraceStore();
  const frames: (() => void)[] = [];
  let frameId = 0;
  /** What the controller asked the plots to draw ahead, call by call. */
  const worlds: (readonly World[])[] = [];
  /** Times it stopped drawing ahead, keeping the bitmaps (a comparison began). */
  let suspends = 0;
  const env: ControllerEnv = {
    now: () => frameClock,
    requestFrame: (cb) => {
      frames.push(cb);
      frameId += 1;
      return frameId;
    },
    cancelFrame: () => {
      frames.length = 0;
    },
    requestRedraw: () => {},
    lastFrameMs: () => 0,
    reducedMotion: () => reducedMotion,
    prerender: (list, keepBitmaps) => {
      if (keepBitmaps) suspends += 1;
      else worlds.push(list);
    },
  };
  let controller: AppController | null = null;
  // The module is unused by the in-process worker (it shares the test's wasm instance).
  const client = new EngineClient(
    {} as WebAssembly.Module,
    () => new InProcessWorker(),
    workers,
    (msg) => controller?.onEngine(msg),
  );
  controller = new AppController(store, client, traces, validate, env);
  return {
    store,
    traces,
    client,
    controller,
    /** Runs the animation frames requested so far. */
    flushFrames() {
      frameClock += 1000 / 60;
      const list = frames.splice(0, frames.length);
      list.forEach((cb) => cb());
      return list.length;
    },
    /** The worlds the controller asked the plots to draw ahead, call by call. */
    worlds,
    /** Times the controller stopped drawing ahead keeping what was drawn (a step began). */
    suspends: () => suspends,
    /** Engine validations asked for so far. */
    validations: () => validations,
    /** True when every run of the current comparison has finished. */
    allDone() {
      const s = store.getState();
      return s.keys.every((a) => s.runs[a]?.status === 'done');
    },
    dispose() {
      controller?.dispose();
      client.dispose();
    },
  };
}
