// @vitest-environment jsdom
// The lesson panel's sweep button: shown only for a lesson that has a sweep (the engine's
// `sweep` field), it puts that sweep, read by the link's rules, in the store (the sweep view
// opens on it); every lesson today has none, so one is lent to a preset here.
import { afterEach, describe, expect, it } from 'vitest';
import { AppContext } from '../app/AppContext';
import { tables } from '../engine/tables';
import { loadTeaching } from '../engine/teaching';
import { createHarness } from '../test/appHarness';
import { waitFor } from '../test/inProcessWorker';
import { act, cleanup, fireEvent, render, screen } from '../test/render';
import { LessonPanel } from './LessonPanel';

const harnesses: ReturnType<typeof createHarness>[] = [];
const bloat = tables.presets.find((p) => p.name === 'cubic-bufferbloat');
afterEach(() => {
  cleanup();
  harnesses.splice(0).forEach((h) => h.dispose());
  if (bloat?.lesson) bloat.lesson.sweep = null;
});

function renderPanel() {
  const h = createHarness('?v=4&alg=newreno', 1);
  harnesses.push(h);
  render(
    <AppContext.Provider value={{ store: h.store, controller: h.controller, traces: h.traces }}>
      <LessonPanel />
    </AppContext.Provider>,
  );
  return h;
}

const BUTTON = 'Compare side by side in a sweep';

describe('the lesson panel’s sweep', () => {
  it('has no button for a lesson without a sweep', async () => {
    expect(bloat?.lesson?.sweep).toBeNull();
    const h = renderPanel();
    act(() => h.controller.loadPreset('cubic-bufferbloat'));
    await loadTeaching();
    expect(await screen.findByText('Question for the class')).toBeTruthy();
    expect(screen.queryByRole('button', { name: BUTTON })).toBeNull();
    await waitFor(h.allDone);
  });

  it('opens the lesson’s sweep: its keys read as a link’s', async () => {
    if (!bloat?.lesson) throw new Error('no cubic-bufferbloat lesson');
    bloat.lesson.sweep = 'sweep=network.bottleneck.qdisc:droptail,codel&sweepm=qdelay_mean_ms&sweepalg=cubic';
    const h = renderPanel();
    act(() => h.controller.loadPreset('cubic-bufferbloat'));
    await loadTeaching();
    const button = await screen.findByRole('button', { name: BUTTON });
    expect(h.store.getState().sweep).toBeNull();
    act(() => {
      fireEvent.click(button);
    });
    expect(h.store.getState().sweep).toEqual({
      param: 'network.bottleneck.qdisc',
      from: '',
      to: '',
      points: 2,
      log: false,
      values: ['droptail', 'codel'],
      seeds: 3,
      algorithms: ['cubic'],
      metric: 'qdelay_mean_ms',
    });
    await waitFor(h.allDone);
  });
});
