// @vitest-environment jsdom
// The Export panel in jsdom with the real store and engine: it offers what the engine says
// (tables with their descriptions, capture points, the page's limit), names the tables of
// the visible plots, works from the keyboard (native controls), and an export the page
// cannot make yet lands in the notices under its own heading.
import { act, cleanup, fireEvent, render, screen, within } from '../test/render';
import { afterEach, describe, expect, it } from 'vitest';
import { AppContext } from '../app/AppContext';
import { loadDeferredNow } from '../app/Deferred';
import { parseVocabulary } from '../export/vocabulary';
import { createHarness } from '../test/appHarness';
import { engineWasm } from '../test/wasm';
import { ExportPanel } from './ExportPanel';
import { Notices } from './Notices';

const vocabulary = parseVocabulary(engineWasm().export_tables_json());
const harnesses: ReturnType<typeof createHarness>[] = [];
afterEach(() => {
  cleanup();
  harnesses.splice(0).forEach((h) => h.dispose());
});

function renderPanel(query = '?v=4&alg=reno,newreno') {
  // The page opens the deferred parts' gate once its first view is drawn (start.tsx); the
  // panel's frame shows nothing of its body until then.
  loadDeferredNow();
  const h = createHarness(query, 1);
  harnesses.push(h);
  render(
    <AppContext.Provider value={{ store: h.store, controller: h.controller, traces: h.traces }}>
      <Notices />
      <ExportPanel />
    </AppContext.Provider>,
  );
  return h;
}

describe('the Export panel', () => {
  it('offers the engine’s tables, capture points and limit, and names the visible plots’ tables', () => {
    renderPanel();
    const tables = screen.getByText('What each table holds').closest('details');
    if (!tables) throw new Error('no table list');
    for (const t of vocabulary.tables) expect(within(tables).getByText(t.name)).toBeTruthy();
    const points = screen.getByLabelText('Capture at') as HTMLSelectElement;
    expect([...points.options].map((o) => o.value)).toEqual(vocabulary.capture_points.map((p) => p.name));
    const first = vocabulary.capture_points[0]?.description ?? '—';
    expect(screen.getByText((text) => text.startsWith(first))).toBeTruthy();
    expect(screen.getByText(/The visible plots draw from series, events, queues, validation/)).toBeTruthy();
    expect(
      screen.getByText(`Files up to ${vocabulary.page_limit_bytes >> 20} MB per run are made here`, { exact: false }),
    ).toBeTruthy();
    // A competition names its flows for the qlog.
    cleanup();
    renderPanel('?v=4&mode=compete&flows=2');
    expect((screen.getByLabelText('Flow') as HTMLSelectElement).options).toHaveLength(2);
  });

  it('switches format and reports an export it cannot make in the notices, under its own heading', async () => {
    const h = renderPanel();
    fireEvent.click(screen.getByLabelText('JSON'));
    expect((screen.getByLabelText('JSON') as HTMLInputElement).checked).toBe(true);
    // jsdom has no compiled engine for the export worker: the panel says so, the page goes on.
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'All data' }));
      await Promise.resolve();
    });
    expect(screen.getByRole('heading', { name: 'An export was not made' })).toBeTruthy();
    expect(h.store.getState().notices.map((n) => n.key)).toEqual(['export']);
    h.store.getState().addNotices([{ key: 'duration', message: 'x' }]);
    await act(async () => Promise.resolve());
    expect(screen.getByRole('heading', { name: 'One setting was not used; an export was not made' })).toBeTruthy();
  });
});
