// @vitest-environment jsdom
// The Why panel's SACK state with the real engine (in-process workers): at the pinned cursor
// it shows the row of the engine's recovery series in force, and nothing for a run without
// SACK.
import { afterEach, describe, expect, it } from 'vitest';
import { AppContext } from '../app/AppContext';
import { tables } from '../engine/tables';
import { presetBase } from '../scenario/algorithms';
import { defaultShareState } from '../scenario/shareState';
import { encodeShareState } from '../scenario/url';
import { createHarness } from '../test/appHarness';
import { waitFor } from '../test/inProcessWorker';
import { cleanup, render } from '../test/render';
import { SackPanel } from './SackPanel';

const harnesses: ReturnType<typeof createHarness>[] = [];
afterEach(() => {
  cleanup();
  harnesses.splice(0).forEach((h) => h.dispose());
});

async function threeDrops(sack: boolean) {
  const preset = tables.presets.find((p) => p.name === 'fall-floyd-newreno-3drops');
  if (!preset) throw new Error('preset');
  const scenario = presetBase(preset.scenario).base;
  // SACK comes with the algorithm (the catalogue entry owns `sack.*`).
  const key = sack ? 'newreno_rack_tlp' : 'newreno';
  const h = createHarness(
    `?${encodeShareState({ ...defaultShareState(), scenario, algorithms: [key], cursor: 2.1 })}`,
    1,
  );
  harnesses.push(h);
  h.controller.runFull();
  await waitFor(h.allDone);
  const { container } = render(
    <AppContext.Provider value={{ store: h.store, controller: h.controller, traces: h.traces }}>
      <SackPanel keyName={key} />
    </AppContext.Provider>,
  );
  return { h, container, key };
}

describe('the SACK state in the Why panel', () => {
  it('shows the engine’s recovery row in force at the cursor', async () => {
    const { h, container, key } = await threeDrops(true);
    const r = h.traces.get(key)?.tables.recovery;
    if (!r) throw new Error('no trace');
    let k = 0;
    while (k + 1 < r.length && (r.cols.t[k + 1] ?? 0) <= 2.1) k += 1;
    const field = (name: string) => container.querySelector(`[data-field="${name}"]`)?.textContent ?? '';
    expect(container.textContent).toContain('t = 2.100 s');
    expect(field('pipe')).toContain(`(${r.cols.pipe[k]} B)`);
    expect(field('sacked')).toContain(`(${r.cols.sacked[k]} B)`);
    expect(field('recovery')).toMatch(/^yes, until RecoveryPoint/);
    expect(field('prr')).toBe(`${r.cols.prr_delivered[k]} / ${r.cols.prr_out[k]} segments`);
    expect(field('blocks')).toMatch(/segments; ACK at/);
  });

  it('shows nothing for a run without SACK', async () => {
    const { container } = await threeDrops(false);
    expect(container.querySelector('.sack-state')).toBeNull();
  });
});
