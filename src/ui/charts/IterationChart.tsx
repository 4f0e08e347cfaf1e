// A live chart over iterations (the training charts, compare runs): the curves as one SVG path each (lines, or
// stacked bands), optional seed bands and baselines, over ChartFrame's plain SVG frame; its tooltip lists every
// curve's value at the iteration under the pointer.

import { useMemo } from 'react';
import { ChartFrame, TipRow, type Marks } from './ChartFrame';
import { iterationTicks, linearTicks, type Ticks } from './axisTicks';
import { linePath, rangeBand, stackedBands } from './shapes';

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
 * Y ticks over every value (or the fixed domain); stacked charts start at 0 and reach the
 * largest total. `include` values (0, reference lines) are always inside, so a few noisy points
 * never fill the whole height and read as a trend.
 */
export function valueTicks(curves: readonly Curve[], stacked: boolean, domain?: [number, number], include: readonly number[] = []): Ticks {
  if (domain) return linearTicks(domain[0], domain[1]);
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
  if (hi === -Infinity || lo === Infinity) return linearTicks(0, 1);
  if (hi === lo) return linearTicks(lo, lo + 1); // nothing drawn yet but the 0 line: 0 to 1, not −1 to 1
  return linearTicks(lo, stacked && hi <= 0 ? 1 : hi, 4);
}

/**
 * Dashed reference lines across the plot, each labelled at its right end: the lines under the
 * curves, the labels (with their halo) over them, so a curve that reaches a baseline never hides its name.
 */
function RefLines({ m, refs, domain, part }: { m: Marks; refs: readonly RefLine[]; domain: [number, number]; part: 'lines' | 'labels' }) {
  const x0 = m.sx(domain[0]), x1 = m.sx(domain[1]);
  if (x0 === undefined || x1 === undefined) return null;
  return (
    <g className={part === 'lines' ? 'ref-lines' : 'ref-labels'}>
      {refs.map((r) => {
        const y = m.sy(r.value);
        if (y === undefined) return null;
        return part === 'lines'
          ? <line key={r.label} x1={x0} x2={x1} y1={y} y2={y} stroke={r.colour} strokeDasharray="6 4" strokeWidth={1.5} />
          : <text key={r.label} className="ref-label" x={x1 - 4} y={y - 4} textAnchor="end" fill={r.colour}>{r.label}</text>;
      })}
    </g>
  );
}

const NO_REFS: readonly RefLine[] = [];
const NO_BANDS: readonly Band[] = [];

/** The bands as filled outlines, faint, under the curves. */
function Bands({ m, xs, bands }: { m: Marks; xs: readonly number[]; bands: readonly Band[] }) {
  const { sx, sy } = m;
  const paths = useMemo(() => bands.map((b) => rangeBand(xs, b.lo, b.hi, sx, sy)), [xs, bands, sx, sy]);
  return (
    <g className="bands">
      {paths.map((d, k) => {
        const b = bands[k] as Band;
        return <path key={b.name} className="band" data-run={b.run} d={d} fill={b.colour} fillOpacity={0.24}
          stroke={b.colour} strokeOpacity={0.5} strokeWidth={0.75} />;
      })}
    </g>
  );
}

/** The curves as SVG paths (lines, or stacked bands), with dots on the lines at the hovered iteration. */
function Curves({ m, xs, curves, stacked }: { m: Marks; xs: readonly number[]; curves: readonly Curve[]; stacked: boolean }) {
  const { sx, sy, active } = m;
  const paths = useMemo(
    () => (stacked ? stackedBands(xs, curves.map((c) => c.values), sx, sy) : curves.map((c) => linePath(xs, c.values, sx, sy))),
    [xs, curves, stacked, sx, sy],
  );
  const gx = active >= 0 ? sx(xs[active] as number) : undefined;
  return (
    <g className="curves">
      {paths.map((d, k) => {
        const c = curves[k] as Curve;
        return stacked
          ? <path key={c.name} d={d} fill={c.colour} fillOpacity={0.55} stroke={c.colour} strokeWidth={1} />
          : <path key={c.name} className={c.faint ? 'curve faint' : 'curve'} data-run={c.faint ? undefined : c.run}
            d={d} fill="none" stroke={c.colour} strokeWidth={c.faint ? 1 : 2} strokeOpacity={c.faint ? 0.35 : 1}
            strokeDasharray={c.dash} strokeLinejoin="round" />;
      })}
      {xs.length === 1 && !stacked && curves.map((c) => {
        // One iteration (a single Step) is a point, which a line path would not show.
        const x = sx(xs[0] as number), y = sy(c.values[0] as number);
        return x === undefined || y === undefined || c.faint ? null : <circle key={`only-${c.name}`}
          className="only-point" cx={x} cy={y} r={3.5} fill={c.colour} />;
      })}
      {gx !== undefined && !stacked && curves.map((c) => {
        const y = sy(c.values[active] as number);
        return y === undefined ? null : <circle key={c.name} cx={gx} cy={y} r={3} fill={c.colour} stroke="var(--panel)" />;
      })}
    </g>
  );
}

/**
 * A live chart over iterations: the curves as one SVG path each (lines, or stacked bands) over a
 * plain SVG frame; the tooltip lists every curve's value at the iteration under the pointer.
 */
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
  /** Baselines drawn as dashed lines (and kept inside the y range). */
  refs?: readonly RefLine[];
  /** Shaded ranges under the curves (kept inside the y range). */
  bands?: readonly Band[];
  /** Keep 0 inside the y range. */
  includeZero?: boolean;
  /** Tick labels of the y axis (a stable function). */
  yFormat?: (v: number) => string;
  /** What the tooltip says for a value that is not a number (a gap in its line). */
  missing?: string;
}) {
  const xTicks = useMemo(() => iterationTicks(xs), [xs]);
  const yTicks = useMemo(() => {
    const edges: Curve[] = bands.flatMap((b) => [b.lo, b.hi])
      .map((values, k) => ({ name: `edge ${k}`, colour: '', values }));
    const include = [...(includeZero ? [0] : []), ...refs.map((r) => r.value)];
    return valueTicks([...curves, ...edges], stacked, domain, include);
  }, [curves, bands, stacked, domain, includeZero, refs]);
  const tip = (i: number) => {
    const rows = curves.map((c) => ({ c, v: c.values[i] as number })).filter((r) => !stacked || r.v > 0);
    const show = (v: number) => (Number.isFinite(v) ? format(v) : missing);
    return (
      <>
        <div><strong>iteration {xs[i]}</strong></div>
        {rows.map(({ c, v }) => <TipRow key={c.name} colour={c.colour}>{c.name}: {show(v)}</TipRow>)}
        {bands.map((b) => (
          <TipRow key={`band-${b.name}`} colour={b.colour}>
            {b.name}: {show(b.lo[i] as number)} to {show(b.hi[i] as number)}
          </TipRow>
        ))}
        {stacked && <div className="muted">total: {show(rows.reduce((a, r) => a + (Number.isFinite(r.v) ? r.v : 0), 0))}</div>}
      </>
    );
  };
  return (
    <ChartFrame xTicks={xTicks} yTicks={yTicks} xLabel="iteration" yLabel={yLabel} snap={{ xs }} tip={tip} {...(yFormat ? { yFormat } : {})}>
      {(m) => <>
        {refs.length > 0 && <RefLines m={m} refs={refs} domain={xTicks.domain} part="lines" />}
        {bands.length > 0 && <Bands m={m} xs={xs} bands={bands} />}
        <Curves m={m} xs={xs} curves={curves} stacked={stacked} />
        {refs.length > 0 && <RefLines m={m} refs={refs} domain={xTicks.domain} part="labels" />}
      </>}
    </ChartFrame>
  );
}
