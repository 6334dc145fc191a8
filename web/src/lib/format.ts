import { formatNumber } from '../scenario/params';

/** "1.763 Mbit/s" from bit/s. */
export function formatRate(bps: number): string {
  if (!Number.isFinite(bps)) return '—';
  if (bps >= 1e9) return `${formatNumber(bps / 1e9, 4)} Gbit/s`;
  if (bps >= 1e6) return `${formatNumber(bps / 1e6, 4)} Mbit/s`;
  if (bps >= 1e3) return `${formatNumber(bps / 1e3, 4)} kbit/s`;
  return `${formatNumber(bps, 4)} bit/s`;
}

/** "84 ms" / "1.2 s" from seconds. */
export function formatDuration(s: number): string {
  if (!Number.isFinite(s)) return '—';
  if (s < 1e-3) return `${formatNumber(s * 1e6, 4)} µs`;
  if (s < 1) return `${formatNumber(s * 1e3, 4)} ms`;
  return `${formatNumber(s, 4)} s`;
}
