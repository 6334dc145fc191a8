// The first divergence of two compared runs: the instant they first decide differently, each
// run's decision there side by side (the engine's `first_divergence`), marked on the plots.
import { useApp, useAppState } from '../app/AppContext';
import { runLabel } from '../scenario/competition';
import { DecisionCard } from './Inspector';

export function DivergencePanel() {
  const { controller, store } = useApp();
  const d = useAppState((s) => s.divergence);
  const keysText = useAppState((s) => (s.mode === 'compare' ? s.keys.join(',') : ''));
  const scenario = useAppState((s) => s.scenario);
  const keys = keysText === '' ? [] : keysText.split(',');
  if (keys.length < 2 || !d) return null;
  const [a, b] = d.pair;
  const choose = (which: 0 | 1, key: string) => {
    const pair: [string, string] = which === 0 ? [key, b] : [a, key];
    if (pair[0] !== pair[1]) controller.explainer.divergence(pair);
  };
  const result = d.result;
  return (
    <section className="divergence" aria-labelledby="divergence-heading">
      <h3 id="divergence-heading">First divergence</h3>
      <div className="divergence-pair">
        {([0, 1] as const).map((w) => (
          <label key={w}>
            <span className="visually-hidden">{w === 0 ? 'First run' : 'Second run'}</span>
            <select value={d.pair[w]} onChange={(e) => choose(w, e.target.value)}>
              {keys.map((k) => (
                <option key={k} value={k} disabled={k === d.pair[w === 0 ? 1 : 0]}>
                  {runLabel(scenario, k)}
                </option>
              ))}
            </select>
          </label>
        ))}
      </div>
      <div aria-live="polite">
        {d.status === 'computing' ? (
          <p className="muted">Running both, explained…</p>
        ) : d.status === 'error' ? (
          <p className="why-error">{d.error}</p>
        ) : !result ? (
          <p>
            {runLabel(scenario, a)} and {runLabel(scenario, b)} make the same decisions all run long.
          </p>
        ) : (
          <>
            <p>
              They agree on the first {result.common} decisions, then differ at{' '}
              <strong>t = {result.t.toFixed(6)} s</strong>.{' '}
              <button
                type="button"
                className="link"
                onClick={() => {
                  store.getState().setExplaining(true);
                  store.getState().setCursor(result.t);
                }}
              >
                Move the cursor there
              </button>
            </p>
            <div className="divergence-sides">
              {(
                [
                  [a, result.a],
                  [b, result.b],
                ] as const
              ).map(([k, list]) => (
                <div key={k} className="divergence-side" data-run={k}>
                  <h4>{runLabel(scenario, k)}</h4>
                  {list[0] ? (
                    <DecisionCard d={list[0]} heading="h4" />
                  ) : (
                    <p className="muted">no decision at this instant</p>
                  )}
                  {list.length > 1 && (
                    <p className="muted">
                      and {list.length - 1} more at this instant:{' '}
                      {list
                        .slice(1)
                        .map((x) => x.title)
                        .join('; ')}
                    </p>
                  )}
                </div>
              ))}
            </div>
          </>
        )}
      </div>
    </section>
  );
}
