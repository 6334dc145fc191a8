// Sweep worker entry: instantiates the wasm compiled by the page and runs the runs it is
// given, one message each (protocol.ts). No logic lives here: the engine plans and runs.
import { initSync, sweep_run_json } from '../engine/pkg/cwndlab_wasm.js';
import type { FromSweepWorker, ToSweepWorker } from './protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (msg: FromSweepWorker) => scope.postMessage(msg);

scope.onmessage = (event: MessageEvent<ToSweepWorker>) => {
  const msg = event.data;
  if (msg.type === 'init') {
    initSync({ module: msg.module });
    post({ type: 'ready' });
    return;
  }
  try {
    const out = JSON.parse(sweep_run_json(msg.def, msg.base, msg.index)) as { rows?: unknown[]; error?: string };
    if (out.rows) post({ type: 'rows', index: msg.index, rows: out.rows });
    else post({ type: 'failed', index: msg.index, message: out.error ?? 'the engine gave no rows' });
  } catch (e) {
    post({ type: 'failed', index: msg.index, message: e instanceof Error ? e.message : String(e) });
  }
};
