import { CartesianGrid, LineChart, ResponsiveContainer, XAxis, YAxis, usePlotArea } from 'recharts';
import { memo, useEffect, useMemo, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { GRID, TOOLTIP_STYLE } from './ChartCard';
import type { Ticks } from './niceTicks';
import { plainTick } from './PlainTick';
import { CHAR_PER_FONT_PX, chartFontPx } from './labelPlacement';
import { useView } from '../../store/viewStore';
import { linearScale, logScale, nearestIndex, nearestPoint, type Scale } from './scales';

/** The plot area inside the chart, in pixels from the chart's top-left corner. */
export interface Plot { x: number; y: number; width: number; height: number }

/** What the marks are drawn with: the axes' scales and the data index under the pointer or the keys (-1: none). */
export interface Marks { sx: Scale; sy: Scale; active: number }

/** Where the pointer snaps: to the nearest x (curves, bins), or to the nearest point within reach (scatter). */
export type Snap = { xs: readonly number[]; ys?: readonly number[] };

interface FrameProps {
  xTicks: Ticks;
  yTicks: Ticks;
  xLabel: string;
  yLabel: string;
  xFormat: (v: number) => string;
  yFormat: (v: number) => string;
  yWidth: number;
  logX: boolean;
  verticalGrid: boolean;
  /** The chart font in px (margins and the y-axis width follow it). */
  fontPx: number;
  onPlot: (p: Plot) => void;
}

const POINT_REACH_PX = 14;
const defaultX = (v: number): string => String(v);

/** Tells the page where recharts put the plot area (once, and again on a resize). */
function PlotReporter({ onPlot }: { onPlot: (p: Plot) => void }) {
  const area = usePlotArea();
  const x = area?.x;
  const y = area?.y;
  const width = area?.width;
  const height = area?.height;
  useEffect(() => {
    if (x !== undefined && y !== undefined && width !== undefined && height !== undefined && width > 0 && height > 0) onPlot({ x, y, width, height });
  }, [x, y, width, height, onPlot]);
  return null;
}

const sameTicks = (a: Ticks, b: Ticks): boolean =>
  a.decimals === b.decimals && a.domain[0] === b.domain[0] && a.domain[1] === b.domain[1] && a.values.length === b.values.length && a.values.every((v, i) => v === b.values[i]);

/**
 * recharts' part: responsive size, axes with our ticks as final (so nothing is measured in the DOM
 * and nothing re-derived), labels, grid. Memoised on the ticks' values, so a data update that
 * leaves the axes alone does not touch recharts at all.
 */
const Frame = memo(function Frame({ xTicks, yTicks, xLabel, yLabel, xFormat, yFormat, yWidth, logX, verticalGrid, onPlot, fontPx }: FrameProps) {
  const xTick = useMemo(() => plainTick(xFormat), [xFormat]);
  const yTick = useMemo(() => plainTick(yFormat), [yFormat]);
  return (
    <ResponsiveContainer width="100%" height="100%">
      <LineChart margin={{ top: 6, right: 10, bottom: Math.round(1.3 * fontPx), left: 4 }}>
        <CartesianGrid stroke={GRID} strokeDasharray="3 3" vertical={verticalGrid} />
        <XAxis dataKey="x" type="number" niceTicks="none" scale={logX ? 'log' : 'linear'} domain={xTicks.domain} ticks={xTicks.values} interval={0} tick={xTick} stroke="var(--muted)" allowDataOverflow label={{ value: xLabel, position: 'insideBottom', offset: -Math.round(0.75 * fontPx), fill: 'var(--muted)' }} />
        <YAxis type="number" niceTicks="none" domain={yTicks.domain} ticks={yTicks.values} interval={0} tick={yTick} stroke="var(--muted)" width={yWidth} allowDataOverflow label={{ value: yLabel, angle: -90, position: 'insideLeft', fill: 'var(--muted)', dx: 2 }} />
        <PlotReporter onPlot={onPlot} />
      </LineChart>
    </ResponsiveContainer>
  );
}, (a, b) => sameTicks(a.xTicks, b.xTicks) && sameTicks(a.yTicks, b.yTicks) && a.xLabel === b.xLabel && a.yLabel === b.yLabel
  && a.xFormat === b.xFormat && a.yFormat === b.yFormat && a.yWidth === b.yWidth && a.logX === b.logX && a.verticalGrid === b.verticalGrid && a.onPlot === b.onPlot && a.fontPx === b.fontPx);

/**
 * A live chart. recharts draws the frame (size, axes, grid, labels); the marks are plain SVG in a
 * layer on top, drawn by `children` with the same scales, and the layer answers the pointer with
 * a guide and a tooltip (`tip(index)`). Why not recharts' own <Line>/<Area>/<Bar>/<Scatter>: each
 * keeps selectors in recharts' internal store and re-renders synchronously on every data change
 * (several ms per series per update, not sliceable by a React transition), which blocked the main
 * thread while training; here a data update re-renders only the marks layer.
 */
export function ChartFrame({ xTicks, yTicks, xLabel, yLabel, xFormat = defaultX, yFormat, yWidth, logX = false, verticalGrid = false, snap, tip, children }: {
  xTicks: Ticks;
  yTicks: Ticks;
  xLabel: string;
  yLabel: string;
  /** Tick label formats: pass a stable function (module level or memoised). */
  xFormat?: (v: number) => string;
  yFormat?: (v: number) => string;
  /** Width of the y axis; by default just wide enough for the longest tick label beside the axis label. */
  yWidth?: number;
  logX?: boolean;
  verticalGrid?: boolean;
  snap: Snap;
  tip: (index: number) => ReactNode;
  children: (m: Marks) => ReactNode;
}) {
  const [plot, setPlot] = useState<Plot | null>(null);
  const [pointer, setPointer] = useState<{ x: number; y: number } | null>(null);
  /** The point chosen with the arrow keys while the chart has focus (the pointer wins when both). */
  const [keyed, setKeyed] = useState<number | null>(null);
  const decimals = yTicks.decimals;
  const yFmt = useMemo(() => yFormat ?? ((v: number) => v.toFixed(decimals)), [yFormat, decimals]);
  const fontPx = chartFontPx(useView((s) => s.classroom));
  // The widest tick label, plus room for the axis line, the tick and the rotated axis label (2 font px).
  const axisWidth = yWidth ?? Math.ceil(2 * fontPx + CHAR_PER_FONT_PX * fontPx * Math.max(1, ...yTicks.values.map((v) => yFmt(v).length)));
  const sx = useMemo(() => (plot ? (logX ? logScale : linearScale)(xTicks.domain, [plot.x, plot.x + plot.width]) : null), [plot, logX, xTicks.domain]);
  const sy = useMemo(() => (plot ? linearScale(yTicks.domain, [plot.y + plot.height, plot.y]) : null), [plot, yTicks.domain]);
  const n = snap.xs.length;
  let active = -1;
  let anchor: { x: number; y: number } | null = null;
  if (pointer && sx && sy) {
    const pxs = snap.xs.map((x) => sx(x) ?? Number.NaN);
    active = snap.ys
      ? nearestPoint(pxs, snap.ys.map((y) => sy(y) ?? Number.NaN), pointer.x, pointer.y, POINT_REACH_PX)
      : nearestIndex(pxs, pointer.x);
    anchor = pointer;
  } else if (keyed !== null && n > 0 && sx && sy && plot) {
    active = Math.min(keyed, n - 1);
    const y = snap.ys ? sy(snap.ys[active] as number) : undefined;
    anchor = { x: sx(snap.xs[active] as number) ?? plot.x, y: y ?? plot.y + plot.height / 3 };
  }
  const onMove = (e: PointerEvent<SVGRectElement>) => {
    const box = e.currentTarget.ownerSVGElement?.getBoundingClientRect();
    if (box) setPointer({ x: e.clientX - box.left, y: e.clientY - box.top });
  };
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (n === 0) return;
    const from = keyed === null ? n : Math.min(keyed, n - 1);
    const next = ({ ArrowLeft: from - 1, ArrowRight: keyed === null ? n - 1 : from + 1, Home: 0, End: n - 1 } as Record<string, number>)[e.key];
    if (e.key === 'Escape') setKeyed(null);
    else if (next !== undefined) setKeyed(Math.max(0, Math.min(n - 1, next)));
    else return;
    e.preventDefault();
  };
  const guideX = active >= 0 && !snap.ys && sx ? sx(snap.xs[active] as number) : undefined;
  const flip = !!plot && !!anchor && anchor.x > plot.x + plot.width / 2;
  return (
    <div className="chart-frame" tabIndex={0} role="group" aria-label={`${yLabel} against ${xLabel}: arrow keys read the points`} onKeyDown={onKey} onBlur={() => setKeyed(null)}>
      <Frame xTicks={xTicks} yTicks={yTicks} xLabel={xLabel} yLabel={yLabel} xFormat={xFormat} yFormat={yFmt} yWidth={axisWidth} logX={logX} verticalGrid={verticalGrid} onPlot={setPlot} fontPx={fontPx} />
      {plot && sx && sy && (
        <svg className="marks">
          {children({ sx, sy, active })}
          {guideX !== undefined && <line x1={guideX} x2={guideX} y1={plot.y} y2={plot.y + plot.height} stroke="var(--muted)" strokeDasharray="3 3" />}
          <rect className="pointer-catcher" x={plot.x} y={plot.y} width={plot.width} height={plot.height} fill="transparent" onPointerMove={onMove} onPointerLeave={() => setPointer(null)} />
        </svg>
      )}
      {active >= 0 && anchor && (
        <div className="point-tip" role="tooltip" style={{ ...TOOLTIP_STYLE, left: anchor.x + (flip ? -14 : 14), top: anchor.y + 14, transform: flip ? 'translateX(-100%)' : undefined }}>
          {tip(active)}
        </div>
      )}
      <div className="sr-only" aria-live="polite">{!pointer && active >= 0 ? tip(active) : null}</div>
    </div>
  );
}

/** One row of a tooltip: a colour swatch, a name and a value. */
export function TipRow({ colour, children }: { colour: string; children: ReactNode }) {
  return <div><span className="tip-swatch" style={{ background: colour }} />{children}</div>;
}
