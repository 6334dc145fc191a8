// SVG axes with the same elements and attributes as d3-axis (axisLeft / axisBottom with
// an outer tick size of 0), updated in place: tick elements are reused, and an attribute or
// a label is written only when it changes. d3's axis rewrites every tick on every call (and
// creates or removes elements when tick values change), which is most of a plot's DOM work
// when a new run only moves the y range a little.

/** What an axis shows. */
export interface AxisSpec {
  orient: 'left' | 'bottom';
  /** Value → position along the axis (CSS px), e.g. a d3 scale. */
  scale: (v: number) => number;
  /** The scale's range (ends of the axis line). */
  range: readonly number[];
  values: readonly number[];
  format: (v: number, i: number) => string;
  /** Changes when `format` gives a value a different label (e.g. d3's tickFormat for a new
   *  tick step: 0 → "0.0"); omitted when a value's label never changes. */
  formatKey?: string;
}

const SVG = 'http://www.w3.org/2000/svg';
const TICK_INNER = 6;
const TICK_PADDING = 3;

interface AxisEl extends SVGGElement {
  __formatKey?: string;
}

interface TickEl extends SVGGElement {
  __transform?: string;
  __value?: number;
  __last?: boolean;
  __label?: string;
}

function setAttr(el: Element, name: string, value: string) {
  if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

/** Draws or updates an axis in `g` (which holds nothing else). */
export function renderAxis(g: SVGGElement, spec: AxisSpec): void {
  const left = spec.orient === 'left';
  // d3-axis: half-pixel offset for crisp 1 px lines at a pixel ratio of 1.
  const offset = typeof window !== 'undefined' && window.devicePixelRatio > 1 ? 0 : 0.5;
  const k = left ? -1 : 1;
  const along = left ? 'x' : 'y';
  const range0 = +(spec.range[0] ?? 0) + offset;
  const range1 = +(spec.range[spec.range.length - 1] ?? 0) + offset;

  if (!g.hasAttribute('font-family')) {
    g.setAttribute('fill', 'none');
    g.setAttribute('font-size', '10');
    g.setAttribute('font-family', 'sans-serif');
    g.setAttribute('text-anchor', left ? 'end' : 'middle');
  }
  let path = g.querySelector(':scope > path.domain');
  if (!path) {
    path = document.createElementNS(SVG, 'path');
    path.setAttribute('class', 'domain');
    path.setAttribute('stroke', 'currentColor');
    g.insertBefore(path, g.firstChild);
  }
  setAttr(path, 'd', left ? `M${offset},${range0}V${range1}` : `M${range0},${offset}H${range1}`);

  const ticks = Array.from(g.querySelectorAll<TickEl>(':scope > g.tick'));
  // A new format: every label is written again (a tick keeps its label only while its value,
  // its role and the format are unchanged).
  const axis = g as AxisEl;
  if (axis.__formatKey !== spec.formatKey) {
    axis.__formatKey = spec.formatKey;
    for (const t of ticks) t.__value = undefined;
  }
  for (let i = ticks.length; i > spec.values.length; i -= 1) ticks[i - 1]?.remove();
  spec.values.forEach((v, i) => {
    let tick = ticks[i];
    if (!tick) {
      tick = document.createElementNS(SVG, 'g') as TickEl;
      tick.setAttribute('class', 'tick');
      tick.setAttribute('opacity', '1');
      const line = document.createElementNS(SVG, 'line');
      line.setAttribute('stroke', 'currentColor');
      line.setAttribute(`${along}2`, String(k * TICK_INNER));
      const text = document.createElementNS(SVG, 'text');
      text.setAttribute('fill', 'currentColor');
      text.setAttribute(along, String(k * (TICK_INNER + TICK_PADDING)));
      text.setAttribute('dy', left ? '0.32em' : '0.71em');
      tick.append(line, text);
      g.append(tick);
    }
    const pos = +spec.scale(v) + offset;
    const transform = left ? `translate(0,${pos})` : `translate(${pos},0)`;
    if (tick.__transform !== transform) {
      tick.__transform = transform;
      tick.setAttribute('transform', transform);
    }
    // The same value in the same role keeps its label (formatting is not free either; the
    // last tick may be labelled differently, e.g. with the unit).
    const last = i === spec.values.length - 1;
    if (tick.__value === v && tick.__last === last) return;
    tick.__value = v;
    tick.__last = last;
    const label = spec.format(v, i);
    if (tick.__label !== label) {
      tick.__label = label;
      const text = tick.lastChild;
      if (text) text.textContent = label;
    }
  });
}
