// The sweep plot over an enumerated setting (a queue discipline, an application kind): one
// band per value, in the order the sweep lists them, labelled with the engine's names for the
// values; in each band a point per algorithm (the mean over the seeds, the same colours and
// legend as the line plot) with a bar from the minimum to the maximum over the seeds. The
// scenario's own value is marked; a point opens its run (a button: the plot is a group of
// them with its summary as its name, not an image, which may hold no control).
import { scaleLinear } from 'd3-scale';
import { algStyle } from '../lib/styles';
import { algorithmLabel } from '../scenario/algorithms';
import { displayForUnit, formatNumber, specOf } from '../scenario/params';
import { activateOnKey, AlgLegendItem, PlotFrame, ResultFooter, useWidth, type ResultProps } from './SweepParts';

/** The engine's label of an enumerated setting's value (its name when it has none). */
function valueLabel(param: string, value: string): string {
  return specOf(param)?.options?.find((o) => o.value === value)?.label ?? value;
}

export function BandsPlot(props: ResultProps) {
  const { result, points, metricLabel, metricUnit, current, onOpen, onDownload } = props;
  const { box, width } = useWidth();
  const param = result.link.param;
  const spec = specOf(param);
  const values = result.link.values ?? [];
  const yDisplay = displayForUnit(metricUnit);
  const yFactor = yDisplay?.factor ?? 1;
  const yUnit = yDisplay?.unit ?? metricUnit;
  const algs = [...new Set(points.map((p) => p.algorithm))];
  const labels = values.map((v) => valueLabel(param, v));

  // Room on top for the scenario's own band's label.
  const m = { top: 24, right: 24, bottom: 44, left: 64 };
  const band = (width - m.left - m.right) / Math.max(1, values.length);
  // Labels wider than their band (about 7 px a character) are slanted, and the axis and the
  // plot made taller by as much.
  const longest = Math.max(0, ...labels.map((l) => l.length));
  const slant = longest * 7 > band - 6;
  const extra = slant ? Math.round(longest * 7 * 0.55) : 0;
  m.bottom += extra;
  const height = Math.round(Math.min(420, Math.max(240, width * 0.5))) + extra;
  const plotBottom = height - m.bottom;
  const yvals = points.flatMap((p) => [p.min * yFactor, p.max * yFactor]).filter(Number.isFinite);
  const ymax = Math.max(0, ...yvals);
  const ymin = Math.min(0, ...yvals);
  // A little room above the highest bar, so that no point sits on the frame.
  const y = scaleLinear()
    .domain([ymin, ymax > ymin ? ymax + (ymax - ymin) * 0.04 : ymin + 1])
    .nice()
    .range([plotBottom, m.top]);
  const yTicks = y.ticks(Math.max(2, Math.floor(height / 50)));
  const centre = (i: number) => m.left + band * (i + 0.5);
  // The algorithms side by side within a band.
  const step = Math.min(22, (band * 0.7) / Math.max(1, algs.length));
  const xOf = (i: number, alg: string) => centre(i) + (algs.indexOf(alg) - (algs.length - 1) / 2) * step;
  const xLabel = spec?.label ?? param;
  const yLabel = `${metricLabel}${yUnit ? ` (${yUnit})` : ''}`;
  const unitText = yUnit ? ` ${yUnit}` : '';
  const summary =
    `${yLabel} for each ${xLabel}: ` +
    values
      .map((v, i) => {
        const ps = points.filter((p) => p.index === i);
        return `${labels[i]}: ${ps.map((p) => `${algorithmLabel(p.algorithm)} ${formatNumber(p.mean * yFactor, 3)}${unitText}`).join(', ')}`;
      })
      .join('; ');
  const seeds = result.link.seeds;

  return (
    <section className="sweep-plot" aria-label="Sweep plot">
      <ul className="sweep-legend">
        {algs.map((a) => (
          <AlgLegendItem key={a} algorithm={a} />
        ))}
      </ul>
      <div ref={box}>
        <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="group" aria-label={summary}>
          {values.map((v, i) => (
            <rect
              key={`band${v}`}
              className="sweep-band"
              data-value={v}
              x={m.left + band * i}
              y={m.top}
              width={band}
              height={plotBottom - m.top}
              fill={i % 2 ? '#f3f3f3' : '#fff'}
            />
          ))}
          <PlotFrame
            left={m.left}
            right={width - m.right}
            top={m.top}
            bottom={plotBottom}
            ticks={yTicks}
            y={y}
            grid="#e0e0e0"
          />
          {values.map((v, i) => (
            <text
              key={`label${v}`}
              className="sweep-band-label"
              data-value={v}
              x={centre(i)}
              y={plotBottom + 16}
              textAnchor={slant ? 'end' : 'middle'}
              transform={slant ? `rotate(-35 ${centre(i)} ${plotBottom + 16})` : undefined}
              fontWeight={v === current ? 700 : undefined}
            >
              {labels[i]}
            </text>
          ))}
          <text x={(m.left + width - m.right) / 2} y={height - 6} textAnchor="middle" fontWeight={600}>
            {xLabel}
          </text>
          <text
            transform={`translate(14,${(m.top + plotBottom) / 2}) rotate(-90)`}
            textAnchor="middle"
            fontWeight={600}
          >
            {yLabel}
          </text>
          {values.includes(String(current)) ? (
            <g className="sweep-current">
              <rect
                x={m.left + band * values.indexOf(String(current)) + 1.5}
                y={m.top + 1.5}
                width={band - 3}
                height={plotBottom - m.top - 3}
                fill="none"
                stroke="#111"
                strokeWidth="2"
                strokeDasharray="4 3"
              />
              {band >= 110 ? (
                <text x={m.left + band * values.indexOf(String(current)) + 2} y={m.top - 6} fontWeight={600}>
                  this scenario
                </text>
              ) : null}
            </g>
          ) : null}
          {points.map((p) => {
            if (p.index < 0) return null;
            const color = algStyle(p.algorithm).color;
            const cx = xOf(p.index, p.algorithm);
            const label = `Open ${algorithmLabel(p.algorithm)} at ${xLabel} = ${labels[p.index]} (${p.xText}), seed ${
              p.seeds[0] ?? 1
            } (mean ${formatNumber(p.mean * yFactor, 4)}${unitText} over ${p.n} seeds)`;
            const open = () => onOpen(p, p.seeds[0] ?? 1);
            const isCurrent = p.xText === current;
            return (
              <g
                key={`${p.algorithm}|${p.xText}`}
                className="sweep-point"
                role="button"
                tabIndex={0}
                aria-label={label}
                data-algorithm={p.algorithm}
                data-value={p.xText}
                data-mean={p.mean}
                onClick={open}
                onKeyDown={activateOnKey(open)}
              >
                <title>{label}</title>
                <line x1={cx} x2={cx} y1={y(p.min * yFactor)} y2={y(p.max * yFactor)} stroke={color} strokeWidth="2" />
                <line
                  x1={cx - 4}
                  x2={cx + 4}
                  y1={y(p.min * yFactor)}
                  y2={y(p.min * yFactor)}
                  stroke={color}
                  strokeWidth="2"
                />
                <line
                  x1={cx - 4}
                  x2={cx + 4}
                  y1={y(p.max * yFactor)}
                  y2={y(p.max * yFactor)}
                  stroke={color}
                  strokeWidth="2"
                />
                <circle
                  cx={cx}
                  cy={y(p.mean * yFactor)}
                  r={isCurrent ? 7 : 5}
                  fill={isCurrent ? '#fff' : color}
                  stroke={color}
                  strokeWidth={isCurrent ? 3 : 1}
                />
              </g>
            );
          })}
        </svg>
      </div>
      <p className="sweep-note">
        Point: the mean over {seeds} seed{seeds === 1 ? '' : 's'} per value (seeds 1 to {seeds}); bar: minimum to
        maximum over those seeds; flow 0; the values in the order chosen, the scenario's own outlined (dashed) with its
        points hollow. Click a point (or focus it and press Enter) to open that run: the value, the algorithm and seed 1
        in the scenario.
      </p>
      <ResultFooter result={result} onDownload={onDownload} />
    </section>
  );
}
