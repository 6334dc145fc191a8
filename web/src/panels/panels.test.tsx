// @vitest-environment jsdom
// The panels in jsdom with the real store, controller and engine: labels come from the
// engine's schema, controls change the scenario, bad input is named.
import { act, cleanup, fireEvent, render, screen, within } from '../test/render';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppContext } from '../app/AppContext';
import { ErrorBoundary } from '../app/ErrorBoundary';
import { getAt } from '../scenario/paths';
import { requireSpec } from '../scenario/params';
import { createHarness } from '../test/appHarness';
import { engineWasm, realValidator } from '../test/wasm';
import { decodeShareState } from '../scenario/url';
import { waitFor } from '../test/inProcessWorker';
import { tables } from '../engine/tables';
import { loadTeaching } from '../engine/teaching';
import { ALGORITHM_NAMES, CONTROLLED_PATHS, CUSTOM, GROUPS, presetBase } from '../scenario/algorithms';
import { concretePath } from '../scenario/paths';
import { AdvancedControls } from './AdvancedControls';
import { AlgorithmPicker } from './AlgorithmPicker';
import { Controls, perPacketLoss } from './Controls';
import { LessonPanel } from './LessonPanel';
import { Notices } from './Notices';
import { SummaryTable } from './SummaryTable';

const harnesses: ReturnType<typeof createHarness>[] = [];
afterEach(() => {
  cleanup();
  harnesses.splice(0).forEach((h) => h.dispose());
});

function renderWith(ui: ReactNode, query = '?v=1&alg=reno') {
  const h = createHarness(query, 1);
  harnesses.push(h);
  render(
    <AppContext.Provider value={{ store: h.store, controller: h.controller, traces: h.traces }}>
      {ui}
    </AppContext.Provider>,
  );
  return h;
}

const value = (h: ReturnType<typeof createHarness>, path: string) => getAt(h.store.getState().scenario, path);

describe('the controls', () => {
  it('says what a bit error rate means per packet as the engine’s loss model computes it', () => {
    const wasm = engineWasm();
    for (const [ber, mss] of [
      [1e-5, 1460],
      [1e-7, 1460],
      [3e-4, 100],
    ] as const) {
      const scenario = {
        network: { bottleneck: { loss: { model: 'ber', ber } } },
        flows: [{ tcp: { mss, header: 40 } }],
      };
      const theory = JSON.parse(wasm.theory_json(JSON.stringify(scenario), 0)) as { inputs: { p: number } };
      expect(perPacketLoss(ber, mss + 40)).toBeCloseTo(theory.inputs.p, 10);
    }
  });

  it('label every main control from the schema, with its unit', () => {
    renderWith(<Controls />);
    for (const path of [
      'network.bottleneck.bandwidth',
      'network.bottleneck.delay',
      'network.bottleneck.delay_variation',
      'network.bottleneck.queue_packets',
      'network.bottleneck.loss.ber',
      'flows[].reserved_bandwidth',
      'duration',
    ]) {
      expect(screen.getByRole('slider', { name: requireSpec(path).label })).toBeTruthy();
    }
    expect(screen.getByRole('slider', { name: 'Bottleneck bandwidth' }).getAttribute('aria-valuetext')).toBe(
      '2 Mbit/s',
    );
    expect(screen.getByRole('slider', { name: 'Bottleneck delay' }).getAttribute('aria-valuetext')).toBe('40 ms');
    expect(screen.getByRole('slider', { name: 'Delay variation' }).getAttribute('aria-valuetext')).toBe('0 ms');
    expect(screen.getByRole('combobox', { name: 'Application' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Seed' })).toBeTruthy();
  });

  it('a slider step changes the scenario and starts a run', () => {
    const h = renderWith(<Controls />);
    const slider = screen.getByRole('slider', { name: 'Bottleneck bandwidth' }) as HTMLInputElement;
    const gen = h.store.getState().gen;
    act(() => {
      fireEvent.input(slider, { target: { value: String(Number(slider.value) + 1) } });
    });
    expect(value(h, 'network.bottleneck.bandwidth')).toBe(2500000);
    expect(h.store.getState().gen).toBeGreaterThan(gen);
    expect(slider.getAttribute('aria-valuetext')).toBe('2.5 Mbit/s');
  });

  it('a keyboard-focused slider asks for its neighbouring stops, the last step’s direction first; none once blurred', () => {
    const h = renderWith(<Controls />);
    const asked: (readonly number[] | null)[] = [];
    h.controller.lookAhead = (target) => void asked.push(target ? target.values : null);
    const slider = screen.getByRole('slider', { name: 'Bottleneck bandwidth' }) as HTMLInputElement;
    // Focused, then a key pressed on it (jsdom has no keyboard focus to tell apart).
    act(() => {
      slider.focus();
      fireEvent.keyDown(slider, { key: 'Shift' });
    });
    expect(asked.at(-1)).toEqual([2_500_000, 1_500_000]);
    act(() => {
      fireEvent.input(slider, { target: { value: String(Number(slider.value) - 1) } });
    });
    // Down to 1.5 Mbit/s: 1.2 first, then 2.
    expect(asked.at(-1)).toEqual([1_200_000, 2_000_000]);
    act(() => {
      fireEvent.input(slider, { target: { value: String(Number(slider.value) + 1) } });
    });
    expect(asked.at(-1)).toEqual([2_500_000, 1_500_000]);
    act(() => {
      fireEvent.focusOut(slider);
    });
    expect(asked.at(-1)).toBeNull();
  });

  it('the number box takes an exact value in the display unit, and names what is allowed', () => {
    const h = renderWith(<Controls />);
    const box = screen.getByRole('textbox', { name: 'Bottleneck delay in ms, exact value' });
    fireEvent.input(box, { target: { value: '12.5' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(value(h, 'network.bottleneck.delay')).toBe(0.0125);
    fireEvent.input(box, { target: { value: 'soon' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(screen.getByRole('alert').textContent).toContain(
      'Bottleneck delay: not a number; allowed 0 to 10 s (0 to 10000 ms)',
    );
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(value(h, 'network.bottleneck.delay')).toBe(0.0125);
  });

  it('says what the reserved bandwidth does under each scheduler (enforced or BR-TCP only), and wires it', () => {
    const h = renderWith(<Controls />);
    const control = () => screen.getByRole('slider', { name: 'Reserved bandwidth' }).closest('.control') as HTMLElement;
    expect(within(control()).getByText(/Not enforced/).parentElement?.textContent).toContain(
      'only BR-TCP changes with this value, using it for its ssthresh',
    );
    const box = within(control()).getByRole('textbox');
    fireEvent.input(box, { target: { value: '1' } });
    fireEvent.focusOut(box); // what a browser fires with blur, and what the page listens to
    expect(value(h, 'flows[0].reserved_bandwidth')).toBe(1000000);
    act(() => {
      fireEvent.change(screen.getByRole('combobox', { name: 'Bottleneck scheduler' }), {
        target: { value: 'reservation' },
      });
    });
    expect(value(h, 'network.bottleneck.scheduler')).toBe('reservation');
    const note = within(control()).getByText(/Enforced/).parentElement?.textContent ?? '';
    expect(note).toContain('guarantees it this rate');
    expect(note).toContain('BR-TCP also uses it for its ssthresh');
  });

  it('keeps the bit error rate editable: a value chosen there makes it the loss model; per packet too', () => {
    const h = renderWith(<Controls />);
    expect(value(h, 'network.bottleneck.loss.model')).toBe('none');
    const ber = screen.getByRole('slider', { name: 'Data-direction bit error rate' }) as HTMLInputElement;
    expect(ber.disabled).toBe(false);
    const perPacket = () => document.querySelector('.ber-per-packet')?.textContent ?? '';
    expect(perPacket()).toContain('once the loss model is “Bit error rate”');
    const box = screen.getByRole('textbox', { name: /Data-direction bit error rate.*exact value/ });
    fireEvent.input(box, { target: { value: '0.00001' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(value(h, 'network.bottleneck.loss.model')).toBe('ber');
    expect(value(h, 'network.bottleneck.loss.ber')).toBe(1e-5);
    // 1 460 B of data + 40 B of headers: 1 − (1 − 10⁻⁵)^12 000 ≈ 11.3 %.
    expect(perPacket()).toBe('Per packet: ≈ 11 % of 1500 B packets lost (1 in 8.8)');
    // The per-packet model shows its own field instead.
    act(() => {
      fireEvent.change(screen.getByRole('combobox', { name: 'Data-direction loss model' }), {
        target: { value: 'bernoulli' },
      });
    });
    expect(screen.queryByRole('slider', { name: 'Data-direction bit error rate' })).toBeNull();
    expect(screen.getByRole('slider', { name: 'Data-direction loss probability' })).toBeTruthy();

    expect(screen.queryByRole('slider', { name: 'Write interval' })).toBeNull();
    act(() => {
      fireEvent.change(screen.getByRole('combobox', { name: 'Application' }), { target: { value: 'cbr' } });
    });
    expect(screen.getByRole('slider', { name: 'Write size' })).toBeTruthy();
    expect(screen.getByRole('slider', { name: 'Write interval' })).toBeTruthy();
    expect(document.querySelector('.write-rate')?.textContent).toContain(
      'Application write frequency: 100 writes/s (Hz) · 1.168 Mbit/s offered',
    );
  });

  it('puts the writes first, framed, for senders that go idle or application-limited (thin, on/off, Poisson)', () => {
    const h = renderWith(<Controls />);
    for (const kind of ['thin', 'on_off', 'poisson']) {
      act(() => {
        fireEvent.change(screen.getByRole('combobox', { name: 'Application' }), { target: { value: kind } });
      });
      const group = screen.getByRole('group', { name: 'Application writes' });
      expect(within(group).getByRole('slider', { name: 'Write size' })).toBeTruthy();
      const interval = within(group).getByRole('slider', { name: 'Write interval' }) as HTMLInputElement;
      expect(group.textContent).toContain('Application write frequency');
      // The frequency follows the interval (and the schema's range and messages apply).
      const box = within(group).getByRole('textbox', { name: 'Write interval in ms, exact value' });
      fireEvent.input(box, { target: { value: '50' } });
      fireEvent.keyDown(box, { key: 'Enter' });
      expect(value(h, 'flows[0].app.write_interval')).toBe(0.05);
      expect(group.textContent).toContain('20 writes/s');
      fireEvent.input(box, { target: { value: '0' } });
      fireEvent.keyDown(box, { key: 'Enter' });
      expect(within(group).getByRole('alert').textContent).toContain('Write interval: out of range; allowed');
      expect(interval.disabled).toBe(false);
    }
    act(() => {
      fireEvent.change(screen.getByRole('combobox', { name: 'Application' }), { target: { value: 'cbr' } });
    });
    expect(screen.queryByRole('group', { name: 'Application writes' })).toBeNull();
  });
});

describe('the competing-traffic controls', () => {
  const crossSpec = requireSpec('cross');
  const field = (name: string) => crossSpec.items?.find((f) => f.name === name);

  it('add a UDP source with the engine’s defaults, show the throughput plot, and remove it', () => {
    const h = renderWith(
      <>
        <Controls />
        <Notices />
      </>,
    );
    const group = screen.getByRole('region', { name: 'Competing traffic' });
    expect(group.textContent).toContain('No cross traffic');
    expect(h.store.getState().plots).not.toContain('throughput');
    const gen = h.store.getState().gen;
    act(() => {
      fireEvent.click(within(group).getByRole('button', { name: 'Add a UDP source' }));
    });
    const cross = h.store.getState().scenario.cross as Record<string, unknown>[];
    expect(cross).toHaveLength(1);
    for (const f of crossSpec.items ?? []) expect(cross[0]?.[f.name]).toEqual(f.default);
    expect(h.store.getState().gen).toBeGreaterThan(gen);
    expect(h.store.getState().plots).toContain('throughput');
    // The source's controls: names, choices and units from the schema's item fields.
    const source = within(group).getByRole('group', { name: /^cross 0 \(UDP CBR 10 Mbit\/s\)/ });
    const kind = within(source).getByRole('combobox', { name: 'Kind' }) as HTMLSelectElement;
    expect([...kind.options].map((o) => o.value)).toEqual(field('kind')?.options?.map((o) => o.value));
    const rate = within(source).getByRole('slider', { name: 'Rate' });
    expect(rate.getAttribute('aria-valuetext')).toBe('10 Mbit/s');
    expect(source.textContent).toContain(field('rate')?.help ?? 'missing');
    // On and off periods only for on/off sources.
    expect(within(source).queryByRole('textbox', { name: 'On' })).toBeNull();
    act(() => {
      fireEvent.change(kind, { target: { value: 'on_off' } });
    });
    expect((h.store.getState().scenario.cross as Record<string, unknown>[])[0]?.kind).toBe('on_off');
    const on = within(source).getByRole('textbox', { name: 'On' });
    fireEvent.input(on, { target: { value: '0.5' } });
    fireEvent.keyDown(on, { key: 'Enter' });
    expect((h.store.getState().scenario.cross as Record<string, unknown>[])[0]?.on).toBe(0.5);
    // The rate in the display unit, exact.
    const box = within(source).getByRole('textbox', { name: 'Rate in Mbit/s, exact value' });
    fireEvent.input(box, { target: { value: '1.25' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect((h.store.getState().scenario.cross as Record<string, unknown>[])[0]?.rate).toBe(1250000);
    // Out of range: the item field's own range, in base and display units.
    fireEvent.input(box, { target: { value: '0.0001' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(within(source).getByRole('alert').textContent).toContain(
      `Rate: out of range; allowed whole numbers ${field('rate')?.min} to ${field('rate')?.max} bit/s`,
    );
    expect((h.store.getState().scenario.cross as Record<string, unknown>[])[0]?.rate).toBe(1250000);
    act(() => {
      fireEvent.click(within(source).getByRole('button', { name: 'Remove cross 0' }));
    });
    expect(h.store.getState().scenario.cross).toEqual([]);
  });

  it('show the engine’s message for what it refuses, and keep working', () => {
    // As many small sources as the engine takes (it refuses one more).
    let most = 0;
    const sources = (n: number) => Array.from({ length: n }, () => 'cbr:1000').join(',');
    while (most < 100 && decodeShareState(`?v=2&cross=${sources(most + 1)}`, realValidator()).notices.length === 0) {
      most += 1;
    }
    expect(most).toBeGreaterThan(1);
    const h = renderWith(
      <>
        <Controls />
        <Notices />
      </>,
      `?v=2&alg=newreno&duration=1&cross=${sources(most)}`,
    );
    // (Plain selectors: role queries are slow over sixteen sources' controls in jsdom.)
    const control = (path: string) => document.querySelector(`[data-path="${path}"]`) as HTMLElement;
    act(() => {
      fireEvent.click(document.querySelector('button.cross-add') as HTMLElement);
    });
    expect(h.store.getState().scenario.cross).toHaveLength(most);
    expect(document.querySelector('.notice-box')?.textContent).toMatch(
      new RegExp(`Not applied: cross: .*allowed at most ${most}`),
    );
    // A reservation above the bandwidth under the reservation scheduler: the engine says so.
    act(() => {
      fireEvent.change(control('network.bottleneck.scheduler').querySelector('select') as HTMLElement, {
        target: { value: 'reservation' },
      });
    });
    const borrow = control('network.bottleneck.borrow').querySelector('input') as HTMLInputElement;
    expect(borrow.disabled).toBe(false);
    const reserved = control('flows[0].reserved_bandwidth').querySelector('input.num') as HTMLInputElement;
    fireEvent.input(reserved, { target: { value: '50' } });
    fireEvent.keyDown(reserved, { key: 'Enter' });
    expect(document.querySelector('.notice-box')?.textContent).toContain('reservations add up to 50000000 bit/s');
    expect(value(h, 'flows[0].reserved_bandwidth')).toBe(0);
    // Still working: a valid change applies.
    act(() => {
      fireEvent.click(borrow);
    });
    expect(value(h, 'network.bottleneck.borrow')).toBe(true);
  }, 20_000);

  it('the borrow switch is off and explained under FIFO', () => {
    renderWith(<Controls />);
    const borrow = screen.getByRole('checkbox', { name: 'Borrow idle capacity' }) as HTMLInputElement;
    expect(borrow.disabled).toBe(true);
    expect(borrow.closest('.control')?.textContent).toContain('Used with the “Reservation (class-based)” scheduler.');
  });
});

describe('the advanced controls', () => {
  it('hide the settings the algorithm catalogue controls unless custom is compared', () => {
    const h = renderWith(<AdvancedControls />, '?v=2&alg=newreno,newreno_cwv');
    // Made when first opened.
    expect(document.querySelector('[data-path="flows[0].cc.nvp_limit"]')).toBeNull();
    const details = document.querySelector('details.advanced') as HTMLDetailsElement;
    act(() => {
      details.open = true;
      fireEvent(details, new Event('toggle'));
    });
    for (const path of CONTROLLED_PATHS)
      expect(document.querySelector(`[data-path="${concretePath(path, 0)}"]`)).toBeNull();
    // Other congestion-control settings stay (they apply to every run).
    expect(document.querySelector('[data-path="flows[0].cc.nvp_limit"]')).not.toBeNull();
    act(() => h.controller.setAlgorithms(['newreno', CUSTOM]));
    const idle = document.querySelector('[data-path="flows[0].cc.idle_policy"]') as HTMLElement;
    expect(idle).not.toBeNull();
    expect(idle.textContent).toContain('what “Custom” runs');
    expect(document.querySelector('[data-path="flows[0].algorithm"]')).toBeNull();
    act(() => {
      fireEvent.change(within(idle).getByRole('combobox'), { target: { value: 'restart' } });
    });
    expect(value(h, 'flows[0].cc.idle_policy')).toBe('restart');
  });
});

describe('the algorithm picker', () => {
  it('compares any set but never none', () => {
    const h = renderWith(<AlgorithmPicker />);
    const reno = screen.getByRole('checkbox', { name: 'Reno' }) as HTMLInputElement;
    expect(reno.checked).toBe(true);
    act(() => {
      fireEvent.click(reno);
    });
    expect(h.store.getState().algorithms).toEqual(['reno']);
  });

  it('offers every catalogue entry under its group, described, with group shortcuts', () => {
    const h = renderWith(<AlgorithmPicker />, '?v=2&alg=newreno');
    for (const g of GROUPS) {
      const group = screen.getByRole('group', { name: g.name });
      const boxes = within(group).getAllByRole('checkbox');
      expect(boxes).toHaveLength(g.entries.length);
      for (const e of g.entries) {
        const box = within(group).getByRole('checkbox', { name: e.label });
        // The description is the checkbox's accessible description (no hover needed).
        const desc = document.getElementById(box.getAttribute('aria-describedby') ?? '');
        expect(desc?.textContent).toBe(e.description);
      }
    }
    // A group of one entry has no shortcuts: take the next group with several.
    const first = GROUPS[0];
    const second = GROUPS.slice(1).find((g) => g.entries.length > 1);
    act(() => {
      fireEvent.click(screen.getByRole('button', { name: `Add all ${second?.entries.length}: ${second?.name}` }));
    });
    expect(h.store.getState().algorithms).toEqual(
      ALGORITHM_NAMES.filter((n) => n === 'newreno' || second?.entries.some((e) => e.name === n)),
    );
    act(() => {
      fireEvent.click(screen.getByRole('button', { name: `Compare only these: ${first?.name}` }));
    });
    expect(h.store.getState().algorithms).toEqual(first?.entries.map((e) => e.name));
    // Descriptions can be shown as text.
    const toggle = screen.getByRole('button', { name: 'Describe each' });
    act(() => {
      fireEvent.click(toggle);
    });
    expect(screen.getByText(first?.entries[0]?.description ?? 'missing').hidden).toBe(false);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
  });

  it('offers “custom” only when flow 0 has settings of its own, and says what they are', () => {
    renderWith(<AlgorithmPicker />, '?v=2&alg=newreno');
    expect(screen.queryByRole('checkbox', { name: /Custom/ })).toBeNull();
    cleanup();
    const h = renderWith(
      <AlgorithmPicker />,
      '?v=2&alg=newreno,custom&f0.cc.idle_policy=restart&f0.cc.growth_gate=window_full',
    );
    const custom = screen.getByRole('checkbox', { name: 'Custom (this scenario’s own settings)' });
    expect((custom as HTMLInputElement).checked).toBe(true);
    const desc = document.getElementById(custom.getAttribute('aria-describedby') ?? '');
    expect(desc?.textContent).toContain('Restart after idle');
    expect(desc?.textContent).toContain('Window full');
    expect(h.store.getState().algorithms).toEqual(['newreno', CUSTOM]);
  });
});

describe('the lesson panel', () => {
  it('shows the lesson of a preset that has one, and says when the scenario has changed', async () => {
    const preset = tables.presets.find((p) => p.lesson);
    if (!preset?.lesson) return;
    const h = renderWith(<LessonPanel />, '?v=2&alg=newreno');
    expect(screen.queryByText('Question for the class')).toBeNull();
    act(() => h.controller.loadPreset(preset.name));
    // The texts come with the teaching chunk, which the panel asks for when it has a lesson.
    const text = (await loadTeaching())?.lessons[preset.name];
    expect(text, 'the lesson text in teaching.json').toBeDefined();
    if (!text) return;
    expect(await screen.findByText(text.look)).toBeTruthy();
    expect(screen.getByText(text.question)).toBeTruthy();
    expect(screen.getByText(text.happens)).toBeTruthy();
    expect(screen.queryByText(/has changed since/)).toBeNull();
    expect(h.store.getState().algorithms).toEqual(
      ALGORITHM_NAMES.filter((n) => [...(preset.lesson?.compare ?? []), presetBase(preset.scenario).own].includes(n)),
    );
    act(() => h.controller.setParam('seed', 7));
    expect(screen.getByText(/has changed since/)).toBeTruthy();
    await waitFor(h.allDone);
  });
});

describe('the notices', () => {
  it('show what a bad link contained and can be dismissed', () => {
    const h = renderWith(<Notices />, '?v=1&duration=-1');
    const box = screen.getByRole('status');
    expect(box.textContent).toContain('Duration (duration): "-1" is out of range; allowed 0.001 to 100000 s');
    act(() => {
      fireEvent.click(within(box).getByRole('button', { name: /Dismiss/ }));
    });
    expect(h.store.getState().notices).toEqual([]);
  });
});

describe('the summary table', () => {
  it('shows the engine’s numbers for each algorithm', async () => {
    const h = renderWith(<SummaryTable />, '?v=1&alg=tahoe,reno');
    act(() => h.controller.runFull());
    await waitFor(h.allDone);
    await act(async () => {});
    const s = h.store.getState();
    const table = screen.getByRole('table', { name: 'Summary, one column per algorithm' });
    const reno = s.runs.reno?.summary?.flows[0];
    expect(table.textContent).toContain(String(reno?.retransmits));
    expect(screen.getByText(/Run digests/).textContent).toContain(s.runs.tahoe?.summary?.digest ?? 'missing');
    const header = within(table)
      .getAllByRole('columnheader')
      .map((c) => c.textContent);
    expect(header).toEqual(['Metric', 'Tahoe', 'Reno']);
    // The other orientation holds the same numbers, one row per algorithm.
    const rows = screen.getByRole('table', { name: 'Summary, one row per algorithm' });
    expect(
      within(rows)
        .getAllByRole('rowheader')
        .map((c) => c.textContent),
    ).toEqual(['Tahoe', 'Reno']);
    expect(rows.textContent).toContain(String(reno?.retransmits));
    // The delay rows: the engine's mean and 95th percentile in ms, four significant digits.
    const cells = (label: string) =>
      Array.from(within(table).getByRole('rowheader', { name: label }).closest('tr')?.querySelectorAll('td') ?? []).map(
        (td) => td.textContent,
      );
    const four = (v: number | null | undefined) => (v == null ? '—' : String(Number(v.toPrecision(4))));
    const flows = s.algorithms.map((a) => s.runs[a]?.summary?.flows[0]);
    expect(cells('Queueing delay mean · p95 (ms)')).toEqual(
      flows.map((f) => `${four(f?.qdelay_mean_ms)} · ${four(f?.qdelay_p95_ms)}`),
    );
    expect(cells('RTT mean · p95 (ms)')).toEqual(flows.map((f) => `${four(f?.rtt_mean_ms)} · ${four(f?.rtt_p95_ms)}`));
    expect(reno?.rtt_mean_ms).toBeGreaterThan(0);
    expect(reno?.qdelay_mean_ms).not.toBeNull();
  });
});

describe('the summary table: cross traffic', () => {
  it('has rows for each source’s delivered rate and queue drops', async () => {
    const h = renderWith(<SummaryTable />, '?v=2&alg=newreno&duration=3&cross=cbr:1000000,on_off:500000');
    act(() => h.controller.runFull());
    await waitFor(h.allDone);
    await act(async () => {});
    const cross = h.store.getState().runs.newreno?.summary?.cross ?? [];
    expect(cross).toHaveLength(2);
    const table = screen.getByRole('table', { name: 'Summary, one column per algorithm' });
    const row = (label: string) => within(table).getByRole('rowheader', { name: label }).closest('tr');
    for (const [i, c] of cross.entries()) {
      expect(row(`cross ${i} delivered (Mbit/s)`)?.textContent).toContain(String(c.delivered_bps / 1e6));
      expect(row(`cross ${i} queue drops`)?.textContent).toContain(String(c.queue_drops));
    }
    expect(cross[0]?.queue_drops).toBeGreaterThan(0);
  });
});

describe('the summary table: thin streams', () => {
  it('has packet, payload and ITT / sojourn / latency percentile rows when the sender writes, none for bulk', async () => {
    const h = renderWith(
      <SummaryTable />,
      '?v=3&alg=newreno,reno&f0.app.kind=thin&f0.app.write_size=20&network.bottleneck.loss.model=bernoulli' +
        '&network.bottleneck.loss.probability=0.02&duration=6',
    );
    act(() => h.controller.runFull());
    await waitFor(h.allDone);
    await act(async () => {});
    const table = screen.getByRole('table', { name: 'Summary, one column per algorithm' });
    const cells = (label: string) =>
      Array.from(within(table).getByRole('rowheader', { name: label }).closest('tr')?.querySelectorAll('td') ?? []).map(
        (td) => td.textContent,
      );
    const ms = (v: number | null) => (v === null ? '—' : String(Number((v * 1e3).toPrecision(4))));
    const s = h.store.getState();
    expect(s.algorithms).toEqual(['reno', 'newreno']);
    const flows = s.algorithms.map((a) => s.runs[a]?.summary?.flows[0]);
    expect(cells('Packets sent')).toEqual(flows.map((f) => String(f?.data_packets_sent)));
    expect(cells('Mean payload (B)')).toEqual(flows.map((f) => String(Number(f?.mean_payload_bytes.toPrecision(4)))));
    for (const m of ['itt', 'sojourn', 'latency'] as const) {
      const label = `${m === 'itt' ? 'ITT' : m[0]?.toUpperCase() + m.slice(1)} p50 · p90 · p99 (ms)`;
      expect(cells(label)).toEqual(
        flows.map((f) =>
          [f?.[`${m}_p50_s`], f?.[`${m}_p90_s`], f?.[`${m}_p99_s`]].map((v) => ms(v ?? null)).join(' · '),
        ),
      );
    }
    expect(flows[0]?.latency_p99_s).toBeGreaterThan(flows[0]?.latency_p50_s ?? Infinity);
    // Back to a bulk sender: the rows go.
    act(() => h.controller.setParam('flows[0].app.kind', 'bulk'));
    await waitFor(h.allDone);
    await act(async () => {});
    expect(within(table).queryByRole('rowheader', { name: 'Packets sent' })).toBeNull();
    expect(within(table).queryByRole('rowheader', { name: 'Latency p50 · p90 · p99 (ms)' })).toBeNull();
  });
});

describe('the summary table: window validation', () => {
  it('shows max burst and window decays, and says when two runs traced identically and why', async () => {
    const h = renderWith(<SummaryTable />, '?v=2&alg=newreno,newreno_cwv');
    act(() => h.controller.runFull());
    await waitFor(h.allDone);
    await act(async () => {});
    const s = h.store.getState();
    const table = screen.getByRole('table', { name: 'Summary, one column per algorithm' });
    const row = (label: string) =>
      within(table).getByRole('rowheader', { name: label }).closest('tr')?.textContent?.replace(label, '');
    const cwv = s.runs.newreno_cwv?.summary?.flows[0];
    expect(row('Max burst (packets)')).toContain(String(cwv?.max_burst_packets));
    expect(row('Window decays')).toBe('00');
    // The default bulk sender is never idle: CWV changes nothing, and the page says why.
    expect(s.runs.newreno?.summary?.digest).toBe(s.runs.newreno_cwv?.summary?.digest);
    expect(screen.getByRole('list', { name: 'Identical runs' }).textContent).toBe(
      'NewReno and NewReno + CWV traced identically: CWV and restart act only when ' +
        'the sender is idle or application-limited, and this one never was (a bulk sender always has data).',
    );
    // Reno and NewReno, with the same engine digest, on a run without loss.
    act(() => h.controller.setAlgorithms(['reno', 'newreno']));
    act(() => h.controller.setParam('network.bottleneck.queue_packets', 1000));
    await waitFor(h.allDone);
    await act(async () => {});
    const t = h.store.getState();
    expect(t.runs.reno?.summary?.flows[0]?.retransmits).toBe(0);
    expect(screen.getByRole('list', { name: 'Identical runs' }).textContent).toBe(
      'Reno and NewReno traced identically: no packet was lost, so the loss-recovery variants never differed.',
    );
  });
});

describe('the error boundary', () => {
  it('shows what went wrong instead of a blank page', () => {
    const Broken = () => {
      throw new Error('boom');
    };
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <ErrorBoundary>
        <Broken />
      </ErrorBoundary>,
    );
    spy.mockRestore();
    expect(screen.getByRole('alert').textContent).toContain('The page could not be drawn: boom');
    expect(screen.getByRole('link', { name: 'Open the default scenario' }).getAttribute('href')).toBe('./');
  });
});
