// The page's worker plumbing, written once: starting a worker (with the test-only fault of
// engine/fault.ts), wiring its messages and its failure (a load error, a wasm trap) so that
// nothing arrives from a worker once it is stopped, numbering requests, and the one request
// at a time that the export and sheet workers serve (a new one supersedes the one before).
// The engine client (engine/client.ts) keeps its own pool, generations and watchdog on top
// of `attach` and `Replies`. The worker side (`serveWorker`): the fault switch, the engine's
// start on 'init', and every later message to the worker's handler, a thrown error answered.
import { isFaultMessage, takeFault, type FaultAt, type FaultWorker } from '../engine/fault';

/** What the page needs of a Worker (tests pass in-process stand-ins). */
export interface WorkerLike<To, From> {
  postMessage(msg: To, transfer?: Transferable[]): void;
  onmessage: ((event: MessageEvent<From>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
  terminate(): void;
}

/**
 * Starts a worker of `kind`: `create` is the `new Worker(new URL('./x.worker.ts',
 * import.meta.url), …)` expression (Vite bundles the worker from that exact expression, so
 * it stays beside its worker). In a fault test only (engine/fault.ts), the first worker of
 * that kind started is told to fail.
 */
export function spawnWorker<W>(kind: FaultWorker, create: () => Worker): W {
  const worker = create();
  const fault = takeFault(kind);
  if (fault) worker.postMessage(fault);
  return worker as unknown as W;
}

/** A worker wired up: its messages and its failure reach the owner until it is stopped. */
export interface Attached<To> {
  post(msg: To, transfer?: Transferable[]): void;
  /** Stops the worker; nothing of it arrives afterwards. */
  stop(): void;
  /** False once stopped. */
  readonly live: boolean;
}

/**
 * Wires `worker`: `onMessage` gets its messages, `onFailure` its error event (default
 * prevented: the page reports it in its own words) with the event's message, each only while
 * the worker has not been stopped.
 */
export function attach<To, From>(
  worker: WorkerLike<To, From>,
  onMessage: (msg: From) => void,
  onFailure: (detail: string) => void,
): Attached<To> {
  let live = true;
  worker.onmessage = (event) => {
    if (live) onMessage(event.data);
  };
  worker.onerror = (event) => {
    event.preventDefault?.();
    if (live) onFailure(event.message || '');
  };
  return {
    post: (msg, transfer) => {
      if (!live) return;
      if (transfer && transfer.length > 0) worker.postMessage(msg, transfer);
      else worker.postMessage(msg);
    },
    stop: () => {
      if (!live) return;
      live = false;
      worker.terminate();
    },
    get live() {
      return live;
    },
  };
}

/** Requests waiting for their answer, numbered 1, 2, 3… */
export class Replies<T> {
  private next = 0;
  private waiting = new Map<number, (value: T) => void>();

  /** A new request's number; `settle(id, …)` answers it. */
  add(done: (value: T) => void): number {
    this.next += 1;
    this.waiting.set(this.next, done);
    return this.next;
  }

  /** Answers request `id` (once); false if it was not waiting. */
  settle(id: number, value: T): boolean {
    const done = this.waiting.get(id);
    if (!done) return false;
    this.waiting.delete(id);
    done(value);
    return true;
  }

  /** Answers every waiting request with `value`. */
  settleAll(value: T): void {
    const list = [...this.waiting.values()];
    this.waiting.clear();
    for (const done of list) done(value);
  }

  get size(): number {
    return this.waiting.size;
  }
}

/** The messages of a worker that serves numbered requests one at a time. */
export type Ready = { type: 'ready' };
export type Failed = { type: 'failed'; id: number; message: string; fatal?: boolean };

/** The request in progress, as the channel's owner sees it. */
export interface Current<R> {
  id: number;
  resolve(value: R | null): void;
  reject(e: Error): void;
}

export interface ChannelOptions<To, From> {
  spawn: () => WorkerLike<To, From>;
  /** The worker's first message (its engine: `{type: 'init', module}`). */
  init: () => To;
  /** What a request says when its worker stopped or could not start (plain words). */
  lost: string;
  /** Told that request `id` was superseded or cancelled while its worker works on it. */
  onDropped?: (id: number, post: (msg: To) => void) => void;
}

/**
 * One worker, started on the first request, serving one request at a time: a new request
 * (or `cancel`) drops the one before, whose promise resolves with null. Messages of an
 * older request are ignored. A worker that fails (it could not load, its wasm trapped)
 * is stopped and its request rejected with `lost`; a request the engine refuses with a
 * trap (`failed` with `fatal`) stops it too; the next request starts a fresh worker.
 */
export class RequestChannel<To, From extends { type: string }, R> {
  private worker: Attached<To> | null = null;
  private current: Current<R> | null = null;
  private next = 0;

  constructor(private readonly options: ChannelOptions<To, From>) {}

  private ensure(): Attached<To> {
    if (this.worker?.live) return this.worker;
    const worker = attach(
      this.options.spawn(),
      (msg: From) => this.receive(msg),
      () => {
        this.stop();
        this.fail(this.current?.id ?? -1, this.options.lost);
      },
    );
    worker.post(this.options.init());
    this.worker = worker;
    return worker;
  }

  /** The message handler of the request in progress: it gets that request's messages
   *  (other than 'ready' and 'failed', which the channel handles). */
  private route: ((msg: From, current: Current<R>) => void) | null = null;

  /**
   * Starts request `build(id)`; `route` gets its messages and settles it (`current`).
   * Returns its number and its result (null: superseded or cancelled).
   */
  request(
    build: (id: number) => { msg: To; transfer?: Transferable[] },
    route: (msg: From, current: Current<R>) => void,
  ): { id: number; promise: Promise<R | null> } {
    this.dropCurrent();
    this.next += 1;
    const id = this.next;
    const promise = new Promise<R | null>((resolve, reject) => {
      this.current = { id, resolve, reject };
    });
    this.route = route;
    try {
      const { msg, transfer } = build(id);
      this.ensure().post(msg, transfer);
    } catch (e) {
      this.fail(id, e instanceof Error ? e.message : String(e));
    }
    return { id, promise };
  }

  /** Drops request `id` if it is the one in progress (its promise resolves with null). */
  cancel(id: number): void {
    if (this.current?.id === id) this.dropCurrent();
  }

  /** Posts to the worker of the request in progress (nothing if there is none). */
  post(msg: To): void {
    this.worker?.post(msg);
  }

  /** The request in progress is done (its owner settles it): later messages are ignored. */
  finish(id: number): void {
    if (this.current?.id === id) {
      this.current = null;
      this.route = null;
    }
  }

  /** Rejects request `id` (or, for -1, whichever is in progress) with `message`. */
  fail(id: number, message: string): void {
    const c = this.current;
    if (!c || (c.id !== id && id !== -1)) return;
    this.current = null;
    this.route = null;
    c.reject(new Error(message));
  }

  private dropCurrent() {
    const c = this.current;
    if (!c) return;
    this.current = null;
    this.route = null;
    if (this.worker?.live) this.options.onDropped?.(c.id, (msg) => this.worker?.post(msg));
    c.resolve(null);
  }

  private receive(msg: From) {
    if (msg.type === 'ready') return;
    const c = this.current;
    const m = msg as unknown as { id?: number };
    if (!c || m.id !== c.id) return;
    if (msg.type === 'failed') {
      const f = msg as unknown as Failed;
      // A trap: this worker's engine must not be used again; the next request starts a
      // fresh one.
      if (f.fatal) this.stop();
      this.fail(c.id, f.message);
      return;
    }
    this.route?.(msg, c);
  }

  /** Stops the worker (it failed); the next request starts a fresh one. */
  private stop() {
    this.worker?.stop();
    this.worker = null;
  }

  /** Drops the request in progress and stops the worker (the page goes away, a test ends). */
  dispose(): void {
    this.dropCurrent();
    this.stop();
  }
}

/** TEST-ONLY (engine/fault.ts): the fault a worker was told to have; `take` hands it out once. */
export interface ArmedFault {
  take(): FaultAt | null;
}

/**
 * A worker's side: its first messages may be a test's fault (kept for `start`), then
 * `{type: 'init', module}`: `start(module, fault)` instantiates the engine, says 'ready' and
 * returns the handler every later message goes to; an error it throws is answered with
 * `failed(request, error)`. A fault armed at 'load' makes the start fail as a worker that
 * cannot load does (an error event on the page's Worker).
 */
export function serveWorker<To extends { type: string }>(
  kind: FaultWorker,
  scope: { onmessage: ((event: MessageEvent<unknown>) => void) | null },
  start: (module: WebAssembly.Module, fault: ArmedFault) => (request: To) => void,
  failed: (request: To, e: unknown) => void,
): void {
  let armed: FaultAt | null = null;
  const fault: ArmedFault = {
    take: () => {
      const at = armed;
      armed = null;
      return at;
    },
  };
  let handle: ((request: To) => void) | null = null;
  scope.onmessage = (event) => {
    const msg = event.data;
    if (isFaultMessage(msg)) {
      armed = msg.at;
      return;
    }
    const request = msg as To & { module?: WebAssembly.Module };
    if (request.type === 'init' && request.module) {
      if (armed === 'load') throw new Error(`cwndlab test fault: the ${kind} worker failed to start`);
      handle = start(request.module, fault);
      return;
    }
    try {
      handle?.(request);
    } catch (e) {
      failed(request, e);
    }
  };
}
