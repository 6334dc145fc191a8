// Predict-then-reveal practice in the link: `practice=predict` (congestion events and phase
// changes) or `practice=predict-every` (every instant with a decision), optionally with the
// run the student predicts for, `practice=predict:newreno` (docs/scenario-url.md).

/** Which decisions a practice asks about: congestion events and phase changes (the
 *  default), or every instant with a decision. */
export type PracticeScope = 'events' | 'every';

/** Practice as a link carries it: which decisions, and the run (an algorithm compared or
 *  `flow<i>`; null: the first run). */
export interface PracticeLink {
  scope: PracticeScope;
  run: string | null;
}

const WORDS: Record<PracticeScope, string> = { events: 'predict', every: 'predict-every' };

/** The link's value of `practice`. */
export function practiceText(p: PracticeLink): string {
  return p.run === null ? WORDS[p.scope] : `${WORDS[p.scope]}:${p.run}`;
}

/** Reads `practice=`; `runs` are the page's runs. Returns the practice or a message saying
 *  what is allowed. */
export function readPractice(text: string, runs: readonly string[]): PracticeLink | { error: string } {
  const m = /^(predict|predict-every)(?::([a-z0-9_]+))?$/.exec(text);
  const allowed =
    `allowed: predict (congestion events and phase changes) or predict-every (every decision), ` +
    `optionally :run, the run one of ${runs.join(', ')}`;
  if (!m) return { error: `practice=${text} is not a practice (${allowed}); no practice.` };
  const run = m[2] ?? null;
  if (run !== null && !runs.includes(run)) {
    return { error: `practice=${text}: ${run} is not a run of this page (${allowed}); no practice.` };
  }
  return { scope: m[1] === 'predict' ? 'events' : 'every', run };
}
