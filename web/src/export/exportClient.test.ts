// The page side of exports with the real engine in an in-process worker, from the app's own
// state (a comparison run by the app harness): one folder per algorithm in a zip whose files
// are the engine's bytes, a single file as itself, each exported scenario reproducing its
// run's digest, cancel, refusal, a worker that dies, and an engine that traps.
import { afterEach, describe, expect, it } from 'vitest';
import { tables } from '../engine/tables';
import { defaultShareState } from '../scenario/shareState';
import { encodeShareState } from '../scenario/url';
import { createHarness } from '../test/appHarness';
import { InProcessExportWorker } from '../test/exportWorker';
import { waitFor } from '../test/inProcessWorker';
import { engineWasm } from '../test/wasm';
import { exportRuns } from './describe';
import { EXPORT_WORKER_FAILED, ExportClient, packaging, type ExportWorkerLike } from './exportClient';
import { EXPORT_TRAP_TEXT, failure } from './exportHandler';
import type { FromExportWorker, ToExportWorker } from './protocol';

const wasm = engineWasm();
const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((f) => f()));

/** Every entry of a STORE zip: name → bytes. */
function unzip(bytes: Uint8Array): Map<string, Uint8Array> {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = bytes.length - 22;
  const count = v.getUint16(end + 10, true);
  let p = v.getUint32(end + 16, true);
  const out = new Map<string, Uint8Array>();
  for (let i = 0; i < count; i += 1) {
    const size = v.getUint32(p + 24, true);
    const nameLen = v.getUint16(p + 28, true);
    const offset = v.getUint32(p + 42, true);
    const name = new TextDecoder().decode(bytes.subarray(p + 46, p + 46 + nameLen));
    const start = offset + 30 + v.getUint16(offset + 26, true) + v.getUint16(offset + 28, true);
    out.set(name, bytes.slice(start, start + size));
    p += 46 + nameLen;
  }
  return out;
}

/** The app with a short preset compared on two algorithms, run to the end. */
async function comparison() {
  const preset = tables.presets.find((p) => p.name === 'fall-floyd-reno-3drops');
  if (!preset) throw new Error('no preset');
  const query = encodeShareState({
    ...defaultShareState(),
    scenario: preset.scenario,
    algorithms: ['reno', 'newreno'],
  });
  const h = createHarness(`?${query}`);
  cleanups.push(() => h.dispose());
  h.controller.runFull();
  await waitFor(h.allDone);
  return h;
}

function client(worker: () => ExportWorkerLike = () => new InProcessExportWorker({ sliceMs: 0, eventsPerStep: 200 })) {
  const c = new ExportClient({} as WebAssembly.Module, worker);
  cleanups.push(() => c.dispose());
  return c;
}

describe('ExportClient', () => {
  it('exports a comparison as a zip, one folder per algorithm, files as the engine writes them', async () => {
    const h = await comparison();
    const s = h.store.getState();
    const runs = exportRuns(s);
    expect(runs.map((r) => r.folder)).toEqual(['reno', 'newreno']);
    const progress: number[] = [];
    const out = await client().run({ format: 'csv', tables: ['series', 'summary', 'scenario'] }, runs, {
      zipName: 'cwndlab-test',
      onProgress: (p) => progress.push(p),
      date: new Date(2024, 0, 1),
    }).promise;
    expect(out?.name).toBe('cwndlab-test.zip');
    expect(out?.blob.type).toBe('application/zip');
    const files = unzip(new Uint8Array(await (out?.blob ?? new Blob()).arrayBuffer()));
    expect([...files.keys()]).toEqual([
      'reno/series_flow0.csv',
      'reno/summary.csv',
      'reno/scenario.json',
      'newreno/series_flow0.csv',
      'newreno/summary.csv',
      'newreno/scenario.json',
    ]);
    expect(out?.files.map((f) => f.path)).toEqual([...files.keys()]);
    expect(progress[progress.length - 1]).toBe(1);
    for (const run of runs) {
      // The engine's own bytes for that run.
      const ex = new wasm.Exporter(run.scenarioJson, '{"format":"csv","tables":["series"]}');
      while (!ex.step(1 << 20));
      expect(files.get(`${run.folder}/series_flow0.csv`)).toEqual(ex.take(0));
      ex.free();
      // The exported scenario reproduces the run the page shows (same digest).
      const text = new TextDecoder().decode(files.get(`${run.folder}/scenario.json`));
      const sim = new wasm.Sim(text);
      sim.run_to_end();
      expect(sim.digest()).toBe(s.runs[run.key]?.summary?.digest);
      sim.free();
    }
  });

  it('saves exactly one file as itself and several as a zip (the decision)', () => {
    const summary = { path: 'reno/summary.csv', mime: 'text/csv' };
    expect(packaging([summary], 'cwndlab-x-summary-csv')).toEqual({
      kind: 'file',
      name: 'summary.csv',
      mime: 'text/csv',
    });
    expect(packaging([{ path: 'capture.pcap', mime: 'application/vnd.tcpdump.pcap' }], 'z')).toEqual({
      kind: 'file',
      name: 'capture.pcap',
      mime: 'application/vnd.tcpdump.pcap',
    });
    const two = [summary, { path: 'newreno/summary.csv', mime: 'text/csv' }];
    expect(packaging(two, 'cwndlab-x-summary-csv')).toEqual({
      kind: 'zip',
      name: 'cwndlab-x-summary-csv.zip',
      mime: 'application/zip',
    });
    expect(packaging([], 'empty').kind).toBe('zip');
  });

  it('one file comes as itself, named as the engine names it', async () => {
    const h = await comparison();
    h.store.getState().setAlgorithms(['reno']);
    const out = await client().run({ format: 'json', tables: ['summary'] }, exportRuns(h.store.getState()), {
      zipName: 'x',
    }).promise;
    expect(out?.name).toBe('summary.json');
    expect(out?.blob.type).toBe('application/json');
    const summary = JSON.parse(await (out?.blob ?? new Blob()).text()) as { flows: { algorithm: string }[] };
    expect(summary.flows[0]?.algorithm).toBe('reno');
  });

  it('cancel resolves with null and a new export then runs; a new export replaces the running one', async () => {
    const h = await comparison();
    const runs = exportRuns(h.store.getState());
    const c = client(() => new InProcessExportWorker({ sliceMs: 0, eventsPerStep: 20 }));
    const first = c.run({ format: 'csv' }, runs, { zipName: 'a' });
    first.cancel();
    expect(await first.promise).toBeNull();
    const second = c.run({ format: 'csv' }, runs, { zipName: 'b' });
    const third = c.run({ format: 'csv', tables: ['summary'] }, runs, { zipName: 'c' });
    expect(await second.promise).toBeNull();
    expect((await third.promise)?.name).toBe('c.zip');
  });

  it('a refused export rejects with the engine’s message; the client keeps working', async () => {
    const h = await comparison();
    const s = h.store.getState();
    const huge = { ...s, scenario: { ...s.scenario, duration: 100000, network: { bottleneck: { bandwidth: 1e9 } } } };
    const c = client();
    await expect(c.run({ format: 'csv' }, exportRuns(huge), { zipName: 'x' }).promise).rejects.toThrow(
      /page builds files up to \d+ MB.*cwndlab run/,
    );
    const ok = await c.run({ format: 'csv', tables: ['summary'] }, exportRuns(s), { zipName: 'x' }).promise;
    expect(ok?.files).toHaveLength(2);
  });

  it('a worker that dies fails the export with its message, and the next export starts a new worker', async () => {
    const h = await comparison();
    const runs = exportRuns(h.store.getState());
    let spawned = 0;
    const c = client(() => {
      spawned += 1;
      if (spawned > 1) return new InProcessExportWorker({ sliceMs: 0 });
      const dying: ExportWorkerLike = {
        onmessage: null,
        onerror: null,
        postMessage(msg: ToExportWorker) {
          if (msg.type === 'export') {
            setTimeout(() => dying.onerror?.({ message: 'out of memory', preventDefault() {} } as ErrorEvent), 0);
          }
        },
        terminate() {},
      };
      return dying;
    });
    await expect(c.run({ format: 'csv' }, runs, { zipName: 'x' }).promise).rejects.toThrow(EXPORT_WORKER_FAILED);
    const ok = await c.run({ format: 'json', tables: ['summary'] }, runs, { zipName: 'x' }).promise;
    expect(ok?.name).toBe('x.zip');
    expect(spawned).toBe(2);
  });

  it('an engine that trapped (a fatal failure) fails the export in plain words; its worker is replaced', async () => {
    const h = await comparison();
    const runs = exportRuns(h.store.getState());
    let spawned = 0;
    let terminated = 0;
    const c = client(() => {
      spawned += 1;
      if (spawned > 1) return new InProcessExportWorker({ sliceMs: 0 });
      const trapping: ExportWorkerLike = {
        onmessage: null,
        onerror: null,
        postMessage(msg: ToExportWorker) {
          if (msg.type !== 'export') return;
          const data: FromExportWorker = {
            type: 'failed',
            id: msg.id,
            message: EXPORT_TRAP_TEXT,
            fatal: true,
            detail: 'RuntimeError: unreachable',
          };
          setTimeout(() => trapping.onmessage?.({ data } as MessageEvent<FromExportWorker>), 0);
        },
        terminate() {
          terminated += 1;
        },
      };
      return trapping;
    });
    await expect(c.run({ format: 'csv' }, runs, { zipName: 'x' }).promise).rejects.toThrow(EXPORT_TRAP_TEXT);
    expect(terminated).toBe(1);
    const ok = await c.run({ format: 'json', tables: ['summary'] }, runs, { zipName: 'x' }).promise;
    expect(ok?.name).toBe('x.zip');
    expect(spawned).toBe(2);
  });

  it('a trap in the engine is a fatal failure in plain words; an engine refusal is not', () => {
    const trap = failure(3, new WebAssembly.RuntimeError('unreachable'));
    expect(trap).toEqual({
      type: 'failed',
      id: 3,
      message: EXPORT_TRAP_TEXT,
      fatal: true,
      detail: 'RuntimeError: unreachable',
    });
    expect(failure(4, new Error('too large'), 'The export stopped: ')).toEqual({
      type: 'failed',
      id: 4,
      message: 'The export stopped: too large',
    });
  });
});
