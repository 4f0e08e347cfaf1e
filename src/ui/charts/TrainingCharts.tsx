import { Area, AreaChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useMemo, type ReactNode } from 'react';
import { useLab, type LabState } from '../../store/labStore';
import { useStaggered } from './useStaggered';
import { downsample } from '../../store/series';
import type { MetricPoint } from '../../worker/protocol';
import { AXIS, ChartCard, GRID, TOOLTIP_STYLE, toolColour } from './ChartCard';

type Key = keyof MetricPoint;

function Curve({ data, lines, unit, yLabel, domain }: { data: MetricPoint[]; lines: { key: Key; name: string; colour: string }[]; unit?: string; yLabel: string; domain?: [number, number] }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <LineChart data={data} margin={{ top: 4, right: 8, bottom: 14, left: 4 }}>
        <CartesianGrid stroke={GRID} strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="iteration" type="number" domain={['dataMin', 'dataMax']} tick={AXIS} stroke="var(--muted)" label={{ value: 'iteration', position: 'insideBottom', offset: -8, fill: 'var(--muted)', fontSize: 11 }} />
        <YAxis tick={AXIS} stroke="var(--muted)" width={46} domain={domain ?? ['auto', 'auto']} unit={unit} label={{ value: yLabel, angle: -90, position: 'insideLeft', fill: 'var(--muted)', fontSize: 11, dx: 8 }} />
        <Tooltip contentStyle={TOOLTIP_STYLE} formatter={(v) => (typeof v === 'number' ? v.toPrecision(4) : String(v))} labelFormatter={(l) => `iteration ${l}`} />
        {lines.length > 1 && <Legend verticalAlign="top" height={18} iconSize={8} wrapperStyle={{ fontSize: 10 }} />}
        {lines.map((l) => <Line key={l.key} dataKey={l.key} name={l.name} stroke={l.colour} dot={false} strokeWidth={1.6} isAnimationActive={false} />)}
      </LineChart>
    </ResponsiveContainer>
  );
}

const selectSeries = (s: LabState) => s.series;

/** One line chart over iterations, re-rendered in its own staggered slot. */
function SeriesChart({ slot, title, note, testId, yLabel, lines, domain }: { slot: number; title: string; note: ReactNode; testId: string; yLabel: string; lines: { key: Key; name: string; colour: string }[]; domain?: [number, number] }) {
  const series = useStaggered(selectSeries, slot);
  const data = useMemo(() => downsample(series), [series]);
  return (
    <ChartCard title={title} note={note} testId={testId}>
      {/* Mounted even while empty, so the first metrics do not have to build the chart during training. */}
      <Curve data={data} yLabel={yLabel} lines={lines} {...(domain ? { domain } : {})} />
    </ChartCard>
  );
}

function UsageChart({ slot }: { slot: number }) {
  const series = useStaggered(selectSeries, slot);
  const catalog = useLab((s) => s.catalog);
  const usage = useMemo(() => downsample(series, 100).map((p) => ({ iteration: p.iteration, ...p.callsPerTask })), [series]);
  return (
    <ChartCard title="Tool usage" note="mean calls per task, stacked" testId="chart-usage">
      {(
        <ResponsiveContainer width="100%" height="100%">
          <AreaChart data={usage} margin={{ top: 4, right: 8, bottom: 14, left: 4 }}>
            <CartesianGrid stroke={GRID} strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="iteration" type="number" domain={['dataMin', 'dataMax']} tick={AXIS} stroke="var(--muted)" />
            <YAxis tick={AXIS} stroke="var(--muted)" width={46} label={{ value: 'calls', angle: -90, position: 'insideLeft', fill: 'var(--muted)', fontSize: 11, dx: 8 }} />
            <Tooltip contentStyle={TOOLTIP_STYLE} formatter={(v) => (typeof v === 'number' ? v.toFixed(2) : String(v))} labelFormatter={(l) => `iteration ${l}`} />
            {catalog.tools.map((t, j) => <Area key={t.id} dataKey={t.id} stackId="1" stroke={toolColour(j)} fill={toolColour(j)} fillOpacity={0.55} isAnimationActive={false} />)}
          </AreaChart>
        </ResponsiveContainer>
      )}
    </ChartCard>
  );
}

/** Reward, accuracy, cost, latency, tool usage and the update's diagnostics over iterations. */
export function TrainingCharts() {
  const catalog = useLab((s) => s.catalog);
  const epochs = useLab((s) => s.train.epochs);
  const unit = catalog.currency === 'USD' ? '$' : 'u';
  return (
    <div className="charts-grid">
      <SeriesChart slot={0} title="Mean reward" note="R per trajectory, averaged over the batch" testId="chart-reward" yLabel="R" lines={[{ key: 'meanReward', name: 'reward', colour: 'var(--accent)' }]} />
      <SeriesChart slot={1} title="Accuracy" note="share of rollouts solved (sampling, training tasks)" testId="chart-accuracy" yLabel="solved" domain={[0, 1]} lines={[{ key: 'accuracy', name: 'accuracy', colour: '#2f9e44' }]} />
      <SeriesChart slot={2} title={`Cost per task (${unit})`} note="tool calls + the orchestrator's own turns" testId="chart-cost" yLabel={unit} lines={[{ key: 'meanCostUSD', name: 'cost', colour: '#e8590c' }]} />
      <SeriesChart slot={3} title="Latency per task (s)" note="sum of call latencies + own turns" testId="chart-latency" yLabel="s" lines={[{ key: 'meanLatencyS', name: 'latency', colour: '#7048e8' }]} />
      <UsageChart slot={4} />
      <SeriesChart slot={5} title="KL · entropy · clip fraction" note={epochs === 1 ? '(μ = 1: the ratio is 1, so clip fraction stays 0 and the surrogate ≈ 0 by construction)' : 'of the update'} testId="chart-diagnostics" yLabel="nats / share"
        lines={[{ key: 'kl', name: 'KL (k3)', colour: '#c2255c' }, { key: 'entropy', name: 'entropy', colour: '#1098ad' }, { key: 'clipFrac', name: 'clip fraction', colour: '#f59f00' }]} />
    </div>
  );
}
