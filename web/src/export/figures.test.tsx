// @vitest-environment jsdom
// Images of the page's plots, in jsdom with the real app (store, controller, engine): a
// plot's export is drawn by the very calls its canvas is drawn with (the canvas here is a
// recorder too, so both are compared call for call), its axes come from the page's SVG, and
// the real legend is laid out as SVG text and swatches without its hover definitions.
import { act, cleanup, render } from '../test/render';
import { execFileSync } from 'node:child_process';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppContext } from '../app/AppContext';
import { Legend } from '../plots/Legend';
import { PlotStack } from '../plots/PlotStack';
import { panelOf } from '../plots/core/panel';
import type { Drawable } from '../plots/core/scheduler';
import { createHarness } from '../test/appHarness';
import { waitFor } from '../test/inProcessWorker';
import { compose, legendPiece, panelPiece, plotSvg, visibleFigures, wrapText } from './figures';
import { fontAttrs, SvgContext } from './svgContext';

const measure = (font: string, text: string) => text.length * fontAttrs(font).size * 0.55;

/** Parses the SVG as XML (Python's expat); throws when it is not well-formed. */
function wellFormed(svg: string): void {
  execFileSync('python3', ['-c', 'import sys,xml.etree.ElementTree as E;E.fromstring(sys.stdin.read())'], {
    input: svg.replace(/^<\?xml[^>]*>\s*/, ''),
  });
}

const harnesses: ReturnType<typeof createHarness>[] = [];
/** The canvases' contexts: recorders (jsdom has no canvas), by canvas. */
const canvasRecorders = new Map<HTMLCanvasElement, SvgContext>();

beforeEach(() => {
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(function (this: HTMLCanvasElement) {
    let r = canvasRecorders.get(this);
    if (!r) {
      // Clearing the whole canvas starts a new drawing, as on screen.
      r = new SvgContext({ idPrefix: 'screen', measure, width: 600, height: 240 });
      canvasRecorders.set(this, r);
    }
    return r.asContext() as unknown as ReturnType<HTMLCanvasElement['getContext']>;
  } as unknown as HTMLCanvasElement['getContext']);
  // Plot bodies have a size (jsdom lays nothing out).
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(function (this: HTMLElement) {
    return this.classList.contains('plot-body') ? 600 : 0;
  });
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return this.classList.contains('plot-body') ? 240 : 0;
  });
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  canvasRecorders.clear();
  harnesses.splice(0).forEach((h) => h.dispose());
});

async function renderApp(ui: ReactNode, query: string) {
  const h = createHarness(query, 1);
  harnesses.push(h);
  h.controller.runFull();
  await waitFor(h.allDone);
  const view = render(
    <AppContext.Provider value={{ store: h.store, controller: h.controller, traces: h.traces }}>
      {ui}
    </AppContext.Provider>,
  );
  return { h, view };
}

describe('plot images', () => {
  it('a plot’s export is drawn by exactly the calls that draw its canvas', async () => {
    const { view } = await renderApp(<PlotStack />, '?v=4&alg=reno,newreno&layout=overlay&f0.drops=14:1,26:1');
    const figures = visibleFigures(view.container);
    expect(figures.map((f) => f.id)).toEqual(['window-reno-newreno', 'seq-reno-newreno', 'queue-reno-newreno']);
    for (const fig of figures) {
      // The page's draw of its canvas, at this screen's ratio (1 in jsdom)…
      act(() => {
        const d = panelOf(fig.body) as unknown as Drawable;
        d.measure();
        d.draw();
      });
      const canvas = fig.body.querySelector('canvas');
      const onScreen = canvas ? canvasRecorders.get(canvas)?.fragment() : undefined;
      expect(onScreen?.body.length, fig.id).toBeGreaterThan(1000);
      // …and the export's, at the same ratio: the same elements, in the same order.
      const rec = new SvgContext({ idPrefix: 'screen', measure, outputScale: 1, width: 600, height: 240 });
      const size = fig.panel.renderTo(rec.asContext(), 1);
      expect(size).toEqual({ W: 600, H: 240, pw: 536, ph: 206 });
      expect(rec.fragment().body, fig.id).toBe(onScreen?.body);
    }
    // Exporting did not touch the page: the canvas keeps its size, the label its text.
    const canvas = figures[0]?.body.querySelector('canvas');
    expect(canvas?.width).toBe(600);
    expect(canvas?.getAttribute('aria-label')).toMatch(/Reno/);
  });

  it('a plot’s SVG holds its title, its lines, its axes and the legend', async () => {
    const { view } = await renderApp(
      <>
        <Legend />
        <PlotStack />
      </>,
      '?v=4&alg=reno,newreno&layout=overlay&f0.drops=14:1,26:1',
    );
    const [fig] = visibleFigures(view.container);
    if (!fig) throw new Error('no figure');
    act(() => {
      const d = panelOf(fig.body) as unknown as Drawable;
      d.measure();
      d.draw();
    });
    const legend = view.container.querySelector('.legend');
    const image = plotSvg(fig, legend, 2, 'w');
    expect(image).not.toBeNull();
    const svg = image?.svg ?? '';
    wellFormed(svg);
    expect(image?.width).toBe(600);
    expect(svg).toContain('>Congestion window (segments)</text>');
    // The axes from the page's SVG, tick text included.
    const ticks = [...fig.panel.axes.querySelectorAll('.tick text')].map((t) => t.textContent);
    expect(ticks.length).toBeGreaterThan(4);
    for (const t of ticks) expect(svg).toContain(`>${t}</text>`);
    expect(svg).toMatch(/<path d="M[^"]+L[^"]+" fill="none" stroke="#/);
    // The legend: names, not their hover definitions.
    expect(svg).toContain('>Reno</text>');
    expect(svg).toContain('>NewReno</text>');
    expect(svg).toContain('>ssthresh</text>');
    expect(svg).not.toContain('Slow-start threshold:');
  });
});

describe('the legend as SVG', () => {
  it('lays out every item of the real legend, wraps to the width, draws phase swatches with patterns', async () => {
    const { view } = await renderApp(<Legend />, '?v=4&alg=reno,newreno');
    const legend = view.container.querySelector('.legend');
    if (!legend) throw new Error('no legend');
    const wide = legendPiece(legend, 2000, 'a', measure);
    const narrow = legendPiece(legend, 300, 'b', measure);
    expect(narrow.height).toBeGreaterThan(wide.height);
    const items = [...legend.querySelectorAll('ul.legend-row > li')].length;
    expect((wide.body.match(/<text /g) ?? []).length).toBeGreaterThanOrEqual(items);
    for (const name of ['Reno', 'NewReno', 'cwnd', 'Slow start', 'Fast recovery', 'retransmission']) {
      expect(wide.body).toContain(`>${name}</text>`);
    }
    // Fast recovery's hatch is a pattern; its short name is in the swatch.
    expect(wide.defs).toMatch(/<pattern id="a-p\d+"/);
    expect(wide.body).toContain('>FR</text>');
    wellFormed(compose([{ piece: wide, x: 0, y: 0 }], 2000, wide.height).svg);
  });

  it('wraps text between words', () => {
    const font = '400 10px sans-serif';
    expect(wrapText('one two three four', font, 5.5 * 10 * 0.55 + 1, measure)).toEqual(['one', 'two', 'three', 'four']);
    expect(wrapText('one two three four', font, 1000, measure)).toEqual(['one two three four']);
    expect(wrapText('   ', font, 10, measure)).toEqual([]);
  });

  it('a panel without a size exports nothing (never throws)', async () => {
    const { view } = await renderApp(<PlotStack />, '?v=4&alg=reno');
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(0);
    expect(visibleFigures(view.container)).toEqual([]);
    const body = view.container.querySelector('.plot-body');
    const panel = body ? panelOf(body) : undefined;
    expect(panel).toBeDefined();
    if (panel && body) {
      const fig = { id: 'x', title: 'x', figure: body as HTMLElement, body: body as HTMLElement, panel };
      expect(panelPiece(fig, 1, 'x')).toBeNull();
    }
  });
});
