// The course path in the header, beside the preset menu: the current lesson's place ("Lesson
// 4 of 15"), Previous and Next, a "Done" mark, and the whole list (a disclosure) with each
// lesson's done mark and its link (`?course=<id>`). Opening a lesson loads its preset exactly
// as the menu does (`controller.loadPreset`). Progress is kept in this browser (course.ts).
// Keyboard: every control is a button, checkbox, summary or link (Tab, Enter, Space). Previous
// and Next at either end are aria-disabled rather than disabled, so the focus stays on them.
import { useEffect, useRef, useState, type MouseEvent } from 'react';
import { useApp, useAppState } from '../app/AppContext';
import { usePracticeStatus } from '../practice/PracticePanel';
import {
  COURSE,
  courseHref,
  loadProgress,
  parseProgress,
  PROGRESS_KEY,
  saveProgress,
  stopIndexOf,
  withDone,
} from './course';

/** The student's progress: read after the first render (the prerendered page has none), kept
 *  in step with other tabs. */
function useProgress(): [string[], (id: string, on: boolean) => void] {
  const [done, setDone] = useState<string[]>([]);
  useEffect(() => {
    setDone(loadProgress());
    const other = (e: StorageEvent) => {
      if (e.key === PROGRESS_KEY) setDone(parseProgress(e.newValue));
    };
    window.addEventListener('storage', other);
    return () => window.removeEventListener('storage', other);
  }, []);
  const mark = (id: string, on: boolean) =>
    setDone((d) => {
      if (d.includes(id) === on) return d;
      const next = withDone(d, id, on);
      saveProgress(next);
      return next;
    });
  return [done, mark];
}

/** The course bar. */
export function CourseBar() {
  const { controller } = useApp();
  const at = stopIndexOf(useAppState((s) => s.preset));
  const [done, mark] = useProgress();
  const practice = usePracticeStatus();
  const listRef = useRef<HTMLDetailsElement>(null);
  const stop = at >= 0 ? COURSE[at] : undefined;
  // Answering the lesson's predict-then-reveal marks it done: when an answer is revealed
  // (not when another lesson opens while a reveal is still on screen).
  const lastStatus = useRef(practice);
  useEffect(() => {
    const was = lastStatus.current;
    lastStatus.current = practice;
    if (practice === 'revealed' && was !== 'revealed' && stop) mark(stop.id, true);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [practice, stop?.id]);
  const n = COURSE.length;
  const open = (i: number) => {
    const s = COURSE[i];
    if (s) controller.loadPreset(s.preset);
  };
  const choose = (e: MouseEvent, i: number) => {
    // A modified click (new tab, copy) follows the link itself.
    if (e.ctrlKey || e.metaKey || e.shiftKey || e.altKey || e.button !== 0) return;
    e.preventDefault();
    open(i);
    const details = listRef.current;
    if (details) {
      details.open = false;
      details.querySelector('summary')?.focus();
    }
  };
  const prev = at > 0 ? COURSE[at - 1] : undefined;
  const next = at < 0 ? COURSE[0] : COURSE[at + 1];
  return (
    <nav className="course" aria-label="Course">
      {stop && (
        <button
          type="button"
          className="course-prev"
          aria-disabled={!prev}
          onClick={() => prev && open(at - 1)}
          aria-label={prev ? `Previous lesson: ${prev.title}` : 'Previous lesson'}
        >
          <span aria-hidden="true">‹</span>
        </button>
      )}
      <details className="course-list" ref={listRef}>
        <summary
          title={stop ? `${stop.title}: ${stop.teaches}` : 'The lessons in a teaching order'}
          aria-label={`Course: ${stop ? `lesson ${at + 1} of ${n}, ${stop.title}` : `${n} lessons`}; ${done.length} done. Show the lessons`}
        >
          <span className="course-position">
            {stop ? (
              <>
                <span className="course-word">Lesson </span>
                {`${at + 1} of ${n}`}
              </>
            ) : (
              <>
                <span className="course-word">Course: </span>
                {`${n} lessons`}
              </>
            )}
          </span>
          <span className="course-count">
            {done.length}/{n} done
          </span>
        </summary>
        <div className="course-popup">
          <p className="course-intro">
            The lessons in a teaching order. Each opens its preset with its lesson, its questions and its practice; a
            lesson is done when you mark it or reveal an answer in its practice. Your progress stays in this browser.
          </p>
          <ol>
            {COURSE.map((s, i) => {
              const isDone = done.includes(s.id);
              return (
                <li key={s.id} className={isDone ? 'done' : undefined}>
                  <a
                    href={courseHref(s)}
                    aria-current={i === at ? 'step' : undefined}
                    onClick={(e) => choose(e, i)}
                    data-course={s.id}
                  >
                    <span className="course-mark" aria-hidden="true">
                      {isDone ? '✓' : '○'}
                    </span>
                    {s.title}
                    <span className="visually-hidden">{isDone ? ', done' : ', not done'}</span>
                  </a>
                  <span className="course-teaches">{s.teaches}</span>
                </li>
              );
            })}
          </ol>
        </div>
      </details>
      {stop && (
        <label className="course-done">
          <input
            type="checkbox"
            checked={done.includes(stop.id)}
            onChange={(e) => mark(stop.id, e.currentTarget.checked)}
            aria-label={`Lesson ${at + 1}, ${stop.title}: done`}
          />
          Done
        </label>
      )}
      <button
        type="button"
        className="course-next primary"
        aria-disabled={!next}
        onClick={() => next && open(at < 0 ? 0 : at + 1)}
        aria-label={next ? `${at < 0 ? 'Start the course' : 'Next lesson'}: ${next.title}` : 'Next lesson'}
      >
        {at < 0 ? 'Start the course' : 'Next ›'}
      </button>
    </nav>
  );
}
