import { CartesianGrid, ResponsiveContainer, ScatterChart, XAxis, YAxis, useChartWidth, useXAxisScale, useYAxisScale } from 'recharts';
import { useMemo, useState } from 'react';
import { formatCost } from '../../core/sim/catalog';
import { useLab, type LabState } from '../../store/labStore';
import { useStaggered } from './useStaggered';
import type { Tradeoff, TradeoffPoint } from '../../worker/protocol';
import { ChartCard, GRID, TOOLTIP_STYLE } from './ChartCard';
import { logTicks, niceTicks } from './niceTicks';
import { plainTick } from './PlainTick';
import { linePath, starPath } from './seriesPaths';

const FAMILY_COLOURS: Record<string, string> = { random: '#868e96', cheapest: '#adb5bd', always: '#e8590c', 'tools+model': '#c2255c', cascade: '#f59f00', oracle: '#2f9e44' };
const familyColour = (f: string): string => FAMILY_COLOURS[f] ?? '#888';
const ACCURACY_TICKS = [0, 0.25, 0.5, 0.75, 1];

/** A point under the pointer, its pixel position in the chart, and whether its tip opens leftwards (right half). */
interface Hovered { p: TradeoffPoint; x: number; y: number; flip: boolean }

/**
 * The view's marks, placed with the chart's recharts scales: baselines coloured by family, the
 * baselines' frontier (dashed), the policy swept over P (line + dots) and the operating point (★).
 */
function TradeoffMarks({ t, sweep, onHover }: { t: Tradeoff; sweep: readonly TradeoffPoint[]; onHover: (h: Hovered | null) => void }) {
  const xScale = useXAxisScale();
  const yScale = useYAxisScale();
  const width = useChartWidth() ?? 0;
  if (!xScale || !yScale) return null;
  const sx = (v: number) => xScale(v);
  const sy = (v: number) => yScale(v);
  const line = (ps: readonly TradeoffPoint[]) => linePath(ps.map((p) => p.cost), ps.map((p) => p.accuracy), sx, sy);
  const dot = (p: TradeoffPoint, r: number, fill: string, key: string) => {
    const x = sx(p.cost);
    const y = sy(p.accuracy);
    if (x === undefined || y === undefined) return null;
    return (
      <circle key={key} cx={x} cy={y} r={r} fill={fill} stroke="var(--panel)" strokeWidth={1}
        onMouseEnter={() => onHover({ p, x, y, flip: x > width / 2 })} onMouseLeave={() => onHover(null)}>
        <title>{p.label}</title>
      </circle>
    );
  };
  const cx = sx(t.current.cost);
  const cy = sy(t.current.accuracy);
  return (
    <g className="tradeoff-marks">
      <path d={line(t.frontier)} fill="none" stroke="#f59f00" strokeDasharray="4 3" strokeWidth={1.5} />
      <path className="sweep" d={line(sweep)} fill="none" stroke="var(--accent)" strokeWidth={2} />
      {t.baselines.map((p) => dot(p, 4.5, familyColour(p.family), `b:${p.label}`))}
      {sweep.map((p) => dot(p, 3.5, 'var(--accent)', `s:${p.label}`))}
      {cx !== undefined && cy !== undefined && (
        <path className="operating-star" d={starPath(cx, cy, 9, 4)} fill="#e03131" stroke="var(--panel)" strokeWidth={1}
          onMouseEnter={() => onHover({ p: t.current, x: cx, y: cy, flip: cx > width / 2 })} onMouseLeave={() => onHover(null)}>
          <title>{t.current.label}</title>
        </path>
      )}
    </g>
  );
}

const selectTradeoff = (s: LabState) => s.tradeoff;

/** Accuracy vs cost: every baseline, their frontier, the policy swept over P, and the sliders' operating point. */
export function TradeoffChart() {
  // Evaluations arrive at most every few seconds and answer the user's slider: draw them at once.
  const t = useStaggered(selectTradeoff, 0, 0);
  const evaluating = useLab((s) => s.evaluating);
  const catalog = useLab((s) => s.catalog);
  const [hover, setHover] = useState<Hovered | null>(null);
  const sweep = useMemo(() => (t ? [...t.sweep].sort((a, b) => a.cost - b.cost) : []), [t]);
  const families = useMemo(() => (t ? [...new Set(t.baselines.map((b) => b.family))] : []), [t]);
  const costs = useMemo(() => (t ? [...t.baselines, ...t.sweep, t.current].map((p) => p.cost) : []), [t]);
  const logScale = costs.length > 0 && costs.every((c) => c > 0);
  const x = useMemo(() => {
    const lo = Math.min(...costs);
    const hi = Math.max(...costs);
    return logScale ? logTicks(lo, hi) : niceTicks(lo, hi, { target: 4 });
  }, [costs, logScale]);
  const xTick = useMemo(() => plainTick((v) => (catalog.currency === 'USD' ? `$${Number(v.toPrecision(2))}` : `${Number(v.toPrecision(2))}`)), [catalog.currency]);
  const yTick = useMemo(() => plainTick((v) => `${Math.round(100 * v)}%`), []);
  const unit = catalog.currency === 'USD' ? 'USD' : 'units';
  return (
    <ChartCard
      title="Preference trade-off"
      testId="tradeoff"
      note={t ? <>held-out {t.evalTasks} tasks, greedy policy at iteration {t.iteration}{evaluating ? ' · evaluating…' : ''}</> : 'evaluating…'}
    >
      {!t ? <div className="empty muted small">Evaluating the policy and the baselines…</div> : (
        <>
          <div className="chart-fill hover-host">
            <ResponsiveContainer width="100%" height="100%">
              <ScatterChart margin={{ top: 6, right: 10, bottom: 18, left: 4 }}>
                <CartesianGrid stroke={GRID} strokeDasharray="3 3" />
                <XAxis dataKey="cost" type="number" niceTicks="none" scale={logScale ? 'log' : 'linear'} domain={x.domain} ticks={x.values} interval={0} tick={xTick} stroke="var(--muted)" allowDataOverflow label={{ value: `mean cost per task (${unit}${logScale ? ', log scale' : ''})`, position: 'insideBottom', offset: -10, fill: 'var(--muted)', fontSize: 11 }} />
                <YAxis type="number" niceTicks="none" domain={[0, 1]} ticks={ACCURACY_TICKS} interval={0} tick={yTick} stroke="var(--muted)" width={40} allowDataOverflow label={{ value: 'accuracy', angle: -90, position: 'insideLeft', fill: 'var(--muted)', fontSize: 11, dx: -2 }} />
                <TradeoffMarks t={t} sweep={sweep} onHover={setHover} />
              </ScatterChart>
            </ResponsiveContainer>
            {hover && (
              <div className="point-tip" role="tooltip" style={{ ...TOOLTIP_STYLE, left: hover.x + (hover.flip ? -12 : 12), top: hover.y + 12, transform: hover.flip ? 'translateX(-100%)' : undefined }}>
                <div><strong>{hover.p.label}</strong> <span className="muted">({hover.p.family})</span></div>
                <div>accuracy {(100 * hover.p.accuracy).toFixed(1)}% · cost {formatCost(catalog, hover.p.cost)} · latency {hover.p.latencyS.toFixed(1)} s</div>
              </div>
            )}
          </div>
          <ul className="legend small" aria-label="legend">
            {families.map((f) => <li key={f}><span className="dot" style={{ background: familyColour(f) }} />{f}</li>)}
            <li><span className="line" style={{ borderColor: '#f59f00', borderStyle: 'dashed' }} />baseline frontier</li>
            <li><span className="line" style={{ borderColor: 'var(--accent)' }} />orchestrator over P</li>
            <li><span className="star">★</span>you are here (sliders’ P)</li>
          </ul>
          <p className="small" data-testid="operating-point">
            <strong>You are here:</strong> {(100 * t.current.accuracy).toFixed(1)}% at {formatCost(catalog, t.current.cost)}, {t.current.latencyS.toFixed(1)} s ·
            {' '}AIQ <strong>{t.aiq.orchestrator.toFixed(3)}</strong> vs cascade {t.aiq.cascade.toFixed(3)}
          </p>
        </>
      )}
    </ChartCard>
  );
}
