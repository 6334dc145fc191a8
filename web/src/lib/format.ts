import { formatNumber } from '../scenario/params';

/** "84 ms" / "1.2 s" from seconds. */
export function formatDuration(s: number): string {
  if (!Number.isFinite(s)) return '—';
  if (s < 1e-3) return `${formatNumber(s * 1e6, 4)} µs`;
  if (s < 1) return `${formatNumber(s * 1e3, 4)} ms`;
  return `${formatNumber(s, 4)} s`;
}
