// @vitest-environment jsdom
// The note under the algorithm picker: which controls a compared sender profile's run does
// not use, and what it uses instead, in the schema's labels and units, with the real store,
// controller and engine.
import { act, cleanup, render, screen, within } from '../test/render';
import { afterEach, describe, expect, it } from 'vitest';
import { AppContext } from '../app/AppContext';
import { createHarness } from '../test/appHarness';
import { AlgorithmPicker } from './AlgorithmPicker';

const harnesses: ReturnType<typeof createHarness>[] = [];
afterEach(() => {
  cleanup();
  harnesses.splice(0).forEach((h) => h.dispose());
});

function renderPicker(query: string) {
  const h = createHarness(query, 1);
  harnesses.push(h);
  render(
    <AppContext.Provider value={{ store: h.store, controller: h.controller, traces: h.traces }}>
      <AlgorithmPicker />
    </AppContext.Provider>,
  );
  return h;
}

const note = () => screen.queryByRole('region', { name: 'Settings an algorithm brings with it' });

describe('the profile note under the algorithm picker', () => {
  it('names each profile’s own values beside the controls’, the two Linux profiles together', () => {
    renderPicker('?v=3&alg=newreno,linux_3_15,linux_3_18,freebsd_10');
    const box = note();
    expect(box).not.toBeNull();
    const groups = box?.querySelectorAll('.profile-group') ?? [];
    expect([...groups].map((g) => g.getAttribute('data-algorithms'))).toEqual(['linux_3_15,linux_3_18', 'freebsd_10']);
    const linux = groups[0] as HTMLElement;
    expect(linux.textContent).toMatch(/^Linux 3\.15-like and Linux 3\.18-like run with their own settings:/);
    const items = within(linux)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items).toContain('Initial window 10 segments (controls: 2 segments)');
    expect(items).toContain('Minimum RTO 200 ms (controls: 1000 ms)');
    expect(items).toContain('Delayed ACK on (controls: off)');
    expect(groups[1]?.textContent).toContain('FreeBSD 10-like runs with its own settings:');
    expect(groups[1]?.textContent).toContain('Initial RTO 3 s (controls: 1 s)');
    expect(box?.textContent).toContain(
      'NewReno runs on the controls throughout; the others for every setting not listed.',
    );
  });

  it('is not shown while every compared run uses the controls', () => {
    renderPicker('?v=3&alg=reno,newreno,newreno_cwv');
    expect(note()).toBeNull();
  });

  it('follows the controls: a value set to the profile’s own is no longer listed', () => {
    const h = renderPicker('?v=3&alg=linux_3_15');
    expect(screen.getByText(/^Initial window/, { selector: 'li' })).toBeTruthy();
    act(() => {
      h.controller.setParam('flows[0].tcp.initial_window', 10);
    });
    expect(screen.queryByText(/^Initial window/, { selector: 'li' })).toBeNull();
    expect(note()?.textContent).toContain('Every setting not listed runs as the controls set it.');
  });
});
