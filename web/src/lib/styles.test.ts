// Algorithm styles: never colour alone, however many algorithms the catalogue holds.
import { describe, expect, it } from 'vitest';
import { ALGORITHM_NAMES } from '../scenario/algorithms';
import { algStyle, markerPath, styleAt, WINDOW_EVENT_MARKS, windowEventPath } from './styles';

describe('algorithm styles', () => {
  it('give at least 12 algorithms distinct colours and distinct (dash, marker) pairs', () => {
    const styles = Array.from({ length: 12 }, (_, i) => styleAt(i));
    expect(new Set(styles.map((s) => s.color)).size).toBe(12);
    expect(new Set(styles.map((s) => `${s.dash.join(',')}|${s.marker}`)).size).toBe(12);
    // Beyond that, (dash, marker) still never repeats for a long while.
    const more = Array.from({ length: 56 }, (_, i) => styleAt(i));
    expect(new Set(more.map((s) => `${s.dash.join(',')}|${s.marker}`)).size).toBe(56);
  });

  it('keep the classic four as they were, and give every name of the catalogue its own', () => {
    expect(algStyle('old_tahoe')).toEqual({ color: '#009E73', dash: [2, 3], marker: 'triangle' });
    expect(algStyle('newreno')).toEqual({ color: '#0072B2', dash: [], marker: 'circle' });
    const keys = ALGORITHM_NAMES.map((a) => JSON.stringify(algStyle(a)));
    expect(new Set(keys).size).toBe(ALGORITHM_NAMES.length);
  });

  it('draw every marker and window-event mark as a closed SVG path', () => {
    for (const i of Array.from({ length: 8 }, (_, k) => k))
      expect(markerPath(styleAt(i).marker, 4)).toMatch(/^M.*[Zz0]$/);
    for (const look of Object.values(WINDOW_EVENT_MARKS)) expect(windowEventPath(look, 4.5)).toMatch(/^M.*Z$/);
  });
});
