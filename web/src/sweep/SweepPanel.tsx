// The sweep view: vary one numeric parameter over a range, or an enumerated one over the values
// ticked, for the chosen algorithms, several seeds per point, in workers of its own (runner.ts)
// with progress and Cancel; plot the mean and the spread (min–max over the seeds) of a metric
// against the parameter (a line over a numeric axis, points in one band per value over an
// enumerated one: SweepBands.tsx), the current scenario's value marked; a point opens its run.
// The engine plans, runs and aggregates (sweep_plan_json, sweep_run_json, sweep_output: the
// rows `cwndlab sweep` prints); the theory lines are the engine's theory_json. Loaded after
// the first view (SweepShell.tsx).
import { useEffect, useMemo, useRef, useState } from 'react';
import { scaleLinear, scaleLog } from 'd3-scale';
import { useApp, useAppState } from '../app/AppContext';
import { compiledEngine } from '../engine/wasmMain';
import { saveBlob } from '../export/service';
import { algStyle } from '../lib/styles';
import { CATALOGUE, algorithmLabel } from '../scenario/algorithms';
import { displayForUnit, formatNumber, formatValue, specOf, toDisplay } from '../scenario/params';
import { setAt } from '../scenario/paths';
import { inputsText, MODEL_NAMES, theoryOf } from '../theory/theory';
import { METRICS, type SweepLink } from './link';
import { BandsPlot } from './SweepBands';
import {
  activateOnKey,
  AlgLegendItem,
  PlotFrame,
  ResultFooter,
  useWidth,
  type Result,
  type ResultProps,
} from './SweepParts';
import { spawnSweepWorker, sweepPoolSize, SweepRun } from './runner';
import {
  checkForm,
  currentName,
  currentValue,
  defaultForm,
  definitionOf,
  formOf,
  linkOf,
  planSweep,
  pointsOf,
  sweepOutput,
  SWEEP_PARAMS,
  type FieldError,
  type SweepForm,
  type SweepPoint,
} from './sweep';

type Status =
  | { kind: 'idle' }
  | { kind: 'running'; done: number; total: number }
  | { kind: 'cancelled'; done: number; total: number }
  | { kind: 'done'; total: number }
  | { kind: 'failed'; message: string };

export function SweepBody({ open }: { open: boolean }) {
  const { store, controller } = useApp();
  const scenario = useAppState((s) => s.scenario);
  const pageAlgorithms = useAppState((s) => s.algorithms);
  const link = useAppState((s) => s.sweep);
  const [form, setForm] = useState<SweepForm>(() =>
    link ? formOf(link, pageAlgorithms) : defaultForm(scenario, pageAlgorithms),
  );
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [result, setResult] = useState<Result | null>(null);
  const running = useRef<SweepRun | null>(null);
  // The last sweep this view put in the store: another one (a lesson's button) is run anew.
  const own = useRef<SweepLink | null>(null);

  const start = (form: SweepForm) => {
    running.current?.cancel();
    const errs = checkForm(form);
    setErrors(errs);
    if (errs.length > 0) return;
    const catalogued = pageAlgorithms.filter((a) => CATALOGUE.some((e) => e.name === a));
    const sweep = linkOf(form, catalogued);
    const def = definitionOf(sweep, catalogued);
    const base = JSON.stringify(store.getState().scenario);
    const plan = planSweep(def, base);
    if (!plan.ok) {
      setErrors([plan.error]);
      return;
    }
    const module = compiledEngine();
    if (!module) {
      setStatus({ kind: 'failed', message: 'The engine is not loaded yet; try again in a moment.' });
      return;
    }
    own.current = sweep;
    store.getState().setSweep(sweep);
    const run = new SweepRun(
      module,
      spawnSweepWorker,
      def,
      base,
      plan.runs,
      (done, total) => {
        if (running.current === run) setStatus({ kind: 'running', done, total });
      },
      sweepPoolSize(),
    );
    running.current = run;
    setStatus({ kind: 'running', done: 0, total: plan.runs });
    void run.outcome.then((o) => {
      if (running.current !== run) return;
      running.current = null;
      if (o.kind === 'cancelled') setStatus({ kind: 'cancelled', done: o.done, total: plan.runs });
      else if (o.kind === 'failed') setStatus({ kind: 'failed', message: o.message });
      else {
        setResult({
          link: sweep,
          algorithms: sweep.algorithms ?? catalogued,
          def,
          base,
          rows: o.rows,
          json: sweepOutput(def, base, o.rows, 'json'),
        });
        setStatus({ kind: 'done', total: plan.runs });
      }
    });
  };

  // A link with a sweep runs it once the view is open; so does a sweep put in the store by
  // something else (a lesson's button) while the view is open.
  useEffect(() => {
    if (!open || !link || link === own.current) return;
    const f = formOf(link, pageAlgorithms);
    setForm(f);
    start(f);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, link]);
  useEffect(() => () => running.current?.cancel(), []);

  const cancel = () => running.current?.cancel();
  const set = (patch: Partial<SweepForm>) => setForm((f) => ({ ...f, ...patch }));
  const errorOf = (field: FieldError['field']) => errors.find((e) => e.field === field);
  const spec = specOf(form.param);
  const unitText = (s: typeof spec) => (s ? (s.display?.unit ?? s.unit) : '');

  const metric = METRICS.find((m) => m.name === form.metric) ?? METRICS[0];
  const points = useMemo(() => (result && metric ? pointsOf(result.json, metric.name) : []), [result, metric]);

  const download = (format: 'csv' | 'json') => {
    if (!result) return;
    const text = sweepOutput(result.def, result.base, result.rows, format);
    const name = `sweep-${result.link.param.replace(/[^a-z0-9_.]+/gi, '_')}.${format}`;
    saveBlob(new Blob([`${text}\n`], { type: format === 'csv' ? 'text/csv' : 'application/json' }), name);
  };

  const openRun = (p: SweepPoint, seed: number) => {
    if (!result) return;
    const s = specOf(result.link.param);
    const value = result.link.values ? p.xText : s?.type === 'int' ? Math.round(Number(p.xText)) : Number(p.xText);
    const ok = result.link.param.startsWith('flows[].')
      ? controller.setParamAllFlows(result.link.param, value)
      : controller.setParam(result.link.param, value);
    if (!ok) return;
    controller.setParam('seed', seed);
    if (!store.getState().algorithms.includes(p.algorithm)) controller.toggleAlgorithm(p.algorithm);
  };

  const busy = status.kind === 'running';
  return (
    <div className="sweep-body">
      <p className="sweep-note">
        Each point runs the current scenario with the parameter set to that value, once per algorithm and seed (seeds 1
        to N), to its end — the same runs and numbers as <code>cwndlab sweep</code>.
      </p>
      <form
        className="sweep-form"
        onSubmit={(e) => {
          e.preventDefault();
          start(form);
        }}
      >
        <label>
          Parameter
          <select
            value={form.param}
            aria-invalid={errorOf('param') ? true : undefined}
            onChange={(e) =>
              setForm({
                ...defaultForm(scenario, form.algorithms, e.target.value),
                seeds: form.seeds,
                metric: form.metric,
                algorithms: form.algorithms,
              })
            }
          >
            {SWEEP_PARAMS.map((p) => (
              <option key={p.path} value={p.path}>
                {p.label} ({p.path})
              </option>
            ))}
          </select>
        </label>
        {spec?.type === 'enum' ? (
          <fieldset>
            <legend>Values (in the order ticked)</legend>
            {(spec.options ?? []).map((o) => (
              <label key={o.value} className="sweep-check" title={o.help}>
                <input
                  type="checkbox"
                  value={o.value}
                  checked={form.values.includes(o.value)}
                  onChange={(ev) =>
                    set({
                      values: ev.target.checked
                        ? [...form.values.filter((v) => v !== o.value), o.value]
                        : form.values.filter((v) => v !== o.value),
                    })
                  }
                />
                {o.label}
              </label>
            ))}
          </fieldset>
        ) : (
          <>
            <label>
              From{spec && unitText(spec) ? ` (${spec.unit})` : ''}
              <input
                type="text"
                inputMode="decimal"
                value={form.from}
                aria-invalid={errorOf('from') ? true : undefined}
                onChange={(e) => set({ from: e.target.value })}
              />
            </label>
            <label>
              To{spec && unitText(spec) ? ` (${spec.unit})` : ''}
              <input
                type="text"
                inputMode="decimal"
                value={form.to}
                aria-invalid={errorOf('to') ? true : undefined}
                onChange={(e) => set({ to: e.target.value })}
              />
            </label>
            <label>
              Points
              <input
                type="text"
                inputMode="numeric"
                value={form.points}
                aria-invalid={errorOf('points') ? true : undefined}
                onChange={(e) => set({ points: e.target.value })}
              />
            </label>
            <label className="sweep-check">
              <input type="checkbox" checked={form.log} onChange={(e) => set({ log: e.target.checked })} />
              Logarithmic spacing
            </label>
          </>
        )}
        <label>
          Seeds per point
          <input
            type="text"
            inputMode="numeric"
            value={form.seeds}
            aria-invalid={errorOf('seeds') ? true : undefined}
            onChange={(e) => set({ seeds: e.target.value })}
          />
        </label>
        <label>
          Metric plotted
          <select value={form.metric} onChange={(e) => set({ metric: e.target.value })}>
            {METRICS.map((m) => (
              <option key={m.name} value={m.name}>
                {m.label}
                {m.unit ? ` (${displayForUnit(m.unit)?.unit ?? m.unit})` : ''}
              </option>
            ))}
          </select>
        </label>
        <fieldset>
          <legend>Algorithms</legend>
          {CATALOGUE.filter((e) => form.algorithms.includes(e.name) || pageAlgorithms.includes(e.name)).map((e) => (
            <label key={e.name} className="sweep-check">
              <input
                type="checkbox"
                checked={form.algorithms.includes(e.name)}
                onChange={(ev) =>
                  set({
                    algorithms: ev.target.checked
                      ? CATALOGUE.map((c) => c.name).filter((n) => n === e.name || form.algorithms.includes(n))
                      : form.algorithms.filter((n) => n !== e.name),
                  })
                }
              />
              {e.label}
            </label>
          ))}
        </fieldset>
        <div className="sweep-actions">
          <button type="submit" disabled={busy}>
            {result || status.kind === 'cancelled' ? 'Run again' : 'Run sweep'}
          </button>
          <button type="button" onClick={cancel} disabled={!busy}>
            Cancel
          </button>
          <span role="status" aria-live="polite" className="sweep-status">
            {statusText(status)}
          </span>
        </div>
      </form>
      {errors.length > 0 ? (
        <ul className="sweep-errors" role="alert">
          {errors.map((e) => (
            <li key={e.field + e.message}>{e.message}</li>
          ))}
        </ul>
      ) : null}
      {result && metric ? (
        <SweepResult
          result={result}
          points={points}
          metricName={metric.name}
          metricLabel={metric.label}
          metricUnit={metric.unit}
          current={
            result.link.values ? currentName(scenario, result.link.param) : currentValue(scenario, result.link.param)
          }
          onOpen={openRun}
          onDownload={download}
        />
      ) : null}
    </div>
  );
}

function statusText(s: Status): string {
  switch (s.kind) {
    case 'idle':
      return '';
    case 'running':
      return `Running: ${s.done} of ${s.total} runs done`;
    case 'cancelled':
      return `Cancelled after ${s.done} of ${s.total} runs; nothing was plotted from it.`;
    case 'done':
      return `Done: ${s.total} runs.`;
    case 'failed':
      return `The sweep failed: ${s.message}`;
  }
}

/** Theory lines: Mathis and Padhye for goodput against a random loss rate (the engine's
 *  theory_json at each value, flow 0 of the scenario run). */
function theoryLines(result: Result, metricName: string) {
  const param = result.link.param;
  if (metricName !== 'goodput_bps' || !/^network\.bottleneck\.loss\.(ber|probability)$/.test(param)) return null;
  const base = JSON.parse(result.base) as Record<string, never>;
  const values =
    (JSON.parse(result.json) as { sweep: { params: { values: string[] }[] } }).sweep.params[0]?.values ?? [];
  const lines = { mathis: [] as [number, number][], padhye: [] as [number, number][] };
  let inputs = '';
  let unavailable = '';
  for (const t of values) {
    const x = Number(t);
    const th = theoryOf(JSON.stringify(setAt(base, param, x)), 0);
    if ('unavailable' in th) {
      unavailable ||= th.unavailable;
      continue;
    }
    inputs ||= inputsText(th.inputs);
    lines.mathis.push([x, th.mathis.bps]);
    lines.padhye.push([x, th.padhye.bps]);
  }
  return { lines, inputs, unavailable };
}

/** The plot of a finished sweep: bands for an enumerated setting's values, else a line. */
function SweepResult(props: ResultProps) {
  const { current } = props;
  if (props.result.link.values) return <BandsPlot {...props} />;
  return <LinePlot {...props} current={typeof current === 'number' ? current : null} />;
}

/** The plot over a numeric axis: per algorithm, the mean as a line, the min–max as a band. */
function LinePlot(props: Omit<ResultProps, 'current'> & { current: number | null }) {
  const { result, points, metricName, metricLabel, metricUnit, current, onOpen, onDownload } = props;
  const { box, width } = useWidth();
  const spec = specOf(result.link.param);
  const theory = useMemo(() => theoryLines(result, metricName), [result, metricName]);
  const yDisplay = displayForUnit(metricUnit);
  const yFactor = yDisplay?.factor ?? 1;
  const yUnit = yDisplay?.unit ?? metricUnit;
  const xDisp = (x: number) => (spec ? toDisplay(spec, x) : x);
  const xUnit = spec ? (spec.display?.unit ?? spec.unit) : '';
  const algs = [...new Set(points.map((p) => p.algorithm))];

  const height = Math.round(Math.min(420, Math.max(240, width * 0.5)));
  // On a phone the x label takes two lines.
  const narrow = width < 560;
  const m = { top: 14, right: 24, bottom: narrow ? 58 : 44, left: 64 };
  const xs = points.map((p) => p.x);
  let xmin = Math.min(...xs);
  let xmax = Math.max(...xs);
  if (!(xmax > xmin)) [xmin, xmax] = [xmin * 0.9 || -1, xmax * 1.1 || 1];
  const x = result.link.log
    ? scaleLog()
        .domain([xmin, xmax])
        .range([m.left, width - m.right])
    : scaleLinear()
        .domain([xmin, xmax])
        .range([m.left, width - m.right]);
  const yvals = points.flatMap((p) => [p.min * yFactor, p.max * yFactor]);
  const finite = yvals.filter(Number.isFinite);
  const ymax = Math.max(0, ...finite);
  const ymin = Math.min(0, ...finite);
  const y = scaleLinear()
    .domain([ymin, ymax > ymin ? ymax : ymin + 1])
    .nice()
    .range([height - m.bottom, m.top]);
  // The theory lines can be far above the runs at low loss: the axis is the runs', and the
  // lines are clipped to the plot area (values capped well above it first, for the path).
  const yCap = (y.domain()[1] ?? 1) * 10;
  // A log axis is labelled at powers of ten only (1e-6, 1e-5, …), a linear one by d3's ticks.
  const xTicks = result.link.log
    ? x.ticks().filter((t) => Math.abs(Math.log10(t) - Math.round(Math.log10(t))) < 1e-9)
    : x.ticks(Math.max(2, Math.floor(width / 90)));
  const yTicks = y.ticks(Math.max(2, Math.floor(height / 50)));
  const fmtX = (v: number) => (result.link.log ? xDisp(v).toExponential(0) : formatNumber(xDisp(v), 3));
  const path = (pts: [number, number][]) =>
    pts
      .filter(([a, b]) => Number.isFinite(a) && Number.isFinite(b))
      .map(([a, b], i) => `${i ? 'L' : 'M'}${x(a).toFixed(1)},${y(Math.min(b * yFactor, yCap)).toFixed(1)}`)
      .join('');
  const xLabel = `${spec?.label ?? result.link.param}${xUnit ? ` (${xUnit})` : ''}${result.link.log ? ', log scale' : ''}`;
  const yLabel = `${metricLabel}${yUnit ? ` (${yUnit})` : ''}`;
  const showCurrent = current !== null && current >= xmin && current <= xmax && (!result.link.log || current > 0);
  const summary =
    `${yLabel} against ${xLabel}: ` +
    algs
      .map((a) => {
        const ps = points.filter((p) => p.algorithm === a);
        return `${algorithmLabel(a)} from ${formatNumber(ps[0]?.mean ? ps[0].mean * yFactor : 0, 3)} to ${formatNumber((ps[ps.length - 1]?.mean ?? 0) * yFactor, 3)}`;
      })
      .join('; ');

  return (
    <section className="sweep-plot" aria-label="Sweep plot">
      <ul className="sweep-legend">
        {algs.map((a) => (
          <AlgLegendItem key={a} algorithm={a} />
        ))}
        {theory && theory.lines.mathis.length > 0 ? (
          <>
            <li>
              <svg width="28" height="10" aria-hidden="true">
                <line x1="0" y1="5" x2="28" y2="5" stroke="#333" strokeWidth="1.8" strokeDasharray="6 3" />
              </svg>
              {MODEL_NAMES.mathis}
            </li>
            <li>
              <svg width="28" height="10" aria-hidden="true">
                <line x1="0" y1="5" x2="28" y2="5" stroke="#333" strokeWidth="1.8" strokeDasharray="2 3" />
              </svg>
              {MODEL_NAMES.padhye}
            </li>
          </>
        ) : null}
      </ul>
      <div ref={box}>
        <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={summary}>
          <PlotFrame
            left={m.left}
            right={width - m.right}
            top={m.top}
            bottom={height - m.bottom}
            ticks={yTicks}
            y={y}
            grid="#e6e6e6"
          />
          {xTicks.map((t) => (
            <g key={`x${t}`}>
              <line x1={x(t)} x2={x(t)} y1={m.top} y2={height - m.bottom} stroke="#e6e6e6" />
              <text x={x(t)} y={height - m.bottom + 16} textAnchor="middle">
                {fmtX(t)}
              </text>
            </g>
          ))}
          {narrow ? (
            <text x={(m.left + width - m.right) / 2} y={height - 22} textAnchor="middle" fontWeight={600}>
              <tspan>{spec?.label ?? result.link.param}</tspan>
              <tspan x={(m.left + width - m.right) / 2} dy="1.2em">
                {`${xUnit ? `(${xUnit})` : ''}${result.link.log ? `${xUnit ? ', ' : ''}log scale` : ''}`}
              </tspan>
            </text>
          ) : (
            <text x={(m.left + width - m.right) / 2} y={height - 6} textAnchor="middle" fontWeight={600}>
              {xLabel}
            </text>
          )}
          <text
            transform={`translate(14,${(m.top + height - m.bottom) / 2}) rotate(-90)`}
            textAnchor="middle"
            fontWeight={600}
          >
            {yLabel}
          </text>
          {showCurrent ? (
            <g className="sweep-current">
              <line
                x1={x(current)}
                x2={x(current)}
                y1={m.top}
                y2={height - m.bottom}
                stroke="#111"
                strokeWidth="2"
                strokeDasharray="4 3"
              />
              <text x={x(current) + 4} y={m.top + 12} fontWeight={600}>
                this scenario
              </text>
            </g>
          ) : null}
          {algs.map((a) => {
            const ps = points.filter((p) => p.algorithm === a);
            const color = algStyle(a).color;
            const band =
              ps.map((p, i) => `${i ? 'L' : 'M'}${x(p.x).toFixed(1)},${y(p.max * yFactor).toFixed(1)}`).join('') +
              [...ps]
                .reverse()
                .map((p) => `L${x(p.x).toFixed(1)},${y(p.min * yFactor).toFixed(1)}`)
                .join('') +
              'Z';
            return (
              <g key={a}>
                <path d={band} fill={color} opacity={0.15} />
                <path d={path(ps.map((p) => [p.x, p.mean]))} fill="none" stroke={color} strokeWidth="2.5" />
              </g>
            );
          })}
          <clipPath id="sweep-clip">
            <rect x={m.left} y={m.top} width={width - m.left - m.right} height={height - m.top - m.bottom} />
          </clipPath>
          {theory ? (
            <g clipPath="url(#sweep-clip)">
              <path d={path(theory.lines.mathis)} fill="none" stroke="#333" strokeWidth="1.8" strokeDasharray="6 3" />
              <path d={path(theory.lines.padhye)} fill="none" stroke="#333" strokeWidth="1.8" strokeDasharray="2 3" />
            </g>
          ) : null}
          {points.map((p) => {
            const label = `Open ${algorithmLabel(p.algorithm)} at ${spec?.label ?? result.link.param} = ${
              spec ? formatValue(spec, Number(p.xText)) : p.xText
            }, seed ${p.seeds[0] ?? 1} (mean ${formatNumber(p.mean * yFactor, 4)}${yUnit ? ` ${yUnit}` : ''} over ${p.n} seeds)`;
            const open = () => onOpen(p, p.seeds[0] ?? 1);
            const isCurrent = current !== null && Number(p.xText) === current;
            return (
              <g
                key={`${p.algorithm}|${p.xText}`}
                className="sweep-point"
                role="button"
                tabIndex={0}
                aria-label={label}
                data-algorithm={p.algorithm}
                data-value={p.xText}
                onClick={open}
                onKeyDown={activateOnKey(open)}
              >
                <title>{label}</title>
                <circle
                  cx={x(p.x)}
                  cy={y(p.mean * yFactor)}
                  r={isCurrent ? 7 : 5}
                  fill={isCurrent ? '#fff' : algStyle(p.algorithm).color}
                  stroke={algStyle(p.algorithm).color}
                  strokeWidth={isCurrent ? 3 : 1}
                />
              </g>
            );
          })}
        </svg>
      </div>
      <p className="sweep-note">
        Line: the mean over {result.link.seeds} seed{result.link.seeds === 1 ? '' : 's'} per point (seeds 1 to{' '}
        {result.link.seeds}); band: minimum to maximum over those seeds; flow 0. Click a point (or focus it and press
        Enter) to open that run: the parameter value, the algorithm and seed 1 in the scenario.
      </p>
      {theory ? (
        <p className="sweep-note">
          {theory.lines.mathis.length > 0
            ? `Theory (${MODEL_NAMES.mathis}, ${MODEL_NAMES.padhye}) from the engine for flow 0 at each point's loss rate; inputs at the first point: ${theory.inputs}.`
            : `No theory lines: ${theory.unavailable}.`}
        </p>
      ) : null}
      <ResultFooter result={result} onDownload={onDownload} />
    </section>
  );
}
