// The textbook round model in the link (docs/scenario-url.md): `tb=NAME` draws the model in
// convention NAME beside the rounds view's per-packet rounds; `tbsheet=NAME` makes the
// exercise sheet in the model (with `sheet=N`). The names are the engine's
// (`TEXTBOOK_CONVENTIONS`, engine/core/src/textbook.rs). View keys no older link has.
import { TEXTBOOK_CONVENTIONS, type TextbookConventionName } from '../engine/pkg/vocabulary';

/** The engine's conventions, in its order. */
export const CONVENTIONS = TEXTBOOK_CONVENTIONS;

/** The convention named `name`, or undefined. */
export function conventionOf(name: string) {
  return CONVENTIONS.find((c) => c.name === name);
}

/** Reads `key=text` (tb or tbsheet): a convention's name, or a message naming the key and
 *  the allowed values. */
export function readConvention(key: string, text: string): TextbookConventionName | { error: string } {
  const c = conventionOf(text);
  if (c) return c.name;
  return {
    error: `${key}=${text} is not a textbook convention (allowed: ${CONVENTIONS.map((x) => x.name).join(', ')}); the textbook model is off.`,
  };
}

/** The line's label on the plot: "textbook (K&R)". */
export function textbookLabel(name: TextbookConventionName): string {
  return `textbook (${conventionOf(name)?.short ?? name})`;
}
