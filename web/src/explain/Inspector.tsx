// The inspector: what the selected decision was and why, in the engine's words and numbers
// (rule, source, formula, inputs before, outputs after), the other decisions of the same
// instant, the previous and next decision of the same kind, and the step controls. Read by
// screen readers as it changes (aria-live).
import { useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { useNarrow } from '../app/layout';
import { useApp, useAppState } from '../app/AppContext';
import type { DecisionJson, DecisionValue } from '../engine/protocol';
import { runLabel } from '../scenario/competition';
import { durationOf, mssOfFlow } from '../scenario/paths';
import type { Scenario } from '../engine/tables';
import { tellingOfInstant, type Explainer, type StepTarget } from './explainer';
import { decisionText, decisionTime, valueText, windowChange } from './headline';
import type { WindowUnit } from '../lib/units';
import { ruleKinds, ruleOf } from './vocabulary';
import { Term } from './Term';
import { StateMachines } from './StateMachine';
import { DivergencePanel } from './Divergence';
import { LessonSteps } from './LessonSteps';
import { SackPanel } from './SackPanel';

/** The step buttons: label, key, what they step to. */
export const STEPS: { label: string; keys: [string, string]; target: StepTarget; what: string }[] = [
  { label: 'decision', keys: [',', '.'], target: { kind: 'any' }, what: 'Previous / next decision' },
  { label: 'loss', keys: ['L', 'l'], target: { kind: 'ruleKind', ruleKind: 'loss' }, what: 'Previous / next loss' },
  {
    label: 'timeout',
    keys: ['T', 't'],
    target: { kind: 'ruleKind', ruleKind: 'timeout' },
    what: 'Previous / next timeout',
  },
  {
    label: 'RTT sample',
    keys: ['R', 'r'],
    target: { kind: 'ruleKind', ruleKind: 'rtt' },
    what: 'Previous / next RTT sample',
  },
  { label: 'same kind', keys: ['K', 'k'], target: { kind: 'sameKind' }, what: 'Previous / next of the same kind' },
];

/** Steps and reports a failure where the person can read it (the keyboard does the same). */
export function stepAndSay(explainer: Explainer, setMessage: (m: string) => void, dir: 1 | -1, target: StepTarget) {
  const r = explainer.step(dir, target);
  setMessage(r.ok ? '' : r.message);
}

function Values({
  title,
  values,
  mss,
  unit,
}: {
  title: string;
  values: DecisionValue[];
  mss: number;
  unit: WindowUnit;
}) {
  if (values.length === 0) return null;
  return (
    <div className="why-values">
      <h4>{title}</h4>
      <dl>
        {values.map((v) => (
          <div key={v.name}>
            <dt>
              <Term name={v.name} />
            </dt>
            <dd>{valueText(v, mss, unit)}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** The segment size a decision's byte counts are shown in: its own SMSS input, else the
 *  flow's. */
function mssFor(d: Omit<DecisionJson, 'index'>, scenario: Scenario): number {
  const own = d.inputs.find((v) => v.name === 'SMSS')?.value;
  return typeof own === 'number' && own > 0 ? own : mssOfFlow(scenario, d.flow);
}

/** One decision, in full: what it did in the engine's words, its arithmetic (byte counts in
 *  the page's unit: segments with the bytes beside them, or bytes), its source; when and whose, and
 *  the rule's id last, for those who look it up. */
export function DecisionCard({
  d,
  heading = 'h3',
  who,
}: {
  d: Omit<DecisionJson, 'index'>;
  heading?: 'h3' | 'h4';
  /** The run's name ("Reno", "flow 1"); without it, the flow number. */
  who?: string;
}) {
  const H = heading;
  const scenario = useAppState((s) => s.scenario);
  const mss = mssFor(d, scenario);
  const unit = useAppState((s) => s.unit);
  // The sentence in the page's unit; the other unit's sentence on hover.
  const other = decisionText(d, unit === 'bytes' ? 'segments' : 'bytes');
  const text = decisionText(d, unit);
  return (
    <article className="decision" data-rule={d.rule}>
      <H className="decision-title">{d.title}</H>
      <p className="decision-text" title={other === text ? undefined : other}>
        {text}
      </p>
      <p className="decision-formula">
        <span className="visually-hidden">Formula: </span>
        <code>{d.formula}</code>
      </p>
      <div className="why-io">
        <Values title="Inputs (before)" values={d.inputs} mss={mss} unit={unit} />
        <Values title="Outputs (after)" values={d.outputs} mss={mss} unit={unit} />
      </div>
      <p className="decision-source">Source: {d.source}</p>
      <p className="decision-meta">
        <span title={`t = ${d.t} s`}>t = {decisionTime(d.t)}</span> · {who ?? `flow ${d.flow}`} · rule{' '}
        <code>{d.rule}</code>
      </p>
    </article>
  );
}

/** What the card leads with at the selected decision's instant: the change of cwnd there and
 *  the decision that caused it, when the instant changed cwnd; else nothing (the decision's
 *  own title leads). */
function Headline({ explainer, keyName, index }: { explainer: Explainer; keyName: string; index: number }) {
  const scenario = useAppState((s) => s.scenario);
  const unit = useAppState((s) => s.unit);
  const idx = explainer.index(keyName);
  const row = idx ? idx.rowOf(index) : -1;
  if (!idx || row < 0) return null;
  const [a, b] = idx.instantOf(row);
  const instant = [];
  for (let r = a; r <= b; r += 1) {
    const d = explainer.detail(keyName, idx.get('index', r));
    if (!d) return null;
    instant.push(d);
  }
  const cause = explainer.detail(keyName, idx.get('index', tellingOfInstant(idx, row)));
  const first = instant[0];
  if (!cause || !first) return null;
  const change = windowChange(instant, mssFor(first, scenario), unit);
  if (!change) return null;
  return (
    <header className="why-headline" data-rule={cause.rule}>
      <p className="why-change">
        <strong>{change.text}</strong>: {cause.title}
      </p>
      <p className="why-cause">
        {cause.source} · t = {decisionTime(cause.t)} · {runLabel(scenario, keyName)}
      </p>
    </header>
  );
}

function useDecisions(explainer: Explainer) {
  useAppState((s) => s.decisionsVersion);
  const selected = useAppState((s) => s.selected);
  const key = useAppState((s) => explainer.focusKey(s));
  const idx = key ? explainer.index(key) : null;
  return { selected, key, idx };
}

/** Neighbours of the selected decision: same instant, same kind before and after. */
function Around({ explainer, keyName, index }: { explainer: Explainer; keyName: string; index: number }) {
  const idx = explainer.index(keyName);
  if (!idx) return null;
  const row = idx.rowOf(index);
  if (row < 0) return null;
  const [a, b] = idx.instantOf(row);
  const same = [];
  for (let r = a; r <= b; r += 1) if (r !== row) same.push(r);
  const kind = ruleOf(idx, row)?.kind;
  const prev = idx.find(row, -1, (r) => ruleOf(idx, r)?.kind === kind);
  const next = idx.find(row, 1, (r) => ruleOf(idx, r)?.kind === kind);
  const go = (r: number) => explainer.goTo({ key: keyName, index: idx.get('index', r) });
  const label = (r: number) => `${ruleOf(idx, r)?.title ?? 'decision'} at ${decisionTime(idx.t(r))}`;
  return (
    <nav className="why-around" aria-label="Related decisions">
      {same.length > 0 && (
        <div>
          <h4>Also at this instant</h4>
          <ul>
            {same.map((r) => (
              <li key={r}>
                <button type="button" className="link" onClick={() => go(r)}>
                  {ruleOf(idx, r)?.title ?? 'decision'}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="why-same-kind">
        <h4>Same kind ({kind ?? '—'})</h4>
        <p>
          {prev >= 0 ? (
            <button type="button" className="link" onClick={() => go(prev)}>
              ← {label(prev)}
            </button>
          ) : (
            <span className="muted">no earlier one</span>
          )}
        </p>
        <p>
          {next >= 0 ? (
            <button type="button" className="link" onClick={() => go(next)}>
              {label(next)} →
            </button>
          ) : (
            <span className="muted">no later one</span>
          )}
        </p>
      </div>
    </nav>
  );
}

/** The step controls: previous and next decision, loss, timeout, RTT sample; jump to a time. */
export function StepControls() {
  const { controller, store } = useApp();
  const msg = useAppState((s) => s.stepMessage);
  const step = (dir: 1 | -1, target: StepTarget) =>
    stepAndSay(controller.explainer, store.getState().setStepMessage, dir, target);
  const duration = useAppState((s) => durationOf(s.scenario));
  const [time, setTime] = useState('');
  const [bad, setBad] = useState('');
  const jump = (e: FormEvent) => {
    e.preventDefault();
    const t = Number(time.trim());
    if (time.trim() === '' || !Number.isFinite(t) || t < 0 || t > duration) {
      setBad(`Go to: “${time}” is not a time within the run (0 to ${duration} s).`);
      return;
    }
    setBad('');
    controller.explainer.jumpTo(t);
  };
  return (
    <div className="why-steps" role="group" aria-label="Step through the decisions">
      <div className="why-step-grid">
        {STEPS.map((s) => (
          <div key={s.label} className="why-step" role="group" aria-label={s.what}>
            <button
              type="button"
              onClick={() => step(-1, s.target)}
              aria-label={`Previous ${s.label}`}
              aria-keyshortcuts={s.keys[0]}
            >
              ◀
            </button>
            <span className="why-step-label">{s.label}</span>
            <button
              type="button"
              onClick={() => step(1, s.target)}
              aria-label={`Next ${s.label}`}
              aria-keyshortcuts={s.keys[1]}
            >
              ▶
            </button>
          </div>
        ))}
      </div>
      <form className="why-jump" onSubmit={jump}>
        <label>
          Go to t =
          <input
            type="text"
            inputMode="decimal"
            value={time}
            onChange={(e) => setTime(e.target.value)}
            size={8}
            aria-invalid={bad !== ''}
            aria-describedby={bad ? 'why-jump-error' : undefined}
          />
          s
        </label>
        <button type="submit">Go</button>
        <button type="button" onClick={() => store.getState().setHelpOpen(true)} aria-keyshortcuts="?">
          Keys (?)
        </button>
      </form>
      {bad && (
        <p id="why-jump-error" className="why-error" role="alert">
          {bad}
        </p>
      )}
      <p className="why-message" role="status">
        {msg}
      </p>
    </div>
  );
}

/**
 * Phones: a click on a plot opens the Why card as a sheet at the bottom of the screen, and
 * the page scrolls, if it must, so that the point clicked stays in view above it (the card
 * in its place in the page would be far above the plot). Closing the sheet puts the card
 * back in its place. Wider screens never open it: the card has a column of its own there.
 */
function useSheet() {
  const narrow = useNarrow();
  const pick = useAppState((s) => s.pick);
  const [closedAt, setClosedAt] = useState<number | null>(null);
  const ref = useRef<HTMLElement>(null);
  const open = narrow && pick !== null && closedAt !== pick.n;
  const y = pick?.y;
  const n = pick?.n;
  useLayoutEffect(() => {
    const el = ref.current;
    if (!open || !el || y === undefined) return;
    const top = window.innerHeight - el.offsetHeight;
    // The clicked point within the upper part of what the sheet leaves, not under it.
    if (y > top - 24) window.scrollBy({ top: y - top / 2, behavior: 'instant' });
  }, [open, n, y]);
  // Wider screens: the panel scrolls inside its column; after a click, its card comes into
  // the panel's view if it was below it (the page itself does not move: the plot stays).
  const headline = useAppState((s) => (s.selected ? `${s.selected.key}:${s.selected.index}` : ''));
  const version = useAppState((s) => s.decisionsVersion);
  const shownFor = useRef<number | undefined>(undefined);
  useLayoutEffect(() => {
    const el = ref.current;
    // Once per click, when its card is there (its decision is fetched after the click).
    if (narrow || n === undefined || shownFor.current === n || !el) return;
    const card = el.querySelector('.why-current');
    if (!(card instanceof HTMLElement) || !card.querySelector('.decision')) return;
    shownFor.current = n;
    if (el.scrollHeight <= el.clientHeight) return;
    const r = card.getBoundingClientRect();
    const p = el.getBoundingClientRect();
    if (r.top < p.top || r.top + Math.min(r.height, 160) > p.bottom) el.scrollTop += r.top - p.top - 8;
  }, [narrow, n, headline, version]);
  return { open, ref, close: () => setClosedAt(pick?.n ?? null) };
}

/** The inspector panel. */
export function Inspector() {
  const { controller, store } = useApp();
  const explainer = controller.explainer;
  const explaining = useAppState((s) => s.explaining);
  const keys = useAppState((s) => s.keys.join(','));
  const scenario = useAppState((s) => s.scenario);
  const mode = useAppState((s) => s.mode);
  const { selected, key, idx } = useDecisions(explainer);
  const d = selected ? explainer.detail(selected.key, selected.index) : null;
  const list = keys === '' ? [] : keys.split(',');
  const sheet = useSheet();
  return (
    <section
      ref={sheet.ref}
      className="panel explain-panel"
      aria-labelledby="why-heading"
      data-explaining={explaining}
      data-sheet={sheet.open}
    >
      <div className="why-head">
        <h2 id="why-heading">Why? Step through the decisions</h2>
        {sheet.open && (
          <button type="button" className="why-close" onClick={sheet.close} aria-label="Close the Why card">
            ✕ Close
          </button>
        )}
      </div>
      {!explaining ? (
        <div className="why-intro">
          <p>
            Click or tap a plot, or step below, to see which rule the algorithm applied there, on the run’s own numbers,
            and its source.
          </p>
          <button type="button" className="primary" onClick={() => store.getState().setExplaining(true)}>
            Explain this run
          </button>
        </div>
      ) : (
        <div className="why-body">
          <div className="why-main">
            {list.length > 1 && (
              <div className="why-runs" role="radiogroup" aria-label={mode === 'compete' ? 'Flow' : 'Algorithm'}>
                {list.map((k) => (
                  <label key={k}>
                    <input
                      type="radio"
                      name="why-run"
                      checked={key === k}
                      onChange={() => store.getState().setFocus(k)}
                    />
                    {runLabel(scenario, k)}
                  </label>
                ))}
              </div>
            )}
            <StepControls />
            <LessonSteps />
            <div className="why-current" aria-live="polite" aria-atomic="true">
              {!idx ? (
                <p className="muted">Reading the run’s decisions…</p>
              ) : !selected || selected.key !== key ? (
                <p className="muted">
                  {idx.length === 0
                    ? 'This run made no decision yet.'
                    : 'No decision before the cursor: step forward, or click a plot.'}
                </p>
              ) : d ? (
                <>
                  <Headline explainer={explainer} keyName={selected.key} index={selected.index} />
                  <DecisionCard d={d} who={runLabel(scenario, selected.key)} />
                </>
              ) : (
                <p className="muted">Reading the decision…</p>
              )}
            </div>
            {selected && key === selected.key && (
              <Around explainer={explainer} keyName={selected.key} index={selected.index} />
            )}
            {idx && (
              <p className="muted why-count">
                {idx.length} decisions of {key ? runLabel(scenario, key) : ''} in this run ({ruleKinds().length} kinds
                of rule).
              </p>
            )}
          </div>
          <div className="why-side">
            <SackPanel keyName={key} />
            <StateMachines />
            <DivergencePanel />
          </div>
        </div>
      )}
    </section>
  );
}
