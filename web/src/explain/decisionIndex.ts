// A run's decisions as the page knows them without asking: one row per decision of the
// run's flow (the engine's `Sim.decisions_index`), in the order made, grown as the run
// advances. Stepping, the state machine and the lesson steps read it; the full explanation
// of a decision is asked of the worker when shown.
import { DECISION_INDEX_COLUMNS, type DecisionIndexColumns } from '../engine/protocol';
import { lowerBound, rowAt } from '../engine/lookup';
import type { Machine } from '../engine/tables';

type Column = (typeof DECISION_INDEX_COLUMNS)[number];

/** No phase: a receiver's decision (delayed ACKs). */
export const NO_PHASE = 255;

export class DecisionIndex {
  /** Rows held. */
  length = 0;
  /** The run's decision count when last read (the next read starts there). */
  end = 0;
  /** Simulated time the explained replay has reached, s. */
  now = 0;
  private cols: Record<Column, Float64Array>;

  constructor(
    /** The replay these rows come from (a new replay starts a new index). */
    readonly epoch: number,
    readonly machine: Machine | null,
  ) {
    this.cols = Object.fromEntries(DECISION_INDEX_COLUMNS.map((c) => [c, new Float64Array(64)])) as Record<
      Column,
      Float64Array
    >;
  }

  /** Appends rows read from `end` on. */
  append(cols: DecisionIndexColumns, end: number, now: number): void {
    const n = cols.index.length;
    if (this.length + n > this.cols.index.length) {
      const size = Math.max(this.length + n, this.cols.index.length * 2);
      for (const c of DECISION_INDEX_COLUMNS) {
        const grown = new Float64Array(size);
        grown.set(this.cols[c].subarray(0, this.length));
        this.cols[c] = grown;
      }
    }
    for (const c of DECISION_INDEX_COLUMNS) this.cols[c].set(cols[c], this.length);
    this.length += n;
    this.end = end;
    this.now = now;
  }

  /** Row `row`'s value of column `c` (NaN out of range). */
  get(c: Column, row: number): number {
    return row >= 0 && row < this.length ? (this.cols[c][row] ?? Number.NaN) : Number.NaN;
  }

  t(row: number): number {
    return this.get('t', row);
  }

  rule(row: number): number {
    return this.get('rule', row);
  }

  /** The row of the run's decision `index`, or -1. */
  rowOf(index: number): number {
    const row = lowerBound(this.cols.index, this.length, index);
    return row < this.length && this.cols.index[row] === index ? row : -1;
  }

  /** The last row at or before time `t` (-1: none). */
  lastAtOrBefore(t: number): number {
    return rowAt(this.cols.t, this.length, t);
  }

  /** The rows made at the same instant as `row` (first, last). */
  instantOf(row: number): [number, number] {
    const t = this.t(row);
    let a = row;
    let b = row;
    while (a > 0 && this.t(a - 1) === t) a -= 1;
    while (b + 1 < this.length && this.t(b + 1) === t) b += 1;
    return [a, b];
  }

  /** The next row after `row` (dir 1) or before it (dir -1) that `test` accepts, or -1. */
  find(row: number, dir: 1 | -1, test: (row: number) => boolean): number {
    for (let r = row + dir; r >= 0 && r < this.length; r += dir) if (test(r)) return r;
    return -1;
  }

  /** The phase in force after row `row` (the last sender decision up to it), or -1 before
   *  any. */
  phaseAt(row: number): number {
    for (let r = row; r >= 0; r -= 1) {
      const to = this.get('to', r);
      if (to !== NO_PHASE) return to;
    }
    return -1;
  }

  /** The last row up to `row` that took a transition of the machine (`column`: the phases'
   *  or the overlay's), or -1. */
  lastTransition(row: number, column: 'transition' | 'overlay' = 'transition'): number {
    for (let r = Math.min(row, this.length - 1); r >= 0; r -= 1) if (this.get(column, r) >= 0) return r;
    return -1;
  }
}
