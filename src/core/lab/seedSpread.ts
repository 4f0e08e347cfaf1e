// The spread over seeds of a paired comparison (pairedRuns.ts): each side's curve as a mean with a
// lowest-to-highest band across seeds, and the conclusion drawn from the per-seed paired
// differences of a final value, with a paired t-test's 95% rule for "within the noise". One seed
// says nothing about how much of a gap the draw alone makes; the seeds do. Pure: no tfjs, no DOM
// (the page imports it).

import type { TrainConfig } from '../grpo/config';

/** Seed k of a comparison: the training seed and the policy's seed both moved by k (k = 0: the lab's own). */
export function shiftSeed(config: TrainConfig, k: number): TrainConfig {
  return { ...config, seed: config.seed + k, policy: { ...config.policy, seed: config.policy.seed + k } };
}

/** The training seeds of a comparison over `count` seeds: the lab's and the ones after it. */
export function comparisonSeeds(base: Pick<TrainConfig, 'seed'>, count: number): number[] {
  return Array.from({ length: count }, (_, k) => base.seed + k);
}

/** Two-sided 95% critical values of Student's t for 1 to 30 degrees of freedom (index = df − 1). */
const T_975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
  2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086,
  2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
] as const;

/** t with P(|T| < t) = 0.95 for `df` degrees of freedom (1.96, the normal's, past 30); NaN below 1. */
export function tCritical(df: number): number {
  if (!(df >= 1)) return Number.NaN;
  return T_975[Math.floor(df) - 1] ?? 1.96;
}

const finite = (v: number | undefined): v is number => v !== undefined && Number.isFinite(v);

/** Mean of the finite values among the last `window` (NaN when there are none). */
export function tailMean(values: readonly number[], window: number): number {
  const tail = values.slice(Math.max(0, values.length - window)).filter(finite);
  return tail.length ? tail.reduce((s, v) => s + v, 0) / tail.length : Number.NaN;
}

/** Each value averaged with the (window − 1) before it (fewer at the start), finite values only. */
export function trailing(values: readonly number[], window: number): number[] {
  const out: number[] = [];
  let sum = 0, n = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (finite(v)) { sum += v; n++; }
    const gone = values[i - window];
    if (i >= window && finite(gone)) { sum -= gone; n--; }
    out.push(n > 0 ? sum / n : Number.NaN);
  }
  return out;
}

/** Iterations every series has reached. */
const common = (series: readonly (readonly number[])[]): number =>
  series.length ? Math.min(...series.map((s) => s.length)) : 0;

export interface SeedBand {
  /** Per iteration: the mean over seeds of each seed's trailing mean, and the lowest and highest of them. */
  mean: number[];
  lo: number[];
  hi: number[];
}

/** One side's band over its seeds, up to the iteration every seed has reached. */
export function seedBand(seeds: readonly (readonly number[])[], window: number): SeedBand {
  const n = common(seeds);
  const smooth = seeds.map((s) => trailing(s.slice(0, n), window));
  const band: SeedBand = { mean: [], lo: [], hi: [] };
  for (let i = 0; i < n; i++) {
    const at = smooth.map((s) => s[i]).filter(finite);
    band.mean.push(at.length ? at.reduce((s, v) => s + v, 0) / at.length : Number.NaN);
    band.lo.push(at.length ? Math.min(...at) : Number.NaN);
    band.hi.push(at.length ? Math.max(...at) : Number.NaN);
  }
  return band;
}

export interface PairedSummary {
  /** Seeds compared, the iterations all of them reached, and the last iterations each final value averages. */
  seeds: number;
  iterations: number;
  window: number;
  /** Each seed's final value on side A and on side B, and their difference A − B. */
  a: number[];
  b: number[];
  diffs: number[];
  meanA: number;
  meanB: number;
  /** Mean and sample standard deviation (n − 1) of the per-seed differences (sd NaN under 2 seeds). */
  meanDiff: number;
  sdDiff: number;
  /** Student's t for n − 1 degrees of freedom, and t·sd/√n: the half-width of the mean difference's 95% interval. */
  t: number;
  margin: number;
  /** |meanDiff| ≤ margin: the interval holds 0, so the seeds' spread alone could make the gap; null under 2 seeds. */
  withinNoise: boolean | null;
}

const mean = (xs: readonly number[]): number => xs.reduce((s, v) => s + v, 0) / xs.length;

/**
 * Compares side A with side B seed by seed: `a[k]` and `b[k]` are seed k's per-iteration values
 * (the same seed on both sides). Each seed's final value is the mean of its last `window`
 * iterations among those every seed of both sides has reached.
 */
type Seeds = readonly (readonly number[])[];

export function summarisePaired(a: Seeds, b: Seeds, window: number): PairedSummary {
  const seeds = Math.min(a.length, b.length);
  const iterations = common([...a.slice(0, seeds), ...b.slice(0, seeds)]);
  const final = (s: readonly number[]) => tailMean(s.slice(0, iterations), window);
  const fa = a.slice(0, seeds).map(final);
  const fb = b.slice(0, seeds).map(final);
  const diffs = fa.map((v, k) => v - (fb[k] as number));
  const meanDiff = seeds ? mean(diffs) : Number.NaN;
  const sdDiff = seeds >= 2 ? Math.sqrt(diffs.reduce((s, d) => s + (d - meanDiff) ** 2, 0) / (seeds - 1)) : Number.NaN;
  const t = tCritical(seeds - 1);
  const margin = (t * sdDiff) / Math.sqrt(seeds);
  return {
    seeds, iterations, window: Math.min(window, iterations), a: fa, b: fb, diffs,
    meanA: seeds ? mean(fa) : Number.NaN, meanB: seeds ? mean(fb) : Number.NaN, meanDiff, sdDiff, t, margin,
    withinNoise: seeds >= 2 && Number.isFinite(margin) && Number.isFinite(meanDiff)
      ? Math.abs(meanDiff) <= margin : null,
  };
}
