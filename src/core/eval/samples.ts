// Which held-out task samples are for what. A claim about training is measured on samples nothing was
// chosen on: the world's calibration, the recipe's settings, the preset rule and the shipped seed were
// all chosen on CALIBRATION_SAMPLE (and some checked on 2000 and 3000), so it is never reported over
// seeds; VALIDATION_SAMPLE picks the policy to ship among the seeds of a run (the one nearest the
// median); TEST_SAMPLES are only ever reported. A sample is the evaluation seed of `suiteTasks`.

/** The sample the world's calibration, the recipe and the shipped seed were chosen on (Table 1's seed 1000). */
export const CALIBRATION_SAMPLE = 1000;
/** Samples earlier checks were read on (docs/REPRODUCTION.md): not reported either. */
export const SEEN_SAMPLES: readonly number[] = [CALIBRATION_SAMPLE, 2000, 3000];
/** The sample that picks the shipped seed among a run's seeds. */
export const VALIDATION_SAMPLE = 4000;
/** The samples a run over seeds reports (the first `--samples` of them). */
export const TEST_SAMPLES: readonly number[] = [7001, 7002, 7003, 7004, 7005, 7006, 7007, 7008];

/** The index of the value nearest the median (at an even count, the mean of the middle two; ties: the first). */
export function nearestMedian(values: readonly number[]): number {
  if (!values.length) return -1;
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2] as number
    : ((sorted[sorted.length / 2 - 1] as number) + (sorted[sorted.length / 2] as number)) / 2;
  let best = 0;
  values.forEach((v, i) => { if (Math.abs(v - median) < Math.abs((values[best] as number) - median)) best = i; });
  return best;
}
