// The rounds view's "Textbook model" choice (off, or a convention from the engine's list)
// and, when on, the engine's sentence saying where the model and the per-packet run part.
// The model is made in a worker from the focused run (`textbook_beside_json`); the rounds
// panel draws it as a dashed line (RoundsController).
import { useEffect, useId, useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useStore } from 'zustand';
import { useApp, useAppState } from '../app/AppContext';
import { runLabel } from '../scenario/competition';
import { CONVENTIONS, conventionOf, readConvention, textbookLabel } from './link';
import { textbookInput } from './input';
import { pageTextbook } from './textbookClient';
import { textbookResult } from './textbookResult';

/** Notices about the textbook model use this key. */
export const TEXTBOOK_NOTICE = 'tb';

/** Wait after a change of the view before asking, ms. */
const SETTLE_MS = 250;

/** Makes the model whenever the convention or the focused run changes. */
function useTextbookMaker() {
  const { store } = useApp();
  const convention = useAppState((s) => s.textbook);
  const view = useAppState(
    useShallow((s) => ({
      scenario: s.scenario,
      mode: s.mode,
      algorithms: s.algorithms,
      lesson: s.lesson,
      preset: s.preset,
    })),
  );
  const input = useMemo(() => (convention ? textbookInput(view) : null), [convention, view]);
  const runKey = input?.runKey ?? null;
  const scenarioJson = input?.scenarioJson ?? '';
  useEffect(() => {
    if (!convention || runKey === null) {
      textbookResult.setState({
        status: 'idle',
        runKey: null,
        model: null,
        message: convention ? 'The textbook model is made of one run; a competition has none.' : '',
      });
      return;
    }
    let stale = false;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const ask = () => {
      timer = null;
      const client = pageTextbook();
      if (!client) {
        timer = setTimeout(ask, 200);
        return;
      }
      textbookResult.setState((r) => ({ ...r, status: 'making', message: 'Making the textbook model…' }));
      client.request(scenarioJson, convention).then(
        (model) => {
          if (stale || !model) return;
          textbookResult.setState({ status: 'ready', runKey, model, message: model.model });
          store.getState().dismissNoticesAbout(TEXTBOOK_NOTICE);
        },
        (e: unknown) => {
          if (stale) return;
          const reason = e instanceof Error ? e.message : String(e);
          textbookResult.setState({
            status: 'failed',
            runKey: null,
            model: null,
            message: `No textbook model: ${reason}`,
          });
          store.getState().addNotices([{ key: TEXTBOOK_NOTICE, message: `Textbook model not made: ${reason}` }]);
        },
      );
    };
    timer = setTimeout(ask, SETTLE_MS);
    return () => {
      stale = true;
      if (timer !== null) clearTimeout(timer);
    };
  }, [convention, runKey, scenarioJson, store]);
}

/** The choice, the model's description and the sentence where the two part. */
export function TextbookControl() {
  const { store } = useApp();
  const id = useId();
  const convention = useAppState((s) => s.textbook);
  const bytes = useAppState((s) => s.unit === 'bytes');
  const result = useStore(textbookResult);
  const runName = useAppState((s) => (result.runKey ? runLabel(s.scenario, result.runKey) : ''));
  useTextbookMaker();
  const ready = convention !== null && result.status === 'ready' && result.model?.convention === convention;
  const d = ready ? result.model?.divergence : null;
  const later = ready ? (result.model?.partings.slice(1) ?? []) : [];
  return (
    <div className="textbook-control">
      <div className="export-row">
        <label htmlFor={`${id}-tb`}>Textbook model</label>
        <select
          id={`${id}-tb`}
          className="textbook-convention"
          value={convention ?? ''}
          onChange={(e) => {
            const v = e.target.value;
            const read = v === '' ? null : readConvention('tb', v);
            store.getState().setTextbook(read === null || typeof read === 'object' ? null : read);
          }}
        >
          <option value="">Off</option>
          {CONVENTIONS.map((c) => (
            <option key={c.name} value={c.name}>
              {c.label}
            </option>
          ))}
        </select>
      </div>
      {convention !== null && (
        <div className="textbook-notes" role="status" aria-live="polite">
          {ready ? (
            <>
              <p className="plot-note textbook-legend">
                <span className="textbook-swatch" aria-hidden="true" /> <b>{textbookLabel(convention)}</b>, dashed: the
                textbook&apos;s round model of the {runName} run&apos;s losses, apart from the per-packet engine.{' '}
                {conventionOf(convention)?.description}
                {bytes &&
                  ' The model counts whole segments, as the conventions do: drawn here in bytes of the run’s segments, compared below in segments.'}
              </p>
              <p className="plot-note textbook-divergence">
                {d ? d.why : 'The model and the per-packet run agree in every round, in whole segments.'}
              </p>
              {later.length > 0 && (
                <details className="plot-note textbook-partings">
                  <summary>Where they part again ({later.length})</summary>
                  <ul>
                    {later.map((p) => (
                      <li key={p.round}>{p.why}</li>
                    ))}
                  </ul>
                </details>
              )}
            </>
          ) : (
            <p className="plot-note">{result.message}</p>
          )}
        </div>
      )}
    </div>
  );
}
