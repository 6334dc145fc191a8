// How big a run the page will start: the engine estimates the packets a scenario simulates
// (validate_json's estimatedPackets); above a threshold the page warns, above a limit it
// refuses, because a browser tab keeps every trace row (the CLI has no such limit).
import type { Notice } from '../scenario/shareState';

/** Above this many simulated packets per run, a notice says the run will take a while; it
 *  still runs, with progress and a Stop button. */
export const WARN_PACKETS = 5e6;
/** Above this many, the run is not started: it would exhaust a browser tab's memory. */
export const MAX_PACKETS = 50e6;

/** What to say about a run of `estimated` packets (undefined: the engine gave no estimate),
 *  and whether it may start. */
export function runSizeCheck(estimated: number | undefined): { allowed: boolean; notice: Notice | null } {
  if (estimated === undefined || estimated < WARN_PACKETS) return { allowed: true, notice: null };
  const millions = `${(estimated / 1e6).toPrecision(3)} million`;
  if (estimated >= MAX_PACKETS) {
    return {
      allowed: false,
      notice: {
        key: 'duration',
        message:
          `Not run: this scenario simulates about ${millions} packets per algorithm, more than a browser tab ` +
          `can hold (limit ${MAX_PACKETS / 1e6} million). Shorten the duration or lower the bandwidth.`,
      },
    };
  }
  return {
    allowed: true,
    notice: {
      key: 'duration',
      message: `This scenario simulates about ${millions} packets per algorithm: it takes a while (progress below; Stop ends it).`,
    },
  };
}
