import { describe, expect, it } from 'vitest';
import { InProcessWorker, waitFor } from '../test/inProcessWorker';
import { ENGINE_FAULT_TEXT, EngineClient, type EngineClientOptions, type WorkerLike } from './client';
import type { FromWorker, ToWorker } from './protocol';
import { tables } from './tables';

/** A worker whose script cannot load: it reports an error as soon as it gets a message. */
class UnloadableWorker implements WorkerLike {
  onmessage: ((event: MessageEvent<FromWorker>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  postMessage(): void {
    setTimeout(() => this.onerror?.({ message: 'script failed to load', preventDefault() {} } as ErrorEvent), 0);
  }
  terminate(): void {}
}

/** A worker whose wasm traps in its first run: every run it holds fails, fatally, with the
 *  trap's message (what workerHandler.ts posts when the engine panics). */
class TrappingWorker implements WorkerLike {
  onmessage: ((event: MessageEvent<FromWorker>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  terminated = false;
  postMessage(msg: ToWorker): void {
    const reply = (data: FromWorker) =>
      setTimeout(() => {
        if (!this.terminated) this.onmessage?.({ data } as MessageEvent<FromWorker>);
      }, 0);
    if (msg.type === 'init') reply({ type: 'ready' });
    if (msg.type === 'run') {
      for (const run of msg.runs) {
        reply({ type: 'failed', gen: msg.gen, key: run.key, message: 'unreachable', problems: [], fatal: true });
      }
    }
  }
  terminate(): void {
    this.terminated = true;
  }
}

/** A worker that starts, then never answers again (a busy loop). */
class SilentWorker implements WorkerLike {
  onmessage: ((event: MessageEvent<FromWorker>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  terminated = false;
  postMessage(): void {}
  terminate(): void {
    this.terminated = true;
  }
}

/** Records what the page sends to a real (in-process) worker. */
class RecordingWorker extends InProcessWorker {
  static sent: ToWorker[][] = [];
  private log: ToWorker[] = [];
  constructor() {
    super();
    RecordingWorker.sent.push(this.log);
  }
  override postMessage(msg: ToWorker): void {
    this.log.push(msg);
    super.postMessage(msg);
  }
}

/** A real (in-process) worker whose messages reach the page `delayMs` late (a busy page). */
class SlowChannel implements WorkerLike {
  onmessage: ((event: MessageEvent<FromWorker>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  private inner = new InProcessWorker();
  constructor(delayMs: number) {
    this.inner.onmessage = (event) => setTimeout(() => this.onmessage?.(event), delayMs);
  }
  postMessage(msg: ToWorker): void {
    this.inner.postMessage(msg);
  }
  terminate(): void {
    this.inner.terminate();
  }
}

/** Two recording workers (their logs start empty) and what the page is passed. */
function recordingPool(options: EngineClientOptions = {}) {
  RecordingWorker.sent = [];
  const got: FromWorker[] = [];
  const client = new EngineClient(
    {} as WebAssembly.Module,
    () => new RecordingWorker(),
    2,
    (m) => got.push(m),
    options,
  );
  return { client, got };
}

const runsOf = (keys: string[]) =>
  keys.map((key) => ({ key, scenarioJson: JSON.stringify({ ...tables.defaultScenario, duration: 2 }) }));

describe('the engine client', () => {
  it('spreads a comparison over its workers and passes on only the current generation', async () => {
    const { client, got } = recordingPool();
    client.start('full', runsOf(['a', 'b']));
    const gen = client.start('full', runsOf(['old_tahoe', 'tahoe', 'reno', 'newreno']));
    await waitFor(() => got.filter((m) => m.type === 'chunk' && m.finished).length === 4);
    expect(new Set(got.map((m) => ('gen' in m ? m.gen : -1)))).toEqual(new Set([gen]));
    const lastRun = RecordingWorker.sent.map((log) => log.filter((m) => m.type === 'run').at(-1));
    expect(lastRun.map((m) => (m?.type === 'run' ? m.runs.map((r) => r.key) : []))).toEqual([
      ['old_tahoe', 'reno'],
      ['tahoe', 'newreno'],
    ]);
    client.dispose();
  });

  it('computed ahead: a comparison asked for later is answered at once, once, under its generation', async () => {
    const { client, got } = recordingPool({ hangMs: 100 });
    const fast = runsOf(['tahoe', 'reno', 'newreno']);
    const other = runsOf(['tahoe']).map((r) => ({
      ...r,
      scenarioJson: r.scenarioJson.replace('"duration":2', '"duration":3'),
    }));
    client.ahead([fast, other]);
    // Each worker gets its share of both comparisons, spread as `start` spreads them.
    await waitFor(() => RecordingWorker.sent.every((log) => log.some((m) => m.type === 'ahead')));
    const aheadKeys = RecordingWorker.sent.map((log) => {
      const m = log.find((x) => x.type === 'ahead');
      return m?.type === 'ahead' ? m.runs.map((r) => r.key) : [];
    });
    expect(aheadKeys).toEqual([['tahoe', 'newreno', 'tahoe'], ['reno']]);
    // Nothing reaches the page before it asks; then the three results come in one go.
    await new Promise((r) => setTimeout(r, 300));
    expect(got.filter((m) => m.type === 'chunk')).toEqual([]);
    const gen = client.start('full', fast);
    await Promise.resolve();
    const chunks = got.filter((m): m is Extract<FromWorker, { type: 'chunk' }> => m.type === 'chunk');
    expect(chunks.map((m) => [m.key, m.gen, m.finished, m.ahead])).toEqual([
      ['tahoe', gen, true, true],
      ['newreno', gen, true, true],
      ['reno', gen, true, true],
    ]);
    // No watchdog waits for them, and nothing else arrives for them.
    await new Promise((r) => setTimeout(r, 250));
    expect(got.filter((m) => m.type === 'chunk')).toHaveLength(3);
    expect(got.some((m) => m.type === 'failed')).toBe(false);
    client.dispose();
  });

  it('computed ahead: each comparison is reported held once, with the very messages a step is answered with', async () => {
    const { client, got } = recordingPool({ hangMs: 1000 });
    const first = runsOf(['tahoe', 'reno']);
    const second = runsOf(['newreno']).map((r) => ({
      ...r,
      scenarioJson: r.scenarioJson.replace('"duration":2', '"duration":3'),
    }));
    const held: [number, string[]][] = [];
    const results: Extract<FromWorker, { type: 'chunk' }>[][] = [];
    client.ahead([first, second], (i, msgs) => {
      held.push([i, msgs.map((m) => m.key)]);
      results[i] = [...msgs];
    });
    await waitFor(() => held.length === 2);
    await new Promise((r) => setTimeout(r, 100));
    // Once each, whatever order the workers finish in, each with all its runs.
    expect(held.map(([i]) => i).sort()).toEqual([0, 1]);
    expect(held.find(([i]) => i === 0)?.[1].sort()).toEqual(['reno', 'tahoe']);
    expect(held.find(([i]) => i === 1)?.[1]).toEqual(['newreno']);
    // Listing them again reports what is already held (in a microtask), not twice.
    const again: number[] = [];
    client.ahead([first], (i) => again.push(i));
    await Promise.resolve();
    await Promise.resolve();
    expect(again).toEqual([0]);
    // The step is answered with the same chunks (the page matches drawings by them).
    client.start('full', first);
    await Promise.resolve();
    const chunks = got.filter((m): m is Extract<FromWorker, { type: 'chunk' }> => m.type === 'chunk');
    expect(chunks).toHaveLength(2);
    for (const c of chunks) {
      const same = results[0]?.find((m) => m.key === c.key);
      expect(c.chunk).toBe(same?.chunk);
      expect(c.summary).toBe(same?.summary);
    }
    client.dispose();
  });

  it('computed ahead: a run asked for while still computing finishes as the request’s run, once', async () => {
    const got: FromWorker[] = [];
    const client = new EngineClient(
      {} as WebAssembly.Module,
      () => new InProcessWorker(),
      1,
      (m) => got.push(m),
    );
    const runs = runsOf(['reno']);
    client.ahead([runs]);
    const gen = client.start('full', runs);
    await waitFor(() => got.some((m) => m.type === 'chunk' && m.finished));
    await new Promise((r) => setTimeout(r, 100));
    const finished = got.filter((m) => m.type === 'chunk' && m.finished);
    expect(finished).toHaveLength(1);
    expect(finished[0]).toMatchObject({ gen, key: 'reno', ahead: true });
    client.dispose();
  });

  it('computed ahead: a result on its way when the run is asked for is that request’s, once', async () => {
    const got: FromWorker[] = [];
    const client = new EngineClient(
      {} as WebAssembly.Module,
      () => new SlowChannel(600),
      1,
      (m) => got.push(m),
    );
    const runs = runsOf(['reno']);
    client.ahead([runs]);
    // The worker finishes the run ahead and posts it; the page asks before it arrives. The
    // worker adopts the finished run and posts nothing more; what arrives is the request's.
    await new Promise((r) => setTimeout(r, 300));
    expect(got.filter((m) => m.type === 'chunk')).toEqual([]);
    const gen = client.start('full', runs);
    await waitFor(() => got.some((m) => m.type === 'chunk' && m.finished));
    await new Promise((r) => setTimeout(r, 400));
    const chunks = got.filter((m) => m.type === 'chunk');
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatchObject({ gen, key: 'reno', ahead: true, finished: true });
    expect(got.some((m) => m.type === 'failed')).toBe(false);
    client.dispose();
  });

  it('while the engine is still loading, what is posted waits, then follows init in order', async () => {
    RecordingWorker.sent = [];
    const got: FromWorker[] = [];
    let arrive: (m: WebAssembly.Module) => void = () => {};
    const module = new Promise<WebAssembly.Module>((resolve) => (arrive = resolve));
    const client = new EngineClient(
      module,
      () => new RecordingWorker(),
      1,
      (m) => got.push(m),
      { hangMs: 50 },
    );
    const gen = client.start('full', runsOf(['reno']));
    // The page renders and the watchdog runs meanwhile: nothing is posted, nothing fails.
    await new Promise((r) => setTimeout(r, 160));
    expect(RecordingWorker.sent[0]).toEqual([]);
    expect(got).toEqual([]);
    arrive({} as WebAssembly.Module);
    await waitFor(() => got.some((m) => m.type === 'chunk' && m.finished));
    expect(RecordingWorker.sent[0]?.map((m) => m.type).slice(0, 2)).toEqual(['init', 'run']);
    expect(got.every((m) => !('gen' in m) || m.gen === gen)).toBe(true);
    expect(got.some((m) => m.type === 'failed')).toBe(false);
    client.dispose();
  });

  it('started() settles when a worker says it is ready, or when one cannot start, and not before', async () => {
    /** A client of one kind of worker, and whether its started() has settled. */
    const clientOf = (module: WebAssembly.Module | Promise<WebAssembly.Module>, spawn: () => WorkerLike) => {
      const client = new EngineClient(module, spawn, 1, () => {});
      let done = false;
      void client.started().then(() => (done = true));
      return { client, settled: () => done };
    };
    const notYet = async (settled: () => boolean) => {
      await new Promise((r) => setTimeout(r, 20));
      expect(settled()).toBe(false);
    };
    // Ready: not before the worker has its engine (the module arrives later), then at once.
    let give: (m: WebAssembly.Module) => void = () => {};
    const ready = clientOf(new Promise((resolve) => (give = resolve)), () => new TrappingWorker());
    await notYet(ready.settled);
    give({} as WebAssembly.Module);
    await waitFor(ready.settled);
    ready.client.dispose();
    // A worker that never answers: never settled by the client (start.tsx bounds the wait).
    const silent = clientOf({} as WebAssembly.Module, () => new SilentWorker());
    await notYet(silent.settled);
    silent.client.dispose();
    // A worker that cannot load: settled once the failure is seen.
    const unloadable = clientOf({} as WebAssembly.Module, () => new UnloadableWorker());
    unloadable.client.start('full', runsOf(['reno']));
    await waitFor(unloadable.settled);
    unloadable.client.dispose();
  });

  it('a worker that cannot load: its runs go to one fresh worker, then fail in plain words; retried only on the next comparison', async () => {
    let spawned = 0;
    const terminated: number[] = [];
    const got: FromWorker[] = [];
    const client = new EngineClient(
      {} as WebAssembly.Module,
      () => {
        spawned += 1;
        const n = spawned;
        const w = new UnloadableWorker();
        w.terminate = () => terminated.push(n);
        return w;
      },
      2,
      (m) => got.push(m),
    );
    client.start('full', runsOf(['reno', 'tahoe']));
    await waitFor(() => got.filter((m) => m.type === 'failed').length === 2);
    const failed = got.filter((m): m is Extract<FromWorker, { type: 'failed' }> => m.type === 'failed');
    expect(failed.map((m) => m.key).sort()).toEqual(['reno', 'tahoe']);
    for (const m of failed) {
      expect(m.fatal).toBe(true);
      expect(m.message).toBe(ENGINE_FAULT_TEXT.load);
      expect(m.detail).toBe('script failed to load');
    }
    // Each slot's worker failed as it started, then the one that took its runs failed too.
    expect(terminated.sort()).toEqual([1, 2, 3, 4]);
    // No respawning in a loop: nothing happens until the next comparison.
    await new Promise((r) => setTimeout(r, 160));
    expect(spawned).toBe(4);
    client.start('full', runsOf(['reno']));
    expect(spawned).toBe(6);
    client.dispose();
  });

  it('a worker that fails as it starts, holding runs it never began: a fresh worker takes them, and nothing fails', async () => {
    const spawnedKinds: string[] = [];
    const got: FromWorker[] = [];
    const client = new EngineClient(
      {} as WebAssembly.Module,
      () => {
        const first = spawnedKinds.length === 0;
        spawnedKinds.push(first ? 'unloadable' : 'real');
        return first ? new UnloadableWorker() : new InProcessWorker();
      },
      1,
      (m) => got.push(m),
    );
    // The comparison reaches the worker before its start has failed.
    const gen = client.start('full', runsOf(['reno', 'newreno']));
    await waitFor(() => got.filter((m) => m.type === 'chunk' && m.finished).length === 2);
    expect(spawnedKinds).toEqual(['unloadable', 'real']);
    expect(got.filter((m) => m.type === 'failed')).toEqual([]);
    expect(new Set(got.map((m) => ('gen' in m ? m.gen : -1)))).toEqual(new Set([gen]));
    client.dispose();
  });

  it('a worker whose wasm trapped is terminated, its unfinished runs fail, and the next comparison runs on a fresh worker', async () => {
    const workers: (InProcessWorker | TrappingWorker)[] = [];
    const got: FromWorker[] = [];
    const client = new EngineClient(
      {} as WebAssembly.Module,
      () => {
        const w = workers.length === 0 ? new TrappingWorker() : new InProcessWorker();
        workers.push(w);
        return w;
      },
      1,
      (m) => got.push(m),
    );
    const first = client.start('full', runsOf(['reno', 'newreno']));
    await waitFor(() => got.filter((m) => m.type === 'failed').length === 2);
    const failed = got.filter((m): m is Extract<FromWorker, { type: 'failed' }> => m.type === 'failed');
    expect(failed.map((m) => [m.gen, m.key, m.message, m.detail])).toEqual([
      [first, 'reno', ENGINE_FAULT_TEXT.crashed, 'unreachable'],
      [first, 'newreno', ENGINE_FAULT_TEXT.crashed, 'unreachable'],
    ]);
    expect(ENGINE_FAULT_TEXT.crashed).not.toMatch(/unreachable|RuntimeError|panic/);
    expect((workers[0] as TrappingWorker).terminated).toBe(true);
    // The trapped worker's later messages are ignored.
    expect(got.filter((m) => m.type === 'chunk')).toEqual([]);
    got.length = 0;
    const second = client.start('full', runsOf(['reno', 'newreno']));
    expect(workers).toHaveLength(2);
    await waitFor(() => got.filter((m) => m.type === 'chunk' && m.finished).length === 2);
    expect(got.filter((m) => m.type === 'failed')).toEqual([]);
    expect(new Set(got.map((m) => ('gen' in m ? m.gen : -1)))).toEqual(new Set([second]));
    client.dispose();
  });

  it('a worker that stops answering a full comparison is taken as hung, stopped, and replaced on the next one', async () => {
    const silent: SilentWorker[] = [];
    const got: FromWorker[] = [];
    const client = new EngineClient(
      {} as WebAssembly.Module,
      () => {
        const w = new SilentWorker();
        silent.push(w);
        return w;
      },
      1,
      (m) => got.push(m),
      { hangMs: 40 },
    );
    client.start('full', runsOf(['reno']));
    await waitFor(() => got.length === 1, 2_000);
    expect(got[0]).toMatchObject({ type: 'failed', key: 'reno', fatal: true, message: ENGINE_FAULT_TEXT.hang });
    expect(silent[0]?.terminated).toBe(true);
    // A finished comparison is not watched: live runs and idle workers never time out.
    client.start('live', runsOf(['reno']));
    expect(silent).toHaveLength(2);
    await new Promise((r) => setTimeout(r, 100));
    expect(got).toHaveLength(1);
    expect(silent[1]?.terminated).toBe(false);
    client.dispose();
  });
});
