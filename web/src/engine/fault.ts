// TEST-ONLY fault switch (issue 25, "Robustness at scale"). Inert in normal use: nothing
// happens unless a test defines `window.__cwndlabFault` before the page's scripts run
// (Playwright: page.addInitScript), e.g.
//
//   window.__cwndlabFault = { worker: 'engine', at: 'run' };
//
// The next worker of that kind that the page starts takes the fault (once per page load:
// the worker that replaces it runs normally), and
//   at 'run':  the engine panics (the wasm export debug_panic(), a Rust panic, i.e. a wasm
//              trap "RuntimeError: unreachable") in its first piece of work: the engine
//              worker's first simulation step, the export worker's first export step, the
//              sheet worker's first sheet;
//   at 'load': the worker fails as it starts, as a worker whose script or wasm could not
//              load does (an error event on the page's Worker object);
//   at 'hang': the worker stops answering (a busy loop) where 'run' would panic.
// The page posts the fault to the worker as its first message (spawnWorker.ts,
// export/service.ts, sheet/sheetClient.ts); without the global nothing is posted and the
// workers' code paths are those of normal use. e2e/worker-fault.spec.ts uses it;
// docs/robustness.md describes it.

/** Which worker a fault is for. */
export type FaultWorker = 'engine' | 'export' | 'sheet';

/** Where the worker fails. */
export type FaultAt = 'run' | 'load' | 'hang';

/** The message the page posts to a worker that is to fail (before its 'init'). */
export interface FaultMessage {
  type: 'fault';
  at: FaultAt;
}

const AT: readonly FaultAt[] = ['run', 'load', 'hang'];

/** Faults already handed to a worker, by kind (each is taken once per page load). */
const taken = new Set<FaultWorker>();

/** The fault armed for the next `worker` started, taken (so only that one fails), or null:
 *  always null unless a test set `__cwndlabFault` on the page. */
export function takeFault(worker: FaultWorker, scope: object = globalThis): FaultMessage | null {
  if (taken.has(worker)) return null;
  const armed = (scope as { __cwndlabFault?: unknown }).__cwndlabFault;
  if (typeof armed !== 'object' || armed === null) return null;
  const { worker: which, at } = armed as { worker?: unknown; at?: unknown };
  if (which !== worker || !AT.includes(at as FaultAt)) return null;
  taken.add(worker);
  return { type: 'fault', at: at as FaultAt };
}

/** True when `msg` is a fault message (a worker's first message in a fault test). */
export function isFaultMessage(msg: unknown): msg is FaultMessage {
  return (
    typeof msg === 'object' &&
    msg !== null &&
    (msg as { type?: unknown }).type === 'fault' &&
    AT.includes((msg as { at?: unknown }).at as FaultAt)
  );
}

/** Spins forever: a worker that stops answering (at 'hang'). */
export function hang(): never {
  for (;;) {
    // Busy: no message is ever handled again.
  }
}
