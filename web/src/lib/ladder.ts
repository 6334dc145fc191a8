// Slider stops for parameters whose range spans decades (bandwidth 1 kbit/s … 100 Gbit/s,
// BER 1e-9 … 1e-2): ten readable values per decade (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8),
// so each arrow key press is a sensible step and every stop is a round number. The number
// box beside the slider takes any exact value in range.
import type { ParamSpec } from '../engine/tables';

/** Mantissas ×10, as integers, so stops are computed by exact integer arithmetic. */
const MANTISSAS_X10 = [10, 12, 15, 20, 25, 30, 40, 50, 60, 80];

/** `m × 10^e` for an integer m, correctly rounded (the nearest double to the decimal). */
function decimal(m: number, e: number): number {
  return e >= 0 ? m * 10 ** e : m / 10 ** -e;
}

/** The slider stops of a numeric parameter, ascending. */
export function ladderFor(spec: ParamSpec): number[] {
  const min = spec.min ?? 0;
  const max = spec.max ?? 1;
  const def = typeof spec.default === 'number' ? spec.default : 0;
  // With min = 0 the stops start at 0, then a low value well under the default.
  const lo = min > 0 ? min : Math.min(max * 1e-7, def > 0 ? def / 1000 : Infinity);
  const out: number[] = min <= 0 ? [0] : [];
  const e0 = Math.floor(Math.log10(lo)) - 1;
  const e1 = Math.ceil(Math.log10(max));
  for (let e = e0; e <= e1; e += 1) {
    for (const m of MANTISSAS_X10) {
      let v = decimal(m, e - 1);
      if (spec.type === 'int') v = Math.round(v);
      if (v < lo || v > max) continue;
      if (out.length > 0 && v <= (out[out.length - 1] ?? -Infinity)) continue;
      out.push(v);
    }
  }
  if (min > 0 && out[0] !== min) out.unshift(min);
  if (out[out.length - 1] !== max) out.push(max);
  // The default is always a stop (e.g. a 1460-byte write = one MSS), so a slider can
  // always go back to it.
  if (def >= min && def <= max && !out.includes(def)) {
    out.push(def);
    out.sort((a, b) => a - b);
  }
  return out;
}

/** The stop closest to a value (on a log scale; 0 maps to a 0 stop when there is one). */
export function nearestStop(stops: readonly number[], value: number): number {
  if (value <= 0) return 0;
  let best = 0;
  let bestD = Infinity;
  stops.forEach((s, i) => {
    const d = s <= 0 ? Infinity : Math.abs(Math.log(s) - Math.log(value));
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  });
  return best;
}
