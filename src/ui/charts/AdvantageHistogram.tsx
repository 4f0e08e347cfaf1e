import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { LabState } from '../../store/labStore';
import { useStaggered } from './useStaggered';
import { AXIS, ChartCard, GRID, TOOLTIP_STYLE } from './ChartCard';

const selectHistogram = (s: LabState) => s.histogram;

/** Distribution of the latest iteration's trajectory advantages A = (R − mean)/std. */
export function AdvantageHistogram() {
  const h = useStaggered(selectHistogram, 6);
  const data = h ? h.counts.map((c, k) => ({ bin: ((h.edges[k] as number) + (h.edges[k + 1] as number)) / 2, count: c })) : [];
  return (
    <ChartCard title="Advantage histogram" note="latest iteration, one count per trajectory (filtered groups sit at 0)" testId="chart-advantage">
      {data.length === 0 ? <div className="empty muted small">No iteration yet.</div> : (
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 4, right: 8, bottom: 14, left: 4 }}>
            <CartesianGrid stroke={GRID} strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="bin" tick={AXIS} stroke="var(--muted)" tickFormatter={(v: number) => v.toFixed(1)} label={{ value: 'advantage A', position: 'insideBottom', offset: -8, fill: 'var(--muted)', fontSize: 11 }} />
            <YAxis tick={AXIS} stroke="var(--muted)" width={36} allowDecimals={false} />
            <Tooltip contentStyle={TOOLTIP_STYLE} labelFormatter={(v) => `A ≈ ${Number(v).toFixed(2)}`} formatter={(v) => [String(v), 'trajectories']} />
            <Bar dataKey="count" fill="var(--accent)" isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      )}
    </ChartCard>
  );
}
