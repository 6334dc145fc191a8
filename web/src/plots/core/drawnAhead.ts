// A plot's bitmaps drawn ahead (prerender.ts), one per world, each with the draw key it was
// drawn for: what PlotController copies when a data draw has the same key.
import type { World } from './prerender';

/** Everything a data draw reads: what `key` spells (sizes, look, window, settings, the
 *  scenario's JSON), and by identity the plot's spec and each run's trace source and
 *  summary (`sources`). */
export interface DrawKey {
  key: string;
  spec: object;
  sources: readonly unknown[];
}

/** A world's plot drawn ahead: its bitmap and what the draw computed besides pixels (the
 *  y range and the screen-reader sentence). */
export interface DrawnAhead {
  drawKey: DrawKey;
  bitmap: ImageBitmap;
  extent: [number, number];
  description: string;
}

export function sameDrawKey(a: DrawKey, b: DrawKey): boolean {
  return (
    a.key === b.key &&
    a.spec === b.spec &&
    a.sources.length === b.sources.length &&
    a.sources.every((v, i) => v === b.sources[i])
  );
}

/** The scenario's JSON, once per scenario object (it is part of every draw key). */
const scenarioJson = new WeakMap<object, string>();
export function jsonOf(scenario: object): string {
  let json = scenarioJson.get(scenario);
  if (json === undefined) {
    json = JSON.stringify(scenario);
    scenarioJson.set(scenario, json);
  }
  return json;
}

/** One plot's bitmaps drawn ahead, by world. */
export class DrawnAheadCache {
  private entries = new Map<World, DrawnAhead>();

  get count(): number {
    return this.entries.size;
  }

  get bytes(): number {
    let n = 0;
    for (const d of this.entries.values()) n += d.bitmap.width * d.bitmap.height * 4;
    return n;
  }

  /** The bitmap drawn for exactly `key`, if any. */
  match(key: DrawKey): DrawnAhead | undefined {
    for (const d of this.entries.values()) if (sameDrawKey(d.drawKey, key)) return d;
    return undefined;
  }

  /** Whether `world` has a bitmap drawn for `key`. */
  holds(world: World, key: DrawKey): boolean {
    const d = this.entries.get(world);
    return d !== undefined && sameDrawKey(d.drawKey, key);
  }

  /** Keeps `d` for `world`, in place of what it had. */
  set(world: World, d: DrawnAhead): void {
    this.entries.get(world)?.bitmap.close();
    this.entries.set(world, d);
  }

  /** Lets go of the bitmaps of worlds not in `keep` (a canvas that copied one keeps its own
   *  reference to the pixels). */
  drop(keep: ReadonlySet<World>): void {
    for (const [world, d] of [...this.entries]) {
      if (keep.has(world)) continue;
      d.bitmap.close();
      this.entries.delete(world);
    }
  }
}
