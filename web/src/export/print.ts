// Printing: before the page prints, each visible plot is added to its figure as an inline SVG
// (the plot's own draw code into the SVG recorder, with its axes), which the print
// stylesheet shows instead of the canvas, so plots print as vectors at the printer's
// resolution; the legend is opened. After printing, both are undone. Triggered by the
// browser's beforeprint/afterprint and by the print media query (print emulation, PDF
// renderers), whichever comes.
import { compose, panelPiece, visibleFigures } from './figures';

/** Device pixels per CSS px the printed lines keep their detail for (about 300 dpi). */
const PRINT_DPR = 3;

let prepared: { svgs: Element[]; bodies: Element[]; opened: HTMLDetailsElement[] } | null = null;

/** Adds the print copies of the plots and opens the legend (once until `unpreparePrint`). */
export function preparePrint(doc: Document = document): void {
  if (prepared) return;
  const state = { svgs: [] as Element[], bodies: [] as Element[], opened: [] as HTMLDetailsElement[] };
  prepared = state;
  visibleFigures(doc).forEach((fig, i) => {
    try {
      const piece = panelPiece(fig, PRINT_DPR, `print${i}`);
      if (!piece) return;
      const { svg } = compose([{ piece, x: 0, y: 0 }], piece.width, piece.height);
      const parsed = new DOMParser().parseFromString(svg, 'image/svg+xml').documentElement;
      if (parsed.nodeName !== 'svg') return;
      const node = doc.importNode(parsed, true) as Element;
      node.setAttribute('class', 'print-plot');
      node.setAttribute('aria-hidden', 'true');
      node.removeAttribute('width');
      node.removeAttribute('height');
      fig.body.append(node);
      fig.body.classList.add('has-print-plot');
      state.svgs.push(node);
      state.bodies.push(fig.body);
    } catch {
      // This plot prints as its canvas.
    }
  });
  for (const d of doc.querySelectorAll<HTMLDetailsElement>('details.legend')) {
    if (!d.open) {
      d.open = true;
      state.opened.push(d);
    }
  }
}

/** Removes what preparePrint added. */
export function unpreparePrint(): void {
  const state = prepared;
  prepared = null;
  if (!state) return;
  state.svgs.forEach((n) => n.remove());
  state.bodies.forEach((b) => b.classList.remove('has-print-plot'));
  state.opened.forEach((d) => {
    d.open = false;
  });
}

/** Listens for printing until the returned function is called. */
export function installPrintSupport(win: Window = window): () => void {
  const before = () => preparePrint(win.document);
  const after = () => unpreparePrint();
  win.addEventListener('beforeprint', before);
  win.addEventListener('afterprint', after);
  const media = win.matchMedia?.('print');
  const change = (e: MediaQueryListEvent) => (e.matches ? before() : after());
  media?.addEventListener?.('change', change);
  // Installed while already printing (the handout mounts after the page's first view; print
  // emulation or a PDF renderer may have switched the media first): prepare now.
  if (media?.matches) before();
  return () => {
    win.removeEventListener('beforeprint', before);
    win.removeEventListener('afterprint', after);
    media?.removeEventListener?.('change', change);
    unpreparePrint();
  };
}
