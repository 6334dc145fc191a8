// The Mathis et al. and Padhye et al. estimates on the throughput plot (theory=1): a dashed
// reference line each, labelled with the model and its rate, per run (runs with the same
// estimates share their lines; several different ones are named by run).
import type { DrawFrame, PlotContext, PlotRun } from '../plots/core/types';
import { referenceRule } from '../plots/layers';
import { canvasFont } from '../plots/core/plotStyle';
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

/** A line's label on a white box above the line (below it at the top of the plot),
 *  starting at x; returns where its box ends. */
function label(f: DrawFrame, py: number, text: string, x: number): { right: number; y: number } {
  const { ctx } = f;
  ctx.save();
  ctx.font = canvasFont(11);
  const tw = ctx.measureText(text).width;
  const ly = py - 15 < 1 ? py + 2 : py - 15;
  ctx.fillStyle = 'rgba(255,255,255,0.8)';
  ctx.fillRect(x, ly, tw + 6, 14);
  ctx.fillStyle = '#222222';
  ctx.textAlign = 'left';
  ctx.textBaseline = 'top';
  ctx.fillText(text, x + 3, ly + 1);
  ctx.restore();
  return { right: x + tw + 6, y: ly };
}

/** Draws the estimates of the frame's runs: each a dashed rule with its label at the left,
 *  moved right past the label before it when the two would cover each other. */
export function drawTheoryLines(f: DrawFrame): void {
  const boxes: { right: number; y: number }[] = [];
  for (const l of theoryLines(f.runs, f.context)) {
    if (!Number.isFinite(l.model.bps)) continue;
    const py = referenceRule(f, l.model.bps / 1e6, DASH[l.name]);
    if (py === null) continue;
    const text = `${l.runLabel ? `${l.runLabel} — ` : ''}${theoryLabel(l.name, l.model)}`;
    const ly = py - 15 < 1 ? py + 2 : py - 15;
    const x = boxes.filter((b) => Math.abs(b.y - ly) < 15).reduce((r, b) => Math.max(r, b.right + 8), 4);
    boxes.push(label(f, py, text, x));
  }
}
