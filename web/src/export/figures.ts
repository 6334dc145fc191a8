// Images of the page's plots: each visible plot, or the whole view, as SVG (vectors) and as
// PNG. The data layers are drawn by the plots' own draw code into the SVG recorder
// (svgContext.ts, through `Panel.renderTo`); the axes, already SVG on the page, are
// serialised with their computed styles inlined; the legend (HTML with SVG swatches) is laid
// out again as SVG text and swatches (the phase swatches with the plots' own hatch
// patterns). A PNG is the same SVG rasterised at a chosen scale (twice the screen's pixel
// ratio for slides), so the two never differ.
import { PHASES } from '../lib/styles';
import { panelOf, type ExportablePanel } from '../plots/core/panel';
import { drawPhaseSwatch } from '../plots/layers';
import { defaultMeasure, num, SvgContext, xmlEscape, type TextMeasure } from './svgContext';

const SVG_NS = 'http://www.w3.org/2000/svg';

/** A plot on the page an export can draw. */
export interface Figure {
  /** The figure's data-plot id ("window-reno-newreno", "thin-latency", …). */
  id: string;
  title: string;
  figure: HTMLElement;
  body: HTMLElement;
  panel: ExportablePanel;
}

/** The plots on the page that have a size (shown), in page order. */
export function visibleFigures(root: ParentNode = document): Figure[] {
  return [...root.querySelectorAll<HTMLElement>('.plot-stack figure.plot')].flatMap((figure) => {
    const body = figure.querySelector<HTMLElement>('.plot-body');
    const panel = body ? panelOf(body) : undefined;
    if (!body || !panel || body.clientWidth <= 0 || body.clientHeight <= 0) return [];
    const title = figure.querySelector('.plot-title')?.textContent?.trim() ?? '';
    return [{ id: figure.dataset.plot ?? 'plot', title, figure, body, panel }];
  });
}

/** Part of an SVG document: definitions, drawing, size (CSS px). */
export interface Piece {
  defs: string;
  body: string;
  width: number;
  height: number;
}

/** An SVG document and its size (CSS px). */
export interface SvgImage {
  svg: string;
  width: number;
  height: number;
}

/** Presentation properties copied from the computed style into an exported element. */
const STYLE_PROPS = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-dasharray',
  'stroke-linecap',
  'stroke-linejoin',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'text-anchor',
  'dominant-baseline',
] as const;

/** A copy of an SVG element with each element's computed style written into its style
 *  attribute (classes dropped, hidden elements left out), serialised. */
export function inlineSvg(el: Element): string {
  const clone = el.cloneNode(true) as Element;
  const walk = (orig: Element, copy: Element) => {
    const cs = getComputedStyle(orig);
    if (cs.display === 'none' || cs.visibility === 'hidden') {
      copy.remove();
      return;
    }
    const style = STYLE_PROPS.map((p) => [p, cs.getPropertyValue(p)] as const)
      .filter(([, v]) => v !== '' && v !== 'normal' && v !== 'auto')
      .map(([p, v]) => `${p}:${v}`)
      .join(';');
    if (style) copy.setAttribute('style', style);
    copy.removeAttribute('class');
    copy.removeAttribute('aria-hidden');
    const kids = [...orig.children];
    const copies = [...copy.children];
    kids.forEach((k, i) => {
      const c = copies[i];
      if (c) walk(k, c);
    });
  };
  walk(el, clone);
  return new XMLSerializer().serializeToString(clone).replace(/ xmlns="http:\/\/www\.w3\.org\/2000\/svg"/g, '');
}

/** A plot's drawing (canvas layers as vectors, then its axes), at its size on the page. `dpr`
 *  sets the detail of the lines (they keep every extreme per device pixel at that ratio). */
export function panelPiece(fig: Figure, dpr: number, idPrefix: string): Piece | null {
  const W = fig.body.clientWidth;
  const H = fig.body.clientHeight;
  const rec = new SvgContext({ idPrefix, outputScale: 1 / dpr, width: W, height: H });
  const size = fig.panel.renderTo(rec.asContext(), dpr);
  if (!size) return null;
  const frag = rec.fragment();
  const axes = [...fig.panel.axes.children].map((g) => inlineSvg(g)).join('');
  return { defs: frag.defs, body: `${frag.body}${axes}`, width: size.W, height: size.H };
}

/** Lines of `text` no wider than `width` in `font` (broken between words). */
export function wrapText(text: string, font: string, width: number, measure: TextMeasure = defaultMeasure): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = '';
  for (const w of words) {
    const next = line ? `${line} ${w}` : w;
    if (line && measure(font, next) > width) {
      lines.push(line);
      line = w;
    } else {
      line = next;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** Font attributes of an SVG text element from a canvas font string. */
function textAttrs(font: { weight: string; size: number; family: string; style?: string }, color: string): string {
  return (
    `font-family="${xmlEscape(font.family)}" font-size="${num(font.size)}"` +
    (font.weight !== '400' && font.weight !== 'normal' ? ` font-weight="${xmlEscape(font.weight)}"` : '') +
    (font.style && font.style !== 'normal' ? ` font-style="${xmlEscape(font.style)}"` : '') +
    ` fill="${xmlEscape(color)}"`
  );
}

/** Lines of text, `lineH` apart, from the top `y` (wrapped to `width`). */
export function textBlock(
  text: string,
  opts: { x: number; y: number; width: number; size: number; weight?: string; color?: string; lineH?: number },
  measure: TextMeasure = defaultMeasure,
): Piece {
  const family = 'system-ui, sans-serif';
  const weight = opts.weight ?? '400';
  const font = `${weight} ${opts.size}px ${family}`;
  const lines = wrapText(text, font, opts.width, measure);
  const lineH = opts.lineH ?? Math.round(opts.size * 1.35);
  const attrs = textAttrs({ weight, size: opts.size, family }, opts.color ?? '#1b1f24');
  const body = lines
    .map(
      (l, i) =>
        `<text x="${num(opts.x)}" y="${num(opts.y + i * lineH + lineH / 2)}" dominant-baseline="central" ${attrs}>` +
        `${xmlEscape(l)}</text>`,
    )
    .join('');
  return { defs: '', body, width: opts.width, height: lines.length * lineH };
}

/** The legend (the page's `.legend`: lists of swatches and names) as SVG, wrapped to
 *  `width`; its text, swatches and phase patterns as on the page. */
export function legendPiece(
  legend: Element,
  width: number,
  idPrefix: string,
  measure: TextMeasure = defaultMeasure,
): Piece {
  const rowH = 18;
  const gap = 14;
  const out: string[] = [];
  const rec = new SvgContext({ idPrefix, measure });
  const ctx = rec.asContext();
  let x = 0;
  let y = 0;
  const newLine = () => {
    if (x > 0) {
      x = 0;
      y += rowH;
    }
  };
  for (const ul of legend.querySelectorAll('ul.legend-row')) {
    newLine();
    for (const li of ul.children) {
      if (li.tagName !== 'LI' || li.classList.contains('legend-hidden')) continue;
      const swatches = [
        ...li.querySelectorAll('svg.legend-swatch, .phase-swatch, .nvp-swatch, b.legend-r, b.legend-x'),
      ];
      const cs = getComputedStyle(li);
      const size = parseFloat(cs.fontSize) || 12;
      const weight = cs.fontWeight || '400';
      const family = cs.fontFamily || 'system-ui, sans-serif';
      const style = cs.fontStyle || 'normal';
      const color = cs.color || '#1b1f24';
      const font = `${style === 'normal' ? '' : `${style} `}${weight} ${size}px ${family}`;
      // The item's own words: its text without the swatches' (a phase swatch holds its short
      // name) and without form controls.
      const copy = li.cloneNode(true) as Element;
      copy
        .querySelectorAll('svg, .phase-swatch, .nvp-swatch, b.legend-r, b.legend-x, input, button, [role="tooltip"]')
        .forEach((e) => e.remove());
      const text = (copy.textContent ?? '').replace(/\s+/g, ' ').trim();
      const parts: { w: number; h: number; draw: (px: number, cy: number) => void }[] = swatches.map((sw) =>
        swatchPart(sw, ctx, out, measure),
      );
      const swW = parts.reduce((a, p) => a + p.w + 4, 0);
      const lines = text ? wrapText(text, font, Math.max(40, width - swW), measure) : [];
      const textW = Math.max(0, ...lines.map((l) => measure(font, l)));
      const itemW = swW + textW;
      if (x > 0 && x + itemW > width) newLine();
      let px = x;
      const cy = y + rowH / 2;
      for (const p of parts) {
        p.draw(px, cy);
        px += p.w + 4;
      }
      lines.forEach((l, i) => {
        out.push(
          `<text x="${num(px)}" y="${num(cy + i * rowH)}" dominant-baseline="central" ` +
            `${textAttrs({ weight, size, family, style }, color)}>${xmlEscape(l)}</text>`,
        );
      });
      x += itemW + gap;
      if (lines.length > 1) {
        y += (lines.length - 1) * rowH;
        newLine();
      }
    }
  }
  const height = y + (x > 0 ? rowH : 0);
  const frag = rec.fragment();
  return { defs: frag.defs, body: `${frag.body}${out.join('')}`, width, height };
}

/** One swatch of a legend item: its width and height and how to draw it at (x, centre y). */
function swatchPart(
  sw: Element,
  ctx: CanvasRenderingContext2D,
  out: string[],
  measure: TextMeasure,
): { w: number; h: number; draw: (x: number, cy: number) => void } {
  if (sw instanceof SVGSVGElement) {
    const w = parseFloat(sw.getAttribute('width') ?? '') || 20;
    const h = parseFloat(sw.getAttribute('height') ?? '') || 12;
    const inner = inlineSvg(sw);
    return {
      w,
      h,
      draw: (x, cy) => {
        // The swatch as a nested <svg> at its place (its viewBox kept).
        out.push(inner.replace(/^<svg/, `<svg x="${num(x)}" y="${num(cy - h / 2)}"`));
      },
    };
  }
  if (sw.classList.contains('phase-swatch')) {
    const short = sw.textContent?.trim() ?? '';
    const phase = PHASES.find((p) => p.short === short && sw.classList.contains(`hatch-${p.hatch}`));
    const w = Math.max(26, measure('700 9px system-ui, sans-serif', short) + 8);
    return {
      w,
      h: 14,
      draw: (x, cy) => {
        if (phase) drawPhaseSwatch(ctx, phase, x, cy - 7, w, 14);
      },
    };
  }
  if (sw.classList.contains('nvp-swatch')) {
    const bg = getComputedStyle(sw).backgroundColor || '#6b7280';
    return {
      w: 24,
      h: 6,
      draw: (x, cy) =>
        out.push(`<rect x="${num(x)}" y="${num(cy - 3)}" width="24" height="6" fill="${xmlEscape(bg)}"/>`),
    };
  }
  // A letter glyph (R, S, ✕) in its colour.
  const cs = getComputedStyle(sw);
  const glyph = sw.textContent?.trim() ?? '';
  const size = parseFloat(cs.fontSize) || 12;
  const font = `700 ${size}px system-ui, sans-serif`;
  const w = measure(font, glyph);
  return {
    w,
    h: size,
    draw: (x, cy) =>
      out.push(
        `<text x="${num(x)}" y="${num(cy)}" dominant-baseline="central" ` +
          `${textAttrs({ weight: '700', size, family: 'system-ui, sans-serif' }, cs.color || '#333')}>${xmlEscape(glyph)}</text>`,
      ),
  };
}

/** Pieces placed at (x, y) in one SVG document of `width` × `height`, on white. */
export function compose(placed: { piece: Piece; x: number; y: number }[], width: number, height: number): SvgImage {
  const w = Math.ceil(width);
  const h = Math.ceil(height);
  const defs = placed.map((p) => p.piece.defs).join('');
  const body = placed
    .map(({ piece, x, y }) => `<g transform="translate(${num(x)},${num(y)})">${piece.body}</g>`)
    .join('');
  const svg =
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<svg xmlns="${SVG_NS}" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" ` +
    `font-family="system-ui, sans-serif" stroke-miterlimit="10">` +
    `<rect width="${w}" height="${h}" fill="#ffffff"/>` +
    (defs ? `<defs>${defs}</defs>` : '') +
    `${body}</svg>\n`;
  return { svg, width: w, height: h };
}

const PAD = 8;

/** One plot as an SVG document: its title, the plot (canvas layers and axes) at its size on
 *  the page, and the legend below. */
export function plotSvg(fig: Figure, legend: Element | null, dpr: number, idPrefix = 'p'): SvgImage | null {
  const plot = panelPiece(fig, dpr, `${idPrefix}-plot`);
  if (!plot) return null;
  const width = plot.width;
  const title = textBlock(fig.title, { x: PAD, y: PAD, width: width - 2 * PAD, size: 13, weight: '600' });
  const placed = [
    { piece: title, x: 0, y: 0 },
    { piece: plot, x: 0, y: PAD + title.height + 4 },
  ];
  let height = PAD + title.height + 4 + plot.height;
  if (legend) {
    const lg = legendPiece(legend, width - 2 * PAD, `${idPrefix}-legend`);
    placed.push({ piece: lg, x: PAD, y: height + PAD });
    height += PAD + lg.height;
  }
  return compose(placed, width, height + PAD);
}

/** The whole view as one SVG document: a title line naming the scenario, the scenario in a
 *  line, the legend, then every visible plot where it is on the page (small multiples side
 *  by side), each with its title. */
export function viewSvg(opts: {
  title: string;
  line: string;
  legend: Element | null;
  stack: HTMLElement;
  dpr: number;
  idPrefix?: string;
}): SvgImage | null {
  const prefix = opts.idPrefix ?? 'v';
  // The plots keep their size on the page, with a margin as wide as the text's on each side.
  const width = Math.max(320, opts.stack.clientWidth + 2 * PAD);
  const inner = width - 2 * PAD;
  const title = textBlock(opts.title, { x: PAD, y: PAD, width: inner, size: 16, weight: '700' });
  const line = textBlock(opts.line, { x: PAD, y: 0, width: inner, size: 12, color: '#333333' });
  const placed: { piece: Piece; x: number; y: number }[] = [
    { piece: title, x: 0, y: 0 },
    { piece: line, x: 0, y: PAD + title.height + 2 },
  ];
  let top = PAD + title.height + 2 + line.height + PAD;
  if (opts.legend) {
    const lg = legendPiece(opts.legend, inner, `${prefix}-legend`);
    placed.push({ piece: lg, x: PAD, y: top });
    top += lg.height + PAD;
  }
  const origin = opts.stack.getBoundingClientRect();
  let bottom = top;
  // Text outside the figures: the thin-stream CDFs' title and caption, the notes under a
  // group of plots.
  const texts: [string, { size: number; weight?: string; color?: string }][] = [
    ['.thin-head .plot-title', { size: 13, weight: '600' }],
    ['.thin-caption, .plot-note', { size: 11, color: '#333333' }],
  ];
  for (const [selector, look] of texts) {
    for (const el of opts.stack.querySelectorAll<HTMLElement>(selector)) {
      const r = el.getBoundingClientRect();
      if (r.width <= 0) continue;
      const text = el.textContent?.replace(/\s+/g, ' ').trim() ?? '';
      const piece = textBlock(text, { x: 0, y: 0, width: Math.max(r.width, 120), ...look });
      placed.push({ piece, x: PAD + r.left - origin.left, y: top + r.top - origin.top });
      bottom = Math.max(bottom, top + r.top - origin.top + piece.height);
    }
  }
  const figures = visibleFigures(opts.stack);
  figures.forEach((fig, i) => {
    const plot = panelPiece(fig, opts.dpr, `${prefix}-${i}`);
    if (!plot) return;
    const head = fig.figure.querySelector('.plot-title')?.getBoundingClientRect() ?? fig.figure.getBoundingClientRect();
    const body = fig.body.getBoundingClientRect();
    const t = textBlock(fig.title, { x: 0, y: 0, width: body.width, size: 12, weight: '600' });
    placed.push({ piece: t, x: PAD + head.left - origin.left, y: top + head.top - origin.top });
    placed.push({ piece: plot, x: PAD + body.left - origin.left, y: top + body.top - origin.top });
    bottom = Math.max(bottom, top + body.bottom - origin.top, top + head.top - origin.top + t.height);
  });
  if (figures.length === 0) return null;
  return compose(placed, width, bottom + PAD);
}

/** The largest canvas side and area a PNG is drawn on (browsers refuse larger ones). */
const MAX_SIDE = 16_384;
const MAX_AREA = 120_000_000;

/** The scale a PNG of `width` × `height` CSS px is drawn at: `wanted`, less where the image
 *  would be larger than a browser draws. */
export function pngScale(width: number, height: number, wanted: number): number {
  const side = MAX_SIDE / Math.max(width, height, 1);
  const area = Math.sqrt(MAX_AREA / Math.max(1, width * height));
  return Math.max(0.1, Math.min(wanted, side, area));
}

/** The SVG rasterised at `scale` device pixels per CSS px, as a PNG. */
export async function svgToPng(image: SvgImage, scale: number): Promise<Blob> {
  const url = URL.createObjectURL(new Blob([image.svg], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(image.width * scale);
    canvas.height = Math.round(image.height * scale);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('this browser gave no canvas to draw the PNG on');
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the browser could not encode the PNG'))), 'image/png'),
    );
  } finally {
    URL.revokeObjectURL(url);
  }
}
