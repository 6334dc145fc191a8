// Drawing ahead: the plots of a comparison computed ahead (a focused slider's neighbouring
// values, state/controller.ts `lookAhead`) are drawn in background tasks, each into a
// bitmap of its canvas's size; the key press that chooses that value then copies the bitmap
// onto the canvas instead of drawing the data again, so its frame has neither the drawing's
// JavaScript nor the canvases' rasterisation to do.
//
// A bitmap is used only when everything the plot's drawing reads is what it was drawn from
// (the panel's `drawKey`: its size, pixel ratio and look, the scenario, window, series and
// settings, and every run's trace and summary by identity: the very chunks the workers sent,
// which the step's runs hold); otherwise the plot is drawn as always. So the pixels are those
// a draw would make (e2e/app.spec.ts compares them with a fresh page's).
import type { TraceStore } from '../../engine/traceStore';
import type { AppState } from '../../state/types';

/** A comparison computed ahead, as the page would hold it after the step that asks for it:
 *  the state the step and its results would set (`patch`) and its runs' traces. */
export interface World {
  patch: Partial<AppState>;
  traces: TraceStore;
}

/** A panel that can draw a world ahead. */
export interface Prerenderable {
  /** Whether it is on screen (those are drawn ahead first). */
  readonly onScreen: boolean;
  /** Draws `world` into a bitmap unless it holds a current one; returns the bitmap's bytes
   *  when it drew, 0 when it had nothing to do, null when it cannot (no size, no runs). */
  prerender(world: World): number | null;
  /** Lets go of bitmaps of worlds not in `keep` (a panel whose data draw is still to come
   *  keeps them until it has drawn: the step's own frame draws the plots in view first, and
   *  the others, which may copy one, in the frames after it). */
  dropPrerendered(keep: ReadonlySet<World>): void;
  /** Bytes of the bitmaps it holds. */
  readonly prerenderedBytes: number;
  /** Bitmaps it holds (one per world at most). */
  readonly prerenderedCount: number;
}

/** Bitmaps held at most, bytes (two neighbours of the default view's 12 plots at 1 280 px,
 *  DPR 1, take ~25 MB; at DPR 2, four times that, so the plots off screen are left out). */
export const PRERENDER_MAX_BYTES = 64 * 1024 * 1024;

const panels = new Set<Prerenderable>();
let worlds: readonly World[] = [];
/** A background task is scheduled. */
let scheduled = false;
/** Data draws that copied a bitmap drawn ahead (benchmarks and tests read it). */
let used = 0;

export function registerPrerender(panel: Prerenderable): void {
  panels.add(panel);
}

export function unregisterPrerender(panel: Prerenderable): void {
  panels.delete(panel);
}

/** The comparisons computed ahead, the likeliest first (an empty list frees every bitmap).
 *  `keepBitmaps`: only stop drawing ahead, keeping what was drawn (a step has begun: its
 *  frame may copy one, and nothing should be drawn ahead before that frame). */
export function setWorlds(next: readonly World[], keepBitmaps = false): void {
  worlds = next;
  if (!keepBitmaps) {
    const keep = new Set(next);
    for (const p of panels) p.dropPrerendered(keep);
  }
  scheduleTask();
}

/** The worlds drawn ahead now (a panel that drew its data lets go of bitmaps of others). */
export function currentWorlds(): ReadonlySet<World> {
  return new Set(worlds);
}

/** A panel drew its data (the view may have changed): the worlds are looked at again in a
 *  background task. */
export function prerenderStale(): void {
  if (worlds.length > 0) scheduleTask();
}

/** A data draw used a bitmap drawn ahead. */
export function prerenderUsed(): void {
  used += 1;
}

/** What drawing ahead has done (tests, benchmarks): the bitmaps held, the data draws that
 *  copied one since the page opened, and whether drawing ahead is still under way. */
export function prerenderStats(): { ahead: number; used: number; pending: boolean } {
  let ahead = 0;
  for (const p of panels) ahead += p.prerenderedCount;
  return { ahead, used, pending: scheduled };
}

/** A task of background priority where the browser has them (the Prioritized Task
 *  Scheduling API: input and rendering go first), else a plain task. Not an idle callback:
 *  Chromium 156 stopped giving this page idle periods once a canvas had shown a bitmap
 *  (measured: none in a second, the main thread otherwise idle). */
const later: (cb: () => void) => void = (() => {
  const s = (globalThis as { scheduler?: { postTask?: (cb: () => void, o: { priority: string }) => unknown } })
    .scheduler;
  const postTask = s?.postTask?.bind(s);
  return postTask ? (cb) => void postTask(cb, { priority: 'background' }) : (cb) => void setTimeout(cb, 0);
})();

function scheduleTask() {
  if (scheduled || worlds.length === 0) return;
  scheduled = true;
  later(run);
}

/** One plot drawn ahead per task (a few ms: a key press that comes meanwhile waits at most
 *  that long), the likeliest world's plots first. */
function run() {
  scheduled = false;
  if (drawOne()) scheduleTask();
}

/** Draws the next plot that waits — every world's plots on screen, the likeliest world's
 *  first, then those off screen (a scroll may bring them in; and copied, they leave the
 *  page idle sooner after the step) — false when none does or the bitmaps take their most. */
function drawOne(): boolean {
  let held = 0;
  for (const p of panels) held += p.prerenderedBytes;
  for (const onScreen of [true, false]) {
    for (const world of worlds) {
      for (const p of panels) {
        if (p.onScreen !== onScreen) continue;
        if (held >= PRERENDER_MAX_BYTES) return false;
        const bytes = p.prerender(world);
        if (bytes === null || bytes === 0) continue;
        return true;
      }
    }
  }
  return false;
}
