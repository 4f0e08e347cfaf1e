// SVG path data of the live charts' marks from d3-shape: a line per metric (a gap where a value is missing),
// stacked bands for the tool-usage chart, a range band (compare runs' seeds). One path per series keeps a
// chart's update to one short render; coordinates are rounded to a tenth of a pixel.

import { area, line, stack } from 'd3-shape';
import type { Scale } from './axisTicks';

type Point = readonly [x: number | undefined, y: number | undefined];
type Span = readonly [x: number | undefined, y0: number | undefined, y1: number | undefined];

const DIGITS = 1;
const placed = (p: readonly (number | undefined)[]): boolean => p.every((v) => v !== undefined);
const lineOf = line<Point>().defined(placed).x((p) => p[0] as number).y((p) => p[1] as number).digits(DIGITS);
const areaOf = area<Span>().defined(placed).x((p) => p[0] as number).y0((p) => p[1] as number)
  .y1((p) => p[2] as number).digits(DIGITS);

/** A line through the points (x_i, y_i); a value the scales cannot place (NaN, ±∞) breaks it, a visible gap. */
export function linePath(xs: readonly number[], ys: readonly number[], sx: Scale, sy: Scale): string {
  return lineOf(xs.map((x, i): Point => [sx(x), sy(ys[i] as number)])) ?? '';
}

/** The closed outline of the area between `lo` and `hi` at each x; a point without both bounds is a gap. */
export function rangeBand(
  xs: readonly number[], lo: readonly number[], hi: readonly number[], sx: Scale, sy: Scale,
): string {
  return areaOf(xs.map((x, i): Span => [sx(x), sy(lo[i] as number), sy(hi[i] as number)])) ?? '';
}

/**
 * Stacked bands (d3's stack): band k spans [Σ_{j<k} v_j, Σ_{j≤k} v_j] at every x, one closed outline each.
 * Negative or non-finite values count as 0 (usage counts are never negative).
 */
export function stackedBands(
  xs: readonly number[], series: readonly (readonly number[])[], sx: Scale, sy: Scale,
): string[] {
  const layers = stack<number, number>().keys(series.map((_, k) => k)).value((i, k) => {
    const v = series[k]?.[i] ?? 0;
    return Number.isFinite(v) && v > 0 ? v : 0;
  })(xs.map((_, i) => i));
  return layers.map((layer) => areaOf(layer.map((p, i): Span => [sx(xs[i] as number), sy(p[0]), sy(p[1])])) ?? '');
}
