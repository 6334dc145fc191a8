// The engine's parameter table, indexed, with the checks and formatting every consumer
// shares: the URL codec, the generated controls and the notices all say the same thing.
import { tables, type ItemField, type ParamSpec } from '../engine/tables';
import type { JsonObject, JsonValue } from '../lib/json';
import { schemaPathOf } from './paths';

/** Every parameter, in the engine's order. */
export const PARAMS: readonly ParamSpec[] = tables.schema.params;

const BY_PATH = new Map(PARAMS.map((p) => [p.path, p]));

/** The spec of a schema or concrete path (`flows[0].x` finds `flows[].x`). */
export function specOf(path: string): ParamSpec | undefined {
  return BY_PATH.get(schemaPathOf(path));
}

/** The spec of a path that must exist (programming error otherwise). */
export function requireSpec(path: string): ParamSpec {
  const spec = specOf(path);
  if (!spec) throw new Error(`the engine has no parameter ${path}`);
  return spec;
}

/** Whether the setting at `path` acts when the setting its condition names has `value`
 *  (the engine's `applies_when`; a setting without a condition always acts). */
export function appliesWith(path: string, value: JsonValue | undefined): boolean {
  const c = specOf(path)?.applies_when;
  return !c || c.values.some((v) => v === value);
}

/** The settings whose condition names `path` (its own setting or one of its `also`). */
function conditionNames(p: ParamSpec, path: string): boolean {
  const c = p.applies_when;
  return c !== undefined && (c.path === path || (c.also ?? []).includes(path));
}

/** The settings that act only under `when` and do when it is `value` (schema paths, in the
 *  engine's order): e.g. an application kind's fields, a queue discipline's parameters. */
export function settingsUnder(when: string, value: JsonValue): string[] {
  return PARAMS.filter((p) => conditionNames(p, when) && p.applies_when?.values.includes(value)).map((p) => p.path);
}

/** The settings whose condition is on `when` (whatever its value). */
export function settingsDependingOn(when: string): string[] {
  return PARAMS.filter((p) => conditionNames(p, when)).map((p) => p.path);
}

/** A parsed or checked value, or the reason it was refused. */
export type Checked = { ok: true; value: JsonValue } | { ok: false; reason: string };

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Parses decimal text strictly (no hex, no blanks, no Infinity). */
export function parseDecimal(text: string): number | null {
  if (!DECIMAL.test(text)) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

function unitSuffix(unit: string): string {
  return unit === '' || unit === '1' ? '' : ` ${unit}`;
}

/** Trims float noise for display (6 significant digits). */
export function formatNumber(x: number, digits = 6): string {
  if (!Number.isFinite(x)) return x > 0 ? '∞' : x < 0 ? '−∞' : '—';
  return String(Number(x.toPrecision(digits)));
}

/** Base value → displayed value (e.g. bit/s → Mbit/s), exact for power-of-ten factors. */
export function toDisplay(spec: ParamSpec, v: number): number {
  const f = spec.display?.factor ?? 1;
  const x = f >= 1 ? v * f : v / Math.round(1 / f);
  return Number(x.toPrecision(15));
}

/** Displayed value → base value; the inverse of toDisplay without float drift. */
export function fromDisplay(spec: ParamSpec, x: number): number {
  const f = spec.display?.factor ?? 1;
  const v = f >= 1 ? x / f : x * Math.round(1 / f);
  return spec.type === 'int' ? Math.round(v) : Number(v.toPrecision(15));
}

/** The unit a control shows (the display unit when the engine gives one). */
export function displayUnit(spec: ParamSpec): string {
  return spec.display?.unit ?? spec.unit;
}

/** "2 Mbit/s", "20 packets", "1e-7 1/bit", "Bulk". */
export function formatValue(spec: ParamSpec, value: JsonValue | undefined): string {
  if (value === undefined) return '—';
  switch (spec.type) {
    case 'int':
    case 'float':
      return typeof value === 'number'
        ? `${formatNumber(toDisplay(spec, value))}${unitSuffix(displayUnit(spec))}`
        : String(value);
    case 'enum':
      return spec.options?.find((o) => o.value === value)?.label ?? String(value);
    case 'bool':
      return value === true ? 'on' : 'off';
    case 'list':
      return Array.isArray(value) ? `${value.length} item${value.length === 1 ? '' : 's'}` : '—';
  }
}

/** "allowed 1000 to 100000000000 bit/s (0.001 to 100000 Mbit/s)" or the enum choices. */
export function allowedText(spec: ParamSpec): string {
  switch (spec.type) {
    case 'int':
    case 'float': {
      const kind = spec.type === 'int' ? 'whole numbers ' : '';
      const base = `allowed ${kind}${spec.min} to ${spec.max}${unitSuffix(spec.unit)}`;
      if (!spec.display || spec.min === undefined || spec.max === undefined) return base;
      const lo = formatNumber(toDisplay(spec, spec.min));
      const hi = formatNumber(toDisplay(spec, spec.max));
      return `${base} (${lo} to ${hi} ${spec.display.unit})`;
    }
    case 'enum':
      return `allowed: ${(spec.options ?? []).map((o) => o.value).join(', ')}`;
    case 'bool':
      return 'allowed: true, false';
    case 'list':
      return `allowed: items ${(spec.items ?? []).map((i) => i.name).join(':')} separated by commas`;
  }
}

function checkNumber(
  n: number,
  type: 'int' | 'float',
  min: number | undefined,
  max: number | undefined,
): string | null {
  if (!Number.isFinite(n)) return 'is not a finite number';
  if (type === 'int' && !Number.isSafeInteger(n)) return 'is not a whole number';
  if ((min !== undefined && n < min) || (max !== undefined && n > max)) return 'is out of range';
  return null;
}

/** Checks a typed value against the parameter's type, range or choices. */
export function checkValue(spec: ParamSpec, value: JsonValue): Checked {
  switch (spec.type) {
    case 'int':
    case 'float': {
      if (typeof value !== 'number') return { ok: false, reason: 'is not a number' };
      const why = checkNumber(value, spec.type, spec.min, spec.max);
      return why ? { ok: false, reason: why } : { ok: true, value };
    }
    case 'enum':
      return typeof value === 'string' && spec.options?.some((o) => o.value === value)
        ? { ok: true, value }
        : { ok: false, reason: 'is not one of the choices' };
    case 'bool':
      return typeof value === 'boolean' ? { ok: true, value } : { ok: false, reason: 'is not true or false' };
    case 'list':
      return checkList(spec.items ?? [], value);
  }
}

/** Why an item field's value is refused, or null. */
function checkItemField(f: ItemField, v: JsonValue | undefined): string | null {
  switch (f.type) {
    case 'int':
    case 'float':
      return typeof v === 'number' ? checkNumber(v, f.type, f.min, f.max) : 'is missing';
    case 'enum':
      return typeof v === 'string' && (f.options ?? []).some((o) => o.value === v)
        ? null
        : `is not one of ${(f.options ?? []).map((o) => o.value).join(', ')}`;
    case 'bool':
      return typeof v === 'boolean' ? null : 'is not true or false';
    default:
      return null;
  }
}

function checkList(items: ItemField[], value: JsonValue): Checked {
  if (!Array.isArray(value)) return { ok: false, reason: 'is not a list' };
  for (const item of value) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      return { ok: false, reason: 'has an item that is not an object' };
    }
    for (const f of items) {
      const v = item[f.name];
      if (v === undefined && f.default !== undefined) continue;
      const why = checkItemField(f, v);
      if (why) return { ok: false, reason: `has an item whose ${f.name} ${why}` };
    }
  }
  return { ok: true, value };
}

/** The text of one item field (a list in a link or a list box) → its value, or null. */
function parseItemText(f: ItemField, text: string): JsonValue | null {
  switch (f.type) {
    case 'enum':
      return text;
    case 'bool':
      return text === 'true' || text === '1' ? true : text === 'false' || text === '0' ? false : null;
    default:
      return parseDecimal(text);
  }
}

/** Parses the text form of a value (URL and list editors), then checks it. */
export function parseValueText(spec: ParamSpec, text: string): Checked {
  switch (spec.type) {
    case 'int':
    case 'float': {
      const n = parseDecimal(text);
      return n === null ? { ok: false, reason: 'is not a number' } : checkValue(spec, n);
    }
    case 'enum':
      return checkValue(spec, text);
    case 'bool':
      if (text === 'true' || text === '1') return { ok: true, value: true };
      if (text === 'false' || text === '0') return { ok: true, value: false };
      return { ok: false, reason: 'is not true or false' };
    case 'list':
      return parseListText(spec.items ?? [], text);
  }
}

/** `14:1,28:1` → [{segment: 14, attempt: 1}, …]; fields in the schema's item order
 *  (`cbr:100000000:1500` → [{kind: 'cbr', rate: 100000000, packet_size: 1500}]). */
export function parseListText(items: ItemField[], text: string): Checked {
  if (text.trim() === '') return { ok: true, value: [] };
  const out: JsonObject[] = [];
  for (const part of text.split(',')) {
    const fields = part.trim().split(':');
    if (fields.length > items.length) return { ok: false, reason: `has an item "${part}" with too many fields` };
    const obj: JsonObject = {};
    for (const [i, f] of items.entries()) {
      const t = fields[i];
      if (t === undefined || t === '') {
        if (f.default !== undefined) continue;
        return { ok: false, reason: `has an item "${part}" without ${f.name}` };
      }
      const v = parseItemText(f, t);
      if (v === null) {
        const what = f.type === 'bool' ? 'is not true or false' : 'is not a number';
        return { ok: false, reason: `has an item "${part}" whose ${f.name} ${what}` };
      }
      obj[f.name] = v;
    }
    out.push(obj);
  }
  return checkList(items, out);
}

/** The text form of a list value (inverse of parseListText). */
export function listText(items: ItemField[], value: JsonValue | undefined): string {
  if (!Array.isArray(value)) return '';
  return value
    .map((item) =>
      items
        .map((f) => {
          const v = typeof item === 'object' && item !== null && !Array.isArray(item) ? item[f.name] : undefined;
          return v === undefined ? '' : String(v);
        })
        .join(':')
        .replace(/:+$/, ''),
    )
    .join(',');
}

/** The text form of a scalar value with full round-trip precision (String(x) for numbers). */
export function valueText(value: JsonValue): string {
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * The display the schema's parameters use for a unit, when they all agree (bit/s → Mbit/s);
 * undefined when they do not (seconds show as ms here and as s there) or none has one.
 */
export function displayForUnit(unit: string): ParamSpec['display'] {
  const same = PARAMS.filter((p) => p.unit === unit && (p.type === 'int' || p.type === 'float'));
  const first = same[0]?.display;
  if (!first) return undefined;
  return same.every((p) => p.display?.unit === first.unit && p.display.factor === first.factor) ? first : undefined;
}

/** "packet_size" → "Packet size". */
function labelOfName(name: string): string {
  const words = name.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A parameter spec for one field of a list parameter's items (e.g. `cross`'s `rate`), so
 * the generated controls can edit it: type, unit, range, default, choices and help are the
 * schema's item field's; the label is its name in words; the display unit is the one the
 * schema uses for that unit elsewhere (displayForUnit).
 */
export function itemSpec(list: ParamSpec, field: ItemField): ParamSpec {
  const type = field.type === 'path' || field.type === 'value' ? 'float' : field.type;
  const display = type === 'int' || type === 'float' ? displayForUnit(field.unit) : undefined;
  return {
    path: `${list.path}[].${field.name}`,
    label: labelOfName(field.name),
    group: list.group,
    unit: field.unit,
    type,
    default: field.default ?? null,
    help: field.help,
    live: false,
    ...(field.min !== undefined ? { min: field.min } : {}),
    ...(field.max !== undefined ? { max: field.max } : {}),
    ...(field.options ? { options: field.options } : {}),
    ...(display ? { display } : {}),
  };
}
