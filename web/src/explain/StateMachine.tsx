// Each compared algorithm's congestion-control states and transitions, as the engine's
// catalogue gives them (machine.rs): the state at the cursor is lit (and says so in words),
// the transition that fired last is drawn heavier and tagged, and a state is a button that
// moves the cursor to the next time the run enters it. Numbers tie the arrows to the list of
// transitions below, so the diagram never relies on colour alone.
import { narrowLayout } from '../app/layout';
import { useApp, useAppState } from '../app/AppContext';
import type { Machine } from '../engine/tables';
import { runLabel } from '../scenario/competition';
import type { DecisionIndex } from './decisionIndex';
import type { Explainer } from './explainer';
import { phaseName } from './vocabulary';

/** Below this width (one column: phones) the diagrams start folded. */
export function wide(): boolean {
  return !narrowLayout();
}

const BOX_W = 140;
const BOX_H = 44;
const CELL_W = 210;
const CELL_H = 132;
const PAD = 34;

/** A state's label in one or two lines that fit its box (a long name breaks at its last
 *  space), with the ● of the state now. */
function stateLines(name: string, lit: boolean): string[] {
  const label = lit ? `● ${name}` : name;
  const cut = label.lastIndexOf(' ');
  return label.length > 16 && cut > 0 ? [label.slice(0, cut), label.slice(cut + 1)] : [label];
}

/** Where each state sits, in cells: four states go round a square (slow start → congestion
 *  avoidance → fast recovery → timeout recovery, the usual cycle), three in a triangle, more
 *  in rows of three. */
function cells(n: number): [number, number][] {
  if (n === 4)
    return [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
    ];
  if (n === 3)
    return [
      [0, 0],
      [1, 0],
      [0.5, 1],
    ];
  return Array.from({ length: n }, (_, i) => [i % 3, Math.floor(i / 3)] as [number, number]);
}

/** Where the segment from the centre of a box toward (dx, dy) leaves it. */
function edge(cx: number, cy: number, dx: number, dy: number): [number, number] {
  const sx = dx === 0 ? Infinity : BOX_W / 2 / Math.abs(dx);
  const sy = dy === 0 ? Infinity : BOX_H / 2 / Math.abs(dy);
  const k = Math.min(sx, sy);
  return [cx + dx * k, cy + dy * k];
}

/** The row whose state the diagram shows: the selected decision of this run, else the one in
 *  force at the cursor, else the run's last. */
function rowFor(explainer: Explainer, key: string, idx: DecisionIndex): number {
  const s = explainer.state();
  if (s.selected?.key === key) {
    const r = idx.rowOf(s.selected.index);
    if (r >= 0) return r;
  }
  return s.cursor === null ? idx.length - 1 : idx.lastAtOrBefore(s.cursor);
}

function Diagram({ explainer, keyName, machine }: { explainer: Explainer; keyName: string; machine: Machine }) {
  const scenario = useAppState((s) => s.scenario);
  useAppState((s) => s.decisionsVersion);
  useAppState((s) => s.cursor);
  useAppState((s) => s.selected);
  const idx = explainer.index(keyName);
  const row = idx ? rowFor(explainer, keyName, idx) : -1;
  const phase = idx && row >= 0 ? idx.phaseAt(row) : -1;
  const lastRow = idx && row >= 0 ? idx.lastTransition(row) : -1;
  const last = idx && lastRow >= 0 ? idx.get('transition', lastRow) : -1;
  const ovRow = idx && row >= 0 && machine.overlay ? idx.lastTransition(row, 'overlay') : -1;
  const ovState = idx && ovRow >= 0 ? machine.overlay?.transitions[idx.get('overlay', ovRow)]?.to : 'validated';
  const states = machine.states;
  const col = new Map(states.map((s, i) => [s.code, i]));
  const at = cells(states.length);
  const cx = (i: number) => PAD + ((at[i]?.[0] ?? 0) + 0.5) * CELL_W;
  const cy = (i: number) => PAD + ((at[i]?.[1] ?? 0) + 0.5) * CELL_H - (CELL_H - BOX_H) / 2 + 24;
  const width = 2 * PAD + Math.max(...at.map((c) => c[0] + 1)) * CELL_W;
  const height = 2 * PAD + Math.max(...at.map((c) => c[1] + 1)) * CELL_H - CELL_H + BOX_H + 60;
  const label = runLabel(scenario, keyName);
  const enter = (code: number) =>
    explainer.enterState(keyName, (ix, r) => ix.get('to', r) === code && ix.get('from', r) !== code);
  // Arcs: one per (from, to) of each transition; several between one pair bend further, the
  // two directions to opposite sides; self-loops sit on the box's outer edge.
  const arcs: { n: number; d: string; lx: number; ly: number; lit: boolean }[] = [];
  const bends = new Map<string, number>();
  machine.transitions.forEach((tr, n) => {
    for (const from of tr.from) {
      const i = col.get(from);
      const j = tr.to === null ? i : col.get(tr.to);
      if (i === undefined || j === undefined) continue;
      const pair = i === j ? `s${i}` : `${Math.min(i, j)}-${Math.max(i, j)}`;
      const k = bends.get(pair) ?? 0;
      bends.set(pair, k + 1);
      const lit = n === last;
      const x0 = cx(i);
      const y0 = cy(i);
      if (i === j) {
        const top = (at[i]?.[1] ?? 0) === 0;
        const x = x0 - BOX_W / 2 + 16 + k * 24;
        const y = top ? y0 - BOX_H / 2 : y0 + BOX_H / 2;
        const h = top ? -28 : 28;
        arcs.push({
          n,
          d: `M ${x - 7} ${y} C ${x - 14} ${y + h}, ${x + 14} ${y + h}, ${x + 7} ${y}`,
          lx: x,
          ly: y + h * 0.78,
          lit,
        });
        continue;
      }
      const x1 = cx(j);
      const y1 = cy(j);
      const len = Math.hypot(x1 - x0, y1 - y0) || 1;
      const ux = (x1 - x0) / len;
      const uy = (y1 - y0) / len;
      // Normal to the ordered pair, so i→j and j→i bend to opposite sides.
      const sign = i < j ? 1 : -1;
      const off = sign * (16 + 18 * k);
      const mx = (x0 + x1) / 2 - uy * off;
      const my = (y0 + y1) / 2 + ux * off;
      const [sx, sy] = edge(x0, y0, mx - x0, my - y0);
      const [ex, ey] = edge(x1, y1, mx - x1, my - y1);
      arcs.push({
        n,
        d: `M ${sx} ${sy} Q ${2 * mx - (sx + ex) / 2} ${2 * my - (sy + ey) / 2}, ${ex} ${ey}`,
        lx: mx,
        ly: my,
        lit,
      });
    }
  });
  return (
    <figure className="machine" data-run={keyName}>
      <figcaption>
        <strong>{label}</strong>:{' '}
        {phase >= 0 ? (
          <>
            now in <span className="machine-now">{phaseName(phase)}</span>
          </>
        ) : (
          'before its first decision'
        )}
        {machine.overlay && <> · {ovState === 'non_validated' ? 'non-validated phase' : 'validated phase'}</>}
      </figcaption>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        className="machine-svg"
        role="group"
        aria-label={`${label}: states and transitions`}
      >
        <defs>
          <marker
            id={`arrow-${keyName}`}
            viewBox="0 0 10 10"
            refX="9"
            refY="5"
            markerWidth="7"
            markerHeight="7"
            orient="auto-start-reverse"
          >
            <path d="M 0 0 L 10 5 L 0 10 z" fill="currentColor" />
          </marker>
        </defs>
        {arcs.map((a, i) => (
          <g key={i} className={a.lit ? 'machine-arc lit' : 'machine-arc'} data-transition={a.n}>
            <path d={a.d} fill="none" markerEnd={`url(#arrow-${keyName})`} />
            <circle cx={a.lx} cy={a.ly} r={8} />
            <text x={a.lx} y={a.ly + 4} textAnchor="middle">
              {a.n + 1}
            </text>
          </g>
        ))}
        {states.map((s, i) => {
          const lit = s.code === phase;
          return (
            <g
              key={s.code}
              className={lit ? 'machine-state lit' : 'machine-state'}
              data-state={s.id}
              data-lit={lit}
              role="button"
              tabIndex={0}
              aria-label={`${phaseName(s.code)}${lit ? ' (the state now)' : ''}: ${s.description}. Move the cursor to the next time ${label} enters it.`}
              onClick={() => enter(s.code)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' || e.key === ' ') {
                  e.preventDefault();
                  enter(s.code);
                }
              }}
            >
              <title>{s.description}</title>
              <rect x={cx(i) - BOX_W / 2} y={cy(i) - BOX_H / 2} width={BOX_W} height={BOX_H} rx={8} />
              <text x={cx(i)} y={cy(i) + 5} textAnchor="middle">
                {stateLines(phaseName(s.code), lit).map((line, k, all) => (
                  <tspan key={k} x={cx(i)} dy={k === 0 ? (all.length - 1) * -7 : 14}>
                    {line}
                  </tspan>
                ))}
              </text>
            </g>
          );
        })}
      </svg>
      {last >= 0 && idx && lastRow >= 0 && (
        <p className="machine-last-line">
          Fired last:{' '}
          <strong>
            {last + 1}. {machine.transitions[last]?.label}
          </strong>{' '}
          at {idx.t(lastRow).toFixed(6)} s
        </p>
      )}
      <details className="machine-all">
        <summary>Every transition, by number</summary>
        <ol className="machine-list">
          {machine.transitions.map((tr, n) => (
            <li key={n} className={n === last ? 'lit' : undefined} data-transition={n}>
              {tr.label}
              {n === last && idx && lastRow >= 0 && (
                <strong className="machine-last"> — fired last, at {idx.t(lastRow).toFixed(6)} s</strong>
              )}
            </li>
          ))}
        </ol>
      </details>
    </figure>
  );
}

/** The state machines of the runs: every compared algorithm (the focused one first: the run
 *  a preset's lesson is about, or the one chosen), or the focused flow of a competition. */
export function StateMachines() {
  const { controller } = useApp();
  const explainer = controller.explainer;
  useAppState((s) => s.decisionsVersion);
  const mode = useAppState((s) => s.mode);
  const keysText = useAppState((s) => {
    const focus = explainer.focusKey(s);
    if (s.mode === 'compete') return focus ?? '';
    return (focus === null ? s.keys : [focus, ...s.keys.filter((k) => k !== focus)]).join(',');
  });
  const keys = keysText === '' ? [] : keysText.split(',');
  const shown = keys.flatMap((k) => {
    const m = explainer.index(k)?.machine;
    return m ? [{ k, m }] : [];
  });
  if (shown.length === 0) return null;
  return (
    <details className="machines" open={wide()}>
      <summary>
        <h3>
          States and transitions
          {mode === 'compete' ? ' of the flow' : ''}
        </h3>
      </summary>
      <p className="muted">Click a state to move to the next time the run enters it.</p>
      {shown.map(({ k, m }) => (
        <Diagram key={k} explainer={explainer} keyName={k} machine={m} />
      ))}
    </details>
  );
}
