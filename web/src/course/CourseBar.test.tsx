// @vitest-environment jsdom
// The course bar: its place in the course follows the preset loaded, Next and Previous open
// the neighbouring lessons as the preset menu does, "Done" and a revealed practice answer
// mark a lesson done in localStorage, and a stored value is read back on the next visit.
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppContext } from '../app/AppContext';
import { createHarness } from '../test/appHarness';
import { waitFor } from '../test/inProcessWorker';
import { act, cleanup, fireEvent, render, screen } from '../test/render';
import { COURSE, PROGRESS_KEY } from './course';
import { CourseBar } from './CourseBar';

/** The course's stop at i (0-based). */
function stopAt(i: number) {
  const s = COURSE[i];
  if (!s) throw new Error(`no stop ${i}`);
  return s;
}

const harnesses: ReturnType<typeof createHarness>[] = [];
beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  harnesses.splice(0).forEach((h) => h.dispose());
});

// Preact runs effects after paint (a frame, or 100 ms): let the last ones run before the
// environment goes, or they would find no window.
afterAll(() => new Promise((resolve) => setTimeout(resolve, 200)));

function renderBar(query = '?v=4&alg=newreno') {
  const h = createHarness(query, 1);
  harnesses.push(h);
  render(
    <AppContext.Provider value={{ store: h.store, controller: h.controller, traces: h.traces }}>
      <CourseBar />
    </AppContext.Provider>,
  );
  return h;
}

/** The bar's "Lesson 4 of 15" (its words, whatever the screen shows of them). */
const position = () => document.querySelector('.course-position')?.textContent;

describe('the course bar', () => {
  it('starts the course, walks it with Next and Previous, and knows its place', async () => {
    const h = renderBar();
    expect(position()).toBe(`Course: ${COURSE.length} lessons`);
    fireEvent.click(screen.getByRole('button', { name: `Start the course: ${stopAt(0).title}` }));
    expect(h.store.getState().preset).toBe(stopAt(0).preset);
    expect(position()).toBe(`Lesson 1 of ${COURSE.length}`);
    const previous = screen.getByRole('button', { name: 'Previous lesson' });
    expect(previous.getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(previous);
    expect(h.store.getState().preset).toBe(stopAt(0).preset);
    fireEvent.click(screen.getByRole('button', { name: `Next lesson: ${stopAt(1).title}` }));
    expect(h.store.getState().preset).toBe(stopAt(1).preset);
    expect(h.store.getState().lesson).toBe(stopAt(1).preset);
    fireEvent.click(screen.getByRole('button', { name: `Previous lesson: ${stopAt(0).title}` }));
    expect(h.store.getState().preset).toBe(stopAt(0).preset);
    // A lesson from the list: its link, and the preset loaded in place.
    const link = screen.getByRole('link', { name: new RegExp(stopAt(5).title) }) as HTMLAnchorElement;
    expect(link.getAttribute('href')).toBe(`?course=${stopAt(5).id}`);
    fireEvent.click(link);
    expect(h.store.getState().preset).toBe(stopAt(5).preset);
    expect(position()).toBe(`Lesson 6 of ${COURSE.length}`);
    await waitFor(h.allDone);
  });

  it('keeps "Done" in localStorage and reads it back', async () => {
    localStorage.setItem(PROGRESS_KEY, '{"version":1,"done":["aimd"]}');
    const h = renderBar(`?course=${stopAt(0).id}`);
    expect(h.store.getState().preset).toBe(stopAt(0).preset);
    expect(await screen.findByText(`1/${COURSE.length} done`)).toBeTruthy();
    const box = screen.getByRole('checkbox', { name: `Lesson 1, ${stopAt(0).title}: done` }) as HTMLInputElement;
    expect(box.checked).toBe(false);
    fireEvent.click(box);
    expect(box.checked).toBe(true);
    expect(JSON.parse(localStorage.getItem(PROGRESS_KEY)!)).toEqual({ version: 1, done: ['slow-start', 'aimd'] });
    expect(screen.getByRole('link', { name: /Slow start, done/ })).toBeTruthy();
    fireEvent.click(box);
    expect(JSON.parse(localStorage.getItem(PROGRESS_KEY)!)).toEqual({ version: 1, done: ['aimd'] });
  });

  it('ignores a broken stored value', async () => {
    localStorage.setItem(PROGRESS_KEY, '{"version":1,"done":[');
    const h = renderBar();
    expect(await screen.findByText(`0/${COURSE.length} done`)).toBeTruthy();
    await act(async () => h.controller.loadPreset(stopAt(2).preset));
    fireEvent.click(screen.getByRole('checkbox'));
    expect(JSON.parse(localStorage.getItem(PROGRESS_KEY)!)).toEqual({ version: 1, done: [stopAt(2).id] });
    await waitFor(h.allDone);
  });
});
