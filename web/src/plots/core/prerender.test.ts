import { afterEach, describe, expect, it } from 'vitest';
import { TraceStore } from '../../engine/traceStore';
import { waitFor } from '../../test/inProcessWorker';
import {
  PRERENDER_MAX_BYTES,
  prerenderStats,
  registerPrerender,
  setWorlds,
  unregisterPrerender,
  type Prerenderable,
  type World,
} from './prerender';

/** A panel that records what it was asked to draw ahead, each drawing `bytes` big. */
class FakePanel implements Prerenderable {
  drawn = new Map<World, number>();
  log: string[];
  constructor(
    readonly name: string,
    log: string[],
    public onScreen = true,
    private bytes = 1000,
  ) {
    this.log = log;
  }
  prerender(world: World): number | null {
    if (this.drawn.has(world)) return 0;
    this.drawn.set(world, this.bytes);
    this.log.push(`${this.name}:${String(world.patch.time)}`);
    return this.bytes;
  }
  dropPrerendered(keep: ReadonlySet<World>): void {
    for (const w of [...this.drawn.keys()]) if (!keep.has(w)) this.drawn.delete(w);
  }
  get prerenderedCount(): number {
    return this.drawn.size;
  }
  get prerenderedBytes(): number {
    let n = 0;
    for (const b of this.drawn.values()) n += b;
    return n;
  }
}

const world = (time: number): World => ({ patch: { time }, traces: new TraceStore() });
let registered: FakePanel[] = [];
function panels(...list: FakePanel[]) {
  registered = list;
  for (const p of list) registerPrerender(p);
  return list;
}

afterEach(() => {
  setWorlds([]);
  for (const p of registered) unregisterPrerender(p);
  registered = [];
});

describe('drawing ahead', () => {
  it('draws every world’s plots on screen first, the likeliest world first, one per task, then those off screen', async () => {
    const log: string[] = [];
    const [a, off, b] = panels(new FakePanel('a', log), new FakePanel('off', log, false), new FakePanel('b', log));
    setWorlds([world(1), world(2)]);
    // Nothing in the task that set them (background tasks only).
    expect(log).toEqual([]);
    await waitFor(() => log.length === 6 && !prerenderStats().pending);
    expect(log).toEqual(['a:1', 'b:1', 'a:2', 'b:2', 'off:1', 'off:2']);
    expect(prerenderStats().ahead).toBe(6);
    // New worlds: the old bitmaps are let go of at once.
    setWorlds([world(3)]);
    expect(a?.drawn.size).toBe(0);
    expect(b?.drawn.size).toBe(0);
    expect(off?.drawn.size).toBe(0);
    expect(prerenderStats().ahead).toBe(0);
    await waitFor(() => log.length === 9);
    setWorlds([]);
    expect(a?.prerenderedBytes).toBe(0);
  });

  it('stops at the memory limit', async () => {
    const log: string[] = [];
    panels(
      new FakePanel('a', log, true, PRERENDER_MAX_BYTES / 2 + 1),
      new FakePanel('b', log, true, 1),
      new FakePanel('off', log, false, 1),
    );
    setWorlds([world(1), world(2)]);
    await waitFor(() => log.length >= 2 && !prerenderStats().pending);
    await new Promise((r) => setTimeout(r, 50));
    // a:1 and b:1 fit; a:2 takes it past the limit, and nothing is drawn after that.
    expect(log).toEqual(['a:1', 'b:1', 'a:2']);
  });
});
