// The queue plot reads the queue as time as well as packets: the engine's queued bytes
// drained at the bottleneck's rate, for a deep buffer that CUBIC and NewReno fill.
import { afterEach, describe, expect, it } from 'vitest';
import { tables } from '../engine/tables';
import { rowAt } from '../engine/lookup';
import { runStyle } from '../scenario/competition';
import { presetBase } from '../scenario/algorithms';
import { defaultShareState } from '../scenario/shareState';
import { encodeShareState } from '../scenario/url';
import { plotContext } from '../test/canvas';
import { createHarness } from '../test/appHarness';
import { waitFor } from '../test/inProcessWorker';
import type { PlotRun } from './core/types';
import { queuePlot } from './queuePlot';
import { formatNumber } from '../scenario/params';

const harnesses: ReturnType<typeof createHarness>[] = [];
afterEach(() => harnesses.splice(0).forEach((h) => h.dispose()));

describe('the queue plot', () => {
  it('says how long a packet joining the queue waits, from the queued bytes and the rate', async () => {
    const preset = tables.presets.find((p) => p.name === 'cubic-bufferbloat');
    if (!preset) throw new Error('no cubic-bufferbloat preset');
    const scenario = { ...presetBase(preset.scenario).base, duration: 4 };
    const h = createHarness(`?${encodeShareState({ ...defaultShareState(), scenario, algorithms: ['cubic'] })}`);
    harnesses.push(h);
    h.controller.runFull();
    await waitFor(h.allDone);
    const trace = h.traces.get('cubic');
    if (!trace) throw new Error('no trace');
    const run: PlotRun = { key: 'cubic', label: 'CUBIC', style: runStyle('cubic'), trace, summary: null };
    const context = plotContext(h.store.getState().scenario);
    // At 3 s slow start has put hundreds of packets in the buffer: most of a second of
    // queue at 10 Mbit/s (1 500-byte packets take 1.2 ms each).
    const q = trace.tables.queue;
    const r = rowAt(q.cols.t, q.length, 3);
    const packets = q.cols.packets[r] ?? 0;
    const bytes = q.cols.bytes[r] ?? 0;
    expect(packets).toBeGreaterThan(500);
    expect(bytes).toBe(packets * 1500);
    const text = queuePlot.readout([run], 3, context)[0]?.text ?? '';
    const ms = (bytes * 8) / 10_000; // bytes × 8 / 10 Mbit/s, in ms
    expect(text).toBe(`queue ${formatNumber(packets)} packets · ${formatNumber(ms, 3)} ms of queueing delay`);
    // Empty before the first packet: no delay to speak of.
    expect(queuePlot.readout([run], 0, context)[0]?.text).toBe('queue 0 packets · 0 ms of queueing delay');
  });
});
