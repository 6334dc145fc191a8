// One generated control for one engine parameter: label, unit, range and help all come
// from the engine's schema. Numeric parameters get a slider over round stops (log-spaced
// when the range spans decades) and a number box for exact values. SpecControl is the same
// control for any spec and value (the fields of a list item, such as a cross-traffic
// source, use it with a spec made from the schema's item field).
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { useApp, useAppState } from '../app/AppContext';
import type { ParamSpec } from '../engine/tables';
import type { JsonValue } from '../lib/json';
import { ladderFor, nearestStop } from '../lib/ladder';
import {
  allowedText,
  displayUnit,
  formatNumber,
  formatValue,
  fromDisplay,
  listText,
  parseDecimal,
  parseListText,
  requireSpec,
  toDisplay,
} from '../scenario/params';
import { effectiveValue, timelineCount } from '../state/selectors';

interface Props {
  /** Concrete path, e.g. network.bottleneck.bandwidth or flows[0].app.kind. */
  path: string;
  /** Slider + number box (default for numbers) or number box only. */
  variant?: 'slider' | 'number';
  disabled?: boolean;
  /** A visible note under the control (why it is disabled, what it is for). */
  note?: ReactNode;
  /** A derived value shown beside the control (e.g. the RTT this delay gives). */
  extra?: ReactNode;
  /** A flow setting (`flows[0].x`) that sets every flow at once (a competition). */
  allFlows?: boolean;
  /** Instead of setting the parameter alone: what a new value does (it sets the parameter
   *  too, with whatever goes with it). */
  onChange?: (v: JsonValue) => void;
}

/**
 * The text being typed into a box showing `shown`, and its error. When the value changes
 * elsewhere (the slider, a preset, a link) the box shows it in this same render and the error
 * goes; an effect would show the old text for a frame and render the page twice.
 */
function useDraft(shown: string) {
  const [draft, setDraft] = useState(shown);
  const [error, setError] = useState<string | null>(null);
  const [synced, setSynced] = useState(shown);
  if (synced !== shown) {
    setSynced(shown);
    setDraft(shown);
    setError(null);
  }
  return { draft, setDraft, error, setError };
}

export function NumberBox({
  spec,
  value,
  id,
  disabled,
  describedBy,
  ariaLabel,
  onCommit,
}: {
  spec: ParamSpec;
  value: number;
  id: string;
  disabled: boolean;
  describedBy: string;
  ariaLabel?: string;
  onCommit: (v: number) => void;
}) {
  const shown = formatNumber(toDisplay(spec, value), 10);
  const { draft, setDraft, error, setError } = useDraft(shown);
  const commit = () => {
    if (draft === shown) return;
    const n = parseDecimal(draft.trim());
    if (n === null) {
      setError(`not a number; ${allowedText(spec)}`);
      return;
    }
    const v = fromDisplay(spec, n);
    if ((spec.min !== undefined && v < spec.min) || (spec.max !== undefined && v > spec.max)) {
      setError(`out of range; ${allowedText(spec)}`);
      return;
    }
    setError(null);
    onCommit(v);
  };
  return (
    <>
      <input
        id={id}
        className="num"
        type="text"
        inputMode="decimal"
        value={draft}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        aria-label={ariaLabel}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
          if (e.key === 'Escape') setDraft(shown);
        }}
      />
      {error && (
        <span className="field-error" role="alert">
          {spec.label}: {error}
        </span>
      )}
    </>
  );
}

/** A labelled control for one parameter. */
export function ParamControl({
  path,
  variant = 'slider',
  disabled = false,
  note,
  extra,
  allFlows = false,
  onChange,
}: Props) {
  const { controller } = useApp();
  const spec = useMemo(() => requireSpec(path), [path]);
  const value = useAppState((s) => effectiveValue(s, path));
  const changes = useAppState((s) => timelineCount(s, path));
  return (
    <SpecControl
      spec={spec}
      value={value}
      onChange={
        onChange ?? ((v) => (allFlows ? controller.setParamAllFlows(spec.path, v) : controller.setParam(path, v)))
      }
      onLookAhead={(values) => controller.lookAhead(values && { path: allFlows ? spec.path : path, allFlows, values })}
      dataPath={path}
      variant={variant}
      disabled={disabled}
      note={note}
      extra={extra}
      changes={changes}
    />
  );
}

interface SpecProps extends Omit<Props, 'path'> {
  spec: ParamSpec;
  value: JsonValue | undefined;
  onChange: (v: JsonValue) => void;
  /** Written as data-path (what the control edits). */
  dataPath: string;
  /** Timeline changes of this setting (a badge says how many). */
  changes?: number;
  /** While the slider has the keyboard focus (focused from the keyboard, or a key pressed
   *  on it), the values its next arrow key gives (the neighbouring stops; null once it
   *  loses the focus), to be computed ahead. */
  onLookAhead?: (values: number[] | null) => void;
}

/** Whether an element's focus came from the keyboard (`:focus-visible`; true where the
 *  browser cannot tell). */
function keyboardFocus(el: Element): boolean {
  try {
    return el.matches(':focus-visible');
  } catch {
    return true;
  }
}

/** A labelled control for any spec and value. */
export function SpecControl({
  spec,
  value,
  onChange,
  dataPath,
  variant = 'slider',
  disabled = false,
  note,
  extra,
  changes = 0,
  onLookAhead,
}: SpecProps) {
  const id = useId();
  // Focused from the keyboard (or used with it): then its arrow keys are likely next, and
  // their values are computed ahead. A pointer or a finger that focused it drags to values
  // nobody can foresee, so nothing is computed for them.
  const [focused, setFocused] = useState(false);
  const helpId = `${id}-help`;
  const unit = displayUnit(spec);
  const set = onChange;
  const stops = useMemo(() => (spec.type === 'int' || spec.type === 'float' ? ladderFor(spec) : []), [spec]);
  const numeric = typeof value === 'number' ? value : Number(spec.default);
  const at = stops.length > 0 ? nearestStop(stops, numeric) : -1;
  const lookingAhead = focused && !disabled && variant === 'slider' && at >= 0 && onLookAhead !== undefined;
  // The neighbouring stops of the value shown, again after every step (what ArrowRight and
  // ArrowLeft choose next), the one in the direction of the last step first (it is computed
  // first: a key held down keeps going that way); nothing once the focus leaves.
  const lastAt = useRef<number | null>(null);
  useEffect(() => {
    const down = lastAt.current !== null && at < lastAt.current;
    lastAt.current = at;
    if (!lookingAhead) return;
    const next = [stops[at + 1], stops[at - 1]];
    onLookAhead?.((down ? next.reverse() : next).filter((x): x is number => x !== undefined));
    // onLookAhead is a new function every render; what it asks depends only on these.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [lookingAhead, at, stops]);
  useEffect(() => {
    if (!lookingAhead) return;
    return () => onLookAhead?.(null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [lookingAhead]);

  let input: ReactNode;
  switch (spec.type) {
    case 'int':
    case 'float': {
      const v = typeof value === 'number' ? value : Number(spec.default);
      const box = (
        <NumberBox
          spec={spec}
          value={v}
          id={variant === 'number' ? id : `${id}-num`}
          disabled={disabled}
          describedBy={helpId}
          ariaLabel={variant === 'number' ? undefined : `${spec.label}${unit ? ` in ${unit}` : ''}, exact value`}
          onCommit={set}
        />
      );
      input =
        variant === 'number' ? (
          <div className="control-row">
            {box}
            {unit && <span className="unit">{unit}</span>}
          </div>
        ) : (
          <div className="control-row">
            <input
              id={id}
              type="range"
              min={0}
              max={stops.length - 1}
              step={1}
              value={nearestStop(stops, v)}
              disabled={disabled}
              aria-valuetext={formatValue(spec, v)}
              aria-describedby={helpId}
              onFocus={(e) => setFocused(keyboardFocus(e.currentTarget))}
              onKeyDown={() => setFocused(true)}
              onBlur={() => setFocused(false)}
              onChange={(e) => {
                const next = stops[Number(e.target.value)];
                if (next !== undefined) set(next);
              }}
            />
            {box}
            {unit && <span className="unit">{unit}</span>}
          </div>
        );
      break;
    }
    case 'enum':
      input = (
        <select
          id={id}
          value={String(value)}
          disabled={disabled}
          aria-describedby={helpId}
          onChange={(e) => set(e.target.value)}
        >
          {(spec.options ?? []).map((o) => (
            <option key={o.value} value={o.value} title={o.help}>
              {o.label}
            </option>
          ))}
        </select>
      );
      break;
    case 'bool':
      input = (
        <input
          id={id}
          type="checkbox"
          checked={value === true}
          disabled={disabled}
          aria-describedby={helpId}
          onChange={(e) => set(e.target.checked)}
        />
      );
      break;
    case 'list':
      input = <ListBox spec={spec} value={value} id={id} helpId={helpId} disabled={disabled} onCommit={set} />;
      break;
  }

  const selected = spec.type === 'enum' ? spec.options?.find((o) => o.value === value)?.help : undefined;
  return (
    <div className={`control control-${spec.type}${disabled ? ' is-disabled' : ''}`} data-path={dataPath}>
      <label htmlFor={id} className="control-label">
        <span>{spec.label}</span>
        {changes > 0 && (
          <span className="badge" title="This setting changes during the run (see Timeline)">
            {changes} timed change{changes === 1 ? '' : 's'}
          </span>
        )}
      </label>
      {input}
      {extra && <div className="control-extra">{extra}</div>}
      {note && <div className="control-note">{note}</div>}
      <p id={helpId} className="control-help">
        {spec.help}
        {selected ? ` ${selected}` : ''}
      </p>
    </div>
  );
}

function ListBox({
  spec,
  value,
  id,
  helpId,
  disabled,
  onCommit,
}: {
  spec: ParamSpec;
  value: JsonValue | undefined;
  id: string;
  helpId: string;
  disabled: boolean;
  onCommit: (v: JsonValue) => void;
}) {
  const items = spec.items ?? [];
  const shown = listText(items, value);
  const { draft, setDraft, error, setError } = useDraft(shown);
  const commit = () => {
    if (draft === shown) return;
    const r = parseListText(items, draft);
    if (!r.ok) {
      setError(r.reason);
      return;
    }
    setError(null);
    onCommit(r.value);
  };
  return (
    <>
      <input
        id={id}
        type="text"
        value={draft}
        placeholder={items.map((i) => i.name).join(':') + ', …'}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={helpId}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => e.key === 'Enter' && commit()}
      />
      {error && (
        <span className="field-error" role="alert">
          {spec.label} {error}
        </span>
      )}
    </>
  );
}
