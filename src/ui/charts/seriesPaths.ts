// SVG path data for the live charts' marks: a polyline per metric, stacked bands for the
// tool-usage chart, a range band (compare runs' seeds), the operating point's star, each built in
// one pass from two scales (data → pixels). One path per series keeps a chart's update to one
// short render.

import type { Scale } from './scales';

const fmt = (v: number): string => (Math.round(v * 10) / 10).toString();

/**
 * A polyline through the points (x_i, y_i). Non-finite values break the line, as a gap (so a
 * NaN metric is visible as a hole, not a dive to zero).
 */
export function linePath(xs: readonly number[], ys: readonly number[], sx: Scale, sy: Scale): string {
  let d = '';
  let pen = false;
  for (let i = 0; i < xs.length; i++) {
    const y = ys[i] as number;
    const px = Number.isFinite(y) ? sx(xs[i] as number) : undefined;
    const py = px === undefined ? undefined : sy(y);
    if (px === undefined || py === undefined || !Number.isFinite(px) || !Number.isFinite(py)) { pen = false; continue; }
    d += `${pen ? 'L' : 'M'}${fmt(px)},${fmt(py)}`;
    pen = true;
  }
  return d;
}

/**
 * Stacked bands: band k spans [Σ_{j<k} v_j, Σ_{j≤k} v_j] at every x. Returns, per series, the
 * closed outline (top edge left → right, then the bottom edge right → left). Negative or
 * non-finite values count as 0 (usage counts are never negative).
 */
export function stackedBands(xs: readonly number[], series: readonly (readonly number[])[], sx: Scale, sy: Scale): string[] {
  const base = new Float64Array(xs.length);
  const pxs = xs.map((x) => sx(x));
  return series.map((vs) => {
    const bottom: string[] = [];
    let top = '';
    for (let i = 0; i < xs.length; i++) {
      const px = pxs[i];
      const v = vs[i] as number;
      const lo = base[i] as number;
      const hi = lo + (Number.isFinite(v) && v > 0 ? v : 0);
      base[i] = hi;
      const y0 = sy(lo);
      const y1 = sy(hi);
      if (px === undefined || y0 === undefined || y1 === undefined) continue;
      top += `${top ? 'L' : 'M'}${fmt(px)},${fmt(y1)}`;
      bottom.push(`L${fmt(px)},${fmt(y0)}`);
    }
    return top ? `${top}${bottom.reverse().join('')}Z` : '';
  });
}

/**
 * A shaded range: the closed outline of the area between `lo` and `hi` (the top edge left → right,
 * then the bottom edge right → left). Points where either bound is not finite are skipped.
 */
export function rangeBand(
  xs: readonly number[], lo: readonly number[], hi: readonly number[], sx: Scale, sy: Scale,
): string {
  let top = '';
  const bottom: string[] = [];
  for (let i = 0; i < xs.length; i++) {
    const a = lo[i] as number, b = hi[i] as number;
    const px = Number.isFinite(a) && Number.isFinite(b) ? sx(xs[i] as number) : undefined;
    const y0 = px === undefined ? undefined : sy(a);
    const y1 = px === undefined ? undefined : sy(b);
    if (px === undefined || y0 === undefined || y1 === undefined) continue;
    top += `${top ? 'L' : 'M'}${fmt(px)},${fmt(y1)}`;
    bottom.push(`L${fmt(px)},${fmt(y0)}`);
  }
  return top ? `${top}${bottom.reverse().join('')}Z` : '';
}

/** A five-pointed star centred at (cx, cy), pointing up: outer radius r, inner radius `inner`. */
export function starPath(cx: number, cy: number, r: number, inner: number): string {
  let d = '';
  for (let k = 0; k < 10; k++) {
    const radius = k % 2 === 0 ? r : inner;
    const angle = -Math.PI / 2 + (k * Math.PI) / 5;
    d += `${k === 0 ? 'M' : 'L'}${fmt(cx + radius * Math.cos(angle))},${fmt(cy + radius * Math.sin(angle))}`;
  }
  return `${d}Z`;
}
