import { describe, expect, it } from 'vitest';
import { tables } from '../engine/tables';
import {
  amountNumber,
  amountText,
  DEFAULT_UNIT,
  inUnit,
  isWindowUnit,
  unitLabel,
  unitScale,
  unitWord,
  WINDOW_UNITS,
} from './units';

describe('the page’s one unit for windows', () => {
  it('is the engine’s list of units, segments first (the default)', () => {
    expect(tables.units.map((u) => u.name)).toEqual(['segments', 'bytes']);
    expect(WINDOW_UNITS).toEqual(['segments', 'bytes']);
    expect(DEFAULT_UNIT).toBe('segments');
    expect(tables.units.map((u) => u.symbol)).toEqual(['seg', 'B']);
    for (const u of tables.units) expect(u.description.length).toBeGreaterThan(20);
    expect(isWindowUnit('bytes')).toBe(true);
    expect(isWindowUnit('packets')).toBe(false);
  });

  it('divides by the segment size in segments and by 1 in bytes', () => {
    expect(unitScale('segments', 1460)).toBe(1460);
    expect(unitScale('bytes', 1460)).toBe(1);
    // No segment size known: bytes, never a division by zero.
    expect(unitScale('segments', 0)).toBe(1);
    expect(inUnit(51100, 'segments', 1460)).toBe(35);
    expect(inUnit(51100, 'bytes', 1460)).toBe(51100);
  });

  it('writes a count in the unit: segments to four digits, bytes whole and grouped', () => {
    expect(amountText(51100, 'segments', 1460)).toBe('35 segments');
    expect(amountText(1460, 'segments', 1460)).toBe('1 segment');
    expect(amountText(28954, 'segments', 1460)).toBe('19.83 segments');
    expect(amountText(51100, 'bytes', 1460)).toBe('51\u202f100 B');
    expect(amountText(7000, 'bytes', 1460)).toBe('7000 B');
    expect(amountText(100740, 'bytes', 1460)).toBe('100\u202f740 B');
    expect(amountText(4294967295, 'bytes', 1460)).toBe('∞');
    expect(amountText(Infinity, 'segments', 1460)).toBe('∞');
    expect(amountNumber(1234567, 'bytes', 1460)).toBe('1\u202f234\u202f567');
    expect(amountNumber(28954, 'segments', 1460, 3)).toBe('19.8');
    expect(amountNumber(33219.269, 'bytes', 1460)).toBe('33\u202f219');
    expect(unitWord('segments', 1)).toBe('segment');
    expect(unitWord('segments', 2)).toBe('segments');
    expect(unitLabel('bytes')).toBe('bytes');
  });
});
