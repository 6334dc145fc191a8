// @vitest-environment jsdom
// The panels in jsdom with the real store, controller and engine: labels come from the
// engine's schema, controls change the scenario, bad input is named.
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppContext } from '../app/AppContext';
import { ErrorBoundary } from '../app/ErrorBoundary';
import { getAt } from '../scenario/paths';
import { requireSpec } from '../scenario/params';
import { createHarness } from '../test/appHarness';
import { waitFor } from '../test/inProcessWorker';
import { AlgorithmPicker } from './AlgorithmPicker';
import { Controls } from './Controls';
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
  it('label every main control from the schema, with its unit', () => {
    renderWith(<Controls />);
    for (const path of [
      'network.bottleneck.bandwidth',
      'network.bottleneck.delay',
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
    expect(screen.getByRole('combobox', { name: 'Application' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Seed' })).toBeTruthy();
  });

  it('a slider step changes the scenario and starts a run', () => {
    const h = renderWith(<Controls />);
    const slider = screen.getByRole('slider', { name: 'Bottleneck bandwidth' }) as HTMLInputElement;
    const gen = h.store.getState().gen;
    act(() => {
      fireEvent.change(slider, { target: { value: String(Number(slider.value) + 1) } });
    });
    expect(value(h, 'network.bottleneck.bandwidth')).toBe(2500000);
    expect(h.store.getState().gen).toBeGreaterThan(gen);
    expect(slider.getAttribute('aria-valuetext')).toBe('2.5 Mbit/s');
  });

  it('the number box takes an exact value in the display unit, and names what is allowed', () => {
    const h = renderWith(<Controls />);
    const box = screen.getByRole('textbox', { name: 'Bottleneck delay in ms, exact value' });
    act(() => {
      fireEvent.change(box, { target: { value: '12.5' } });
      fireEvent.keyDown(box, { key: 'Enter' });
    });
    expect(value(h, 'network.bottleneck.delay')).toBe(0.0125);
    act(() => {
      fireEvent.change(box, { target: { value: 'soon' } });
      fireEvent.keyDown(box, { key: 'Enter' });
    });
    expect(screen.getByRole('alert').textContent).toContain(
      'Bottleneck delay: not a number; allowed 0 to 10 s (0 to 10000 ms)',
    );
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(value(h, 'network.bottleneck.delay')).toBe(0.0125);
  });

  it('marks reserved bandwidth as unused by every current algorithm, yet wires it', () => {
    const h = renderWith(<Controls />);
    const control = screen.getByRole('slider', { name: 'Reserved bandwidth' }).closest('.control') as HTMLElement;
    expect(within(control).getByText(/Not used yet\./).parentElement?.textContent).toContain(
      'no current algorithm changes with this value',
    );
    const box = within(control).getByRole('textbox');
    act(() => {
      fireEvent.change(box, { target: { value: '1' } });
      fireEvent.blur(box);
    });
    expect(value(h, 'flows[0].reserved_bandwidth')).toBe(1000000);
  });

  it('enables the bit error rate with the BER loss model, and shows the application’s own fields', () => {
    const h = renderWith(<Controls />);
    const ber = screen.getByRole('slider', { name: 'Data-direction bit error rate' }) as HTMLInputElement;
    expect(ber.disabled).toBe(true);
    act(() => {
      fireEvent.change(screen.getByRole('combobox', { name: 'Data-direction loss model' }), {
        target: { value: 'ber' },
      });
    });
    expect(value(h, 'network.bottleneck.loss.model')).toBe('ber');
    expect((screen.getByRole('slider', { name: 'Data-direction bit error rate' }) as HTMLInputElement).disabled).toBe(
      false,
    );

    expect(screen.queryByRole('slider', { name: 'Write interval' })).toBeNull();
    act(() => {
      fireEvent.change(screen.getByRole('combobox', { name: 'Application' }), { target: { value: 'cbr' } });
    });
    expect(screen.getByRole('slider', { name: 'Write size' })).toBeTruthy();
    expect(screen.getByRole('slider', { name: 'Write interval' })).toBeTruthy();
    expect(screen.getByText(/writes\/s/).textContent).toContain('= 100 writes/s, 1.168 Mbit/s offered');
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
    act(() => {
      fireEvent.click(screen.getByRole('button', { name: 'Compare all 4' }));
    });
    expect(h.store.getState().algorithms).toEqual(['old_tahoe', 'tahoe', 'reno', 'newreno']);
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
