// The SVG recorder: it implements every canvas call the plot code makes (found by reading
// the plot sources), maps coordinates and line widths through the transform as the canvas
// does, writes well-formed SVG, and draws a real plot (the engine's run) with a path per run
// in the run's colour and the phase bands.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { scaleLinear } from 'd3';
import { describe, expect, it } from 'vitest';
import { linearOf } from '../plots/core/decimate';
import type { DrawFrame, PlotRun } from '../plots/core/types';
import { setVectorSource } from '../plots/core/vectorSource';
import { windowPlot } from '../plots/windowPlot';
import { runStyle } from '../scenario/competition';
import { plotContext } from '../test/canvas';
import { liveTrace, presetScenario } from '../test/traces';
import { fontAttrs, splitColor, SvgContext } from './svgContext';

const measure = (font: string, text: string) => text.length * fontAttrs(font).size * 0.5;

function svgOf(c: SvgContext, w = 200, h = 100): string {
  const { defs, body } = c.fragment();
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs>${defs}</defs>${body}</svg>`;
}

/** Parses the SVG as XML (Python's expat); throws when it is not well-formed. */
function wellFormed(svg: string): void {
  execFileSync('python3', ['-c', 'import sys,xml.etree.ElementTree as E;E.fromstring(sys.stdin.read())'], {
    input: svg,
  });
}

/** Every `ctx.name`, `f.ctx.name`, or, in an offscreen painter, `t.name` / `g.name`, in the
 *  plot sources (tests left out). */
function canvasCallsInPlotCode(): Set<string> {
  const root = join(import.meta.dirname, '..');
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.tsx?$/.test(name) && !name.includes('.test.')) files.push(p);
    }
  };
  walk(join(root, 'plots'));
  files.push(join(root, 'lib', 'styles.ts'));
  const names = new Set<string>();
  for (const file of files) {
    const src = readFileSync(file, 'utf8');
    for (const m of src.matchAll(/\bctx\.([A-Za-z]+)/g)) names.add(m[1] ?? '');
    // The painters of offscreen tiles and glyphs (replayed into the recorder).
    if (file.endsWith('layers.ts')) for (const m of src.matchAll(/\b[tg]\.([a-z][A-Za-z]+)\(/g)) names.add(m[1] ?? '');
  }
  return names;
}

describe('SvgContext', () => {
  it('implements every canvas call the plot code makes', () => {
    const calls = canvasCallsInPlotCode();
    // Sanity: the scan finds what the plots are known to use.
    for (const n of ['moveTo', 'lineTo', 'stroke', 'fillText', 'setLineDash', 'clip', 'createPattern', 'strokeText']) {
      expect(calls).toContain(n);
    }
    const c = new SvgContext() as unknown as Record<string, unknown>;
    // `scale` on a glyph's own context and `getContext` are the offscreen canvases' business,
    // but the recorder has scale too.
    const missing = [...calls].filter((n) => n !== 'getContext' && !(n in c));
    expect(missing).toEqual([]);
  });

  it('maps points through the transform and line widths by it at stroke time', () => {
    const c = new SvgContext({ outputScale: 0.5, measure });
    const ctx = c.asContext();
    ctx.setTransform(2, 0, 0, 2, 0, 0); // a device-pixel transform, undone by outputScale
    ctx.translate(50, 10);
    ctx.beginPath();
    ctx.moveTo(0, 0);
    ctx.lineTo(10, 20.004);
    ctx.lineTo(NaN, 3); // ignored, as the canvas does
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = 'rgba(10,20,30,0.5)';
    ctx.setLineDash([6, 4]);
    ctx.stroke();
    const svg = svgOf(c);
    expect(svg).toContain('<path d="M50 10L60 30" fill="none" stroke="rgb(10,20,30)" stroke-opacity="0.5"');
    expect(svg).toContain('stroke-width="1.5" stroke-dasharray="6 4"');
    wellFormed(svg);
  });

  it('save and restore keep transform, styles and dash; odd dashes repeat as on canvas', () => {
    const c = new SvgContext({ measure });
    const ctx = c.asContext();
    ctx.save();
    ctx.translate(5, 5);
    ctx.scale(2, 2);
    ctx.fillStyle = '#ff0000';
    ctx.fillRect(1, 1, 2, 3);
    ctx.restore();
    ctx.setLineDash([1, 2, 3]);
    expect(ctx.getLineDash()).toEqual([1, 2, 3, 1, 2, 3]);
    ctx.fillRect(1, 1, 2, 3);
    const svg = svgOf(c);
    expect(svg).toContain('<rect x="7" y="7" width="4" height="6" fill="#ff0000"/>');
    expect(svg).toContain('<rect x="1" y="1" width="2" height="3" fill="#000000"/>');
  });

  it('globalAlpha multiplies the colour’s alpha; #rrggbbaa and rgba split', () => {
    expect(splitColor('rgba(0,0,0,0.35)')).toEqual({ color: 'rgb(0,0,0)', alpha: 0.35 });
    expect(splitColor('#11223380').alpha).toBeCloseTo(128 / 255);
    expect(splitColor('#abc')).toEqual({ color: '#abc', alpha: 1 });
    const c = new SvgContext({ measure });
    const ctx = c.asContext();
    ctx.globalAlpha = 0.5;
    ctx.fillStyle = 'rgba(255,255,255,0.8)';
    ctx.fillRect(0, 0, 1, 1);
    expect(svgOf(c)).toContain('fill="rgb(255,255,255)" fill-opacity="0.4"');
  });

  it('clips: a clipPath per clip, nested clips chained, the clipped elements grouped', () => {
    const c = new SvgContext({ measure });
    const ctx = c.asContext();
    ctx.save();
    ctx.beginPath();
    ctx.rect(0, 0, 100, 50);
    ctx.clip();
    ctx.fillRect(10, 10, 5, 5);
    ctx.fillRect(20, 10, 5, 5);
    ctx.beginPath();
    ctx.rect(0, 0, 10, 10);
    ctx.clip();
    ctx.fillRect(0, 0, 5, 5);
    ctx.restore();
    ctx.fillRect(1, 1, 1, 1);
    const svg = svgOf(c);
    expect(svg).toMatch(/<clipPath id="c-clip1"><path d="M0 0L100 0L100 50L0 50ZM0 0"\/><\/clipPath>/);
    expect(svg).toContain('<clipPath id="c-clip2" clip-path="url(#c-clip1)">');
    expect(svg).toMatch(
      /<g clip-path="url\(#c-clip1\)"><rect[^>]*\/><rect[^>]*\/><\/g><g clip-path="url\(#c-clip2\)">/,
    );
    expect(svg.endsWith('<rect x="1" y="1" width="1" height="1" fill="#000000"/></svg>')).toBe(true);
    wellFormed(svg);
  });

  it('writes text with its font, anchor and baseline, escaped; measures with the given metric', () => {
    const c = new SvgContext({ measure });
    const ctx = c.asContext();
    ctx.font = '600 9px system-ui, sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillStyle = '#222';
    ctx.fillText('a < b & "c"', 10, 20);
    expect(ctx.measureText('abcd').width).toBe(18);
    const svg = svgOf(c);
    expect(svg).toContain(
      '<text x="10" y="20" font-size="9" font-family="system-ui, sans-serif" font-weight="600" text-anchor="middle" ' +
        'dominant-baseline="central" fill="#222">a &lt; b &amp; &quot;c&quot;</text>',
    );
    wellFormed(svg);
  });

  it('arcs: a full circle as two half arcs, a quarter as one', () => {
    const c = new SvgContext({ measure });
    const ctx = c.asContext();
    ctx.beginPath();
    ctx.arc(10, 10, 5, 0, Math.PI * 2);
    ctx.fill();
    ctx.beginPath();
    ctx.arc(0, 0, 10, 0, Math.PI / 2);
    ctx.stroke();
    const svg = svgOf(c);
    expect(svg).toContain('<path d="M15 10A5 5 0 1 1 5 10A5 5 0 1 1 15 10" fill="#000000"/>');
    expect(svg).toContain('<path d="M10 0A10 10 0 0 1 0 10" fill="none"');
    wellFormed(svg);
  });

  it('clearing everything forgets what was drawn', () => {
    const c = new SvgContext({ width: 50, height: 50, measure });
    const ctx = c.asContext();
    ctx.fillRect(0, 0, 5, 5);
    ctx.clearRect(0, 0, 50, 50);
    expect(c.size).toBe(0);
    ctx.clearRect(0, 0, 5, 5);
    expect(svgOf(c)).toContain('fill="#ffffff"');
  });

  it('paints patterns and images that recorded their painting as vectors', () => {
    const tile = {};
    setVectorSource(tile, {
      width: 8,
      height: 8,
      paint: (t) => {
        t.fillStyle = '#abcdef';
        t.fillRect(0, 0, 8, 8);
        t.beginPath();
        t.moveTo(0, 8);
        t.lineTo(8, 0);
        t.stroke();
      },
    });
    const glyph = {};
    setVectorSource(glyph, {
      width: 16,
      height: 16,
      paint: (g) => {
        g.font = '700 11px system-ui, sans-serif';
        g.textAlign = 'center';
        g.textBaseline = 'bottom';
        g.lineWidth = 3;
        g.strokeStyle = '#ffffff';
        g.strokeText('R', 8, 15);
        g.fillStyle = '#d55e00';
        g.fillText('R', 8, 15);
      },
    });
    const c = new SvgContext({ idPrefix: 'x', measure });
    const ctx = c.asContext();
    ctx.translate(3, 4);
    ctx.fillStyle = ctx.createPattern(tile as CanvasImageSource, 'repeat') ?? '#000';
    ctx.fillRect(0, 0, 40, 10);
    ctx.drawImage(glyph as CanvasImageSource, 10, 0, 16, 16);
    // An image that cannot be read is left out (never an exception).
    ctx.drawImage({} as CanvasImageSource, 0, 0, 5, 5);
    const svg = svgOf(c);
    expect(svg).toMatch(
      /<pattern id="x-p\d+" patternUnits="userSpaceOnUse" width="8" height="8" patternTransform="matrix\(1 0 0 1 3 4\)"><rect x="0" y="0" width="8" height="8" fill="#abcdef"\/><path d="M0 8L8 0"/,
    );
    expect(svg).toMatch(/<rect x="3" y="4" width="40" height="10" fill="url\(#x-p\d+\)"\/>/);
    expect(svg).toContain('stroke="#ffffff" stroke-width="3" stroke-linejoin="round">R</text>');
    expect(svg).toContain('<text x="21" y="19" font-size="11"');
    expect(svg).toContain('fill="#d55e00">R</text>');
    wellFormed(svg);
  });

  it('a call the recorder does not implement throws (an export fails loudly, never draws wrong)', () => {
    const ctx = new SvgContext().asContext();
    expect(() => ctx.bezierCurveTo(0, 0, 1, 1, 2, 2)).toThrow();
  });

  it('draws the window plot of a real run: a path per run in its colour, phase bands, marks', () => {
    const scenario = presetScenario('fall-floyd-reno-3drops', { duration: 4 });
    const { trace, summary } = liveTrace(scenario, 0.5);
    const runs: PlotRun[] = ['reno', 'newreno'].map((key) => ({
      key,
      label: key,
      style: runStyle(key),
      trace,
      summary,
    }));
    const width = 600;
    const height = 300;
    const x = scaleLinear().domain([0, 4]).range([0, width]);
    const [lo, hi] = windowPlot.yExtent(runs, 0, 4, plotContext(scenario));
    const y = scaleLinear().domain([lo, hi]).range([height, 0]);
    const c = new SvgContext({ idPrefix: 'w', measure });
    const frame: DrawFrame = {
      ctx: c.asContext(),
      x,
      y,
      xl: linearOf(x),
      yl: linearOf(y),
      width,
      height,
      dpr: 2,
      t0: 0,
      t1: 4,
      runs,
      context: plotContext(scenario, { overlay: true }),
    };
    windowPlot.draw(frame);
    const svg = svgOf(c, width, height);
    wellFormed(svg);
    for (const run of runs) {
      const color = run.style.color;
      expect(svg, `a line of ${run.key}`).toMatch(new RegExp(`<path d="M[^"]+L[^"]+" fill="none" stroke="${color}"`));
    }
    // Phase lanes (one per run) are rectangles.
    expect((svg.match(/<rect /g) ?? []).length).toBeGreaterThan(4);
    // Every coordinate is finite and inside a sane box.
    for (const m of svg.matchAll(/ d="([^"]+)"/g)) {
      for (const v of (m[1] ?? '').split(/[MLAZ ]+/).filter(Boolean)) expect(Math.abs(Number(v))).toBeLessThan(5000);
    }
  });
});
