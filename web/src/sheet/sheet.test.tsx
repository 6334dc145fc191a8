// @vitest-environment jsdom
// Exercise sheets and the theory lines with the real engine: the link keys (`sheet`,
// `theory`), the sheet request going to a worker (an in-process one running the real
// `exercise_json`), the sheet view showing the engine's sheet as it is, and the theory note
// showing the engine's inputs.
import { act, cleanup, render, screen } from '../test/render';
import { afterEach, describe, expect, it } from 'vitest';
import { AppContext } from '../app/AppContext';
import { tables } from '../engine/tables';
import { defaultShareState } from '../scenario/shareState';
import { decodeShareState, encodeShareState } from '../scenario/url';
import { createHarness } from '../test/appHarness';
import { InProcessSheetWorker } from '../test/sheetWorker';
import { engineWasm, realValidator } from '../test/wasm';
import { TheoryNote } from '../theory/TheoryNote';
import { parseTheory, theoryOf } from '../theory/theory';
import { parseSheet, PRINTED_LINK_LIMIT, sheetInput, sheetReference } from './sheet';
import type { FromSheetWorker, ToSheetWorker } from './protocol';
import { SheetClient, type SheetWorkerLike } from './sheetClient';
import { createSheetHandler, SHEET_TRAP_TEXT } from './sheetHandler';
import { SheetAnswers, SheetQuestions } from './SheetView';

const decode = (q: string) => decodeShareState(q, realValidator());
const preset = (name: string) => {
  const p = tables.presets.find((x) => x.name === name);
  if (!p) throw new Error(name);
  return p;
};
/** A preset's link, as the page writes it (a comparison of the preset's algorithm). */
function presetQuery(name: string, extra = ''): string {
  const sc = preset(name).scenario;
  const flows = Array.isArray(sc.flows) ? sc.flows : [];
  const first = flows[0] as { algorithm?: string } | undefined;
  return `?${encodeShareState({ ...defaultShareState(), scenario: sc, algorithms: [first?.algorithm ?? 'reno'] })}${extra}`;
}

const harnesses: ReturnType<typeof createHarness>[] = [];
afterEach(() => {
  cleanup();
  harnesses.splice(0).forEach((h) => h.dispose());
});

describe('link keys of exercise sheets and the theory lines', () => {
  it('writes sheet=N (and :C when not 6) and theory=1 only when set, and reads them back', () => {
    const plain = encodeShareState(defaultShareState());
    expect(plain).not.toMatch(/sheet=|theory=/);
    const six = encodeShareState({ ...defaultShareState(), sheet: { number: 3, count: 6 }, theory: true });
    expect(six).toContain('sheet=3');
    expect(six).not.toContain('sheet=3:');
    expect(six).toContain('theory=1');
    const back = decode(`?${six}`);
    expect(back.notices).toEqual([]);
    expect(back.state.sheet).toEqual({ number: 3, count: 6 });
    expect(back.state.theory).toBe(true);
    const eight = encodeShareState({ ...defaultShareState(), sheet: { number: 12, count: 8 } });
    expect(eight).toContain('sheet=12:8');
    expect(decode(`?${eight}`).state.sheet).toEqual({ number: 12, count: 8 });
  });

  it('opens old links unchanged: no sheet, no theory, no notices', () => {
    for (const q of ['?v=1&alg=reno,newreno', '?v=3&alg=reno', '?v=4&alg=reno&projector=1']) {
      const d = decode(q);
      expect(d.state.sheet).toBeNull();
      expect(d.state.theory).toBe(false);
      expect(d.notices.filter((n) => n.key === 'sheet' || n.key === 'theory')).toEqual([]);
    }
  });

  it('names a bad sheet or theory value and leaves them off', () => {
    const d = decode('?v=4&alg=reno&sheet=two&theory=yes');
    expect(d.state.sheet).toBeNull();
    expect(d.state.theory).toBe(false);
    expect(d.notices.find((n) => n.key === 'sheet')?.message).toContain('sheet=two is not an exercise sheet');
    expect(d.notices.find((n) => n.key === 'theory')?.message).toContain('theory=yes is not 1 (on) or 0 (off)');
  });
});

describe('the sheet request', () => {
  it('goes to the sheet worker, which answers with the engine’s sheet', async () => {
    const worker = new InProcessSheetWorker();
    const client = new SheetClient({} as WebAssembly.Module, () => worker);
    const h = createHarness(presetQuery('textbook-reno'), 1);
    harnesses.push(h);
    const input = sheetInput(h.store.getState());
    const sheet = await client.request(input, 1, 6);
    expect(worker.received.map((m) => m.type)).toEqual(['init', 'sheet']);
    const expected = parseSheet(engineWasm().exercise_json(input.scenarioJson, input.title, 1, 6, '[]', 'segments'));
    expect(sheet).toEqual(expected);
    expect(sheet?.questions.map((q) => q.kind)).toContain('timeout');
    expect(sheet?.questions.map((q) => q.kind)).toContain('fast_retransmit');
    // The engine's refusal comes back as the reason.
    await expect(client.request(input, 1, 30)).rejects.toThrow('questions: 30 is not from 1 to 20');
    client.dispose();
  });

  it('writes windows in the page’s unit first (unit=bytes: bytes, the segments in brackets)', async () => {
    const worker = new InProcessSheetWorker();
    const client = new SheetClient({} as WebAssembly.Module, () => worker);
    const h = createHarness(presetQuery('textbook-reno') + '&unit=bytes', 1);
    harnesses.push(h);
    const input = sheetInput(h.store.getState());
    expect(input.unit).toBe('bytes');
    const bytes = await client.request(input, 1, 6);
    const segs = await client.request({ ...input, unit: 'segments' }, 1, 6);
    // The same questions, whatever the unit.
    expect(bytes?.questions.map((q) => q.kind)).toEqual(segs?.questions.map((q) => q.kind));
    const sized = (sheet: typeof bytes) => (sheet?.questions ?? []).map((q) => q.answer).filter((a) => / B\b/.test(a));
    expect(sized(bytes).length).toBeGreaterThan(0);
    // textbook-reno counts segments: in bytes its sizes read "1000 B (1 segment)".
    for (const a of sized(bytes)) expect(a).toMatch(/\d B \(\d+(\.\d+)? segments?\)/);
    for (const a of sized(segs)) expect(a).toMatch(/\d+(\.\d+)? segments? \(\d+ B\)/);
    // A unit the engine does not know is refused with the allowed ones.
    expect(() => engineWasm().exercise_json(input.scenarioJson, input.title, 1, 6, '[]', 'packets')).toThrow(
      /allowed: segments, bytes/,
    );
    client.dispose();
  });

  it('an engine that traps fails the request in plain words; the next request runs on a fresh worker', async () => {
    let terminated = 0;
    let spawned = 0;
    const replies: FromSheetWorker[] = [];
    const trapping: SheetWorkerLike = {
      onmessage: null,
      onerror: null,
      postMessage(msg: ToSheetWorker) {
        if (msg.type !== 'sheet') return;
        createSheetHandler(
          {
            exercise: () => {
              throw new WebAssembly.RuntimeError('unreachable');
            },
          },
          (reply) => {
            replies.push(reply);
            setTimeout(() => trapping.onmessage?.({ data: reply } as MessageEvent<FromSheetWorker>), 0);
          },
        ).handle(msg);
      },
      terminate() {
        terminated += 1;
      },
    };
    const client = new SheetClient({} as WebAssembly.Module, () => {
      spawned += 1;
      return spawned === 1 ? trapping : new InProcessSheetWorker();
    });
    const h = createHarness(presetQuery('textbook-reno'), 1);
    harnesses.push(h);
    const input = sheetInput(h.store.getState());
    await expect(client.request(input, 1, 6)).rejects.toThrow(SHEET_TRAP_TEXT);
    expect(replies[0]).toMatchObject({ type: 'failed', fatal: true, detail: 'RuntimeError: unreachable' });
    expect(terminated).toBe(1);
    const sheet = await client.request(input, 1, 6);
    expect(sheet?.questions.length).toBe(6);
    expect(spawned).toBe(2);
    client.dispose();
  });

  it('sends every compared run for the comparison question', () => {
    const h = createHarness('?v=4&alg=reno,newreno', 1);
    harnesses.push(h);
    const input = sheetInput(h.store.getState());
    const list = JSON.parse(input.compareJson) as { algorithm: string }[];
    expect(list.map((r) => r.algorithm)).toEqual(['reno', 'newreno']);
  });

  it('asks about the run the preset’s lesson is about; without a preset, about the first run', () => {
    const all = 'alg=old_tahoe,tahoe,reno,newreno';
    const h = createHarness(`?v=4&${all}&preset=fall-floyd-reno-3drops`, 1);
    harnesses.push(h);
    const input = sheetInput(h.store.getState());
    expect(JSON.parse(input.scenarioJson)).toMatchObject({ flows: [{ algorithm: 'reno' }] });
    const plain = createHarness(`?v=4&${all}`, 1);
    harnesses.push(plain);
    expect(JSON.parse(sheetInput(plain.store.getState()).scenarioJson)).toMatchObject({
      flows: [{ algorithm: 'old_tahoe' }],
    });
  });
});

describe('the sheet view', () => {
  it('shows the engine’s questions, the round definition, and the answers with their rules', () => {
    const sc = preset('textbook-reno').scenario;
    const sheet = parseSheet(engineWasm().exercise_json(JSON.stringify(sc), 'textbook-reno', 1, 6, '[]', ''));
    const times: number[] = [];
    const { container } = render(
      <>
        <SheetQuestions sheet={sheet} onTime={(t) => times.push(t)} />
        <SheetAnswers sheet={sheet} />
      </>,
    );
    expect(container.textContent).toContain(sheet.scenario);
    expect(container.textContent).toContain(sheet.definition);
    for (const q of sheet.questions) {
      expect(container.textContent).toContain(q.text);
      expect(container.textContent).toContain(q.answer);
      for (const r of q.rules) expect(container.textContent).toContain(`${r.title} (${r.source})`);
    }
    const first = sheet.questions.find((q) => q.at_s !== null);
    // The button says the time as the sheet writes it (to the millisecond); the cursor goes
    // to the exact time.
    const button = screen.getAllByRole('button', { name: /^Show at/ })[0];
    expect(button?.textContent).toBe(`Show at ${first?.at_text}`);
    expect(first?.at_text).toMatch(/^\d+(\.\d{1,3})? s$/);
    act(() => button?.click());
    expect(times).toEqual([first?.at_s]);
    // Names from the catalogue, no ids, no nanoseconds.
    expect(sheet.scenario).toMatch(/^Reno · /);
    expect(container.textContent).not.toMatch(/\d\.\d{4,} s/);
  });

  it('prints a short reference instead of a long link', () => {
    const site = 'https://cwndlab.example/app/';
    expect(sheetReference(site, 'v=4&alg=reno', null, { number: 3, count: 6 })).toBe(`${site}?v=4&alg=reno`);
    const long = `v=4&${'f0.drops=1,2,3&'.repeat(50)}sheet=3`;
    const short = sheetReference(site, long, 'textbook-reno', { number: 3, count: 6 });
    expect(short).toBe('cwndlab, cwndlab.example/app/ · preset textbook-reno · Exercise sheet 3 (6 questions)');
    expect(short.length).toBeLessThanOrEqual(PRINTED_LINK_LIMIT);
    expect(sheetReference(site, long, null, { number: 2, count: 1 })).toContain('a custom scenario');
  });
});

describe('the theory note', () => {
  it('states the engine’s estimates and inputs for bbr-random-loss', () => {
    const h = createHarness(presetQuery('bbr-random-loss', '&theory=1&plots=window,throughput'), 1);
    harnesses.push(h);
    const s = h.store.getState();
    expect(s.theory).toBe(true);
    const t = parseTheory(engineWasm().theory_json(sheetInput(s).scenarioJson, 0));
    if ('unavailable' in t) throw new Error(t.unavailable);
    expect(theoryOf(sheetInput(s).scenarioJson, 0)).toEqual(t);
    render(
      <AppContext.Provider value={{ store: h.store, controller: h.controller, traces: h.traces }}>
        <TheoryNote />
      </AppContext.Provider>,
    );
    const note = screen.getByRole('note', { name: 'Theory' });
    expect(note.textContent).toContain('Mathis et al. 3.1 Mbit/s');
    expect(note.textContent).toContain(t.mathis.formula);
    expect(note.textContent).toContain(t.mathis.source);
    expect(note.textContent).toContain(t.padhye.source);
    expect(note.textContent).toContain(`p = 0.01 (${t.inputs.p_from})`);
    expect(note.textContent).toContain('MSS = 1460 B');
    expect(note.textContent).toContain('T0 = 1 s');
  });

  it('gives the engine’s reason when the models do not apply', () => {
    const h = createHarness('?v=4&alg=reno&theory=1&plots=throughput', 1);
    harnesses.push(h);
    render(
      <AppContext.Provider value={{ store: h.store, controller: h.controller, traces: h.traces }}>
        <TheoryNote />
      </AppContext.Provider>,
    );
    expect(screen.getByRole('note', { name: 'Theory' }).textContent).toContain(
      'no estimate: no random loss on the bottleneck',
    );
  });
});
