// A chart's frame as plain SVG (grid, axes, tick marks and labels, titles) placed from precomputed ticks and
// scales, the plot area the axes leave, and the chart's size from a ResizeObserver.

import { memo, useEffect, useRef, useState, type ReactNode } from 'react';
import { GRID } from './ChartCard';
import type { Scale, Ticks } from './axisTicks';

/** The plot area inside the chart, in pixels from the chart's top-left corner. */
interface Plot {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Space around the plot, in px: above it, right of it, and left of the y axis. */
const MARGIN = { top: 6, right: 10, left: 4 } as const;
/** Length of a tick mark, and the gap between a tick mark and its label. */
const TICK = 6,
  TICK_GAP = 2;
/** Height of the x axis under the plot (tick marks and their labels), in font px. */
const X_AXIS_FONTS = 2.5;

/**
 * The plot area left inside a chart of `width` × `height` px by the axes: the y axis `yWidth`
 * wide on the left, the x axis and its label under the plot. Null while the chart has no size.
 */
export function plotArea(width: number, height: number, yWidth: number, fontPx: number): Plot | null {
  const x = MARGIN.left + yWidth;
  const bottom = Math.round(X_AXIS_FONTS * fontPx + 1.3 * fontPx);
  const plot = { x, y: MARGIN.top, width: width - x - MARGIN.right, height: height - MARGIN.top - bottom };
  return plot.width > 0 && plot.height > 0 ? plot : null;
}

/** The element's content size in px, kept current by a ResizeObserver (0 × 0 until it is laid out). */
export function useElementSize<E extends HTMLElement>(): [
  React.RefObject<E | null>,
  { width: number; height: number },
] {
  const ref = useRef<E>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = (width: number, height: number) =>
      setSize((s) => (s.width === width && s.height === height ? s : { width, height }));
    const box = el.getBoundingClientRect();
    update(Math.round(box.width), Math.round(box.height));
    const observer = new ResizeObserver(([entry]) => {
      if (entry) update(Math.round(entry.contentRect.width), Math.round(entry.contentRect.height));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, size];
}

interface AxesProps {
  plot: Plot;
  sx: Scale;
  sy: Scale;
  xTicks: Ticks;
  yTicks: Ticks;
  xLabel: string;
  yLabel: string;
  xFormat: (v: number) => string;
  yFormat: (v: number) => string;
  verticalGrid: boolean;
  fontPx: number;
}

const sameTicks = (a: Ticks, b: Ticks): boolean =>
  a.decimals === b.decimals &&
  a.domain[0] === b.domain[0] &&
  a.domain[1] === b.domain[1] &&
  a.values.length === b.values.length &&
  a.values.every((v, i) => v === b.values[i]);

/**
 * A chart's frame as plain SVG: dashed grid lines at the ticks, the two axis lines with their
 * tick marks and labels, and the axis titles. Everything is placed from the ticks and the scales,
 * nothing is measured in the DOM, and it is memoised on the ticks and the plot, so a data update
 * that leaves the axes alone does not re-render it.
 */
export const Axes = memo(
  function Axes({
    plot,
    sx,
    sy,
    xTicks,
    yTicks,
    xLabel,
    yLabel,
    xFormat,
    yFormat,
    verticalGrid,
    fontPx,
  }: AxesProps): ReactNode {
    const left = plot.x,
      right = plot.x + plot.width,
      top = plot.y,
      bottom = plot.y + plot.height;
    const xs = xTicks.values
      .map((v) => ({ v, at: sx(v) }))
      .filter((t): t is { v: number; at: number } => t.at !== undefined);
    const ys = yTicks.values
      .map((v) => ({ v, at: sy(v) }))
      .filter((t): t is { v: number; at: number } => t.at !== undefined);
    return (
      <g className="axes" aria-hidden="true">
        <g className="grid" stroke={GRID} strokeDasharray="3 3">
          {ys.map((t) => (
            <line key={`y${t.v}`} x1={left} x2={right} y1={t.at} y2={t.at} />
          ))}
          {verticalGrid && xs.map((t) => <line key={`x${t.v}`} x1={t.at} x2={t.at} y1={top} y2={bottom} />)}
        </g>
        <g className="x-axis" stroke="var(--muted)">
          <line x1={left} x2={right} y1={bottom} y2={bottom} />
          {xs.map((t) => (
            <g key={t.v}>
              <line x1={t.at} x2={t.at} y1={bottom} y2={bottom + TICK} />
              <text
                className="tick-label"
                x={t.at}
                y={bottom + TICK + TICK_GAP}
                dy="0.71em"
                textAnchor="middle"
                fill="var(--muted)"
                stroke="none"
              >
                {xFormat(t.v)}
              </text>
            </g>
          ))}
          <text
            className="axis-label"
            x={(left + right) / 2}
            y={bottom + Math.round(X_AXIS_FONTS * fontPx + 0.75 * fontPx)}
            textAnchor="middle"
            fill="var(--muted)"
            stroke="none"
          >
            {xLabel}
          </text>
        </g>
        <g className="y-axis" stroke="var(--muted)">
          <line x1={left} x2={left} y1={top} y2={bottom} />
          {ys.map((t) => (
            <g key={t.v}>
              <line x1={left - TICK} x2={left} y1={t.at} y2={t.at} />
              <text
                className="tick-label"
                x={left - TICK - TICK_GAP}
                y={t.at}
                dy="0.32em"
                textAnchor="end"
                fill="var(--muted)"
                stroke="none"
              >
                {yFormat(t.v)}
              </text>
            </g>
          ))}
          <text
            className="axis-label"
            transform={`translate(${MARGIN.left + 0.9 * fontPx} ${(top + bottom) / 2}) ` + `rotate(-90)`}
            textAnchor="middle"
            fill="var(--muted)"
            stroke="none"
          >
            {yLabel}
          </text>
        </g>
      </g>
    );
  },
  (a, b) =>
    a.plot === b.plot &&
    a.sx === b.sx &&
    a.sy === b.sy &&
    sameTicks(a.xTicks, b.xTicks) &&
    sameTicks(a.yTicks, b.yTicks) &&
    a.xLabel === b.xLabel &&
    a.yLabel === b.yLabel &&
    a.xFormat === b.xFormat &&
    a.yFormat === b.yFormat &&
    a.verticalGrid === b.verticalGrid &&
    a.fontPx === b.fontPx,
);
