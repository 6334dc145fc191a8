// The lesson of the preset the scenario came from (the engine's presets carry them): what to
// look at and the question for the class up front; what happens and the source one click
// further. Collapsed at first on narrow screens, where the summary and plots come first. The
// texts are in the teaching chunk (engine/teaching.ts), which start-up loads before it
// renders a link that opens a lesson. A lesson that compares what one run per algorithm cannot
// (a network setting's values side by side) has a button that opens its sweep (the engine's
// `sweep` field: link keys, web/src/sweep/link.ts) on the scenario as it is.
import { narrowLayout } from '../app/layout';
import { useState } from 'react';
import { useApp, useAppState } from '../app/AppContext';
import { tables } from '../engine/tables';
import { useTeaching } from '../engine/teaching';
import { readSweepKeys } from '../sweep/link';
import { usePresetStatus } from './usePresetStatus';

/** Below this width the lesson starts collapsed (the one-column layout). */

function startsOpen(): boolean {
  return !narrowLayout();
}

/** The lesson panel; nothing when the scenario has no lesson. */
export function LessonPanel() {
  const { store } = useApp();
  const name = useAppState((s) => s.lesson);
  const preset = name === null ? undefined : tables.presets.find((p) => p.name === name);
  // The lesson stays while the scenario is explored; it says when the scenario is no longer
  // the preset's (a link to the preset opens unchanged).
  // (A preset with several flows loads as a competition, exactly as it is.)
  const status = usePresetStatus(preset);
  const [open, setOpen] = useState(startsOpen);
  const texts = useTeaching(!!preset?.lesson);
  const lesson = preset?.lesson ? texts?.lessons[preset.name] : undefined;
  if (!preset || !lesson) return null;
  const sweep = preset.lesson?.sweep ? readSweepKeys(preset.lesson.sweep).sweep : null;
  const openSweep = () => {
    if (!sweep) return;
    store.getState().setSweep({ ...sweep });
    // The sweep view opens (SweepShell) and runs it; bring it into view once drawn.
    requestAnimationFrame(() => document.querySelector('details.sweep')?.scrollIntoView({ block: 'start' }));
  };
  return (
    <details className="lesson" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>
        <span className="lesson-tag">Lesson</span> <span className="lesson-name">{preset.title}</span>{' '}
        <code className="lesson-id">{preset.name}</code>
      </summary>
      <dl>
        <dt>Look at</dt>
        <dd>{lesson.look}</dd>
        <dt>Question for the class</dt>
        <dd>{lesson.question}</dd>
      </dl>
      {sweep ? (
        <p className="lesson-sweep">
          <button type="button" onClick={openSweep}>
            Compare side by side in a sweep
          </button>{' '}
          <span className="lesson-note">on the scenario as it is now (the sweep view, below the plots)</span>
        </p>
      ) : null}
      <details className="lesson-more">
        <summary>What happens, and the source</summary>
        <p>{lesson.happens}</p>
        <p className="lesson-source">Source: {lesson.source}</p>
      </details>
      {status && status.kind !== 'same' && (
        <p className="lesson-note">
          {status.kind === 'changed'
            ? `The scenario has changed since the preset was loaded: ${status.settings.join(', ')}.`
            : `The scenario is no longer the preset’s: ${status.why}.`}
        </p>
      )}
    </details>
  );
}
