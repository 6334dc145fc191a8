// What the sweep view's two plots share (SweepPanel.tsx's line over a numeric axis,
// SweepBands.tsx's bands of an enumerated setting): the finished sweep, the plot's width, an
// algorithm's legend entry, and the downloads with the CLI command under the plot.
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { algStyle } from '../lib/styles';
import { algorithmLabel } from '../scenario/algorithms';
import { formatNumber } from '../scenario/params';
import type { SweepLink } from './link';
import { cliCommand, type SweepPoint } from './sweep';

/** A finished sweep: what was run and the engine's output. */
export interface Result {
  link: SweepLink;
  /** The algorithms run (the link's, or the page's compared ones). */
  algorithms: string[];
  def: string;
  base: string;
  rows: unknown[];
  json: string;
}

/** What a plot of a finished sweep is given. */
export interface ResultProps {
  result: Result;
  points: SweepPoint[];
  metricName: string;
  metricLabel: string;
  metricUnit: string;
  /** The scenario's value of the parameter (a number, or an enumerated setting's name). */
  current: number | string | null;
  onOpen: (p: SweepPoint, seed: number) => void;
  onDownload: (format: 'csv' | 'json') => void;
}

const W_MIN = 260;

/** The width of the element the ref is put on (at least 260 px), following its resizes. */
/** A point drawn as an SVG group that acts as a button: Enter or Space opens it, as a click does. */
export function activateOnKey(open: () => void) {
  return (e: KeyboardEvent) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      open();
    }
  };
}

export function useWidth() {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(640);
  useEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => setWidth(Math.max(W_MIN, Math.round(el.clientWidth))));
    ro.observe(el);
    setWidth(Math.max(W_MIN, Math.round(el.clientWidth)));
    return () => ro.disconnect();
  }, []);
  return { box, width };
}

/** An algorithm's entry in a sweep plot's legend: its colour and name. */
export function AlgLegendItem({ algorithm }: { algorithm: string }) {
  return (
    <li>
      <svg width="28" height="10" aria-hidden="true">
        <line x1="0" y1="5" x2="28" y2="5" stroke={algStyle(algorithm).color} strokeWidth="2.5" />
      </svg>
      {algorithmLabel(algorithm)}
    </li>
  );
}

/** The downloads (the CLI's CSV and JSON) and the command that gives the same rows. */
export function ResultFooter({ result, onDownload }: Pick<ResultProps, 'result' | 'onDownload'>) {
  return (
    <>
      <div className="sweep-actions">
        <button type="button" onClick={() => onDownload('csv')}>
          Download CSV
        </button>
        <button type="button" onClick={() => onDownload('json')}>
          Download JSON
        </button>
      </div>
      <p className="sweep-note">
        The same rows from the command line (the scenario saved as scenario.json):{' '}
        <code className="sweep-cli">{cliCommand(result.link, result.algorithms)}</code>
      </p>
    </>
  );
}

/** A sweep plot's frame and its y axis: the plot area's outline, a grid line and a label
 *  per tick (`y` maps a value to its pixel row). */
export function PlotFrame({
  left,
  right,
  top,
  bottom,
  ticks,
  y,
  grid,
}: {
  left: number;
  right: number;
  top: number;
  bottom: number;
  ticks: readonly number[];
  y: (v: number) => number;
  grid: string;
}) {
  return (
    <>
      <rect x={left} y={top} width={right - left} height={bottom - top} fill="none" stroke="#8a8a8a" />
      {ticks.map((t) => (
        <g key={`y${t}`}>
          <line x1={left} x2={right} y1={y(t)} y2={y(t)} stroke={grid} />
          <text x={left - 6} y={y(t)} dy="0.32em" textAnchor="end">
            {formatNumber(t, 4)}
          </text>
        </g>
      ))}
    </>
  );
}
