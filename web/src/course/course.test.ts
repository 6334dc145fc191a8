// The course path: the engine's list, the progress kept in localStorage (round trip, a broken
// or foreign value ignored, a browser that refuses storage) and the link key `course=<id>`.
import { describe, expect, it } from 'vitest';
import { tables } from '../engine/tables';
import { realValidator } from '../test/wasm';
import { decodeShareState, encodeShareState } from '../scenario/url';
import {
  COURSE,
  courseHref,
  loadProgress,
  parseProgress,
  PROGRESS_KEY,
  progressText,
  saveProgress,
  stopIndexOf,
  stopNamed,
  withDone,
} from './course';

/** The course's stop at i (0-based). */
function stopAt(i: number) {
  const s = COURSE[i];
  if (!s) throw new Error(`no stop ${i}`);
  return s;
}

/** A Storage held in a Map, or one that throws on every call. */
function memoryStorage(throwing = false): Storage {
  const m = new Map<string, string>();
  const fail = () => {
    throw new Error('SecurityError: storage is disabled');
  };
  return {
    get length() {
      return m.size;
    },
    clear: () => (throwing ? fail() : m.clear()),
    getItem: (k: string) => (throwing ? fail() : (m.get(k) ?? null)),
    key: (i: number) => [...m.keys()][i] ?? null,
    removeItem: (k: string) => (throwing ? fail() : void m.delete(k)),
    setItem: (k: string, v: string) => (throwing ? fail() : void m.set(k, v)),
  };
}

const decode = (q: string) => decodeShareState(q, realValidator());

describe('the course from the engine', () => {
  it('lists stops in teaching order, each a preset with a lesson', () => {
    expect(COURSE.length).toBeGreaterThanOrEqual(10);
    expect(stopAt(0).id).toBe('slow-start');
    expect(stopAt(COURSE.length - 1).id).toBe('fair-queueing');
    for (const s of COURSE) {
      const p = tables.presets.find((x) => x.name === s.preset);
      expect(p?.lesson, s.id).toBeTruthy();
    }
    expect(stopIndexOf('fall-floyd-reno-3drops')).toBe(COURSE.findIndex((s) => s.id === 'reno-newreno'));
    expect(stopIndexOf('netsim-old-tahoe')).toBe(-1);
    expect(stopIndexOf(null)).toBe(-1);
    expect(stopNamed('sack')?.preset).toBe('fall-floyd-sack-3drops');
    expect(stopNamed('no-such-stop')).toBeUndefined();
    expect(courseHref(stopAt(0))).toBe('?course=slow-start');
  });
});

describe('progress in localStorage', () => {
  it('round-trips through the one versioned key', () => {
    const storage = memoryStorage();
    expect(loadProgress(storage)).toEqual([]);
    const done = withDone(withDone([], 'sack', true), 'slow-start', true);
    expect(done).toEqual(['slow-start', 'sack']); // course order
    expect(saveProgress(done, storage)).toBe(true);
    expect(storage.getItem(PROGRESS_KEY)).toBe('{"version":1,"done":["slow-start","sack"]}');
    expect(loadProgress(storage)).toEqual(['slow-start', 'sack']);
    expect(withDone(done, 'sack', false)).toEqual(['slow-start']);
    expect(storage.length).toBe(1);
  });

  it('ignores a broken or foreign value and keeps the known ids only', () => {
    for (const bad of [
      '',
      'not json',
      '{',
      'null',
      '42',
      '"done"',
      '[]',
      '{"done":["aimd"]}',
      '{"version":2,"done":["aimd"]}',
      '{"version":1,"done":"aimd"}',
      '{"version":1}',
    ]) {
      expect(parseProgress(bad), bad).toEqual([]);
    }
    expect(parseProgress(progressText(['aimd', 'no-such-stop', 'cwv']))).toEqual(['aimd', 'cwv']);
    expect(parseProgress('{"version":1,"done":["cwv",3,null,{"id":"aimd"},"aimd","cwv"]}')).toEqual(['aimd', 'cwv']);
    const storage = memoryStorage();
    storage.setItem(PROGRESS_KEY, '{"version":1,"done":');
    expect(loadProgress(storage)).toEqual([]);
  });

  it('works on where the browser refuses storage', () => {
    const storage = memoryStorage(true);
    expect(loadProgress(storage)).toEqual([]);
    expect(saveProgress(['aimd'], storage)).toBe(false);
    expect(loadProgress(null)).toEqual([]);
    expect(saveProgress(['aimd'], null)).toBe(false);
  });
});

describe('the link key course=<id>', () => {
  it('opens the stop’s preset as a bare preset= link does', () => {
    for (const stop of [
      stopAt(0),
      stopAt(COURSE.findIndex((s) => s.id === 'reno-newreno')),
      stopAt(COURSE.length - 1),
    ]) {
      const byCourse = decode(`?course=${stop.id}`);
      const byPreset = decode(`?preset=${stop.preset}`);
      expect(byCourse.notices).toEqual([]);
      expect(byCourse.state.preset).toBe(stop.preset);
      expect(byCourse.state).toEqual(byPreset.state);
    }
  });

  it('names an unknown id with the allowed ids, and the page opens as without it', () => {
    const d = decode('?v=4&alg=reno&course=slowstart');
    const notice = d.notices.find((n) => n.key === 'course');
    expect(notice?.message).toContain('course=slowstart is not a lesson of the course');
    for (const s of COURSE) expect(notice?.message).toContain(s.id);
    expect(d.state).toEqual(decode('?v=4&alg=reno').state);
  });

  it('leaves a link’s own preset= in place, saying so', () => {
    const d = decode('?course=sack&preset=textbook-reno');
    expect(d.state.preset).toBe('textbook-reno');
    expect(d.notices.find((n) => n.key === 'course')?.message).toContain('using preset=textbook-reno');
  });

  it('changes no old link: links without the key open as before, and encoding never writes it', () => {
    const q = '?v=4&alg=reno,newreno&preset=fall-floyd-reno-3drops';
    expect(decode(q).notices).toEqual([]);
    expect(encodeShareState(decode('?course=aimd').state)).not.toContain('course=');
  });
});
