// The "Exercise sheet" control beside Export and print: a sheet number and how many
// questions; the engine makes the sheet in a worker (sheetClient.ts) from the view's run and
// the link's `sheet=N`, the page shows it (questions, answer key) and prints it (the print
// sections below: the questions before the plots, the answer key on a page of its own).
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useStore } from 'zustand';
import { useApp, useAppState } from '../app/AppContext';
import { useTakeOver } from '../app/Deferred';
import { shareQuery, shareStateOf } from '../state/urlSync';
import { algorithmLabel } from '../scenario/algorithms';
import { presetFocus } from '../scenario/presets';
import type { AppState } from '../state/types';
import { DEFAULT_SHEET_QUESTIONS, MAX_SHEET_QUESTIONS } from './link';
import { asksAboutRounds, sheetInput, sheetReference } from './sheet';
import { pageSheets } from './sheetClient';
import { CONVENTIONS, readConvention } from '../textbook/link';
import { sheetResult } from './sheetResult';
import { SheetAnswers, SheetQuestions } from './SheetView';
// Its styles (sheet.css) are imported by main.tsx with the page's.

/** Notices about sheets use this key. */
export const SHEET_NOTICE = 'sheet';

/** The run a sheet asks about, in words: the run the preset's lesson is about, else the
 *  first (sheet.ts `sheetInput`). */
function askedAbout(s: Pick<AppState, 'mode' | 'algorithms' | 'preset' | 'lesson'>): string {
  if (s.mode === 'compete') return 'competition';
  const key = presetFocus(s.preset ?? s.lesson, s.algorithms) ?? s.algorithms[0];
  return key === undefined ? 'first run' : `${algorithmLabel(key)} run`;
}

/** Wait after a change of the view before asking for a new sheet, ms. */
const SETTLE_MS = 250;

/** Makes the sheet the link names whenever it or the view's runs change. */
function useSheetMaker() {
  const { store } = useApp();
  const link = useAppState((s) => s.sheet);
  // The view's parts the sheet depends on, selected as they are (a selector runs on every
  // store update: building the runs' scenarios there cost ~3 ms per slider step), and the
  // sheet's input built only when a sheet is asked for.
  const view = useAppState(
    useShallow((s) => ({
      scenario: s.scenario,
      mode: s.mode,
      algorithms: s.algorithms,
      presetName: s.presetName,
      lesson: s.lesson,
      preset: s.preset,
      unit: s.unit,
    })),
  );
  const inputText = useMemo(() => (link ? JSON.stringify(sheetInput(view)) : ''), [link, view]);
  useEffect(() => {
    if (!link) {
      sheetResult.setState({ status: 'idle', sheet: null, message: '' });
      return;
    }
    let stale = false;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const ask = () => {
      timer = null;
      const client = pageSheets();
      if (!client) {
        // The engine is still loading.
        timer = setTimeout(ask, 200);
        return;
      }
      sheetResult.setState((r) => ({ ...r, status: 'making', message: 'Making the sheet…' }));
      client
        .request(JSON.parse(inputText) as ReturnType<typeof sheetInput>, link.number, link.count, link.textbook)
        .then(
          (sheet) => {
            if (stale || !sheet) return;
            sheetResult.setState({
              status: 'ready',
              sheet,
              message: `Sheet ${sheet.number}: ${sheet.questions.length} question${sheet.questions.length === 1 ? '' : 's'}.`,
            });
            // A sheet that failed before (e.g. its worker stopped) is no longer news.
            store.getState().dismissNoticesAbout(SHEET_NOTICE);
            if (asksAboutRounds(sheet)) store.getState().showPlot('rounds');
          },
          (e: unknown) => {
            if (stale) return;
            const reason = e instanceof Error ? e.message : String(e);
            sheetResult.setState({ status: 'failed', sheet: null, message: `No sheet: ${reason}` });
            store.getState().addNotices([{ key: SHEET_NOTICE, message: `Exercise sheet not made: ${reason}` }]);
            store.getState().setSheet(null);
          },
        );
    };
    timer = setTimeout(ask, SETTLE_MS);
    return () => {
      stale = true;
      if (timer !== null) clearTimeout(timer);
    };
  }, [link, inputText, store]);
}

/** Marks the page while a sheet is shown, so that printing prints the sheet. */
function useSheetPrintMode(on: boolean) {
  useEffect(() => {
    if (!on) return;
    document.documentElement.classList.add('sheet-open');
    return () => document.documentElement.classList.remove('sheet-open');
  }, [on]);
}

/** A whole number from an input's text, or null. */
function wholeNumber(text: string): number | null {
  const t = text.trim();
  return /^\d{1,9}$/.test(t) ? Number(t) : null;
}

/** The Exercise sheet control and the sheet on screen. */
export function SheetPanel() {
  const { store } = useApp();
  const id = useId();
  const link = useAppState((s) => s.sheet);
  const [early, setEarly] = useState(false);
  const root = useRef<HTMLElement>(null);
  useTakeOver('sheet', root, setEarly);
  const result = useStore(sheetResult);
  const [numberText, setNumberText] = useState(String(link?.number ?? 1));
  const [countText, setCountText] = useState(String(link?.count ?? DEFAULT_SHEET_QUESTIONS));
  const [modelText, setModelText] = useState<string>(link?.textbook ?? '');
  useSheetMaker();
  useSheetPrintMode(result.status === 'ready' && link !== null);
  useEffect(() => {
    if (!link) return;
    setNumberText(String(link.number));
    setCountText(String(link.count));
    setModelText(link.textbook ?? '');
  }, [link]);

  const make = () => {
    const number = wholeNumber(numberText);
    const count = wholeNumber(countText);
    const s = store.getState();
    if (number === null) {
      s.addNotices([
        { key: SHEET_NOTICE, message: `Exercise sheet: "${numberText}" is not a sheet number (a whole number).` },
      ]);
      return;
    }
    if (count === null) {
      s.addNotices([
        {
          key: SHEET_NOTICE,
          message: `Exercise sheet: "${countText}" is not a number of questions (a whole number from 1 to ${MAX_SHEET_QUESTIONS}).`,
        },
      ]);
      return;
    }
    // The count's range is the engine's to check: its refusal comes back as a notice.
    const model = modelText === '' ? null : readConvention('tbsheet', modelText);
    if (model !== null && typeof model === 'object') {
      s.addNotices([{ key: SHEET_NOTICE, message: `Exercise sheet: ${model.error}` }]);
      return;
    }
    s.setSheet(model === null ? { number, count } : { number, count, textbook: model });
  };
  const sheet = result.status === 'ready' && link ? result.sheet : null;
  return (
    <section ref={root} className="sheet-panel" aria-label="Exercise sheet">
      <details open={link !== null || early || undefined}>
        <summary>Exercise sheet</summary>
        <div className="export-row">
          <label htmlFor={`${id}-n`}>Sheet number</label>
          <input
            id={`${id}-n`}
            className="sheet-number"
            type="number"
            min={0}
            step={1}
            value={numberText}
            onChange={(e) => setNumberText(e.target.value)}
          />
          <label htmlFor={`${id}-c`}>Questions</label>
          <input
            id={`${id}-c`}
            className="sheet-count"
            type="number"
            min={1}
            max={MAX_SHEET_QUESTIONS}
            step={1}
            value={countText}
            onChange={(e) => setCountText(e.target.value)}
          />
        </div>
        <div className="export-row">
          <label htmlFor={`${id}-m`}>Model</label>
          <select
            id={`${id}-m`}
            className="sheet-model"
            value={modelText}
            onChange={(e) => setModelText(e.target.value)}
          >
            <option value="">Per-packet run</option>
            <optgroup label="Textbook round model">
              {CONVENTIONS.map((c) => (
                <option key={c.name} value={c.name}>
                  {c.label}
                </option>
              ))}
            </optgroup>
          </select>
        </div>
        <div className="export-row">
          <button type="button" onClick={make}>
            Make sheet
          </button>
          <button type="button" disabled={!sheet} onClick={() => window.print()}>
            Print sheet…
          </button>
          {link && (
            <button type="button" onClick={() => store.getState().setSheet(null)}>
              Close sheet
            </button>
          )}
        </div>
        <p className="export-note">
          Questions about flow 0 of the {askedAbout(store.getState())}, answered by the engine from the run, with the
          rule behind each answer; or, with a textbook model, the same losses in that convention&apos;s round model,
          each answer citing the convention&apos;s rule (as <code>cwndlab exercise --textbook</code>). The same number
          gives the same sheet (it is in the link). Printing while a sheet is shown prints the sheet: questions and
          plots, then the answer key on a page of its own.
        </p>
        <p className="sheet-status" role="status" aria-live="polite">
          {link ? result.message : ''}
        </p>
        {sheet && (
          <div className="sheet-screen">
            <SheetQuestions sheet={sheet} onTime={(t) => store.getState().setCursor(t)} />
            <details className="sheet-key">
              <summary>Answer key</summary>
              <SheetAnswers sheet={sheet} />
            </details>
          </div>
        )}
      </details>
    </section>
  );
}

/** The sheet's questions, printed before the plots (print only, while a sheet is shown). */
export function SheetPrintQuestions() {
  const result = useStore(sheetResult);
  const link = useAppState((s) => s.sheet);
  const share = useAppState(useShallow(shareStateOf));
  const presetName = useAppState((s) => s.presetName);
  if (result.status !== 'ready' || !result.sheet || !link) return null;
  // Paper: the link when short, else a short form (a preset's link runs to 700 characters).
  const site = `${window.location.origin}${window.location.pathname}`;
  const reference = sheetReference(site, shareQuery(share), presetName, link);
  return (
    <section className="print-only sheet-print sheet-print-questions" aria-label="Exercise sheet (print)">
      <SheetQuestions sheet={result.sheet} link={reference} />
    </section>
  );
}

/** The answer key, printed on a page of its own after the plots (print only). */
export function SheetPrintAnswers() {
  const result = useStore(sheetResult);
  const link = useAppState((s) => s.sheet);
  if (result.status !== 'ready' || !result.sheet || !link) return null;
  return (
    <section className="print-only sheet-print sheet-print-answers" aria-label="Answer key (print)">
      <SheetAnswers sheet={result.sheet} />
    </section>
  );
}
