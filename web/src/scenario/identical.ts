// When two compared runs trace identically (same digest), the page says so beside the summary,
// with the reason when the runs' settings and summaries show one: every catalogue-controlled
// setting in which the runs differ must be explained by something that never happened.
//
// The engine's digest covers what was sent and how the window moved, not the window-validation
// bookkeeping (W_used, pipeACK), so NewReno and NewReno + CWV on a bulk sender have the same
// digest. New CWV also logs its phase changes (nvp_enter / nvp_exit), which move no window:
// such runs are found by their summaries (equal but for the algorithm's name) and then their
// traces (compared row for row by the caller, `samePackets`, without validation marks), and
// reported as sending identical packets.
import type { FlowSummary } from '../engine/protocol';
import type { JsonValue } from '../lib/json';
import { jsonEqual } from '../lib/json';
import { algorithmLabel, type AlgorithmName } from './algorithms';

/** What the rule knows of one finished run. */
export interface RunFacts {
  name: AlgorithmName;
  /** The run's digest (equal digests: identical traces). */
  digest: string;
  /** Its catalogue-controlled settings (`runSettings`). */
  settings: Record<string, JsonValue>;
  /** The compared flow's summary. */
  flow: FlowSummary;
}

/** A set of runs that traced identically, and why when it is known. */
export interface IdenticalRuns {
  names: AlgorithmName[];
  /** "NewReno and NewReno + CWV traced identically: …". */
  text: string;
  reason: string | null;
  /** Same digest; false: the same packets and windows, digests differing only by new CWV's
   *  phase-change events. */
  sameDigest: boolean;
}

/** Context shared by the runs (the same base scenario). */
export interface SharedFacts {
  /** The sending application's kind (`flows[0].app.kind`). */
  appKind: string;
}

/** Settings the rule can explain, and what must have held in every run for them not to
 *  matter. */
const EXPLAINED: { keys: readonly string[]; held: (f: FlowSummary) => boolean; reason: (s: SharedFacts) => string }[] =
  [
    {
      keys: ['variant'],
      held: (f) => f.retransmits === 0 && f.timeouts === 0 && f.fast_retransmits === 0,
      reason: () => 'no packet was lost, so the loss-recovery variants never differed',
    },
    {
      keys: ['cc.idle_policy', 'cc.growth_gate'],
      held: (f) => f.window_decays === 0,
      reason: (s) =>
        'CWV and restart act only when the sender is idle or application-limited, and this one never was' +
        (s.appKind === 'bulk' ? ' (a bulk sender always has data)' : ''),
    },
  ];

/** "A", "A and B", "A, B and C". */
export function listText(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** Why these identical runs are identical, or null when the rule does not know. */
export function identicalReason(runs: readonly RunFacts[], shared: SharedFacts): string | null {
  const keys = [...new Set(runs.flatMap((r) => Object.keys(r.settings)))];
  const differing = keys.filter((k) => runs.some((r) => !jsonEqual(r.settings[k], runs[0]?.settings[k])));
  if (differing.length === 0) return 'they use the same settings';
  const reasons: string[] = [];
  for (const k of differing) {
    const rule = EXPLAINED.find((e) => e.keys.includes(k));
    if (!rule || !runs.every((r) => rule.held(r.flow))) return null;
    const text = rule.reason(shared);
    if (!reasons.includes(text)) reasons.push(text);
  }
  return reasons.join('; ');
}

/** The summary without the algorithm's own name: equal for runs that behaved alike. */
function behaviourKey(f: FlowSummary): string {
  return JSON.stringify({ ...f, algorithm: '', variant: '' });
}

/**
 * Groups of two or more runs that traced identically, in the order of their first run: the
 * same digest, or (when `samePackets` can compare two runs' traces) equal summaries and the
 * same packets and windows.
 */
export function identicalRuns(
  runs: readonly RunFacts[],
  shared: SharedFacts,
  samePackets?: (a: AlgorithmName, b: AlgorithmName) => boolean,
): IdenticalRuns[] {
  const groups: RunFacts[][] = [];
  for (const r of runs) {
    const same =
      groups.find((g) => g[0]?.digest === r.digest) ??
      groups.find((g) => {
        const first = g[0];
        return (
          !!first &&
          !!samePackets &&
          behaviourKey(first.flow) === behaviourKey(r.flow) &&
          samePackets(first.name, r.name)
        );
      });
    if (same) same.push(r);
    else groups.push([r]);
  }
  const out: IdenticalRuns[] = [];
  for (const group of groups) {
    if (group.length < 2) continue;
    const names = group.map((r) => r.name);
    const reason = identicalReason(group, shared);
    const sameDigest = group.every((r) => r.digest === group[0]?.digest);
    const who = listText(names.map(algorithmLabel));
    const verb = sameDigest ? 'traced identically' : 'sent identical packets with identical windows';
    out.push({ names, reason, sameDigest, text: `${who} ${verb}${reason ? `: ${reason}` : ''}.` });
  }
  return out;
}
