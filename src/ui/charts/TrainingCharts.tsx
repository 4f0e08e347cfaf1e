import { Area, AreaChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useMemo, type ReactNode } from 'react';
import { useLab, type LabState } from '../../store/labStore';
import { useStaggered } from './useStaggered';
import { downsample } from '../../store/series';
import type { MetricPoint } from '../../worker/protocol';
import { ChartCard, GRID, TOOLTIP_STYLE, toolColour } from './ChartCard';
import { niceTicks, type Ticks } from './niceTicks';
import { plainTick } from './PlainTick';

type Key = keyof MetricPoint;

type LineSpec = { key: Key; name: string; colour: string };

/** Nice y ticks over every plotted line's values (or the fixed domain). */
function yTicksFor(data: readonly MetricPoint[], lines: readonly LineSpec[], domain?: [number, number]): Ticks {
  if (domain) return niceTicks(domain[0], domain[1]);
  let lo = Infinity;
  let hi = -Infinity;
  for (const p of data) for (const l of lines) {
    const v = p[l.key];
    if (typeof v === 'number' && Number.isFinite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  }
  return lo === Infinity ? niceTicks(0, 1) : niceTicks(lo, hi, { target: 4 });
}

export const iterationTicks = (data: readonly { iteration: number }[]): Ticks =>
  data.length ? niceTicks((data[0] as { iteration: number }).iteration, (data[data.length - 1] as { iteration: number }).iteration, { tight: true, integer: true }) : niceTicks(0, 1, { integer: true });

function Curve({ data, lines, yLabel, domain }: { data: MetricPoint[]; lines: LineSpec[]; yLabel: string; domain?: [number, number] }) {
  const x = useMemo(() => iterationTicks(data), [data]);
  const y = useMemo(() => yTicksFor(data, lines, domain), [data, lines, domain]);
  const xTick = useMemo(() => plainTick((v) => String(v)), []);
  const yTick = useMemo(() => plainTick((v) => v.toFixed(y.decimals)), [y.decimals]);
  return (
    <ResponsiveContainer width="100%" height="100%">
      <LineChart data={data} margin={{ top: 4, right: 8, bottom: 14, left: 4 }}>
        <CartesianGrid stroke={GRID} strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="iteration" type="number" domain={x.domain} ticks={x.values} interval={0} tick={xTick} stroke="var(--muted)" label={{ value: 'iteration', position: 'insideBottom', offset: -8, fill: 'var(--muted)', fontSize: 11 }} />
        <YAxis type="number" domain={y.domain} ticks={y.values} interval={0} tick={yTick} stroke="var(--muted)" width={46} allowDataOverflow label={{ value: yLabel, angle: -90, position: 'insideLeft', fill: 'var(--muted)', fontSize: 11, dx: 8 }} />
        <Tooltip contentStyle={TOOLTIP_STYLE} formatter={(v) => (typeof v === 'number' ? v.toPrecision(4) : String(v))} labelFormatter={(l) => `iteration ${l}`} />
        {lines.map((l) => <Line key={l.key} dataKey={l.key} name={l.name} stroke={l.colour} dot={false} strokeWidth={1.6} isAnimationActive={false} />)}
      </LineChart>
    </ResponsiveContainer>
  );
}

/** An HTML legend (recharts' <Legend> measures itself in the DOM on every update): lines or filled areas. */
export function LineLegend({ items, swatch = 'line' }: { items: readonly { name: string; colour: string }[]; swatch?: 'line' | 'area' }) {
  return (
    <ul className="legend compact" aria-label="legend">
      {items.map((l) => (
        <li key={l.name}>
          {swatch === 'line' ? <span className="line" style={{ borderColor: l.colour }} /> : <span className="swatch" style={{ background: l.colour }} />}
          {l.name}
        </li>
      ))}
    </ul>
  );
}

const selectSeries = (s: LabState) => s.series;

/** One line chart over iterations, re-rendered in its own staggered slot. */
function SeriesChart({ slot, title, note, testId, yLabel, lines, domain }: { slot: number; title: string; note: ReactNode; testId: string; yLabel: string; lines: LineSpec[]; domain?: [number, number] }) {
  const series = useStaggered(selectSeries, slot);
  const data = useMemo(() => downsample(series), [series]);
  return (
    <ChartCard title={title} note={note} testId={testId} footer={lines.length > 1 ? <LineLegend items={lines} /> : undefined}>
      {/* Mounted even while empty, so the first metrics do not have to build the chart during training. */}
      <Curve data={data} yLabel={yLabel} lines={lines} {...(domain ? { domain } : {})} />
    </ChartCard>
  );
}

function UsageChart({ slot }: { slot: number }) {
  const series = useStaggered(selectSeries, slot);
  const catalog = useLab((s) => s.catalog);
  const usage = useMemo(() => downsample(series, 100).map((p) => ({ iteration: p.iteration, ...p.callsPerTask })), [series]);
  const x = useMemo(() => iterationTicks(usage), [usage]);
  const y = useMemo(() => {
    let top = 0;
    for (const p of series) top = Math.max(top, Object.values(p.callsPerTask).reduce((a, b) => a + b, 0));
    return niceTicks(0, top || 1, { target: 4 });
  }, [series]);
  const xTick = useMemo(() => plainTick((v) => String(v)), []);
  const yTick = useMemo(() => plainTick((v) => v.toFixed(y.decimals)), [y.decimals]);
  const legend = useMemo(() => catalog.tools.map((t, j) => ({ name: t.id, colour: toolColour(j) })), [catalog]);
  return (
    <ChartCard title="Tool usage" note="mean calls per task, stacked" testId="chart-usage" footer={<LineLegend items={legend} swatch="area" />}>
      <ResponsiveContainer width="100%" height="100%">
        <AreaChart data={usage} margin={{ top: 4, right: 8, bottom: 14, left: 4 }}>
          <CartesianGrid stroke={GRID} strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="iteration" type="number" domain={x.domain} ticks={x.values} interval={0} tick={xTick} stroke="var(--muted)" label={{ value: 'iteration', position: 'insideBottom', offset: -8, fill: 'var(--muted)', fontSize: 11 }} />
          <YAxis type="number" domain={y.domain} ticks={y.values} interval={0} tick={yTick} stroke="var(--muted)" width={46} label={{ value: 'calls', angle: -90, position: 'insideLeft', fill: 'var(--muted)', fontSize: 11, dx: 8 }} />
          <Tooltip contentStyle={TOOLTIP_STYLE} formatter={(v) => (typeof v === 'number' ? v.toFixed(2) : String(v))} labelFormatter={(l) => `iteration ${l}`} />
          {catalog.tools.map((t, j) => <Area key={t.id} dataKey={t.id} stackId="1" stroke={toolColour(j)} fill={toolColour(j)} fillOpacity={0.55} isAnimationActive={false} />)}
        </AreaChart>
      </ResponsiveContainer>
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
