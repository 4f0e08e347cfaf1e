// A live chart in plain SVG: the frame (AxesFrame) and the marks drawn with the same d3 scales, and the data point
// nearest the pointer or chosen with the arrow keys, with its guide and tooltip. Not recharts: it re-renders every
// graphical item synchronously from its own store on a data change (docs/ARCHITECTURE.md); here a data update
// re-renders only the marks, and the frame only when its ticks or size change.

import { useMemo, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { scaleLinear, scaleLog } from 'd3-scale';
import { TOOLTIP_STYLE } from './ChartCard';
import { placing, type Scale, type Ticks } from './axisTicks';
import { CHAR_PER_FONT_PX, chartFontPx } from './labelPlacement';
import { useView } from '../../store/viewStore';
import { Axes, plotArea, useElementSize } from './AxesFrame';
import { nearestIndex, nearestPoint } from './nearest';

/** What the marks are drawn with: the axes' scales and the data index under the pointer or the keys (-1: none). */
/** The scales, the point the pointer or the keys chose (−1: none), and the drawing's width (px). */
export interface Marks { sx: Scale; sy: Scale; active: number; width: number }

/** Where the pointer snaps: to the nearest x (curves, bins), or to the nearest point within reach (scatter). */
export type Snap = { xs: readonly number[]; ys?: readonly number[] };

const POINT_REACH_PX = 14;
const defaultX = (v: number): string => String(v);

/**
 * A live chart: the frame (grid, axes, tick labels, titles; see Axes) and the marks drawn by `children` with
 * the same scales; it answers the pointer and the arrow keys with a guide and a tooltip (`tip(index)`).
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
  const [frameRef, size] = useElementSize<HTMLDivElement>();
  const [pointer, setPointer] = useState<{ x: number; y: number } | null>(null);
  /** The point chosen with the arrow keys while the chart has focus (the pointer wins when both). */
  const [keyed, setKeyed] = useState<number | null>(null);
  const decimals = yTicks.decimals;
  const yFmt = useMemo(() => yFormat ?? ((v: number) => v.toFixed(decimals)), [yFormat, decimals]);
  const fontPx = chartFontPx(useView((s) => s.classroom));
  // The widest tick label, plus room for the axis line, the tick and the rotated axis label (2 font px).
  const axisWidth = yWidth ?? Math.ceil(2 * fontPx + CHAR_PER_FONT_PX * fontPx * Math.max(1, ...yTicks.values.map((v) => yFmt(v).length)));
  const plot = useMemo(() => plotArea(size.width, size.height, axisWidth, fontPx), [size.width, size.height, axisWidth, fontPx]);
  // Keyed on the domains' ends, not their arrays (new on every push): the same scales keep the frame unrendered.
  const [x0, x1] = xTicks.domain, [y0, y1] = yTicks.domain;
  const sx = useMemo(() => {
    if (!plot) return null;
    const range = [plot.x, plot.x + plot.width];
    return placing(logX ? scaleLog([x0, x1], range) : scaleLinear([x0, x1], range));
  }, [plot, logX, x0, x1]);
  const sy = useMemo(() => (plot ? placing(scaleLinear([y0, y1], [plot.y + plot.height, plot.y])) : null),
    [plot, y0, y1]);
  const n = snap.xs.length;
  let active = -1;
  let anchor: { x: number; y: number } | null = null;
  if (pointer && sx && sy) {
    active = snap.ys
      ? nearestPoint(snap.xs.map((x) => sx(x)), snap.ys.map((y) => sy(y)), pointer.x, pointer.y, POINT_REACH_PX)
      : nearestIndex(snap.xs.map((x) => sx(x) ?? Number.NaN), pointer.x);
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
    <div className="chart-frame" ref={frameRef} tabIndex={0} role="group" aria-label={`${yLabel} against ${xLabel}: ` +
      `arrow keys read the points`} onKeyDown={onKey} onBlur={() => setKeyed(null)}>
      {plot && sx && sy && (
        <svg className="chart-svg">
          <Axes plot={plot} sx={sx} sy={sy} xTicks={xTicks} yTicks={yTicks} xLabel={xLabel} yLabel={yLabel}
            xFormat={xFormat} yFormat={yFmt} verticalGrid={verticalGrid} fontPx={fontPx} />
          {children({ sx, sy, active, width: size.width })}
          {guideX !== undefined && <line x1={guideX} x2={guideX} y1={plot.y} y2={plot.y + plot.height} stroke="var(--muted)" strokeDasharray="3 3" />}
          <rect className="pointer-catcher" x={plot.x} y={plot.y} width={plot.width} height={plot.height}
            fill="transparent" onPointerMove={onMove} onPointerLeave={() => setPointer(null)} />
        </svg>
      )}
      {active >= 0 && anchor && (
        <div className="point-tip" role="tooltip" style={{ ...TOOLTIP_STYLE, left: anchor.x + (flip ? -14 : 14),
          top: anchor.y + 14, transform: flip ? 'translateX(-100%)' : undefined }}>
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
