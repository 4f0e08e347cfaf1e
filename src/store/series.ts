// Metric history: for the charts, bounded (every iteration until the cap, then the older half
// thinned to every other point, so chart work stays bounded however long a run goes); for export,
// every iteration (MetricLog, appended in place). Also the run's metrics as CSV / JSON.

import type { MetricPoint } from '../worker/protocol';

export const SERIES_CAP = 2000;
/** Most points a chart draws. */
export const CHART_POINTS = 200;

/**
 * The series with `points` appended, thinned to at most `cap` points. The charts plot one policy's
 * history against its iteration counter: a point whose iteration is not after the last one's (the
 * worker's counter went back: a new policy starts at 1, a recovered backend at the last weights
 * read back) first cuts the series back to the points before it, so an iteration axis never runs
 * backwards and the history up to there stays.
 */
export function appendBounded(series: readonly MetricPoint[], points: readonly MetricPoint[], cap = SERIES_CAP): MetricPoint[] {
  let out = [...series];
  for (const p of points) {
    while (out.length && (out[out.length - 1] as MetricPoint).iteration >= p.iteration) out.pop();
    out.push(p);
  }
  while (out.length > cap) {
    const half = Math.floor(out.length / 2);
    out = [...out.slice(0, half).filter((_, i) => i % 2 === 0), ...out.slice(half)];
  }
  return out;
}

/**
 * Every iteration of one policy's run, for export: appended in place (a long run costs no copy per
 * push), cut back where the iteration counter goes back, as the charts' series is.
 */
export class MetricLog {
  readonly points: MetricPoint[] = [];
  append(points: readonly MetricPoint[]): void {
    for (const p of points) {
      while (this.points.length && (this.points[this.points.length - 1] as MetricPoint).iteration >= p.iteration) this.points.pop();
      this.points.push(p);
    }
  }
}

/** At most `max` evenly spaced points (the last one always included). */
export function downsample<T>(xs: readonly T[], max = CHART_POINTS): T[] {
  if (xs.length <= max) return [...xs];
  const stride = xs.length / max;
  const out: T[] = [];
  for (let k = 0; k < max - 1; k++) out.push(xs[Math.floor(k * stride)] as T);
  out.push(xs[xs.length - 1] as T);
  return out;
}

/** Iterations a chart's smoothed line averages over (the training charts and the side-by-side runs). */
export const SMOOTH_WINDOW = 10;

/** The mean of each value and the (window − 1) before it (fewer at the start): a line that shows the trend, not the noise. */
export function trailingMean(values: readonly number[], window: number): number[] {
  const out: number[] = [];
  let sum = 0, n = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (Number.isFinite(v)) { sum += v; n++; }
    const drop = i - window;
    if (drop >= 0 && Number.isFinite(values[drop] as number)) { sum -= values[drop] as number; n--; }
    out.push(n > 0 ? sum / n : Number.NaN);
  }
  return out;
}

/** Values of the update: an iteration without one (every group filtered) has none of them. */
export const OF_UPDATE: readonly string[] = ['kl', 'entropy', 'clipFrac', 'loss', 'gradNorm'];
const SCALARS = ['iteration', 'meanReward', 'accuracy', 'meanCostUSD', 'meanLatencyS', 'rewardStd', 'meanAbsAdvantage',
  'kl', 'entropy', 'clipFrac', 'filteredFrac', 'loss', 'gradNorm', 'meanTurns', 'wallMs'] as const;

/**
 * One row per iteration. `trainedDecisions` is 0 where no group trained (every one filtered): that
 * iteration had no update, and its kl, entropy, clipFrac, loss and gradNorm cells are left empty
 * rather than 0.
 */
export function metricsCsv(series: readonly MetricPoint[]): string {
  const tools = series.length ? Object.keys((series[0] as MetricPoint).callsPerTask) : [];
  const head = [...SCALARS, 'trainedDecisions', ...tools.map((t) => `calls:${t}`)];
  const cell = (p: MetricPoint, k: (typeof SCALARS)[number]) => (p.decisions.trained === 0 && OF_UPDATE.includes(k) ? '' : String(p[k]));
  const rows = series.map((p) => [...SCALARS.map((k) => cell(p, k)), String(p.decisions.trained),
    ...tools.map((t) => String(p.callsPerTask[t] ?? 0))].join(','));
  return [head.join(','), ...rows].join('\n') + '\n';
}
