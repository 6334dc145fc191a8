// The identical-run rule: when it explains, and when it does not claim to know.
import { describe, expect, it } from 'vitest';
import type { FlowSummary } from '../engine/protocol';
import { identicalReason, identicalRuns, listText, type RunFacts } from './identical';

const flow = (patch: Partial<FlowSummary> = {}): FlowSummary => ({
  flow: 0,
  algorithm: 'newreno',
  variant: 'newreno',
  goodput_bps: 1e6,
  transfer_goodput_bps: 1e6,
  throughput_bps: 1.1e6,
  delivered_bytes: 1e6,
  data_packets_sent: 700,
  retransmits: 0,
  spurious_retransmits: 0,
  timeouts: 0,
  fast_retransmits: 0,
  partial_acks: 0,
  dupacks: 0,
  mean_cwnd_bytes: 14600,
  mean_cwnd_segments: 10,
  cwnd_cv: 0.2,
  drops: { queue: 0, error: 0, scripted: 0, ack_queue: 0, ack_error: 0 },
  completion_time_s: null,
  max_burst_packets: 2,
  window_decays: 0,
  reserved_bdp_bytes: null,
  writes: null,
  mean_payload_bytes: 1460,
  itt_p50_s: 0.001,
  itt_p90_s: 0.001,
  itt_p99_s: 0.002,
  sojourn_p50_s: null,
  sojourn_p90_s: null,
  sojourn_p99_s: null,
  latency_p50_s: null,
  latency_p90_s: null,
  latency_p99_s: null,
  qdelay_mean_ms: 0,
  qdelay_p95_ms: 0,
  rtt_mean_ms: 100,
  rtt_p95_ms: 100,
  ...patch,
});

const settings = (variant: string, idle = 'none', gate = 'always') => ({
  variant,
  'cc.idle_policy': idle,
  'cc.growth_gate': gate,
});

const run = (name: string, digest: string, s: RunFacts['settings'], f: Partial<FlowSummary> = {}): RunFacts => ({
  name,
  digest,
  settings: s,
  flow: flow(f),
});

const bulk = { appKind: 'bulk' };

describe('identical runs', () => {
  it('CWV and NewReno on a bulk sender: never idle, so CWV never acted', () => {
    const notes = identicalRuns(
      [
        run('newreno', 'aa', settings('newreno')),
        run('newreno_cwv', 'aa', settings('newreno', 'rfc2861', 'window_full')),
      ],
      bulk,
    );
    expect(notes).toHaveLength(1);
    expect(notes[0]?.names).toEqual(['newreno', 'newreno_cwv']);
    expect(notes[0]?.text).toBe(
      'NewReno and NewReno + CWV traced identically: CWV and restart act only when the sender is idle or ' +
        'application-limited, and this one never was (a bulk sender always has data).',
    );
    // Not bulk: the same reason without the bulk hint.
    expect(
      identicalReason([run('a', 'x', settings('newreno')), run('b', 'x', settings('newreno', 'restart'))], {
        appKind: 'cbr',
      }),
    ).toBe('CWV and restart act only when the sender is idle or application-limited, and this one never was');
  });

  it('loss-recovery variants on a run without loss: they never differed', () => {
    const [note] = identicalRuns(
      [run('reno', 'bb', settings('reno')), run('newreno', 'bb', settings('newreno'))],
      bulk,
    );
    expect(note?.reason).toBe('no packet was lost, so the loss-recovery variants never differed');
    expect(note?.text).toBe(
      'Reno and NewReno traced identically: no packet was lost, so the loss-recovery variants never differed.',
    );
  });

  it('both kinds of difference, both explained', () => {
    const reason = identicalReason(
      [run('tahoe', 'cc', settings('tahoe')), run('newreno_cwv', 'cc', settings('newreno', 'rfc2861', 'window_full'))],
      bulk,
    );
    expect(reason).toContain('no packet was lost');
    expect(reason).toContain('CWV and restart act only');
  });

  it('gives no reason it cannot back: a loss, a decay, or a setting it does not know', () => {
    const lost = identicalReason(
      [
        run('reno', 'd', settings('reno'), { retransmits: 3, fast_retransmits: 1 }),
        run('newreno', 'd', settings('newreno')),
      ],
      bulk,
    );
    expect(lost).toBeNull();
    const decayed = identicalReason(
      [
        run('newreno', 'e', settings('newreno')),
        run('newreno_cwv', 'e', settings('newreno', 'rfc2861'), { window_decays: 2 }),
      ],
      bulk,
    );
    expect(decayed).toBeNull();
    const unknown = identicalReason(
      [
        run('a', 'f', { ...settings('newreno'), 'cc.other': 1 }),
        run('b', 'f', { ...settings('newreno'), 'cc.other': 2 }),
      ],
      bulk,
    );
    expect(unknown).toBeNull();
    const [note] = identicalRuns(
      [run('reno', 'g', settings('reno'), { timeouts: 1 }), run('newreno', 'g', settings('newreno'))],
      bulk,
    );
    expect(note?.text).toBe('Reno and NewReno traced identically.');
  });

  it('the same settings (custom equal to an entry)', () => {
    expect(
      identicalReason([run('newreno', 'h', settings('newreno')), run('custom', 'h', settings('newreno'))], bulk),
    ).toBe('they use the same settings');
  });

  it('groups only runs with equal digests; different runs say nothing', () => {
    const notes = identicalRuns(
      [
        run('reno', '1', settings('reno')),
        run('newreno', '2', settings('newreno')),
        run('newreno_restart', '2', settings('newreno', 'restart')),
        run('newreno_cwv', '2', settings('newreno', 'rfc2861', 'window_full')),
        run('newreno_newcwv', '3', settings('newreno', 'rfc7661')),
      ],
      bulk,
    );
    expect(notes.map((n) => n.names)).toEqual([['newreno', 'newreno_restart', 'newreno_cwv']]);
    expect(notes[0]?.text.startsWith('NewReno, NewReno + restart and NewReno + CWV traced identically')).toBe(true);
    expect(identicalRuns([run('reno', '1', settings('reno')), run('newreno', '2', settings('newreno'))], bulk)).toEqual(
      [],
    );
  });

  it('runs whose digests differ only by recorded window-validation state: same summaries, same packets', () => {
    const runs = [
      run('newreno', 'n1', settings('newreno')),
      run('newreno_cwv', 'n2', settings('newreno', 'rfc2861', 'window_full')),
      run('newreno_newcwv', 'n3', settings('newreno', 'rfc7661'), { goodput_bps: 2 }),
    ];
    const compared: string[] = [];
    const [note, ...rest] = identicalRuns(runs, bulk, (a, b) => {
      compared.push(`${a}/${b}`);
      return true;
    });
    expect(rest).toEqual([]);
    expect(note?.names).toEqual(['newreno', 'newreno_cwv']);
    expect(note?.sameDigest).toBe(false);
    expect(note?.text.startsWith('NewReno and NewReno + CWV sent identical packets with identical windows: CWV')).toBe(
      true,
    );
    // Traces are compared only when the summaries already agree (not for new CWV here).
    expect(compared).toEqual(['newreno/newreno_cwv']);
    expect(identicalRuns(runs, bulk, () => false)).toEqual([]);
    expect(identicalRuns(runs, bulk)).toEqual([]);
  });

  it('lists names readably', () => {
    expect(listText([])).toBe('');
    expect(listText(['A'])).toBe('A');
    expect(listText(['A', 'B'])).toBe('A and B');
    expect(listText(['A', 'B', 'C'])).toBe('A, B and C');
  });
});
