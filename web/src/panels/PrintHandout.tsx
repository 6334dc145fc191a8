// The printed handout's own parts, shown only in print (the print stylesheet hides the
// controls): a title naming the scenario, the scenario in one line and the link that
// reproduces the view, above the plots; the lesson's text, whole, after the summary. It
// also installs the print support that prints the plots as vectors (export/print.ts).
import { useDeferredValue, useEffect, useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useAppState } from '../app/AppContext';
import { useTeaching } from '../engine/teaching';
import { scenarioLine, scenarioName } from '../export/describe';
import { installPrintSupport } from '../export/print';
import { shareQuery, shareStateOf } from '../state/urlSync';

/** Title, scenario line and link (print only). */
export function PrintHeader() {
  // Shown only in print: it follows the page at low priority (useDeferredValue), so a
  // slider step's own render does not wait for it.
  const name = useDeferredValue(useAppState(scenarioName));
  const line = useDeferredValue(useAppState(useShallow((s) => [s.scenario, s.mode, s.algorithms] as const)));
  const query = shareQuery(useDeferredValue(useAppState(useShallow(shareStateOf))));
  useEffect(() => installPrintSupport(), []);
  const text = useMemo(() => scenarioLine({ scenario: line[0], mode: line[1], algorithms: line[2] }), [line]);
  return (
    <header className="print-only print-header">
      <h1>cwndlab — {name}</h1>
      <p className="print-line">{text}</p>
      <p className="print-link">
        {window.location.origin}
        {window.location.pathname}?{query}
      </p>
    </header>
  );
}

/** The open preset's lesson, every part of it (print only). */
export function PrintLesson() {
  const name = useAppState((s) => s.lesson);
  const lesson = useTeaching(name !== null)?.lessons[name ?? ''];
  if (!lesson) return null;
  return (
    <section className="print-only print-lesson" aria-label="Lesson">
      <h2>Lesson: {name}</h2>
      <dl>
        <dt>Look at</dt>
        <dd>{lesson.look}</dd>
        <dt>What happens</dt>
        <dd>{lesson.happens}</dd>
        <dt>Question for the class</dt>
        <dd>{lesson.question}</dd>
        <dt>Source</dt>
        <dd>{lesson.source}</dd>
      </dl>
    </section>
  );
}
