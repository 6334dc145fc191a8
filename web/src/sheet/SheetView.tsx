// An exercise sheet as the page shows and prints it: the title, the scenario line, the round
// definition when a question is about rounds, the numbered questions with room to answer;
// and the answer key, each answer with the rules behind it (title, source). Every string is
// the engine's. A question with a time moves the page's cursor there when clicked.
import { formatNumber } from '../scenario/params';
import { asksAboutRounds, type Sheet } from './sheet';

/** The questions (with `onTime`, those with a time can move the cursor). */
export function SheetQuestions({
  sheet,
  onTime,
  link,
}: {
  sheet: Sheet;
  onTime?: (t: number) => void;
  /** How to make the sheet again, printed under the title (a short form, not the link). */
  link?: string;
}) {
  return (
    <div className="sheet-questions">
      <h2 className="sheet-title">
        Exercise sheet {sheet.number}: {sheet.title}
      </h2>
      <p className="sheet-scenario">{sheet.scenario}</p>
      {link && <p className="sheet-link">{link}</p>}
      {asksAboutRounds(sheet) && (
        <p className="sheet-definition">
          <b>Rounds.</b> {sheet.definition}
        </p>
      )}
      <ol className="sheet-list">
        {sheet.questions.map((q) => (
          <li key={q.number} value={q.number} className="sheet-question" data-kind={q.kind}>
            <p>{q.text}</p>
            {onTime && q.at_s !== null && (
              <button type="button" className="sheet-at" onClick={() => onTime(q.at_s ?? 0)}>
                Show at {q.at_text ?? `${formatNumber(q.at_s, 6)} s`}
              </button>
            )}
            <div className="sheet-space" aria-hidden="true" />
          </li>
        ))}
      </ol>
    </div>
  );
}

/** The answer key. */
export function SheetAnswers({ sheet }: { sheet: Sheet }) {
  return (
    <div className="sheet-answers">
      <h2>Answer key — sheet {sheet.number}</h2>
      <ol className="sheet-list">
        {sheet.questions.map((q) => (
          <li key={q.number} value={q.number}>
            <p className="sheet-answer">{q.answer}</p>
            <ul className="sheet-rules">
              {q.rules.map((r) => (
                <li key={r.id}>
                  {r.title} ({r.source}): <code>{r.formula}</code>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
    </div>
  );
}
