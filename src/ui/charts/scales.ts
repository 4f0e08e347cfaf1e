// Scales of the live charts (data → pixels, the same maps for the frame's axes and for the marks) and
// the pointer's nearest data point, for the tooltips the marks layer draws itself.

/** Maps a data value to a pixel coordinate; `undefined` where the scale cannot place it. */
export type Scale = (v: number) => number | undefined;

/** Linear map of [d0, d1] onto [r0, r1]; a zero-width domain maps everything to the middle. */
export function linearScale([d0, d1]: readonly [number, number], [r0, r1]: readonly [number, number]): Scale {
  const span = d1 - d0;
  return (v) => {
    if (!Number.isFinite(v)) return undefined;
    return span === 0 ? (r0 + r1) / 2 : r0 + ((v - d0) / span) * (r1 - r0);
  };
}

/** Logarithmic map of [d0, d1] (both > 0) onto [r0, r1]; values ≤ 0 have no place. */
export function logScale([d0, d1]: readonly [number, number], [r0, r1]: readonly [number, number]): Scale {
  const inner = linearScale([Math.log(d0), Math.log(d1)], [r0, r1]);
  return (v) => (v > 0 ? inner(Math.log(v)) : undefined);
}

/** Index of the value closest to `x` in ascending `xs`; -1 when there are none. */
export function nearestIndex(xs: readonly number[], x: number): number {
  if (xs.length === 0) return -1;
  let lo = 0;
  let hi = xs.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if ((xs[mid] as number) <= x) lo = mid;
    else hi = mid;
  }
  return Math.abs((xs[hi] as number) - x) < Math.abs((xs[lo] as number) - x) ? hi : lo;
}

/** Index of the point closest to (x, y) within `radius` (pixels); -1 when none is that close. */
export function nearestPoint(xs: readonly (number | undefined)[], ys: readonly (number | undefined)[], x: number, y: number, radius: number): number {
  let best = -1;
  let bestD = radius * radius;
  xs.forEach((px, i) => {
    const py = ys[i];
    if (px === undefined || py === undefined) return;
    const d = (px - x) ** 2 + (py - y) ** 2;
    if (d <= bestD) { bestD = d; best = i; }
  });
  return best;
}
