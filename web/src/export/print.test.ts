// @vitest-environment jsdom
// Print support: prepared on the print media query's change, and at once when installed
// while the media is already print (the handout mounts after the first view, so print
// emulation or a PDF renderer can switch the media first); undone after.
import { describe, expect, it } from 'vitest';
import { installPrintSupport } from './print';

/** A window whose print media query says `printing`, and that reports its listeners. */
function fakeWindow(printing: boolean) {
  const listeners: ((e: MediaQueryListEvent) => void)[] = [];
  const media = {
    matches: printing,
    addEventListener: (_: string, f: (e: MediaQueryListEvent) => void) => listeners.push(f),
    removeEventListener: () => {},
  };
  const win = {
    document,
    matchMedia: () => media,
    addEventListener: () => {},
    removeEventListener: () => {},
  } as unknown as Window;
  return { win, fire: (matches: boolean) => listeners.forEach((f) => f({ matches } as MediaQueryListEvent)) };
}

function legend(): HTMLDetailsElement {
  document.body.innerHTML = '<details class="legend"><summary>Legend</summary></details>';
  return document.querySelector('details.legend') as HTMLDetailsElement;
}

describe('print support', () => {
  it('prepares when the media turns to print, and undoes it after', () => {
    const d = legend();
    const { win, fire } = fakeWindow(false);
    const uninstall = installPrintSupport(win);
    expect(d.open).toBe(false);
    fire(true);
    expect(d.open).toBe(true);
    fire(false);
    expect(d.open).toBe(false);
    uninstall();
  });

  it('installed while already printing, prepares at once', () => {
    const d = legend();
    const { win } = fakeWindow(true);
    const uninstall = installPrintSupport(win);
    expect(d.open).toBe(true);
    uninstall();
    expect(d.open).toBe(false);
  });
});
