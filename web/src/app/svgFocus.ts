// The page's components are written against React's API and rendered by Preact
// (preact/compat: web/vite.config.ts). One difference reaches the user: React writes
// `tabIndex` as the `tabindex` attribute on every element, Preact writes an SVG element's
// props as attributes by their own name, and `tabIndex` is not an SVG attribute (SVG's
// names are case-sensitive), so an SVG button — a sweep point, a state of the state
// machine — could not take the keyboard's focus. This renames it for SVG elements, once, for
// every component (imported by start.tsx before anything renders).
import { options, type VNode } from 'preact';

/** The SVG elements the page makes focusable (role="button" groups and shapes). */
const SVG_TAGS = new Set(['svg', 'g', 'circle', 'rect', 'path', 'line', 'text', 'polygon', 'ellipse']);

/** A vnode's props with `tabIndex` renamed to `tabindex` where it is an SVG element. */
export function fixSvgTabIndex(vnode: VNode): void {
  const props = vnode.props as Record<string, unknown> | null;
  if (typeof vnode.type !== 'string' || !props || !('tabIndex' in props) || !SVG_TAGS.has(vnode.type)) return;
  props.tabindex = props.tabIndex;
  delete props.tabIndex;
}

const previous = options.vnode;
options.vnode = (vnode) => {
  fixSvgTabIndex(vnode);
  previous?.(vnode);
};
