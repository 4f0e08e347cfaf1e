// PROTOTYPE (issue 31): the iteration charts on recharts 3, to measure its main-thread cost while training.
// Same ticks, curves, bands, reference lines and tooltips as the SVG chart; recharts draws and answers the pointer.
import { useMemo } from 'react';
import { Area, CartesianGrid, ComposedChart, Line, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis,
  type TooltipContentProps } from 'recharts';
import { GRID, TOOLTIP_STYLE } from './ChartCard';
import { TipRow } from './ChartFrame';
import { CHAR_PER_FONT_PX, chartFontPx } from './labelPlacement';
import { useView } from '../../store/viewStore';
import { niceStep, niceTicks, type Ticks } from './niceTicks';
/** One plotted quantity: its values at the chart's iterations. */
export interface Curve {
  name: string;
  colour: string;
  values: readonly number[];
  /** Drawn thin and faint (the raw points under a smoothed line). */
  faint?: boolean;
  /** SVG stroke-dasharray (a run drawn dashed, so two runs read apart in greyscale). */
  dash?: string;
  /** The run a curve belongs to (written as data-run on its path). */
  run?: string;
}

/** A shaded range drawn under the curves (a run's lowest to highest seed), listed in the tooltip. */
export interface Band { name: string; colour: string; lo: readonly number[]; hi: readonly number[]; run?: string }

/** A horizontal reference line (a baseline to beat), labelled at its right end. */
export interface RefLine { label: string; value: number; colour: string }

/** Digits a tooltip prints a value with. */
export type ValueFormat = (v: number) => string;

/**
 * Nice integer ticks over the iterations. The axis starts at the first iteration and ends at the
 * last one rounded up to a multiple of a nice step near a fifth of it, so the curve fills at least
 * about 80% of the width and the axis (the frame's part of the chart) changes only every step, not
 * on every update.
 */
export function iterationTicks(xs: readonly number[]): Ticks {
  if (!xs.length) return niceTicks(0, 1, { integer: true });
  const first = xs[0] as number;
  const last = xs[xs.length - 1] as number;
  const step = Math.max(1, Math.round(niceStep(Math.max(1, last) / 5)));
  return niceTicks(first, Math.max(first, Math.ceil(last / step) * step), { tight: true, integer: true });
}

/**
 * Nice y ticks over every value (or the fixed domain); stacked charts start at 0 and reach the
 * largest total. `include` values (0, reference lines) are always inside, so a few noisy points
 * never fill the whole height and read as a trend.
 */
export function valueTicks(curves: readonly Curve[], stacked: boolean, domain?: [number, number], include: readonly number[] = []): Ticks {
  if (domain) return niceTicks(domain[0], domain[1]);
  let lo = stacked ? 0 : Math.min(Infinity, ...include);
  let hi = include.length ? Math.max(...include) : -Infinity;
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
  if (hi === -Infinity || lo === Infinity) return niceTicks(0, 1);
  if (hi === lo) return niceTicks(lo, lo + 1); // nothing drawn yet but the 0 line: 0 to 1, not −1 to 1
  return niceTicks(lo, stacked && hi <= 0 ? 1 : hi, { target: 4 });
}

const NO_REFS: readonly RefLine[] = [];
const NO_BANDS: readonly Band[] = [];
type Row = Record<string, number | null | [number, number] | null>;
const finite = (v: number | undefined): number | null => (v !== undefined && Number.isFinite(v) ? v : null);

/** A live chart over iterations on recharts: lines (or stacked areas), range bands and reference lines. */
export function IterationChart({
  xs, curves, yLabel, stacked = false, domain, format = (v) => v.toPrecision(4), refs = NO_REFS, bands = NO_BANDS,
  includeZero = false, yFormat, missing = 'NaN',
}: {
  xs: readonly number[];
  curves: readonly Curve[];
  yLabel: string;
  stacked?: boolean;
  domain?: [number, number];
  format?: ValueFormat;
  refs?: readonly RefLine[];
  bands?: readonly Band[];
  includeZero?: boolean;
  yFormat?: (v: number) => string;
  missing?: string;
}) {
  const xTicks = useMemo(() => iterationTicks(xs), [xs]);
  const yTicks = useMemo(() => {
    const edges: Curve[] = bands.flatMap((b) => [b.lo, b.hi])
      .map((values, k) => ({ name: `edge ${k}`, colour: '', values }));
    const include = [...(includeZero ? [0] : []), ...refs.map((r) => r.value)];
    return valueTicks([...curves, ...edges], stacked, domain, include);
  }, [curves, bands, stacked, domain, includeZero, refs]);
  const fontPx = chartFontPx(useView((s) => s.classroom));
  const decimals = yTicks.decimals;
  const yFmt = useMemo(() => yFormat ?? ((v: number) => v.toFixed(decimals)), [yFormat, decimals]);
  const axisWidth = Math.ceil(fontPx + CHAR_PER_FONT_PX * fontPx * Math.max(1, ...yTicks.values.map((v) => yFmt(v).length)));
  const rows = useMemo(() => xs.map((x, i) => {
    const r: Row = { x };
    curves.forEach((c, k) => { r[`c${k}`] = stacked ? Math.max(0, finite(c.values[i]) ?? 0) : finite(c.values[i]); });
    bands.forEach((b, k) => {
      const lo = finite(b.lo[i]), hi = finite(b.hi[i]);
      r[`b${k}`] = lo === null || hi === null ? null : [lo, hi];
    });
    return r;
  }), [xs, curves, bands, stacked]);
  const tip = ({ active, activeIndex }: TooltipContentProps) => {
    const i = Number(activeIndex);
    if (!active || !Number.isInteger(i) || i < 0 || i >= xs.length) return null;
    const shown = curves.map((c) => ({ c, v: c.values[i] as number })).filter((r) => !stacked || r.v > 0);
    const show = (v: number) => (Number.isFinite(v) ? format(v) : missing);
    return (
      <div className="point-tip" role="tooltip" style={{ ...TOOLTIP_STYLE, position: 'static' }}>
        <div><strong>iteration {xs[i]}</strong></div>
        {shown.map(({ c, v }) => <TipRow key={c.name} colour={c.colour}>{c.name}: {show(v)}</TipRow>)}
        {bands.map((b) => (
          <TipRow key={`band-${b.name}`} colour={b.colour}>
            {b.name}: {show(b.lo[i] as number)} to {show(b.hi[i] as number)}
          </TipRow>
        ))}
        {stacked && <div className="muted">total: {show(shown.reduce((a, r) => a + (Number.isFinite(r.v) ? r.v : 0), 0))}</div>}
      </div>
    );
  };
  const label = { fill: 'var(--muted)', fontSize: fontPx };
  return (
    <div className="chart-frame" role="group" aria-label={`${yLabel} against iteration`}>
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={rows} margin={{ top: 6, right: 10, bottom: Math.round(1.3 * fontPx), left: 4 }}>
          <CartesianGrid stroke={GRID} strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="x" type="number" domain={xTicks.domain} ticks={xTicks.values} interval={0} stroke="var(--muted)"
            tick={{ fill: 'var(--muted)', fontSize: fontPx }} allowDataOverflow
            label={{ ...label, value: 'iteration', position: 'insideBottom', offset: -Math.round(1.1 * fontPx) }} />
          <YAxis type="number" domain={yTicks.domain} ticks={yTicks.values} interval={0} tickFormatter={yFmt} width={axisWidth}
            stroke="var(--muted)" tick={{ fill: 'var(--muted)', fontSize: fontPx }} allowDataOverflow
            label={{ ...label, value: yLabel, angle: -90, position: 'insideLeft' }} />
          <Tooltip content={tip} isAnimationActive={false} cursor={{ stroke: 'var(--muted)', strokeDasharray: '3 3' }} />
          {refs.map((r) => <ReferenceLine key={r.label} y={r.value} stroke={r.colour} strokeDasharray="6 4" strokeWidth={1.5}
            className="ref-line" label={{ value: r.label, position: 'insideTopRight', fill: r.colour, fontSize: fontPx }} />)}
          {bands.map((b, k) => <Area key={b.name} dataKey={`b${k}`} className="band" fill={b.colour} fillOpacity={0.24}
            stroke={b.colour} strokeOpacity={0.5} strokeWidth={0.75} isAnimationActive={false} activeDot={false} />)}
          {curves.map((c, k) => (stacked
            ? <Area key={c.name} dataKey={`c${k}`} name={c.name} stackId="s" fill={c.colour} fillOpacity={0.55} stroke={c.colour}
              strokeWidth={1} isAnimationActive={false} activeDot={false} />
            : <Line key={c.name} dataKey={`c${k}`} name={c.name} className={c.faint ? 'curve faint' : 'curve'} stroke={c.colour}
              strokeWidth={c.faint ? 1 : 2} strokeOpacity={c.faint ? 0.35 : 1} strokeDasharray={c.dash} dot={xs.length === 1}
              activeDot={c.faint ? false : { r: 3, stroke: 'var(--panel)' }} isAnimationActive={false} />))}
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}
