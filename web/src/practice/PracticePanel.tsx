// Predict-then-reveal in the page: the entry (start a practice), the question (which event,
// cwnd and ssthresh after it), the reveal (the engine's decision, in the inspector's words,
// and the marks), the running score and the summary at the end; its keys; and what the page
// hides while a practice is under way (everything that would give the future away).
import { useEffect, useLayoutEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { useApp, useAppState } from '../app/AppContext';
import { DecisionCard } from '../explain/Inspector';
import { decisionTime } from '../explain/headline';
import { phaseName } from '../explain/vocabulary';
import { runLabel } from '../scenario/competition';
import type { PracticeScope } from './link';
import { Practice, type PracticeState, type PracticeStatus } from './practice';
import { FRACTION_TOLERANCE, valueText, type AnswerUnit, type Marked } from './questions';
import { unitLabel, WINDOW_UNITS } from '../lib/units';
// Its styles (practice.css) are imported by main.tsx with the page's.

/** The page's practice: one per store (one per page; one per test), made when first used. */
const PRACTICES = new WeakMap<object, Practice>();

function usePractice(): Practice {
  const { store, controller, traces } = useApp();
  let practice = PRACTICES.get(store);
  if (!practice) {
    practice = new Practice(store, controller.explainer, traces);
    PRACTICES.set(store, practice);
  }
  return practice;
}

function usePracticeState<T>(selector: (s: PracticeState) => T): T {
  return useStore(usePractice().state, selector);
}

/** The practice's status (the course marks its lesson done once an answer is revealed). */
export function usePracticeStatus(): PracticeStatus {
  return usePracticeState((s) => s.status);
}

/** Whether a practice hides what lies after the cursor. */
export function usePracticeHiding(): boolean {
  return usePracticeState((s) => s.status !== 'off' && s.status !== 'done');
}

/** Renders its children unless a practice is hiding the future (the summary table, the
 *  overview of the whole run, the lesson, the exports). */
export function HiddenWhilePractising({ children }: { children: ReactNode }) {
  return usePracticeHiding() ? null : <>{children}</>;
}

/** The practice's keys (listed in the keyboard help, `?`). */
export const PRACTICE_KEYS: [string, string][] = [
  ['1 … 9', 'Practice: choose the event (the numbers in the list)'],
  ['c', 'Practice: type the cwnd'],
  ['s', 'Practice: type the ssthresh'],
  ['Enter', 'Practice: reveal the engine’s decision (in a field, or with nothing focused)'],
  ['n', 'Practice: next question'],
];

const SCOPES: { id: PracticeScope; label: string }[] = [
  { id: 'events', label: 'Congestion events and phase changes' },
  { id: 'every', label: 'Every decision' },
];

/** The entry: a short explanation and the start button (in the results column). */
export function PracticeEntry() {
  const practice = usePractice();
  const status = usePracticeState((s) => s.status);
  const [scope, setScope] = useState<PracticeScope>('events');
  if (status !== 'off') return null;
  return (
    <section className="practice-entry" aria-labelledby="practice-entry-heading">
      <h2 id="practice-entry-heading">Practice: predict, then reveal</h2>
      <p>
        The plots stop before each decision of the run; you say what happens next and the new cwnd and ssthresh, then
        the engine shows what it decided, and why.
      </p>
      <fieldset className="practice-scope">
        <legend>Ask about</legend>
        {SCOPES.map((o) => (
          <label key={o.id}>
            <input type="radio" name="practice-scope" checked={scope === o.id} onChange={() => setScope(o.id)} />
            {o.label}
          </label>
        ))}
      </fieldset>
      <button type="button" className="primary" onClick={() => practice.start(scope)}>
        Start practice
      </button>
    </section>
  );
}

/** Examples of a value typed with its unit: "35 seg, 51100 B". */
function exampleText(mss: number): string {
  return `35 seg, ${35 * mss} B`;
}

function Mark({ right }: { right: boolean }) {
  return <span className={right ? 'practice-right' : 'practice-wrong'}>{right ? '✓ right' : '✗ wrong'}</span>;
}

function ScoreLine() {
  const score = usePracticeState((s) => s.score);
  const total = usePracticeState((s) => s.questions.length);
  return (
    <p className="practice-score" aria-label="Score">
      <span>
        Asked <strong>{score.asked}</strong> of {total}
      </span>
      <span>
        Event <strong>{score.event}</strong>/{score.asked}
      </span>
      <span>
        cwnd <strong>{score.cwnd}</strong>/{score.asked}
      </span>
      <span>
        ssthresh <strong>{score.ssthresh}</strong>/{score.asked}
      </span>
    </p>
  );
}

/** The question: the event, cwnd and ssthresh after it. */
function Question() {
  const practice = usePractice();
  const p = usePracticeState((s) => s);
  const scenario = useAppState((s) => s.scenario);
  const [event, setEvent] = useState('');
  const [cwnd, setCwnd] = useState('');
  const [ssthresh, setSsthresh] = useState('');
  const [bad, setBad] = useState('');
  const headRef = useRef<HTMLHeadingElement>(null);
  const q = p.questions[p.k];
  // A new question starts empty, before the browser takes the next key: a layout effect.
  // (Preact runs a plain effect after the next paint, so a key pressed as the new question
  // appeared chose an event that the reset then cleared.)
  useLayoutEffect(() => {
    setEvent('');
    setCwnd('');
    setSsthresh('');
    setBad('');
    // A new question: read it first (screen readers and keyboard alike).
    headRef.current?.focus();
  }, [p.k, p.questions]);
  if (!q || p.key === null) return null;
  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    const missing = [event === '' && 'the event', cwnd.trim() === '' && 'cwnd', ssthresh.trim() === '' && 'ssthresh']
      .filter(Boolean)
      .join(', ');
    if (missing) {
      setBad(`Give ${missing} first.`);
      return;
    }
    setBad('');
    void practice.answer({ event, cwnd, ssthresh });
  };
  const unitWord = p.unit === 'bytes' ? 'bytes' : `segments of ${p.mss} B`;
  const now = p.now;
  return (
    <form className="practice-question" onSubmit={submit} aria-labelledby="practice-q-heading" data-practice-form>
      <h3 id="practice-q-heading" ref={headRef} tabIndex={-1}>
        Question {p.k + 1} of {p.questions.length}: what does {runLabel(scenario, p.key)} decide at t ={' '}
        <span title={`${q.t} s`}>{decisionTime(q.t)}</span>?
      </h3>
      <p className="practice-now">
        The <a href="#plots">plots</a> stop just before it.{' '}
        {now && (
          <>
            Now: {phaseName(now.phase)}, cwnd {valueText(now.cwnd, p.unit, p.mss)}, ssthresh{' '}
            {valueText(now.ssthresh, p.unit, p.mss)}.
          </>
        )}
      </p>
      <fieldset className="practice-events">
        <legend>1. Which event? (keys 1–{Math.min(9, p.choices.length)})</legend>
        {p.choices.map((c, i) => (
          <label key={c} className="practice-choice">
            <input
              type="radio"
              name="practice-event"
              value={c}
              checked={event === c}
              onChange={() => setEvent(c)}
              data-choice={i + 1}
            />
            {i < 9 && <kbd aria-hidden="true">{i + 1}</kbd>}
            <span>{c}</span>
          </label>
        ))}
      </fieldset>
      <fieldset className="practice-values">
        <legend>2. After it (in {unitWord})</legend>
        <label>
          cwnd
          <input
            type="text"
            inputMode="text"
            autoComplete="off"
            name="practice-cwnd"
            value={cwnd}
            onChange={(e) => setCwnd(e.target.value)}
            aria-keyshortcuts="c"
          />
        </label>
        <label>
          ssthresh
          <input
            type="text"
            inputMode="text"
            autoComplete="off"
            name="practice-ssthresh"
            value={ssthresh}
            onChange={(e) => setSsthresh(e.target.value)}
            aria-keyshortcuts="s"
          />
        </label>
        <label>
          Answer in
          <select value={p.unit} onChange={(e) => practice.setUnit(e.target.value as AnswerUnit)}>
            {WINDOW_UNITS.map((u) => (
              <option key={u} value={u}>
                {unitLabel(u)}
              </option>
            ))}
          </select>
        </label>
      </fieldset>
      <p className="muted practice-rule">
        A number alone is read in {p.unit}; or add the unit ({exampleText(p.mss)}). In segments, right when the engine’s
        value rounds to it (or within {FRACTION_TOLERANCE}); in bytes, when it equals it. No ssthresh yet: type inf.
      </p>
      {bad && (
        <p className="why-error" role="alert">
          {bad}
        </p>
      )}
      {p.error && (
        <p className="why-error" role="alert">
          {p.error}
        </p>
      )}
      <button type="submit" className="primary" disabled={p.status === 'checking'} aria-keyshortcuts="Enter">
        {p.status === 'checking' ? 'Reading the engine’s decision…' : 'Reveal (Enter)'}
      </button>
    </form>
  );
}

function Answer({ m }: { m: Marked }) {
  return (
    <ul className="practice-marks">
      <li>
        Event: <Mark right={m.right.event} /> — you said “{m.given.event}”; the engine: “{m.question.label}”
      </li>
      <li>
        cwnd: <Mark right={m.right.cwnd} /> — you said {m.given.cwnd}; the engine:{' '}
        <strong>{valueText(m.truth.cwnd, m.unit, m.mss)}</strong>
        {m.hints.cwnd && <span className="practice-hint"> {m.hints.cwnd}</span>}
      </li>
      <li>
        ssthresh: <Mark right={m.right.ssthresh} /> — you said {m.given.ssthresh}; the engine:{' '}
        <strong>{valueText(m.truth.ssthresh, m.unit, m.mss)}</strong>
        {m.hints.ssthresh && <span className="practice-hint"> {m.hints.ssthresh}</span>}
      </li>
    </ul>
  );
}

/** The reveal: the marks and the engine's explanation of the decision. */
function Reveal() {
  const practice = usePractice();
  const p = usePracticeState((s) => s);
  const nextRef = useRef<HTMLButtonElement>(null);
  const topRef = useRef<HTMLDivElement>(null);
  const m = p.answers[p.k];
  useEffect(() => {
    // The marks first in view (a phone scrolled down to the Reveal button), the focus on Next.
    nextRef.current?.focus({ preventScroll: true });
    topRef.current?.scrollIntoView({ block: 'start' });
  }, [p.k]);
  if (!m) return null;
  const [telling, ...others] = p.revealed;
  const last = p.k + 1 >= p.questions.length;
  return (
    <div className="practice-reveal" ref={topRef}>
      <div aria-live="polite" aria-atomic="true">
        <h3>
          Question {p.k + 1}: at t = {decisionTime(m.question.t)}
        </h3>
        <Answer m={m} />
      </div>
      <button type="button" className="primary" ref={nextRef} onClick={() => practice.next()} aria-keyshortcuts="n">
        {last ? 'See the summary (n)' : 'Next question (n)'}
      </button>
      <h4>The engine’s explanation</h4>
      {telling && <DecisionCard d={telling} heading="h4" />}
      {others.length > 0 && (
        <details className="practice-others">
          <summary>Also at this instant ({others.length})</summary>
          {others.map((d) => (
            <DecisionCard key={d.index} d={d} heading="h4" />
          ))}
        </details>
      )}
    </div>
  );
}

/** The summary at the end: each question, the answer, the engine's value, the rule. */
function Summary() {
  const practice = usePractice();
  const p = usePracticeState((s) => s);
  const headRef = useRef<HTMLHeadingElement>(null);
  useLayoutEffect(() => {
    headRef.current?.focus();
  }, []);
  if (p.questions.length === 0) {
    return <p>This run makes no such decision: nothing to ask. Try “Every decision”, or another run.</p>;
  }
  return (
    <div className="practice-summary">
      <h3 ref={headRef} tabIndex={-1}>
        Summary: event {p.score.event}/{p.score.asked}, cwnd {p.score.cwnd}/{p.score.asked}, ssthresh {p.score.ssthresh}
        /{p.score.asked}
      </h3>
      <div className="practice-table-wrap">
        <table>
          <caption className="visually-hidden">Each question, your answer and the engine’s</caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">t (s)</th>
              <th scope="col">Event: yours / the engine’s</th>
              <th scope="col">cwnd: yours / the engine’s</th>
              <th scope="col">ssthresh: yours / the engine’s</th>
              <th scope="col">Rule</th>
              <th scope="col">Replay</th>
            </tr>
          </thead>
          <tbody>
            {p.answers.map((m, i) => (
              <tr key={m.question.index}>
                <td>{i + 1}</td>
                <td>{decisionTime(m.question.t).replace(/ s$/, '')}</td>
                <td>
                  <Mark right={m.right.event} /> {m.given.event} / {m.question.label}
                </td>
                <td>
                  <Mark right={m.right.cwnd} /> {m.given.cwnd} / {valueText(m.truth.cwnd, m.unit, m.mss)}
                </td>
                <td>
                  <Mark right={m.right.ssthresh} /> {m.given.ssthresh} / {valueText(m.truth.ssthresh, m.unit, m.mss)}
                </td>
                <td>
                  <code>{m.rule}</code> {m.title}
                </td>
                <td>
                  <a href={practice.replayLink(m)}>Replay from {m.question.t.toFixed(3)} s</a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {p.answers.length < p.questions.length && (
        <p className="muted">
          {p.questions.length - p.answers.length} questions not answered (the practice ended before them).
        </p>
      )}
    </div>
  );
}

/** The practice panel, in the place of the inspector while a practice is on. */
export function PracticePanel() {
  const practice = usePractice();
  const status = usePracticeState((s) => s.status);
  const scope = usePracticeState((s) => s.scope);
  const key = usePracticeState((s) => s.key);
  const error = usePracticeState((s) => s.error);
  const keys = useAppState((s) => s.keys.join(','));
  const scenario = useAppState((s) => s.scenario);
  const mode = useAppState((s) => s.mode);
  const list = keys === '' ? [] : keys.split(',');
  usePracticeKeys(practice);
  const hiding = usePracticeHiding();
  useEffect(() => {
    // The rounds view has no time axis to stop at the cursor: it is hidden meanwhile.
    document.documentElement.classList.toggle('practising', hiding);
    return () => document.documentElement.classList.remove('practising');
  }, [hiding]);
  if (status === 'off') return null;
  return (
    <section className="panel practice-panel" aria-labelledby="practice-heading" data-status={status}>
      <div className="practice-head">
        <h2 id="practice-heading">Practice: predict, then reveal</h2>
        <button type="button" onClick={() => practice.stop()}>
          End practice
        </button>
      </div>
      <details className="practice-options">
        <summary>
          Predicting for {key ? runLabel(scenario, key) : '—'} · {SCOPES.find((o) => o.id === scope)?.label} (change)
        </summary>
        {list.length > 1 && (
          <fieldset>
            <legend>{mode === 'compete' ? 'Predict for the flow' : 'Predict for'}</legend>
            {list.map((k) => (
              <label key={k}>
                <input type="radio" name="practice-run" checked={key === k} onChange={() => practice.start(scope, k)} />
                {runLabel(scenario, k)}
              </label>
            ))}
          </fieldset>
        )}
        <fieldset>
          <legend>Ask about</legend>
          {SCOPES.map((o) => (
            <label key={o.id}>
              <input
                type="radio"
                name="practice-panel-scope"
                checked={scope === o.id}
                onChange={() => practice.start(o.id, key)}
              />
              {o.label}
            </label>
          ))}
        </fieldset>
      </details>
      {status !== 'loading' && <ScoreLine />}
      {status === 'loading' && <p className="muted">{error || 'Reading the run’s decisions…'}</p>}
      {(status === 'asking' || status === 'checking') && <Question />}
      {status === 'revealed' && <Reveal />}
      {status === 'done' && <Summary />}
    </section>
  );
}

/** The practice's keys: 1–9 choose the event, c and s go to the fields, Enter reveals, n
 *  moves on. Keys typed into a field are the field's (Enter there submits the form). */
function usePracticeKeys(practice: Practice) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
      const p = practice.get();
      if (p.status === 'off') return;
      const el = e.target as HTMLElement | null;
      const tag = el?.tagName ?? '';
      const inField =
        (tag === 'INPUT' && (el as HTMLInputElement).type !== 'radio') ||
        tag === 'TEXTAREA' ||
        tag === 'SELECT' ||
        el?.isContentEditable;
      if (inField) return;
      const form = document.querySelector<HTMLFormElement>('[data-practice-form]');
      if (p.status === 'asking' && /^[1-9]$/.test(e.key)) {
        const radio = form?.querySelector<HTMLInputElement>(`input[data-choice="${e.key}"]`);
        if (radio) {
          radio.focus();
          radio.click();
          e.preventDefault();
        }
        return;
      }
      if (p.status === 'asking' && (e.key === 'c' || e.key === 's')) {
        form?.querySelector<HTMLInputElement>(`input[name="practice-${e.key === 'c' ? 'cwnd' : 'ssthresh'}"]`)?.focus();
        e.preventDefault();
        return;
      }
      if (p.status === 'asking' && e.key === 'Enter' && tag !== 'BUTTON' && tag !== 'A' && tag !== 'SUMMARY') {
        form?.requestSubmit();
        e.preventDefault();
        return;
      }
      if (p.status === 'revealed' && e.key === 'n') {
        practice.next();
        e.preventDefault();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [practice]);
}
