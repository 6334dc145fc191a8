// @vitest-environment jsdom
// The textbook model beside the rounds view, with the real engine: the link keys (`tb`,
// `tbsheet`), the model going to a worker (an in-process one running the real
// `textbook_beside_json`), the control showing the engine's sentence where the model and the
// run part, and the exercise sheet in a convention (`textbook_exercise_json`).
import { act, cleanup, render, screen } from '../test/render';
import { afterEach, describe, expect, it } from 'vitest';
import { AppContext } from '../app/AppContext';
import { TEXTBOOK_CONVENTIONS } from '../engine/pkg/vocabulary';
import { tables } from '../engine/tables';
import { defaultShareState } from '../scenario/shareState';
import { decodeShareState, encodeShareState } from '../scenario/url';
import { parseSheet, sheetInput } from '../sheet/sheet';
import { SheetClient } from '../sheet/sheetClient';
import { createHarness } from '../test/appHarness';
import { InProcessSheetWorker } from '../test/sheetWorker';
import { engineWasm, realValidator } from '../test/wasm';
import { textbookInput } from './input';
import { CONVENTIONS, readConvention, textbookLabel } from './link';
import { parseBeside, textbookMax, textbookPoints } from './textbook';
import { TextbookClient } from './textbookClient';
import { TextbookControl } from './TextbookControl';
import { textbookResult } from './textbookResult';

const decode = (q: string) => decodeShareState(q, realValidator());
const harnesses: ReturnType<typeof createHarness>[] = [];
afterEach(() => {
  cleanup();
  harnesses.splice(0).forEach((h) => h.dispose());
  textbookResult.setState({ status: 'idle', runKey: null, model: null, message: '' });
});

/** textbook-reno's link, as the page writes it, with `extra`. */
function renoQuery(extra = ''): string {
  const p = tables.presets.find((x) => x.name === 'textbook-reno');
  if (!p) throw new Error('textbook-reno');
  return `?${encodeShareState({ ...defaultShareState(), scenario: p.scenario, algorithms: ['reno'] })}&preset=textbook-reno${extra}`;
}

describe('the conventions', () => {
  it('are the engine’s, with labels for the plot', () => {
    expect(CONVENTIONS.map((c) => c.name)).toEqual(['kurose_ross', 'rfc5681']);
    expect(CONVENTIONS).toBe(TEXTBOOK_CONVENTIONS);
    expect(textbookLabel('kurose_ross')).toBe('textbook (K&R)');
    expect(textbookLabel('rfc5681')).toBe('textbook (RFC 5681)');
  });
});

describe('link keys of the textbook model', () => {
  it('writes tb= and tbsheet= only when set, and reads them back', () => {
    const plain = encodeShareState(defaultShareState());
    expect(plain).not.toMatch(/tb=|tbsheet=/);
    const on = encodeShareState({
      ...defaultShareState(),
      textbook: 'kurose_ross',
      sheet: { number: 2, count: 6, textbook: 'rfc5681' },
    });
    expect(on).toContain('tb=kurose_ross');
    expect(on).toContain('sheet=2');
    expect(on).toContain('tbsheet=rfc5681');
    const back = decode(`?${on}`);
    expect(back.notices).toEqual([]);
    expect(back.state.textbook).toBe('kurose_ross');
    expect(back.state.sheet).toEqual({ number: 2, count: 6, textbook: 'rfc5681' });
    expect(encodeShareState(back.state)).toBe(on);
  });

  it('opens old links unchanged: no textbook model, a per-packet sheet', () => {
    for (const q of ['?v=1&alg=reno,newreno', '?v=4&alg=reno&sheet=3', '?v=4&alg=reno&plots=rounds']) {
      const d = decode(q);
      expect(d.state.textbook).toBeNull();
      expect(d.state.sheet?.textbook).toBeUndefined();
      expect(d.notices.filter((n) => n.key === 'tb' || n.key === 'tbsheet')).toEqual([]);
    }
  });

  it('names a bad convention with the allowed values and leaves the model off', () => {
    const d = decode('?v=4&alg=reno&tb=stevens&sheet=1&tbsheet=x');
    expect(d.state.textbook).toBeNull();
    expect(d.state.sheet).toEqual({ number: 1, count: 6 });
    expect(d.notices.find((n) => n.key === 'tb')?.message).toBe(
      'tb=stevens is not a textbook convention (allowed: kurose_ross, rfc5681); the textbook model is off.',
    );
    expect(d.notices.find((n) => n.key === 'tbsheet')?.message).toContain('tbsheet=x is not a textbook convention');
    expect(readConvention('tb', 'rfc5681')).toBe('rfc5681');
  });
});

describe('the model beside the run', () => {
  it('comes from the engine through the worker, with the engine’s sentence where they part', async () => {
    const h = createHarness(renoQuery('&tb=kurose_ross'), 1);
    harnesses.push(h);
    const input = textbookInput(h.store.getState());
    expect(input?.runKey).toBe('reno');
    const worker = new InProcessSheetWorker();
    const client = new TextbookClient({} as WebAssembly.Module, () => worker);
    const model = await client.request(input?.scenarioJson ?? '', 'kurose_ross');
    expect(worker.received.map((m) => m.type)).toEqual(['init', 'textbook']);
    const expected = parseBeside(engineWasm().textbook_beside_json(input?.scenarioJson ?? '', 'kurose_ross'));
    expect(model).toEqual(expected);
    expect(model?.short).toBe('K&R');
    // The K&R figure's numbers: slow start to 32, then one per round, ssthresh + 3 after the
    // triple duplicate ACK.
    expect(model?.rounds.slice(0, 7).map((r) => r.cwnd)).toEqual([1, 2, 4, 8, 16, 32, 33]);
    const tripleDup = model?.rounds.find((r) => r.rule === 'textbook.triple_dup_kr');
    expect(tripleDup).toMatchObject({ cwnd: 24, ssthresh: 21 });
    expect(model?.divergence?.round).toBe(17);
    // Then the K&R rule itself: round 18, per-packet Reno in fast recovery at 21, the model
    // at ssthresh + 3 = 24.
    expect(model?.partings[0]).toEqual(model?.divergence);
    expect(model?.partings[1]).toMatchObject({
      round: 18,
      perPacket: { cwnd: 21, phase: 'fast_recovery' },
      textbook: { cwnd: 24, ssthresh: 21, rule: 'textbook.triple_dup_kr' },
    });
    expect(model?.divergence?.why).toMatch(/^Round 17: per-packet Reno has cwnd 42, ssthresh 32/);
    // A refused convention comes back with the engine's reason.
    await expect(client.request(input?.scenarioJson ?? '', 'stevens')).rejects.toThrow(
      'convention stevens: allowed kurose_ross, rfc5681',
    );
    client.dispose();
  });

  it('draws the points and sets the y range from the model’s rounds', () => {
    const h = createHarness(renoQuery(), 1);
    harnesses.push(h);
    const json = engineWasm().textbook_beside_json(
      textbookInput(h.store.getState())?.scenarioJson ?? '',
      'kurose_ross',
    );
    const m = parseBeside(json);
    expect(textbookPoints(m, 17, 19)).toEqual([
      [17, 43],
      [18, 24],
      [19, 25],
    ]);
    expect(textbookMax(m, 1, 6)).toBe(32);
    expect(textbookMax(m, 1, 17)).toBe(43);
  });

  it('shows the legend and the engine’s sentence in the rounds view', () => {
    const h = createHarness(renoQuery('&tb=kurose_ross&plots=rounds'), 1);
    harnesses.push(h);
    const input = textbookInput(h.store.getState());
    const model = parseBeside(engineWasm().textbook_beside_json(input?.scenarioJson ?? '', 'kurose_ross'));
    render(
      <AppContext.Provider value={{ store: h.store, controller: h.controller, traces: h.traces }}>
        <TextbookControl />
      </AppContext.Provider>,
    );
    expect((screen.getByLabelText('Textbook model') as HTMLSelectElement).value).toBe('kurose_ross');
    act(() => textbookResult.setState({ status: 'ready', runKey: 'reno', model, message: model.model }));
    expect(screen.getByText(model.divergence?.why ?? 'none')).toBeTruthy();
    expect(document.body.textContent).toContain('textbook (K&R)');
    // The later partings, each the engine's sentence.
    for (const p of model.partings.slice(1)) expect(document.body.textContent).toContain(p.why);
    expect(screen.getByText(`Where they part again (${model.partings.length - 1})`)).toBeTruthy();
    // Off: the link key goes.
    act(() => h.store.getState().setTextbook(null));
    expect(document.querySelector('.textbook-divergence')).toBeNull();
  });
});

describe('the sheet in a convention', () => {
  it('is the engine’s textbook sheet, its answers citing the convention’s rules', async () => {
    const h = createHarness(renoQuery(), 1);
    harnesses.push(h);
    const input = sheetInput(h.store.getState());
    const client = new SheetClient({} as WebAssembly.Module, () => new InProcessSheetWorker());
    const sheet = await client.request(input, 1, 8, 'kurose_ross');
    const expected = parseSheet(
      engineWasm().textbook_exercise_json(input.scenarioJson, input.title, 1, 8, 'kurose_ross'),
    );
    expect(sheet).toEqual(expected);
    const ids = sheet?.questions.flatMap((q) => q.rules.map((r) => r.id)) ?? [];
    expect(ids.some((id) => id.startsWith('textbook.'))).toBe(true);
    // Not the per-packet sheet.
    const perPacket = await client.request(input, 1, 8);
    expect(perPacket?.questions.map((q) => q.kind)).not.toEqual(sheet?.questions.map((q) => q.kind));
    client.dispose();
  });
});
