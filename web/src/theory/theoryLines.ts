// The Mathis et al. and Padhye et al. estimates on the throughput plot (theory=1): a dashed
// reference line each, labelled with the model and its rate, per run (runs with the same
// estimates share their lines; several different ones are named by run).
import type { DrawFrame, PlotContext, PlotRun } from '../plots/core/types';
import { referenceLine } from '../plots/layers';
import { MODEL_NAMES, theoryLabel, theoryOfRun, type TheoryModel } from './theory';

/** Each model's dash. */
const DASH: Record<keyof typeof MODEL_NAMES, number[]> = { mathis: [7, 4], padhye: [2, 3] };

interface Line {
  name: keyof typeof MODEL_NAMES;
  model: TheoryModel;
  runLabel: string;
}

/** The lines to draw: each run's estimates, once per distinct value. */
function theoryLines(runs: PlotRun[], context: PlotContext): Line[] {
  if (!context.theory) return [];
  const seen = new Map<string, Line[]>();
  for (const run of runs) {
    const t = theoryOfRun(context.scenario, run, context.competition === true);
    if ('unavailable' in t) continue;
    const key = `${t.mathis.bps}|${t.padhye.bps}`;
    if (seen.has(key)) continue;
    seen.set(key, [
      { name: 'mathis', model: t.mathis, runLabel: run.label },
      { name: 'padhye', model: t.padhye, runLabel: run.label },
    ]);
  }
  const several = seen.size > 1;
  return [...seen.values()].flat().map((l) => (several ? l : { ...l, runLabel: '' }));
}

/** The highest estimate, bit/s (0 without any), so the lines are on the plot's scale. */
export function theoryExtent(runs: PlotRun[], context: PlotContext): number {
  return theoryLines(runs, context).reduce(
    (hi, l) => (Number.isFinite(l.model.bps) ? Math.max(hi, l.model.bps) : hi),
    0,
  );
}

/** Draws the estimates of the frame's runs. */
export function drawTheoryLines(f: DrawFrame): void {
  for (const l of theoryLines(f.runs, f.context)) {
    if (!Number.isFinite(l.model.bps)) continue;
    const text = `${l.runLabel ? `${l.runLabel} — ` : ''}${theoryLabel(l.name, l.model)}`;
    referenceLine(f, l.model.bps / 1e6, text, DASH[l.name]);
  }
}
