// Worker entry: instantiates the wasm compiled by the page, then hands every message to the
// handler. No logic lives here (see workerHandler.ts).
import { codes_json, initSync, Sim } from './pkg/cwndlab_wasm.js';
import { plainProblem, type FromWorker, type ToWorker } from './protocol';
import { createWorkerHandler } from './workerHandler';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (msg: FromWorker, transfer: Transferable[]) => scope.postMessage(msg, transfer);
let handler: ReturnType<typeof createWorkerHandler> | null = null;

// Yield with a message rather than setTimeout, which browsers clamp to 4 ms when nested.
const channel = new MessageChannel();
const waiting: (() => void)[] = [];
channel.port1.onmessage = () => waiting.shift()?.();
const yieldToMessages = () =>
  new Promise<void>((resolve) => {
    waiting.push(resolve);
    channel.port2.postMessage(null);
  });

scope.onmessage = (event: MessageEvent<ToWorker>) => {
  const msg = event.data;
  if (msg.type === 'init') {
    initSync({ module: msg.module });
    const codes = JSON.parse(codes_json()) as { events: string[]; phases: string[] };
    handler = createWorkerHandler({ createSim: (json) => new Sim(json), codes }, post, { yieldToMessages });
    post({ type: 'ready' }, []);
    return;
  }
  try {
    handler?.handle(msg);
  } catch (e) {
    post(
      {
        type: 'failed',
        gen: 'gen' in msg ? msg.gen : -1,
        key: null,
        message: String(e),
        problems: [plainProblem(String(e))],
        fatal: true,
      },
      [],
    );
  }
};
