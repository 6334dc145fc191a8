#!/usr/bin/env node
// Figures 13 and 14 of Komuro et al. 2006 (source 002) with `cwndlab sweep`: BR-TCP and
// NewReno throughput against RTT at 40 Mbit/s reserved (figure 13), and BR-TCP's gain over
// NewReno against RTT at 10, 20, 30 and 40 Mbit/s reserved (figure 14), on the preset
// br-tcp-komuro (router delay 10 to 25 ms: RTT 28 to 58 ms).
//
// Two regimes, because the result depends on how NewReno leaves a long recovery:
//   lab  — the lab's NewReno (RFC 6582, timer restarted on the first partial ACK only), 30 s;
//   ns2  — ns-2's NewReno (timer restarted on every partial ACK, tcp-newreno.cc's default,
//          the paper's simulator), 120 s.
//
// Writes docs/data/br-tcp-sweeps.csv, docs/images/br-tcp-fig13.svg and br-tcp-fig14-{lab,ns2}.svg,
// and the tables between the br-tcp-sweeps markers in docs/validation.md.
// Usage: node scripts/br-tcp-sweeps.mjs   (about 20 s on 2 cores)
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const engine = join(root, 'engine');
execFileSync('cargo', ['build', '--release', '-q', '-p', 'cwndlab-cli'], { cwd: engine, stdio: 'inherit' });
const bin = join(engine, 'target', 'release', 'cwndlab');

const delays = ['0.010', '0.0125', '0.015', '0.0175', '0.020', '0.0225', '0.025'];
const reserved = ['10000000', '20000000', '30000000', '40000000'];
const regimes = [
  { name: 'lab', label: 'lab NewReno (RFC 6582 impatient timer), 30 s', sets: ['duration=30'] },
  {
    name: 'ns2',
    label: "ns-2's NewReno (timer restarted on every partial ACK), 120 s",
    sets: ['duration=120', 'flows[0].cc.newreno_timer=every_partial'],
  },
];

/** Runs one sweep; returns rows {regime, delay, reserved, algorithm, goodput, timeouts}. */
function sweep(regime) {
  const args = ['sweep', '--preset', 'br-tcp-komuro', '--quiet'];
  for (const s of regime.sets) args.push('--set', s);
  args.push('--param', 'network.bottleneck.delay', '--values', delays.join(','));
  args.push('--param2', 'flows[0].reserved_bandwidth', '--values2', reserved.join(','));
  args.push('--algorithms', 'newreno,br_tcp', '--metrics', 'goodput_bps,timeouts,cwnd_cv', '--format', 'json');
  const out = JSON.parse(execFileSync(bin, args, { encoding: 'utf8', maxBuffer: 1 << 26 }));
  return out.runs.map((r) => ({
    regime: regime.name,
    delay: Number(r.params['network.bottleneck.delay']),
    reserved: Number(r.params['flows[0].reserved_bandwidth']),
    algorithm: r.algorithm,
    goodput: r.metrics.goodput_bps,
    timeouts: r.metrics.timeouts,
  }));
}

const rows = regimes.flatMap(sweep);
const rtt = (d) => Math.round(8 + 2000 * d); // 2 + d + 2 ms each way
const get = (regime, d, r, alg) =>
  rows.find((x) => x.regime === regime && x.delay === Number(d) && x.reserved === Number(r) && x.algorithm === alg);
const gain = (regime, d, r) => get(regime, d, r, 'br_tcp').goodput / get(regime, d, r, 'newreno').goodput;

mkdirSync(join(root, 'docs', 'data'), { recursive: true });
writeFileSync(
  join(root, 'docs', 'data', 'br-tcp-sweeps.csv'),
  'regime,router_delay_s,rtt_ms,reserved_bps,algorithm,goodput_bps,timeouts\n' +
    rows
      .map((x) =>
        [x.regime, x.delay, rtt(x.delay), x.reserved, x.algorithm, x.goodput.toFixed(0), x.timeouts].join(','),
      )
      .join('\n') +
    '\n',
);

// --- SVG line charts, no dependencies ---------------------------------------------------
const COLOURS = ['#1b6ac9', '#d1495b', '#2e8540', '#8a5cd0', '#e08a00', '#555'];
function chart({ title, xLabel, yLabel, series, yMin, yMax }) {
  const W = 640,
    H = 360,
    L = 60,
    R = 200,
    T = 36,
    B = 48;
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const X = (x) => L + ((x - x0) / (x1 - x0)) * (W - L - R);
  const Y = (y) => H - B - ((y - yMin) / (yMax - yMin)) * (H - T - B);
  const ticks = (a, b, n) => Array.from({ length: n + 1 }, (_, i) => a + ((b - a) * i) / n);
  let svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">\n`;
  svg += `<rect width="${W}" height="${H}" fill="white"/>\n<text x="${L}" y="20" font-size="14" font-weight="bold">${title}</text>\n`;
  for (const t of ticks(yMin, yMax, 5)) {
    svg += `<line x1="${L}" x2="${W - R}" y1="${Y(t)}" y2="${Y(t)}" stroke="#ddd"/><text x="${L - 6}" y="${Y(t) + 4}" text-anchor="end">${+t.toFixed(2)}</text>\n`;
  }
  for (const x of [...new Set(xs)]) {
    svg += `<text x="${X(x)}" y="${H - B + 16}" text-anchor="middle">${x}</text>\n`;
  }
  svg += `<text x="${(L + W - R) / 2}" y="${H - 10}" text-anchor="middle">${xLabel}</text>\n`;
  svg += `<text transform="translate(16 ${(T + H - B) / 2}) rotate(-90)" text-anchor="middle">${yLabel}</text>\n`;
  series.forEach((s, i) => {
    const c = COLOURS[i % COLOURS.length];
    const d = s.points.map((p, k) => `${k ? 'L' : 'M'}${X(p[0]).toFixed(1)},${Y(p[1]).toFixed(1)}`).join('');
    svg += `<path d="${d}" fill="none" stroke="${c}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>\n`;
    for (const p of s.points)
      svg += `<circle cx="${X(p[0]).toFixed(1)}" cy="${Y(p[1]).toFixed(1)}" r="3" fill="${c}"/>\n`;
    svg += `<line x1="${W - R + 12}" x2="${W - R + 36}" y1="${T + 10 + i * 20}" y2="${T + 10 + i * 20}" stroke="${c}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/><text x="${W - R + 42}" y="${T + 14 + i * 20}">${s.name}</text>\n`;
  });
  return svg + '</svg>\n';
}

const mbit = (v) => v / 1e6;
const fig13 = chart({
  title: 'Figure 13: throughput vs RTT, 40 Mbit/s reserved',
  xLabel: 'RTT (ms)',
  yLabel: 'goodput (Mbit/s)',
  yMin: 0,
  yMax: 40,
  series: regimes.flatMap((g) =>
    ['newreno', 'br_tcp'].map((alg) => ({
      name: `${alg === 'br_tcp' ? 'BR-TCP' : 'NewReno'} (${g.name})`,
      dashed: g.name === 'ns2',
      points: delays.map((d) => [rtt(d), mbit(get(g.name, d, '40000000', alg).goodput)]),
    })),
  ),
});
// Figure 14, one chart per regime (their gains differ by two orders of magnitude).
const fig14 = Object.fromEntries(
  regimes.map((g) => {
    const gs = reserved.flatMap((r) => delays.map((d) => gain(g.name, d, r)));
    const lo = Math.floor(Math.min(1, ...gs) * 100) / 100;
    const hi = Math.max(...gs) > 1.5 ? Math.ceil(Math.max(...gs)) : Math.ceil(Math.max(...gs) * 100 + 1) / 100;
    return [
      g.name,
      chart({
        title: `Figure 14: BR-TCP / NewReno goodput vs RTT (${g.name})`,
        xLabel: 'RTT (ms)',
        yLabel: 'gain (BR-TCP / NewReno)',
        yMin: lo,
        yMax: hi,
        series: reserved.map((r) => ({
          name: `${r / 1e6} Mbit/s reserved`,
          points: delays.map((d) => [rtt(d), gain(g.name, d, r)]),
        })),
      }),
    ];
  }),
);
writeFileSync(join(root, 'docs', 'images', 'br-tcp-fig13.svg'), fig13);
for (const g of regimes) writeFileSync(join(root, 'docs', 'images', `br-tcp-fig14-${g.name}.svg`), fig14[g.name]);

// --- Markdown tables into docs/validation.md --------------------------------------------
let md = '';
for (const g of regimes) {
  md += `\n**${g.label}** — goodput NewReno / BR-TCP in Mbit/s (timeouts), and the gain:\n\n`;
  md += `| RTT (ms) | ${reserved.map((r) => `${r / 1e6} Mbit/s reserved`).join(' | ')} |\n`;
  md += `|---|${reserved.map(() => '---').join('|')}|\n`;
  for (const d of delays) {
    const cells = reserved.map((r) => {
      const n = get(g.name, d, r, 'newreno');
      const b = get(g.name, d, r, 'br_tcp');
      return `${mbit(n.goodput).toFixed(1)} (${n.timeouts}) / ${mbit(b.goodput).toFixed(1)} (${b.timeouts}) → ×${gain(g.name, d, r).toFixed(2)}`;
    });
    md += `| ${rtt(d)} | ${cells.join(' | ')} |\n`;
  }
}
const doc = join(root, 'docs', 'validation.md');
const text = readFileSync(doc, 'utf8');
const begin = '<!-- br-tcp-sweeps:begin (generated by scripts/br-tcp-sweeps.mjs) -->';
const end = '<!-- br-tcp-sweeps:end -->';
const a = text.indexOf(begin);
const b = text.indexOf(end);
if (a < 0 || b < a) throw new Error(`docs/validation.md lacks the markers ${begin} … ${end}`);
writeFileSync(doc, text.slice(0, a + begin.length) + '\n' + md + '\n' + text.slice(b));
console.log(md);
