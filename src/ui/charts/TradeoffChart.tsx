// The preference trade-off view: held-out accuracy against cost, latency or the share of paid API calls for every
// baseline, their frontier, the policy swept over P and the sliders' operating point (★), drawn in ChartFrame.

import { useMemo } from 'react';
import { symbol, symbolStar } from 'd3-shape';
import { formatCost } from '../../core/sim/catalog';
import { useLab, type LabState } from '../../store/labStore';
import { useView } from '../../store/viewStore';
import { chartFontPx, placeLabels } from './labelPlacement';
import { FailureBar } from './FailureBar';
import { EVAL_SUITES } from '../../store/urlState';
import { useStaggered } from './useStaggered';
import type { Tradeoff, TradeoffAxis, TradeoffPoint } from '../../worker/protocol';
import { ChartCard } from './ChartCard';
import { ChartFrame, type Marks } from './ChartFrame';
import { linearTicks, logTicks, type Ticks } from './axisTicks';
import { linePath } from './shapes';

const FAMILY_COLOURS: Record<string, string> = {
  random: '#868e96',
  cheapest: '#adb5bd',
  always: '#e8590c',
  repeat: '#9c36b5',
  notools: '#1971c2',
  'tools+model': '#c2255c',
  prompted: '#0c8599',
  cascade: '#f59f00',
  greedy: '#4263eb',
  hindsight: '#2f9e44',
};
const familyColour = (f: string): string => FAMILY_COLOURS[f] ?? '#888';

/** What each family of baselines is, for its legend entry's tooltip (core/eval/baselines.ts, modelDriven.ts). */
const FAMILY_NOTES: Record<string, string> = {
  random: 'random: a uniformly random allowed action at every turn',
  cheapest: 'cheapest: the cheapest model that can answer, once, with no evidence gathered',
  always: 'always:X: model X answers every step, with no search or code',
  repeat: 'repeat:X:k: model X writes k queries or programs for each step (a tool runs them), then answers it',
  notools: 'notools:X: model X answers the whole question alone, in one generation, with no tools (the paper’s rows)',
  'tools+model':
    'tools+X: model X with basic tools — it writes its own queries and programs, then answers itself ' +
    '(the paper’s Table 1 rows)',
  prompted:
    'prompted:X: model X prompted to orchestrate all the tools, with the self-enhancement bias the paper ' +
    'measured (Table 15)',
  cascade:
    'cascade:θ: cheap tools first, escalating to dearer ones while the evidence is weaker than θ ' +
    '(FrugalGPT-style), one dot per θ',
  greedy:
    'greedy:λ: the best simple rule on the policy’s own estimates — each turn it buys the evidence whose expected gain ' +
    'beats λ × its cost, then answers with the best chance minus λ × cost; one dot per λ',
  hindsight: 'hindsight: sees which call would succeed and takes the cheapest plan that answers right with at most one find a ' +
    'step — a cheap right path, not an upper bound (a policy that gathers more evidence can beat it)',
};

/** A baseline's name in a sentence: the view's own name for it, or its label in words ("always qwen3-8b"). */
const nameOf = (label: string): string => NAMED[label] ?? label.replace(/^always:/, 'always ').replace(/^tools\+(.+)$/, '$1 with tools');

/**
 * A share as a whole percentage (or a dash), padded with figure spaces to the width of "100%": the line keeps its length
 * as the numbers move, so the view never changes height (and the charts beside it never re-lay out) while training.
 */
const pct = (x: number | null): string => (x === null ? '—' : `${Math.round(100 * x)}%`).padStart(4, '\u2007');

/** Baselines named on the view itself (not only on hover): label → the name drawn beside the dot. */
const NAMED: Record<string, string> = {
  'always:gpt-5': 'always GPT-5',
  'tools+gpt-5': 'GPT-5 + tools',
  cheapest: 'cheapest',
  hindsight: 'hindsight',
};

const YOU = 'you are here';
/**
 * The operating point's ★ around (0, 0): d3's five-pointed star, 11 px from its centre to a tip (d3's inner
 * points are thinner than the hand-drawn star's were; at 9 px it read smaller than the dots around it).
 */
const STAR = symbol(symbolStar, 136)() ?? '';

/** Labels beside their dots, pushed apart vertically so that none overlaps another. */
function PointLabels({
  items,
  avoid,
  dots,
  m,
  axis,
}: {
  items: { p: TradeoffPoint; text: string }[];
  avoid: readonly TradeoffPoint[];
  /** Every label keeps off these (the baselines' dots): a name over a dot hides it. */
  dots: readonly TradeoffPoint[];
  m: Marks;
  axis: TradeoffAxis;
}) {
  const font = useView((v) => chartFontPx(v.classroom));
  const at = (p: TradeoffPoint) => {
    const x = m.sx(p[axis]),
      y = m.sy(p.accuracy);
    return x === undefined || y === undefined ? null : { x, y };
  };
  // The orchestrator's curve is kept clear: a baseline's name over it would read as naming the policy.
  const boxes = placeLabels(
    items.flatMap(({ p, text }) => {
      const q = at(p);
      return q ? [{ ...q, text }] : [];
    }),
    font,
    YOU,
    avoid.flatMap((p) => at(p) ?? []),
    dots.flatMap((p) => at(p) ?? []),
    { left: 0, right: m.width },
  );
  return (
    <g className="point-labels" aria-hidden="true">
      {boxes.map((b) => (
        <text
          key={b.text}
          className={b.text === YOU ? 'point-label you' : 'point-label'}
          x={b.anchor === 'end' ? b.x + b.w : b.x}
          y={b.y + b.h - 3}
          textAnchor={b.anchor}
        >
          {b.text}
        </text>
      ))}
    </g>
  );
}

/**
 * The view's marks: baselines coloured by family, the baselines' frontier (dashed), the policy
 * swept over P (line + dots) and the operating point (★); `points` is the hover order.
 */
function TradeoffMarks({
  t,
  axis,
  sweep,
  points,
  m,
}: {
  t: Tradeoff;
  axis: TradeoffAxis;
  sweep: readonly TradeoffPoint[];
  points: readonly TradeoffPoint[];
  m: Marks;
}) {
  const { sx, sy, active } = m;
  const line = (ps: readonly TradeoffPoint[]) =>
    linePath(
      ps.map((p) => p[axis]),
      ps.map((p) => p.accuracy),
      sx,
      sy,
    );
  const dot = (p: TradeoffPoint, r: number, fill: string, key: string) => {
    const x = sx(p[axis]);
    const y = sy(p.accuracy);
    return x === undefined || y === undefined ? null : (
      <circle key={key} cx={x} cy={y} r={r} fill={fill} stroke="var(--panel)" strokeWidth={1}>
        <title>{p.label}</title>
      </circle>
    );
  };
  const cx = sx(t.current[axis]);
  const cy = sy(t.current.accuracy);
  const hovered = active >= 0 ? points[active] : undefined;
  const hx = hovered ? sx(hovered[axis]) : undefined;
  const hy = hovered ? sy(hovered.accuracy) : undefined;
  return (
    <g className="tradeoff-marks">
      <path d={line(t.frontiers[axis])} fill="none" stroke="#f59f00" strokeDasharray="4 3" strokeWidth={1.5} />
      <path className="sweep" d={line(sweep)} fill="none" stroke="var(--accent)" strokeWidth={2} />
      {t.baselines.map((p) => dot(p, 4.5, familyColour(p.family), `b:${p.label}`))}
      {sweep.map((p) => dot(p, 3.5, 'var(--accent)', `s:${p.label}`))}
      {cx !== undefined && cy !== undefined && (
        <path
          className="operating-star"
          d={STAR}
          transform={`translate(${cx} ${cy})`}
          fill="#e03131"
          stroke="var(--panel)"
          strokeWidth={1}
        >
          <title>{t.current.label}</title>
        </path>
      )}
      <PointLabels
        m={m}
        axis={axis}
        avoid={sweep}
        dots={[...t.baselines, t.current]}
        items={[
          ...t.baselines.filter((b) => NAMED[b.label]).map((p) => ({ p, text: NAMED[p.label] as string })),
          ...(() => {
            const c = t.baselines.filter((b) => b.family === 'cascade').sort((a, b) => b.accuracy - a.accuracy)[0];
            return c ? [{ p: c, text: 'cascade' }] : [];
          })(),
          { p: t.current, text: YOU },
        ]}
      />
      {hx !== undefined && hy !== undefined && (
        <circle cx={hx} cy={hy} r={8} fill="none" stroke="var(--ink)" strokeWidth={1.5} />
      )}
    </g>
  );
}

/** Tick labels of the cost axis: $0.001, $0.01 … or plain units. */
const costTick = (v: number): string => `$${Number(v.toPrecision(2))}`;
const unitTick = (v: number): string => `${Number(v.toPrecision(2))}`;
const percentTick = (v: number): string => `${Math.round(100 * v)}%`;
const ACCURACY_TICKS: Ticks = { values: [0, 0.25, 0.5, 0.75, 1], domain: [0, 1], decimals: 2 };

const selectTradeoff = (s: LabState) => s.tradeoff;

const AXES: readonly { axis: TradeoffAxis; name: string }[] = [
  { axis: 'cost', name: 'cost' },
  { axis: 'latencyS', name: 'latency' },
  { axis: 'apiShare', name: 'API calls' },
];
const secondsTick = (v: number): string => `${Number(v.toPrecision(2))} s`;
// A little room past 100% so the last tick label is not cut at the plot's edge.
const SHARE_TICKS: Ticks = { values: [0, 0.25, 0.5, 0.75, 1], domain: [0, 1.04], decimals: 2 };

/**
 * Accuracy vs cost (or latency, or the share of calls to paid APIs): every baseline, their
 * frontier, the policy swept over P, and the sliders' operating point.
 */
export function TradeoffChart() {
  // Evaluations arrive at most every few seconds and answer the user's slider: draw them at once.
  const t = useStaggered(selectTradeoff, 0, 0);
  const evaluating = useLab((s) => s.evaluating);
  const catalog = useLab((s) => s.catalog);
  const evalSuite = useLab((s) => s.evalSuite);
  const setEvalSuite = useLab((s) => s.setEvalSuite);
  const axis = useView((v) => v.tradeoffAxis);
  const setAxis = useView((v) => v.setTradeoffAxis);
  const sweep = useMemo(() => (t ? [...t.sweep].sort((a, b) => a[axis] - b[axis]) : []), [t, axis]);
  const families = useMemo(() => (t ? [...new Set(t.baselines.map((b) => b.family))] : []), [t]);
  const points = useMemo(() => (t ? [...t.baselines, ...sweep, t.current] : []), [t, sweep]);
  const snap = useMemo(() => ({ xs: points.map((p) => p[axis]), ys: points.map((p) => p.accuracy) }), [points, axis]);
  const logScale = axis !== 'apiShare' && points.length > 0 && points.every((p) => p[axis] > 0);
  const x = useMemo(() => {
    if (axis === 'apiShare') return SHARE_TICKS;
    const lo = Math.min(...snap.xs);
    const hi = Math.max(...snap.xs);
    return logScale ? logTicks(lo, hi) : linearTicks(lo, hi, 4);
  }, [snap, logScale, axis]);
  const unit = catalog.currency === 'USD' ? 'USD' : 'units';
  const xLabel =
    axis === 'cost'
      ? `mean cost per task (${unit}${logScale ? ', log scale' : ''})`
      : axis === 'latencyS'
        ? `mean latency per task (s${logScale ? ', log scale' : ''})`
        : 'share of calls to paid APIs';
  const xFormat =
    axis === 'cost'
      ? catalog.currency === 'USD'
        ? costTick
        : unitTick
      : axis === 'latencyS'
        ? secondsTick
        : percentTick;
  return (
    <ChartCard
      title="Preference trade-off"
      testId="tradeoff"
      note={
        t ? (
          <>
            held-out {t.evalTasks} {EVAL_SUITES.find((x) => x.name === t.evalSuite)?.label ?? t.evalSuite} tasks, greedy
            policy at iteration {t.iteration}
            {evaluating ? ' · evaluating…' : ''}
          </>
        ) : (
          'evaluating…'
        )
      }
    >
      <label className="small suite-choice">
        held-out tasks{' '}
        <select value={evalSuite} onChange={(e) => setEvalSuite(e.target.value)}>
          {EVAL_SUITES.map((x) => (
            <option key={x.name} value={x.name}>
              {x.label}
            </option>
          ))}
        </select>
      </label>
      {!t ? (
        <div className="empty muted small">Evaluating the policy and the baselines…</div>
      ) : (
        <>
          <div className="axis-choice small" role="radiogroup" aria-label="x-axis of the trade-off view">
            x-axis:{' '}
            {AXES.map((a) => (
              <label
                key={a.axis}
                title={
                  a.axis === 'apiShare' ? 'paid APIs: the closed models (GPT-5, Claude) and ' + 'web search' : undefined
                }
              >
                <input type="radio" name="tradeoff-axis" checked={axis === a.axis} onChange={() => setAxis(a.axis)} />{' '}
                {a.name}
              </label>
            ))}
          </div>
          <div className="chart-fill">
            <ChartFrame
              xTicks={x}
              yTicks={ACCURACY_TICKS}
              xLabel={xLabel}
              yLabel="held-out accuracy"
              xFormat={xFormat}
              yFormat={percentTick}
              logX={logScale}
              verticalGrid
              snap={snap}
              tip={(i) => {
                const p = points[i] as TradeoffPoint;
                return (
                  <>
                    <div>
                      <strong>{p.label}</strong> <span className="muted">({p.family})</span>
                    </div>
                    <div>
                      held-out accuracy {(100 * p.accuracy).toFixed(1)}% · cost {formatCost(catalog, p.cost)} · latency{' '}
                      {p.latencyS.toFixed(1)} s · API calls {Math.round(100 * p.apiShare)}%
                    </div>
                  </>
                );
              }}
            >
              {(m) => <TradeoffMarks t={t} axis={axis} sweep={sweep} points={points} m={m} />}
            </ChartFrame>
          </div>
          <ul className="legend small" aria-label="legend">
            {families.map((f) => (
              <li key={f} title={FAMILY_NOTES[f]}>
                <span className="dot" style={{ background: familyColour(f) }} />
                {f}
              </li>
            ))}
            <li title="the best accuracy any baseline reaches at each cost">
              <span className="line" style={{ borderColor: '#f59f00', borderStyle: 'dashed' }} />
              baseline frontier
            </li>
            <li title="the current policy evaluated at a sweep of preference vectors P">
              <span className="line" style={{ borderColor: 'var(--accent)' }} />
              orchestrator over P
            </li>
            <li title="the current policy at the sliders’ P, evaluated on held-out tasks (not the training rollouts)">
              <span className="star">★</span>you are here: held-out accuracy at the sliders’ P
            </li>
          </ul>
          <p className="small" data-testid="operating-point">
            <strong>You are here:</strong> held-out accuracy {(100 * t.current.accuracy).toFixed(1)}% at{' '}
            {formatCost(catalog, t.current.cost)}, {t.current.latencyS.toFixed(1)} s,{' '}
            {Math.round(100 * t.current.apiShare)}% API calls · AIQ <strong>{t.aiq.orchestrator.toFixed(3)}</strong> vs
            cascade {t.aiq.cascade.toFixed(3)}
          </p>
          {t.current.failures && <FailureBar accuracy={t.current.accuracy} failures={t.current.failures} />}
          <p className="small muted aiq-note">
            AIQ: the average accuracy a policy reaches over the whole range of budgets (the height of its best
            cost–accuracy curve, averaged from the cheapest to the dearest baseline); higher is better.
          </p>
          {t.routing && t.routing.apgr !== null && (
            <p className="small muted routing-note" data-testid="routing-metrics">
              Routing (RouteLLM): APGR <strong>{t.routing.apgr.toFixed(2)}</strong>, the share of the gap between{' '}
              {nameOf(t.routing.weak)} and {nameOf(t.routing.strong)} the policy recovers, averaged over the budgets
              between their costs (0.50 at least: what mixing the two at random gives; above 1: more accurate than the
              stronger, on average over those budgets). Half the gap at {pct(t.routing.cpt50)} of the way from the weak
              one's cost to the strong one's (CPT 50%), 80% at {pct(t.routing.cpt80)}.
            </p>
          )}
        </>
      )}
    </ChartCard>
  );
}
