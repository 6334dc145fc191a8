// The algorithms a comparison can run: the choices of the engine's `flows[].variant`.
import { requireSpec } from './params';

/** An engine variant name (old_tahoe, tahoe, reno, newreno, …), as the schema lists them. */
export type Variant = string;

const spec = requireSpec('flows[].variant');

/** Every variant, in the engine's order, with its label and help. */
export const VARIANTS = (spec.options ?? []).map((o) => ({ ...o }));

/** The variant names in the engine's order. */
export const VARIANT_NAMES: readonly Variant[] = VARIANTS.map((v) => v.value);

/** True when `name` is a variant the engine knows. */
export function isVariant(name: string): name is Variant {
  return VARIANT_NAMES.includes(name);
}

/** The label a person reads ("NewReno"). */
export function variantLabel(v: Variant): string {
  return VARIANTS.find((o) => o.value === v)?.label ?? v;
}

/** Puts a selection in the engine's order without duplicates. */
export function orderVariants(list: readonly Variant[]): Variant[] {
  return VARIANT_NAMES.filter((v) => list.includes(v));
}

/** What a comparison shows when nothing else is asked for: every algorithm. */
export const DEFAULT_SELECTION: readonly Variant[] = VARIANT_NAMES;
