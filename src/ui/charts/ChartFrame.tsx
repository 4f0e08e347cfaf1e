import { CartesianGrid, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useMemo, type ReactNode } from 'react';
import { GRID, TOOLTIP_STYLE } from './ChartCard';
import type { Ticks } from './niceTicks';
import { plainTick } from './PlainTick';
import { nearestIndex } from './seriesPaths';

/** No recharts series means no tooltip payload, which recharts answers by hiding the box: keep it visible; the body decides. */
const TIP_VISIBLE = { visibility: 'visible' } as const;

/**
 * The frame of a live chart, drawn by recharts: responsive size, a numeric x axis and y axis with
 * explicit nice ticks (so no label is measured in the DOM on an update), the grid, and a tooltip
 * that snaps to the nearest of `xs` and shows `tip(index)`. The marks are `children`: components
 * that place SVG with recharts' axis scales (useXAxisScale / useYAxisScale), one path per series,
 * which keeps an update to one short render (recharts' own <Line>/<Area>/<Bar> cost several ms
 * each per update through its internal store, and blocked the main thread while training).
 */
export function ChartFrame({ xs, xTicks, yTicks, xLabel, yLabel, xFormat = String, yWidth = 46, tip, children }: {
  xs: readonly number[];
  xTicks: Ticks;
  yTicks: Ticks;
  xLabel: string;
  yLabel: string;
  xFormat?: (v: number) => string;
  yWidth?: number;
  tip: (index: number) => ReactNode;
  children: ReactNode;
}) {
  const rows = useMemo(() => xs.map((x) => ({ x })), [xs]);
  const xTick = useMemo(() => plainTick(xFormat), [xFormat]);
  const yTick = useMemo(() => plainTick((v) => v.toFixed(yTicks.decimals)), [yTicks.decimals]);
  return (
    <ResponsiveContainer width="100%" height="100%">
      <LineChart data={rows} margin={{ top: 4, right: 8, bottom: 14, left: 4 }}>
        <CartesianGrid stroke={GRID} strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="x" type="number" niceTicks="none" domain={xTicks.domain} ticks={xTicks.values} interval={0} tick={xTick} stroke="var(--muted)" allowDataOverflow label={{ value: xLabel, position: 'insideBottom', offset: -8, fill: 'var(--muted)', fontSize: 11 }} />
        <YAxis type="number" niceTicks="none" domain={yTicks.domain} ticks={yTicks.values} interval={0} tick={yTick} stroke="var(--muted)" width={yWidth} allowDataOverflow label={{ value: yLabel, angle: -90, position: 'insideLeft', fill: 'var(--muted)', fontSize: 11, dx: 8 }} />
        <Tooltip
          cursor={{ stroke: 'var(--muted)', strokeDasharray: '3 3' }}
          wrapperStyle={TIP_VISIBLE}
          isAnimationActive={false}
          content={({ active, label }) => {
            const i = active && label !== undefined && label !== null ? nearestIndex(xs, Number(label)) : -1;
            return i < 0 ? null : <div style={{ ...TOOLTIP_STYLE, padding: '4px 8px' }}>{tip(i)}</div>;
          }}
        />
        {children}
      </LineChart>
    </ResponsiveContainer>
  );
}

/** One row of a tooltip: a colour swatch, a name and a value. */
export function TipRow({ colour, children }: { colour: string; children: ReactNode }) {
  return <div><span className="tip-swatch" style={{ background: colour }} />{children}</div>;
}
