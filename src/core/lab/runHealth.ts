// How a run is going, in a sentence a newcomer can act on: still rising, on a plateau (and why),
// or worse than its best by more than the noise (offer Restore best). Read from the training
// rollouts' accuracy of every iteration, in windows of WINDOW iterations; the noise is the standard
// error of a window's mean, from the spread of the iterations in the latest two windows.

const WINDOW = 200;
/** The iteration from which a run has a verdict (two windows). */
const RUN_HEALTH_FROM = 2 * WINDOW;
/** Windows of the best-so-far search start every STEP iterations. */
const STEP = 50;

export interface RunHealth {
  verdict: 'rising' | 'plateau' | 'worse';
  /** Means of the last window and the one before it, and of the best window so far (its 1-based iterations). */
  last: number;
  previous: number;
  best: { mean: number; from: number; to: number };
  /** What a difference of two window means must exceed to be more than noise (2 standard errors of it). */
  noise: number;
}

const mean = (xs: readonly number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;

/** Null until there are two windows. `accuracy[i]` is iteration i + 1's. */
export function runHealth(accuracy: readonly number[], window = WINDOW): RunHealth | null {
  const n = accuracy.length;
  if (n < 2 * window) return null;
  const last = mean(accuracy.slice(n - window)), previous = mean(accuracy.slice(n - 2 * window, n - window));
  const recent = accuracy.slice(n - 2 * window), m = mean(recent);
  const sd = Math.sqrt(recent.reduce((a, x) => a + (x - m) ** 2, 0) / (recent.length - 1));
  const noise = 2 * Math.SQRT2 * (sd / Math.sqrt(window));
  // Window means from running sums: one pass however long the run.
  const sum = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) sum[i + 1] = (sum[i] as number) + (accuracy[i] as number);
  let best = { mean: -Infinity, from: 0, to: 0 };
  for (let start = 0; start + window <= n; start += STEP) {
    const w = ((sum[start + window] as number) - (sum[start] as number)) / window;
    if (w > best.mean) best = { mean: w, from: start + 1, to: start + window };
  }
  if (last > best.mean) best = { mean: last, from: n - window + 1, to: n };
  // Worse: below the best by more than the noise and by more than 2 points (the smallest fall worth a word).
  const verdict = best.mean - last > Math.max(noise, 0.02) ? 'worse' : last - previous > noise ? 'rising' : 'plateau';
  return { verdict, last, previous, best, noise };
}

const pts = (x: number) => `${(100 * x).toFixed(1)}%`;

/** What the line says before a run has two windows: when it will have a verdict, and from what. */
export const RUN_HEALTH_PENDING = `How the run is going shows here once it has ${RUN_HEALTH_FROM} iterations: its training `
  + `accuracy over the last two ${WINDOW}-iteration windows, against the noise.`;

/** The verdict in words (the page adds Restore best to a "worse" one). */
export function runHealthText(h: RunHealth, context: { entropy: number; lrConstant: boolean; weighsCost: boolean }): string {
  const w = `${WINDOW}`;
  if (h.verdict === 'rising') {
    return `Still rising: training accuracy ${pts(h.previous)} → ${pts(h.last)} over the last two ${w}-iteration windows `
      + `(more than the noise, ±${(100 * h.noise).toFixed(1)} points).`;
  }
  if (h.verdict === 'worse') {
    return `Worse than its best: training accuracy over the last ${w} iterations is ${pts(h.last)}, `
      + `${(100 * (h.best.mean - h.last)).toFixed(1)} points below its best ${w} (${pts(h.best.mean)} at iterations `
      + `${h.best.from}–${h.best.to}), more than the noise (±${(100 * h.noise).toFixed(1)} points).`;
  }
  const why = [
    context.weighsCost ? 'the reward at this P also pays for cost and latency, so accuracy is not all it climbs' : null,
    context.lrConstant ? `with a constant learning rate and a policy that still samples (entropy ${context.entropy.toFixed(2)}), `
      + 'it wanders around what it has learned; a schedule that takes the rate to 0 (Settings) settles it' : null,
  ].filter(Boolean).join('; ');
  return `Plateau: training accuracy ${pts(h.previous)} → ${pts(h.last)} over the last two ${w}-iteration windows, within `
    + `the noise (±${(100 * h.noise).toFixed(1)} points)${why ? `: ${why}` : ''}.`;
}

/**
 * The two longest things the line can say under these settings (a plateau with its reasons, and
 * "worse" before its Restore best button), with the widest numbers: the page keeps their room.
 */
export function runHealthLongest(context: { lrConstant: boolean; weighsCost: boolean }): { plateau: string; worse: string } {
  const wide = { last: 0.888, previous: 0.888, best: { mean: 0.888, from: 88888, to: 88888 }, noise: 0.888 };
  const ctx = { ...context, entropy: 8.88 };
  return { plateau: runHealthText({ ...wide, verdict: 'plateau' }, ctx), worse: runHealthText({ ...wide, verdict: 'worse' }, ctx) };
}
