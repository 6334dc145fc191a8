// @vitest-environment jsdom
import { axisBottom, axisLeft, scaleLinear, select } from 'd3';
import { describe, expect, it } from 'vitest';
import { renderAxis } from './axis';

/** An element's tree as text, attributes sorted (their order does not matter). */
function canon(el: Element): string {
  const attrs = Array.from(el.attributes)
    .map((a) => `${a.name}="${a.value}"`)
    .sort()
    .join(' ');
  const kids = Array.from(el.childNodes)
    .map((n) => (n.nodeType === 1 ? canon(n as Element) : (n.textContent ?? '')))
    .join('');
  return `<${el.tagName} ${attrs}>${kids}</${el.tagName}>`;
}

function svgG(): SVGGElement {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  document.body.append(svg);
  const g = document.createElementNS('http://www.w3.org/2000/svg', 'g');
  svg.append(g);
  return g;
}

describe('SVG axes', () => {
  it('are the elements d3-axis makes, through changes of scale and tick values', () => {
    const ours = svgG();
    const theirs = svgG();
    const domains: [number, number][] = [
      [0, 200],
      [0, 150],
      [0, 1200],
      [0, 150],
    ];
    for (const [d0, d1] of domains) {
      const y = scaleLinear().domain([d0, d1]).range([276, 0]).nice(7);
      const values = y.ticks(7);
      const format = (v: number) => `${v}`;
      renderAxis(ours, { orient: 'left', scale: y, range: y.range(), values, format });
      select(theirs).call(
        axisLeft(y)
          .tickValues(values)
          .tickFormat((v) => format(Number(v)))
          .tickSizeOuter(0),
      );
      expect(canon(ours)).toBe(canon(theirs));
    }
    const bottomOurs = svgG();
    const bottomTheirs = svgG();
    // The last tick carries the unit: a value that stops being last loses it.
    for (const d1 of [20, 25, 20, 3]) {
      const x = scaleLinear().domain([0, d1]).range([0, 437]);
      const xs = x.ticks(5);
      const fmt = (v: number, i: number) => `${v}${i === xs.length - 1 ? ' s' : ''}`;
      renderAxis(bottomOurs, { orient: 'bottom', scale: x, range: x.range(), values: xs, format: fmt });
      select(bottomTheirs).call(
        axisBottom(x)
          .tickValues(xs)
          .tickFormat((v, i) => fmt(Number(v), i))
          .tickSizeOuter(0),
      );
      expect(canon(bottomOurs)).toBe(canon(bottomTheirs));
    }
  });

  it('leaves unchanged ticks alone', () => {
    const g = svgG();
    const y = scaleLinear().domain([0, 100]).range([200, 0]);
    renderAxis(g, { orient: 'left', scale: y, range: y.range(), values: [0, 50, 100], format: String });
    const first = g.querySelector('g.tick');
    const set = first?.setAttribute.bind(first);
    let writes = 0;
    if (first) first.setAttribute = (n: string, v: string) => ((writes += 1), set?.(n, v));
    renderAxis(g, { orient: 'left', scale: y, range: y.range(), values: [0, 50, 100], format: String });
    expect(writes).toBe(0);
    expect(g.querySelectorAll('g.tick')).toHaveLength(3);
  });

  it('relabels every tick when the format changes (0 at a new tick step reads "0.0")', () => {
    const ours = svgG();
    const theirs = svgG();
    for (const d1 of [1, 1000, 0.5, 30]) {
      const x = scaleLinear().domain([0, d1]).range([0, 300]);
      const xs = x.ticks(5);
      const f = x.tickFormat(xs.length);
      const fmt = (v: number, i: number) => `${f(v)}${i === xs.length - 1 ? ' ms' : ''}`;
      const formatKey = String((xs[1] ?? 0) - (xs[0] ?? 0));
      renderAxis(ours, { orient: 'bottom', scale: x, range: x.range(), values: xs, format: fmt, formatKey });
      select(theirs).call(
        axisBottom(x)
          .tickValues(xs)
          .tickFormat((v, i) => fmt(Number(v), i))
          .tickSizeOuter(0),
      );
      expect(canon(ours)).toBe(canon(theirs));
    }
  });
});
