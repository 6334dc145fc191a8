// The inspector: what the selected decision was and why, in the engine's words and numbers
// (rule, source, formula, inputs before, outputs after), the other decisions of the same
// instant, the previous and next decision of the same kind, and the step controls. Read by
// screen readers as it changes (aria-live).
import { useState, type FormEvent } from 'react';
import { useApp, useAppState } from '../app/AppContext';
import type { DecisionJson, DecisionValue } from '../engine/protocol';
import { runLabel } from '../scenario/competition';
import { durationOf } from '../scenario/paths';
import type { Explainer, StepTarget } from './explainer';
import { ruleKinds, ruleOf } from './vocabulary';
import { Term } from './Term';
import { StateMachines } from './StateMachine';
import { DivergencePanel } from './Divergence';
import { LessonSteps } from './LessonSteps';

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

function Values({ title, values }: { title: string; values: DecisionValue[] }) {
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
            <dd>{v.text}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** One decision, in full. */
export function DecisionCard({ d, heading = 'h3' }: { d: Omit<DecisionJson, 'index'>; heading?: 'h3' | 'h4' }) {
  const H = heading;
  return (
    <article className="decision" data-rule={d.rule}>
      <H className="decision-title">{d.title}</H>
      <p className="decision-meta">
        t = {d.t.toFixed(6)} s · flow {d.flow} · <code>{d.rule}</code>
      </p>
      <p className="decision-text">{d.text}</p>
      <p className="decision-formula">
        <span className="visually-hidden">Formula: </span>
        <code>{d.formula}</code>
      </p>
      <div className="why-io">
        <Values title="Inputs (before)" values={d.inputs} />
        <Values title="Outputs (after)" values={d.outputs} />
      </div>
      <p className="decision-source">Source: {d.source}</p>
    </article>
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
  const label = (r: number) => `${ruleOf(idx, r)?.title ?? 'decision'} at ${idx.t(r).toFixed(6)} s`;
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
  return (
    <section className="panel explain-panel" aria-labelledby="why-heading" data-explaining={explaining}>
      <h2 id="why-heading">Why? Step through the decisions</h2>
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
                <DecisionCard d={d} />
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
            <StateMachines />
            <DivergencePanel />
          </div>
        </div>
      )}
    </section>
  );
}
