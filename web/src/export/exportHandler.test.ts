// The export worker's handler with the real engine (wasm in Node): files stream in slices
// whose concatenation is exactly what one Exporter run in one go makes, each chunk's CRC is
// the running CRC of its file, progress rises to 1, refusals and bad requests come at once
// with the engine's words, a cancel stops the export and frees it.
import { afterEach, describe, expect, it } from 'vitest';
import { tables } from '../engine/tables';
import { engineWasm } from '../test/wasm';
import { realExportApi } from '../test/exportWorker';
import { waitFor } from '../test/inProcessWorker';
import { createExportHandler } from './exportHandler';
import type { FromExportWorker } from './protocol';
import { crc32 } from './zip';

const wasm = engineWasm();

function preset(name: string, patch: Record<string, unknown> = {}): string {
  const p = tables.presets.find((x) => x.name === name);
  if (!p) throw new Error(`no preset ${name}`);
  return JSON.stringify({ ...p.scenario, ...patch });
}

/** Every file of one Exporter run in one go. */
function direct(scenario: string, request: object): { names: string[]; bytes: Uint8Array[] } {
  const ex = new wasm.Exporter(scenario, JSON.stringify(request));
  const names = (JSON.parse(ex.file_names()) as { name: string }[]).map((f) => f.name);
  while (!ex.step(1 << 20));
  const bytes = names.map((_, i) => ex.take(i));
  ex.free();
  return { names, bytes };
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

const handlers: ReturnType<typeof createExportHandler>[] = [];
afterEach(() => handlers.splice(0).forEach((h) => h.dispose()));

/** A handler with tiny slices (many chunks), collecting what it posts. */
function handler(opts: { eventsPerStep?: number } = {}) {
  const sent: FromExportWorker[] = [];
  const transfers: Transferable[][] = [];
  const h = createExportHandler(
    realExportApi(),
    (msg, transfer) => {
      sent.push(msg);
      transfers.push(transfer);
    },
    { sliceMs: 0, postMs: 0, eventsPerStep: opts.eventsPerStep ?? 500 },
  );
  handlers.push(h);
  return { h, sent, transfers };
}

describe('export handler', () => {
  it('passes on what the engine says about reading a capture, once for all runs', async () => {
    // netsim-reno has no SYN: Wireshark must be told the window scale (shift 5 for 1 MiB).
    const scenario = preset('netsim-reno');
    const { h, sent } = handler({});
    h.handle({
      type: 'export',
      id: 1,
      request: JSON.stringify({ format: 'pcap' }),
      jobs: [
        { folder: 'a', scenarioJson: scenario },
        { folder: 'b', scenarioJson: scenario },
      ],
    });
    await waitFor(() => sent.some((m) => m.type === 'done' || m.type === 'failed'));
    const files = sent.find((m): m is Extract<FromExportWorker, { type: 'files' }> => m.type === 'files');
    expect(files?.notes).toHaveLength(1);
    expect(files?.notes[0]).toContain('tcp.default_window_scaling:5 (multiply by 32)');
  });

  it('streams every file in chunks that add up to the engine’s one-go output, with running CRCs', async () => {
    const scenario = preset('fall-floyd-reno-3drops');
    const request = { format: 'csv', tables: ['series', 'events', 'queues', 'summary', 'scenario'] };
    const want = direct(scenario, request);
    const { h, sent, transfers } = handler({ eventsPerStep: 50 });
    h.handle({
      type: 'export',
      id: 7,
      request: JSON.stringify(request),
      jobs: [
        { folder: 'a', scenarioJson: scenario },
        { folder: 'b', scenarioJson: scenario },
      ],
    });
    await waitFor(() => sent.some((m) => m.type === 'done' || m.type === 'failed'));
    expect(sent[0]).toEqual({
      type: 'files',
      id: 7,
      files: [0, 1].map(() => want.names.map((name) => ({ name, mime: expect.any(String) as string }))),
      notes: [],
    });
    expect(want.names).toContain('series_flow0.csv');
    expect(want.names).toContain('events.csv');
    const data = sent.filter((m): m is Extract<FromExportWorker, { type: 'data' }> => m.type === 'data');
    // Many slices: the page hears from the worker while it runs.
    expect(data.length).toBeGreaterThan(10);
    for (const job of [0, 1]) {
      want.names.forEach((_, file) => {
        const chunks = data.flatMap((m) => (m.job === job ? m.chunks.filter((c) => c.file === file) : []));
        const got = concat(chunks.map((c) => c.bytes));
        expect(got, `job ${job} file ${want.names[file]}`).toEqual(want.bytes[file]);
        expect(chunks[chunks.length - 1]?.crc).toBe(crc32(got));
      });
    }
    // Each message transfers its chunks' buffers.
    data.forEach((m) => {
      const i = sent.indexOf(m);
      expect(transfers[i]).toEqual(m.chunks.map((c) => c.bytes.buffer));
    });
    const progress = data.map((m) => m.progress);
    expect(progress.every((p, i) => i === 0 || p >= (progress[i - 1] ?? 0))).toBe(true);
    expect(progress[progress.length - 1]).toBe(1);
    expect(sent[sent.length - 1]).toEqual({ type: 'done', id: 7 });
    expect(h.busy()).toBe(false);
  });

  it('a refused export fails at once with the engine’s reason (its limit and the CLI), nothing runs', () => {
    const { h, sent } = handler();
    const huge = preset('netsim-newreno', { duration: 100000 });
    h.handle({
      type: 'export',
      id: 1,
      request: JSON.stringify({ format: 'csv' }),
      jobs: [{ folder: '', scenarioJson: huge }],
    });
    expect(sent).toHaveLength(1);
    const msg = sent[0];
    expect(msg?.type).toBe('failed');
    const limit = JSON.parse(wasm.export_tables_json()) as { page_limit_bytes: number };
    expect(msg?.type === 'failed' && msg.message).toContain(`${limit.page_limit_bytes >> 20} MB`);
    expect(msg?.type === 'failed' && msg.message).toContain('cwndlab run');
    expect(h.busy()).toBe(false);
  });

  it('a bad request or scenario fails with the engine’s words; the handler keeps working', async () => {
    const { h, sent } = handler();
    h.handle({ type: 'export', id: 1, request: '{"format":"xls"}', jobs: [{ folder: '', scenarioJson: '{}' }] });
    expect(sent[0]).toEqual({
      type: 'failed',
      id: 1,
      message: expect.stringContaining('allowed: csv, json, pcap, qlog'),
    });
    h.handle({
      type: 'export',
      id: 2,
      request: '{"format":"csv","tables":["series"]}',
      jobs: [{ folder: '', scenarioJson: '{"duration": -1}' }],
    });
    expect(sent[1]).toEqual({ type: 'failed', id: 2, message: expect.stringContaining('duration') });
    h.handle({
      type: 'export',
      id: 3,
      request: '{"format":"csv","tables":["summary"]}',
      jobs: [{ folder: '', scenarioJson: preset('fall-floyd-reno-1drops') }],
    });
    await waitFor(() => sent.some((m) => m.type === 'done' && m.id === 3));
  });

  it('cancel stops the export: no data after it, and the exporters are freed', async () => {
    const { h, sent } = handler({ eventsPerStep: 50 });
    h.handle({
      type: 'export',
      id: 4,
      request: '{"format":"csv"}',
      jobs: [{ folder: '', scenarioJson: preset('netsim-newreno') }],
    });
    await waitFor(() => sent.filter((m) => m.type === 'data').length >= 3);
    h.handle({ type: 'cancel', id: 4 });
    const n = sent.length;
    expect(h.busy()).toBe(false);
    await new Promise((r) => setTimeout(r, 50));
    expect(sent.length).toBe(n);
    expect(sent.some((m) => m.type === 'done')).toBe(false);
  });

  it('pcap and qlog go through the same path', async () => {
    const { h, sent } = handler();
    h.handle({
      type: 'export',
      id: 5,
      request: '{"format":"pcap","point":"bottleneck"}',
      jobs: [{ folder: '', scenarioJson: preset('fall-floyd-reno-1drops') }],
    });
    await waitFor(() => sent.some((m) => m.type === 'done'));
    const files = sent[0]?.type === 'files' ? sent[0].files : [];
    expect(files[0]?.[0]?.name).toMatch(/\.pcap$/);
    const bytes = concat(sent.flatMap((m) => (m.type === 'data' ? m.chunks.map((c) => c.bytes) : [])));
    // The pcap magic number (microsecond or nanosecond timestamps, either byte order).
    const magic = new DataView(bytes.buffer).getUint32(0, true);
    expect([0xa1b2c3d4, 0xa1b23c4d, 0xd4c3b2a1, 0x4d3cb2a1]).toContain(magic);
  });
});
