import { CartesianGrid, ResponsiveContainer, Scatter, ScatterChart, Tooltip, XAxis, YAxis, ZAxis } from 'recharts';
import { useMemo } from 'react';
import { formatCost } from '../../core/sim/catalog';
import { useLab, type LabState } from '../../store/labStore';
import { useStaggered } from './useStaggered';
import type { TradeoffPoint } from '../../worker/protocol';
import { AXIS, ChartCard, GRID, TOOLTIP_STYLE } from './ChartCard';

const FAMILY_COLOURS: Record<string, string> = { random: '#868e96', cheapest: '#adb5bd', always: '#e8590c', 'tools+model': '#c2255c', cascade: '#f59f00', oracle: '#2f9e44' };

function TipBody({ payload }: { payload?: { payload: TradeoffPoint }[] }) {
  const catalog = useLab((s) => s.catalog);
  const p = payload?.[0]?.payload;
  if (!p) return null;
  return (
    <div style={{ ...TOOLTIP_STYLE, padding: '4px 8px' }}>
      <div><strong>{p.label}</strong> <span className="muted">({p.family})</span></div>
      <div>accuracy {(100 * p.accuracy).toFixed(1)}% · cost {formatCost(catalog, p.cost)} · latency {p.latencyS.toFixed(1)} s</div>
    </div>
  );
}

const selectTradeoff = (s: LabState) => s.tradeoff;

/** Accuracy vs cost: every baseline, their frontier, the policy swept over P, and the sliders' operating point. */
export function TradeoffChart() {
  // Evaluations arrive at most every few seconds and answer the user's slider: draw them at once.
  const t = useStaggered(selectTradeoff, 0, 0);
  const evaluating = useLab((s) => s.evaluating);
  const catalog = useLab((s) => s.catalog);
  const sweep = useMemo(() => (t ? [...t.sweep].sort((a, b) => a.cost - b.cost) : []), [t]);
  const families = useMemo(() => (t ? [...new Set(t.baselines.map((b) => b.family))] : []), [t]);
  const unit = catalog.currency === 'USD' ? 'USD' : 'units';
  const logScale = !!t && [...t.baselines, ...t.sweep, t.current].every((p) => p.cost > 0);
  return (
    <ChartCard
      title="Preference trade-off"
      testId="tradeoff"
      note={t ? <>held-out {t.evalTasks} tasks, greedy policy at iteration {t.iteration}{evaluating ? ' · evaluating…' : ''}</> : 'evaluating…'}
    >
      {!t ? <div className="empty muted small">Evaluating the policy and the baselines…</div> : (
        <>
          <div className="chart-fill">
            <ResponsiveContainer width="100%" height="100%">
              <ScatterChart margin={{ top: 6, right: 10, bottom: 18, left: 4 }}>
                <CartesianGrid stroke={GRID} strokeDasharray="3 3" />
                <XAxis dataKey="cost" type="number" scale={logScale ? 'log' : 'linear'} domain={['auto', 'auto']} tick={AXIS} stroke="var(--muted)" tickFormatter={(v: number) => formatCost(catalog, v)} label={{ value: `mean cost per task (${unit}${logScale ? ', log scale' : ''})`, position: 'insideBottom', offset: -10, fill: 'var(--muted)', fontSize: 11 }} />
                <YAxis dataKey="accuracy" type="number" domain={[0, 1]} tick={AXIS} stroke="var(--muted)" width={40} tickFormatter={(v: number) => `${Math.round(100 * v)}%`} label={{ value: 'accuracy', angle: -90, position: 'insideLeft', fill: 'var(--muted)', fontSize: 11, dx: -2 }} />
                <ZAxis range={[40, 40]} />
                <Tooltip content={<TipBody />} />
                {families.map((f) => <Scatter key={f} name={f} data={t.baselines.filter((b) => b.family === f)} fill={FAMILY_COLOURS[f] ?? '#888'} isAnimationActive={false} />)}
                <Scatter name="baseline frontier" data={t.frontier} line={{ stroke: '#f59f00', strokeDasharray: '4 3' }} fill="none" isAnimationActive={false} />
                <Scatter name="orchestrator over P" data={sweep} line={{ stroke: 'var(--accent)' }} fill="var(--accent)" isAnimationActive={false} />
                <Scatter name="you are here (sliders' P)" data={[t.current]} fill="#e03131" shape="star" legendType="star" isAnimationActive={false} />
              </ScatterChart>
            </ResponsiveContainer>
          </div>
          <ul className="legend small" aria-label="legend">
            {families.map((f) => <li key={f}><span className="dot" style={{ background: FAMILY_COLOURS[f] ?? '#888' }} />{f}</li>)}
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
