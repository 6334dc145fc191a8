// A term on screen with its glossary definition (the engine's GLOSSARY), shown on hover and
// on keyboard focus, and read by screen readers as the term's description.
import { useId, type ReactNode } from 'react';
import { GLOSSARY, termOf } from './vocabulary';

/** `children` (default: the term's label) with the definition of `term` (a glossary id) or
 *  of the term `name` stands for; plain text when the glossary has neither. */
export function Term({ term, name, children }: { term?: string; name?: string; children?: ReactNode }) {
  const id = useId();
  const key = term ?? (name !== undefined ? termOf(name) : null);
  const entry = key ? GLOSSARY.get(key) : undefined;
  const shown = children ?? name ?? entry?.label ?? term;
  if (!entry) return <>{shown}</>;
  return (
    <span className="term" tabIndex={0} aria-describedby={id} data-term={entry.term}>
      {shown}
      <span role="tooltip" id={id} className="term-tip">
        <strong>{entry.label}</strong>: {entry.definition}
      </span>
    </span>
  );
}
