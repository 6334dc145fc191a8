// The page's components are written against React's API and rendered by Preact
// (preact/compat: web/vite.config.ts). One difference reaches the user: React writes
// `tabIndex` as the `tabindex` attribute on every element, Preact writes it by the prop's own
// name, which an HTML element lowercases but an SVG element keeps (SVG's names are
// case-sensitive, and `tabIndex` is not one), so an SVG button — a sweep point, a state of
// the state machine — could not take the keyboard's focus. Every element's `tabIndex` is
// passed on as `tabindex`, the attribute's own name, as React does (imported by start.tsx
// before anything renders).
import { options } from 'preact';

const previous = options.vnode;
options.vnode = (vnode) => {
  const props = vnode.props as Record<string, unknown> | null;
  if (typeof vnode.type === 'string' && props && 'tabIndex' in props) {
    props.tabindex = props.tabIndex;
    delete props.tabIndex;
  }
  previous?.(vnode);
};
