// The Why card's lead, from the records of one instant: the change of cwnd in segments and
// the bytes beside every byte count.
import { describe, expect, it } from 'vitest';
import type { DecisionJson, DecisionValue } from '../engine/protocol';
import { decisionText, decisionTime, valueText, windowChange } from './headline';

const B = (name: string, value: number | null): DecisionValue => ({
  name,
  unit: 'B',
  value,
  text: value === null ? '∞' : `${value} B`,
});
const record = (rule: string, inputs: DecisionValue[], outputs: DecisionValue[]): Omit<DecisionJson, 'index'> => ({
  t: 3.28108,
  flow: 0,
  rule,
  kind: 'timeout',
  title: rule,
  source: '',
  formula: '',
  inputs,
  outputs,
  from: 0,
  to: 0,
  text: '',
});

describe('the Why card’s lead', () => {
  it('reads cwnd before from the instant’s first record and after from its last, in segments', () => {
    const instant = [
      record('ssthresh.half_cwnd', [B('cwnd', 7000), B('SMSS', 1000)], [B('ssthresh', 3000)]),
      record('timeout.expire', [B('cwnd', 7000)], [B('cwnd', 1000), B('ssthresh', 3000)]),
    ];
    expect(windowChange(instant, 1000)?.text).toBe('cwnd 7 → 1 segment');
    // Unlimited and fractional windows.
    expect(windowChange([record('x', [B('cwnd', null)], [B('cwnd', 2920)])], 1460)?.text).toBe('cwnd ∞ → 2 segments');
    expect(windowChange([record('x', [B('cwnd', 14600)], [B('cwnd', 10950)])], 1460)?.text).toBe(
      'cwnd 10 → 7.5 segments',
    );
  });

  it('leads with nothing when the instant leaves cwnd as it was or names no cwnd', () => {
    expect(windowChange([record('rtt.rfc6298', [B('srtt', 1)], [B('srtt', 2)])], 1460)).toBeNull();
    expect(windowChange([record('x', [B('cwnd', 2920)], [B('cwnd', 2920)])], 1460)).toBeNull();
  });

  it('shows byte counts in segments with the bytes beside them, other values as the engine wrote them', () => {
    expect(valueText(B('cwnd', 51100), 1460)).toBe('35 segments (51100 B)');
    expect(valueText(B('cwnd', 1460), 1460)).toBe('1 segment (1460 B)');
    expect(valueText(B('ssthresh', null), 1460)).toBe('∞');
    expect(valueText({ name: 'RTO', unit: 'ns', value: 1e9, text: '1 s' }, 1460)).toBe('1 s');
  });

  it('follows the page’s unit: in bytes, the change in bytes and every value as the engine wrote it', () => {
    const instant = [record('timeout.expire', [B('cwnd', 51100)], [B('cwnd', 1460), B('ssthresh', 25550)])];
    expect(windowChange(instant, 1460, 'bytes')?.text).toBe('cwnd 51\u202f100 → 1460 B');
    expect(windowChange(instant, 1460, 'segments')?.text).toBe('cwnd 35 → 1 segment');
    expect(valueText(B('cwnd', 51100), 1460, 'bytes')).toBe('51100 B');
    expect(valueText(B('ssthresh', null), 1460, 'bytes')).toBe('∞');
    const d = { text: 'cwnd = 51 100 B', text_segments: 'cwnd = 35 segments' };
    expect(decisionText(d, 'bytes')).toBe('cwnd = 51 100 B');
    expect(decisionText(d, 'segments')).toBe('cwnd = 35 segments');
    expect(decisionText({ text: 'no byte counts' }, 'segments')).toBe('no byte counts');
  });

  it('writes times as a student does: milliseconds', () => {
    expect(decisionTime(3.28108)).toBe('3.281 s');
    expect(decisionTime(2.0692)).toBe('2.069 s');
    expect(decisionTime(0.000125)).toBe('0.000125 s');
  });
});
