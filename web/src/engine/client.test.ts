import { describe, expect, it } from 'vitest';
import { InProcessWorker, waitFor } from '../test/inProcessWorker';
import { EngineClient, type WorkerLike } from './client';
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

const runsOf = (keys: string[]) =>
  keys.map((key) => ({ key, scenarioJson: JSON.stringify({ ...tables.defaultScenario, duration: 2 }) }));

describe('the engine client', () => {
  it('spreads a comparison over its workers and passes on only the current generation', async () => {
    RecordingWorker.sent = [];
    const got: FromWorker[] = [];
    const client = new EngineClient(
      {} as WebAssembly.Module,
      () => new RecordingWorker(),
      2,
      (m) => got.push(m),
    );
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

  it('gives up on workers that keep failing, with a message, instead of respawning forever', async () => {
    let spawned = 0;
    const got: FromWorker[] = [];
    const client = new EngineClient(
      {} as WebAssembly.Module,
      () => {
        spawned += 1;
        return new UnloadableWorker();
      },
      2,
      (m) => got.push(m),
    );
    await waitFor(() => spawned === 6);
    await new Promise((r) => setTimeout(r, 20));
    expect(spawned).toBe(6);
    client.start('full', runsOf(['reno']));
    const failed = got.filter((m): m is Extract<FromWorker, { type: 'failed' }> => m.type === 'failed');
    expect(failed.at(-1)?.message).toContain('could not start; reload the page');
    expect(failed.at(-1)?.key).toBe('reno');
    client.dispose();
  });
});
