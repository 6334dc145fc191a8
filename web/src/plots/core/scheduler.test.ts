import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { holdIdle, onAfterFrame, pendingDraws, requestDraw, type Drawable, type FrameReport } from './scheduler';

/** A plot whose place on screen is known only once it is measured (as Panel's). */
class Fake implements Drawable {
  inView?: boolean;
  draws = 0;
  measured = 0;
  constructor(
    readonly name: string,
    private readonly onScreen: boolean | undefined,
    private readonly log: string[],
  ) {}
  measure() {
    this.measured += 1;
    this.inView = this.onScreen;
  }
  draw() {
    this.draws += 1;
    this.log.push(this.name);
  }
}

let frames: FrameRequestCallback[] = [];
const reports: FrameReport[] = [];
let off: () => void = () => {};

function runFrame() {
  const cbs = frames;
  frames = [];
  for (const cb of cbs) cb(performance.now());
}

beforeEach(() => {
  frames = [];
  reports.length = 0;
  vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
  off = onAfterFrame((r) => reports.push(r));
});

afterEach(() => {
  // Drain what a test left.
  for (let i = 0; i < 50 && frames.length > 0; i += 1) runFrame();
  off();
  vi.unstubAllGlobals();
});

describe('scheduler', () => {
  it('decides what is in view from the frame’s own measurement, and draws those first', () => {
    const log: string[] = [];
    // inView is unknown (undefined → in view) until measured: the first frame must not
    // take the plots below the fold for plots in view.
    const below = [new Fake('b1', false, log), new Fake('b2', false, log)];
    const shown = new Fake('s', true, log);
    for (const d of [...below, shown]) requestDraw(d);
    runFrame();
    expect(log).toEqual(['s']);
    expect(reports.at(-1)?.pendingInView).toBe(0);
    expect(reports.at(-1)?.pending).toBe(2);
  });

  it('catching up out of view, draws one never-drawn plot per frame', () => {
    const log: string[] = [];
    const below = [1, 2, 3].map((i) => new Fake(`b${i}`, false, log));
    for (const d of below) requestDraw(d);
    runFrame();
    expect(log).toEqual(['b1']);
    runFrame();
    expect(log).toEqual(['b1', 'b2']);
    runFrame();
    expect(log).toEqual(['b1', 'b2', 'b3']);
    expect(pendingDraws()).toBe(0);
    // Drawn once (and cheap), they fit together in one frame the next time.
    for (const d of below) requestDraw(d);
    runFrame();
    expect(log.slice(3)).toEqual(['b1', 'b2', 'b3']);
  });

  it('draws plots in view for the first time one per frame (the page’s start)', () => {
    const log: string[] = [];
    const shown = [1, 2, 3].map((i) => new Fake(`f${i}`, true, log));
    for (const d of shown) requestDraw(d);
    runFrame();
    expect(log).toEqual(['f1']);
    expect(reports.at(-1)?.pendingInView).toBe(2);
    runFrame();
    runFrame();
    expect(log).toEqual(['f1', 'f2', 'f3']);
    expect(pendingDraws()).toBe(0);
  });

  it('draws every plot in view in one frame once each has been drawn (a slider step)', () => {
    const log: string[] = [];
    const shown = [1, 2, 3, 4].map((i) => new Fake(`s${i}`, true, log));
    for (const d of shown) requestDraw(d);
    for (let i = 0; i < 4; i += 1) runFrame();
    expect(log).toEqual(['s1', 's2', 's3', 's4']);
    for (const d of shown) requestDraw(d);
    runFrame();
    expect(log.slice(4)).toEqual(['s1', 's2', 's3', 's4']);
  });

  it('holdIdle keeps pendingDraws above zero until released, once', () => {
    expect(pendingDraws()).toBe(0);
    const release = holdIdle();
    expect(pendingDraws()).toBe(1);
    release();
    release();
    // The release asks for a frame (which reports the idle page).
    expect(pendingDraws()).toBe(1);
    runFrame();
    expect(pendingDraws()).toBe(0);
    expect(reports.at(-1)?.pending).toBe(0);
  });
});
