import { describe, expect, it } from 'vitest';
import { lowerBound, rowAt, rowsInForce, rowsWithin, upperBound, visibleRange } from './lookup';

// Only the first `length` rows are valid (capacity beyond is garbage).
const t = Float64Array.from([0, 1, 1, 2, 5, 99, 99]);
const length = 5;

describe('time lookups', () => {
  it('binary-searches only the valid rows', () => {
    expect(lowerBound(t, length, 1)).toBe(1);
    expect(upperBound(t, length, 1)).toBe(3);
    expect(upperBound(t, length, 50)).toBe(5);
    expect(rowAt(t, length, -1)).toBe(-1);
    expect(rowAt(t, length, 1.5)).toBe(2);
    expect(rowAt(t, length, 100)).toBe(4);
  });

  it('draws from the row in force to one row past the window', () => {
    expect(visibleRange(t, length, 1.5, 2.5)).toEqual([2, 5]);
  });

  it('sets the y range only from rows seen in the window', () => {
    // Marks inside [1.5, 2.5]: only the row at t = 2.
    expect(rowsWithin(t, length, 1.5, 2.5)).toEqual([3, 4]);
    // A step line shows the row in force at 1.5 and the row at 2, not the row at 5.
    expect(rowsInForce(t, length, 1.5, 2.5)).toEqual([2, 4]);
    expect(rowsInForce(t, length, -3, -1)).toEqual([0, 0]);
  });
});
