import { describe, expect, it } from 'vitest';
import { attach, Replies, RequestChannel, serveWorker, type ArmedFault, type WorkerLike } from './workerRpc';

type To = { type: 'init' } | { type: 'ask'; id: number; q: string } | { type: 'cancel'; id: number };
type From =
  | { type: 'ready' }
  | { type: 'answer'; id: number; a: string }
  | { type: 'failed'; id: number; message: string; fatal?: boolean };

/** A worker stand-in that records what it is sent and answers when told to. */
class FakeWorker implements WorkerLike<To, From> {
  sent: To[] = [];
  terminated = false;
  onmessage: ((event: MessageEvent<From>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  postMessage(msg: To) {
    this.sent.push(msg);
  }
  terminate() {
    this.terminated = true;
  }
  reply(msg: From) {
    this.onmessage?.({ data: msg } as MessageEvent<From>);
  }
  fail(message = 'boom') {
    let prevented = false;
    this.onerror?.({ message, preventDefault: () => (prevented = true) } as unknown as ErrorEvent);
    return prevented;
  }
}

function channel() {
  const workers: FakeWorker[] = [];
  const c = new RequestChannel<To, From, string>({
    spawn: () => {
      const w = new FakeWorker();
      workers.push(w);
      return w;
    },
    init: () => ({ type: 'init' }),
    lost: 'its worker stopped',
    onDropped: (id, post) => post({ type: 'cancel', id }),
  });
  const ask = (q: string) =>
    c.request(
      (id) => ({ msg: { type: 'ask', id, q } }),
      (msg, current) => {
        if (msg.type !== 'answer') return;
        c.finish(current.id);
        current.resolve(msg.a);
      },
    );
  return { c, workers, ask };
}

describe('attach', () => {
  it('passes messages and failures on until the worker is stopped, then nothing', () => {
    const w = new FakeWorker();
    const got: string[] = [];
    const a = attach<To, From>(
      w,
      (m) => got.push(m.type),
      (detail) => got.push(`failed: ${detail}`),
    );
    w.reply({ type: 'ready' });
    expect(w.fail('trap')).toBe(true);
    a.post({ type: 'init' });
    a.stop();
    expect(a.live).toBe(false);
    expect(w.terminated).toBe(true);
    w.reply({ type: 'ready' });
    w.fail('late');
    a.post({ type: 'init' });
    expect(got).toEqual(['ready', 'failed: trap']);
    expect(w.sent).toEqual([{ type: 'init' }]);
  });
});

describe('Replies', () => {
  it('numbers requests and answers each once; settleAll answers the rest', () => {
    const r = new Replies<string>();
    const got: string[] = [];
    const a = r.add((v) => got.push(`a:${v}`));
    const b = r.add((v) => got.push(`b:${v}`));
    const c = r.add((v) => got.push(`c:${v}`));
    expect([a, b, c]).toEqual([1, 2, 3]);
    expect(r.settle(b, 'x')).toBe(true);
    expect(r.settle(b, 'y')).toBe(false);
    r.settleAll('gone');
    expect(r.size).toBe(0);
    expect(got).toEqual(['b:x', 'a:gone', 'c:gone']);
  });
});

describe('RequestChannel', () => {
  it('starts its worker on the first request with its init, and numbers requests', async () => {
    const { workers, ask } = channel();
    expect(workers).toHaveLength(0);
    const first = ask('one');
    expect(workers).toHaveLength(1);
    expect(workers[0]?.sent).toEqual([{ type: 'init' }, { type: 'ask', id: 1, q: 'one' }]);
    workers[0]?.reply({ type: 'ready' });
    workers[0]?.reply({ type: 'answer', id: 1, a: 'yes' });
    await expect(first.promise).resolves.toBe('yes');
  });

  it('a new request supersedes the one before: it resolves with null, the worker is told, its late answer is ignored', async () => {
    const { workers, ask } = channel();
    const first = ask('one');
    const second = ask('two');
    await expect(first.promise).resolves.toBeNull();
    const w = workers[0];
    expect(w?.sent.slice(1)).toEqual([
      { type: 'ask', id: 1, q: 'one' },
      { type: 'cancel', id: 1 },
      { type: 'ask', id: 2, q: 'two' },
    ]);
    w?.reply({ type: 'answer', id: 1, a: 'stale' });
    w?.reply({ type: 'answer', id: 2, a: 'fresh' });
    await expect(second.promise).resolves.toBe('fresh');
    expect(workers).toHaveLength(1);
  });

  it('cancel drops only the request in progress', async () => {
    const { c, workers, ask } = channel();
    const first = ask('one');
    c.cancel(99);
    c.cancel(first.id);
    await expect(first.promise).resolves.toBeNull();
    expect(workers[0]?.sent.at(-1)).toEqual({ type: 'cancel', id: 1 });
  });

  it('a worker that fails rejects its request in plain words; the next request starts a fresh worker', async () => {
    const { workers, ask } = channel();
    const first = ask('one');
    expect(workers[0]?.fail('RuntimeError: unreachable')).toBe(true);
    await expect(first.promise).rejects.toThrow('its worker stopped');
    expect(workers[0]?.terminated).toBe(true);
    const second = ask('two');
    expect(workers).toHaveLength(2);
    expect(workers[1]?.sent).toEqual([{ type: 'init' }, { type: 'ask', id: 2, q: 'two' }]);
    workers[1]?.reply({ type: 'answer', id: 2, a: 'ok' });
    await expect(second.promise).resolves.toBe('ok');
  });

  it("the engine's refusal rejects with its reason; a trap (fatal) also replaces the worker", async () => {
    const { workers, ask } = channel();
    const first = ask('one');
    workers[0]?.reply({ type: 'failed', id: 1, message: 'too large' });
    await expect(first.promise).rejects.toThrow('too large');
    expect(workers[0]?.terminated).toBe(false);
    const second = ask('two');
    expect(workers).toHaveLength(1);
    workers[0]?.reply({ type: 'failed', id: 2, message: 'the engine stopped', fatal: true });
    await expect(second.promise).rejects.toThrow('the engine stopped');
    expect(workers[0]?.terminated).toBe(true);
    ask('three');
    expect(workers).toHaveLength(2);
  });

  it('dispose drops the request in progress and stops the worker', async () => {
    const { c, workers, ask } = channel();
    const first = ask('one');
    c.dispose();
    await expect(first.promise).resolves.toBeNull();
    expect(workers[0]?.terminated).toBe(true);
  });
});

describe('serveWorker (the worker side)', () => {
  type Req = { type: 'init'; module: WebAssembly.Module } | { type: 'job'; n: number };
  const module = {} as WebAssembly.Module;
  const send = (scope: { onmessage: ((e: MessageEvent<unknown>) => void) | null }, data: unknown) =>
    scope.onmessage?.({ data } as MessageEvent<unknown>);

  it("starts the engine on 'init', then hands each request on; a thrown error is answered", () => {
    const scope: { onmessage: ((e: MessageEvent<unknown>) => void) | null } = { onmessage: null };
    const log: string[] = [];
    let fault: ArmedFault | null = null;
    serveWorker<Req>(
      'export',
      scope,
      (m, f) => {
        fault = f;
        log.push(m === module ? 'started' : 'wrong module');
        return (r) => {
          if (r.type === 'job' && r.n < 0) throw new Error('negative');
          log.push(`job ${r.type === 'job' ? r.n : ''}`);
        };
      },
      (r, e) => log.push(`failed ${r.type}: ${e instanceof Error ? e.message : String(e)}`),
    );
    send(scope, { type: 'job', n: 0 });
    send(scope, { type: 'init', module });
    send(scope, { type: 'job', n: 1 });
    send(scope, { type: 'job', n: -1 });
    expect(log).toEqual(['started', 'job 1', 'failed job: negative']);
    expect(fault!.take()).toBeNull();
  });

  it("keeps a test's fault for the engine to take once; at 'load' the start fails", () => {
    const scope: { onmessage: ((e: MessageEvent<unknown>) => void) | null } = { onmessage: null };
    let taken: (string | null)[] = [];
    serveWorker<Req>(
      'sheet',
      scope,
      (_m, f) => {
        taken = [f.take(), f.take()];
        return () => {};
      },
      () => {},
    );
    send(scope, { type: 'fault', at: 'run' });
    send(scope, { type: 'init', module });
    expect(taken).toEqual(['run', null]);

    const failing: { onmessage: ((e: MessageEvent<unknown>) => void) | null } = { onmessage: null };
    let started = false;
    serveWorker<Req>(
      'sheet',
      failing,
      () => {
        started = true;
        return () => {};
      },
      () => {},
    );
    send(failing, { type: 'fault', at: 'load' });
    expect(() => send(failing, { type: 'init', module })).toThrow('the sheet worker failed to start');
    expect(started).toBe(false);
  });
});
