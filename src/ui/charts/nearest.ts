// Which data point the pointer is on: the nearest x along a curve or a histogram (binary search over ascending
// pixel positions), or the nearest point of a scatter within reach. Pure, so the tests need no React.

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
export function nearestPoint(xs: readonly (number | undefined)[], ys: readonly (number | undefined)[],
  x: number, y: number, radius: number): number {
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
