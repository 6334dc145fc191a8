// Worker entry: instantiates the wasm compiled by the page, then hands every message to the
// handler. No logic lives here (see workerHandler.ts; the plumbing: lib/workerRpc.ts).
import {
  codes_json,
  debug_panic,
  first_divergence_json,
  initSync,
  Runs,
  Sim,
  validate_json,
} from './pkg/lite/cwndlab_wasm.js';
import { hang } from './fault';
import { failedMessage, type FromWorker, type ToWorker } from './protocol';
import type { Codes } from './tables';
import { createWorkerHandler } from './workerHandler';
import { simFactory } from './runs';
import { messageYielder } from './yieldToMessages';
import { serveWorker } from '../lib/workerRpc';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (msg: FromWorker, transfer: Transferable[]) => scope.postMessage(msg, transfer);

const yieldToMessages = messageYielder();

/** A run's simulation (runs.ts): of `algorithm` on the comparison scenario `json`, or of
 *  `json` as it is. */
const newSim = simFactory({ Sim, Runs });

serveWorker<ToWorker>(
  'engine',
  scope,
  (module, fault) => {
    initSync({ module });
    /** A simulation; with a fault armed at 'run' or 'hang', the first one fails in its first step. */
    const createSim = (json: string, algorithm?: string): Sim => {
      const sim = newSim(json, algorithm);
      const at = fault.take();
      if (at === 'run' || at === 'hang') {
        const fail = () => (at === 'run' ? debug_panic() : hang());
        const runEvents = sim.run_events.bind(sim);
        const advance = sim.advance.bind(sim);
        sim.run_events = (n: number) => (fail(), runEvents(n));
        sim.advance = (dt: number) => (fail(), advance(dt));
      }
      return sim;
    };
    const codes = JSON.parse(codes_json()) as Codes;
    const handler = createWorkerHandler({ createSim, firstDivergence: first_divergence_json, codes }, post, {
      yieldToMessages,
    });
    // Reads a scenario once before saying it is ready: the browser compiles a wasm
    // function when it first runs, and the compiled code is shared with the page, whose
    // first validation (start.tsx, after started()) then finds it compiled instead of
    // compiling it on the main thread (~130 ms there on a slow phone).
    // The default scenario, then its full text: every path of a scenario's reading runs.
    const { scenario } = JSON.parse(validate_json('{}')) as { scenario: unknown };
    validate_json(JSON.stringify(scenario));
    post({ type: 'ready' }, []);
    return (request) => handler.handle(request);
  },
  (request, e) => post(failedMessage('gen' in request ? request.gen : -1, null, String(e)), []),
);
