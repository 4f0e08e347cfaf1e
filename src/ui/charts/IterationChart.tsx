import { useActiveTooltipLabel, useIsTooltipActive, useXAxisScale, useYAxisScale } from 'recharts';
import { useMemo } from 'react';
import { ChartFrame, TipRow } from './ChartFrame';
import { niceTicks, type Ticks } from './niceTicks';
import { linePath, nearestIndex, stackedBands, type Scale } from './seriesPaths';

/** One plotted quantity: its values at the chart's iterations. */
export interface Curve {
  name: string;
  colour: string;
  values: readonly number[];
}

/** Digits a tooltip prints a value with. */
export type ValueFormat = (v: number) => string;

/** Nice integer ticks over the iterations, the axis tight to the data. */
export const iterationTicks = (xs: readonly number[]): Ticks =>
  xs.length ? niceTicks(xs[0] as number, xs[xs.length - 1] as number, { tight: true, integer: true }) : niceTicks(0, 1, { integer: true });

/** Nice y ticks over every value (or the fixed domain); stacked charts start at 0 and reach the largest total. */
export function valueTicks(curves: readonly Curve[], stacked: boolean, domain?: [number, number]): Ticks {
  if (domain) return niceTicks(domain[0], domain[1]);
  let lo = stacked ? 0 : Infinity;
  let hi = -Infinity;
  const n = curves[0]?.values.length ?? 0;
  for (let i = 0; i < n; i++) {
    let total = 0;
    for (const c of curves) {
      const v = c.values[i] as number;
      if (!Number.isFinite(v)) continue;
      if (stacked) total += Math.max(0, v);
      else { lo = Math.min(lo, v); hi = Math.max(hi, v); }
    }
    if (stacked) hi = Math.max(hi, total);
  }
  if (hi === -Infinity) return niceTicks(0, 1);
  return niceTicks(lo, stacked && hi <= 0 ? 1 : hi, { target: 4 });
}

const asScale = (f: ((v: unknown) => number | undefined) | undefined): Scale | undefined => (f ? (v: number) => f(v) : undefined);

/** The curves as SVG paths, placed with the chart's own axis scales, plus a hover guide. */
function CurveLayer({ xs, curves, stacked }: { xs: readonly number[]; curves: readonly Curve[]; stacked: boolean }) {
  const xScale = useXAxisScale();
  const yScale = useYAxisScale();
  const label = useActiveTooltipLabel();
  const hovering = useIsTooltipActive();
  const paths = useMemo(() => {
    const sx = asScale(xScale);
    const sy = asScale(yScale);
    if (!sx || !sy) return [];
    return stacked ? stackedBands(xs, curves.map((c) => c.values), sx, sy) : curves.map((c) => linePath(xs, c.values, sx, sy));
  }, [xs, curves, stacked, xScale, yScale]);
  const i = hovering && label !== undefined && label !== null ? nearestIndex(xs, Number(label)) : -1;
  const gx = i >= 0 && xScale ? xScale(xs[i]) : undefined;
  return (
    <g className="curves">
      {paths.map((d, k) => {
        const c = curves[k] as Curve;
        return stacked
          ? <path key={c.name} d={d} fill={c.colour} fillOpacity={0.55} stroke={c.colour} strokeWidth={1} />
          : <path key={c.name} className="curve" d={d} fill="none" stroke={c.colour} strokeWidth={1.6} strokeLinejoin="round" />;
      })}
      {gx !== undefined && !stacked && yScale && curves.map((c) => {
        const y = yScale(c.values[i]);
        return y === undefined || !Number.isFinite(y) ? null : <circle key={c.name} cx={gx} cy={y} r={3} fill={c.colour} stroke="var(--panel)" />;
      })}
    </g>
  );
}

/**
 * A live chart over iterations: the curves as one SVG path each (lines, or stacked bands) in a
 * recharts frame; the tooltip lists every curve's value at the iteration under the pointer.
 */
export function IterationChart({ xs, curves, yLabel, stacked = false, domain, format = (v) => v.toPrecision(4) }: {
  xs: readonly number[];
  curves: readonly Curve[];
  yLabel: string;
  stacked?: boolean;
  domain?: [number, number];
  format?: ValueFormat;
}) {
  const xTicks = useMemo(() => iterationTicks(xs), [xs]);
  const yTicks = useMemo(() => valueTicks(curves, stacked, domain), [curves, stacked, domain]);
  const tip = (i: number) => {
    const rows = curves.map((c) => ({ c, v: c.values[i] as number })).filter((r) => !stacked || r.v > 0);
    const show = (v: number) => (Number.isFinite(v) ? format(v) : 'NaN');
    return (
      <>
        <div><strong>iteration {xs[i]}</strong></div>
        {rows.map(({ c, v }) => <TipRow key={c.name} colour={c.colour}>{c.name}: {show(v)}</TipRow>)}
        {stacked && <div className="muted">total: {show(rows.reduce((a, r) => a + (Number.isFinite(r.v) ? r.v : 0), 0))}</div>}
      </>
    );
  };
  return (
    <ChartFrame xs={xs} xTicks={xTicks} yTicks={yTicks} xLabel="iteration" yLabel={yLabel} tip={tip}>
      <CurveLayer xs={xs} curves={curves} stacked={stacked} />
    </ChartFrame>
  );
}
