// The shipped policy's recipe, in one place: the policy in public/pretrained, every table of
// `reproduce`, and the lab's "Use that recipe" all train with it. One policy for every preference:
// random P per task (the paper's way), the lab's success-first reward (a success is worth 1 plus up
// to 1 for matching P, so no preference is worth more than the answer), the advantage R − mean
// (Dr. GRPO), and the learning rate falling linearly to 0 over the run.

import { DEFAULT_TRAIN, linearDecay, type TrainConfig } from './config';

export const SHIPPED_RECIPE = {
  seed: 1,
  iterations: 2000,
  /** What the recipe sets over the lab's defaults (the schedule is set for the run's length: recipeConfig). */
  settings: {
    preferenceMode: 'random',
    reward: 'success-first',
    learningRate: 0.0015,
    entropyCoef: 0.03,
    advantage: { ...DEFAULT_TRAIN.advantage, normalizeStd: false },
  } satisfies Partial<TrainConfig>,
} as const;

/** The recipe's whole training configuration for a run of `iterations` (seeding the network with the run's seed, as `train --seed` does). */
export function recipeConfig(iterations: number = SHIPPED_RECIPE.iterations, seed: number = SHIPPED_RECIPE.seed, base: TrainConfig = DEFAULT_TRAIN): TrainConfig {
  return { ...base, ...SHIPPED_RECIPE.settings, advantage: { ...SHIPPED_RECIPE.settings.advantage }, seed, policy: { ...base.policy, seed }, lrDecay: linearDecay(iterations, 1) };
}

/** The recipe as `train` options (what the README and the notices quote). */
export const RECIPE_OPTIONS = `--random-preferences --reward success-first --advantage mean --lr ${SHIPPED_RECIPE.settings.learningRate} --entropy ${SHIPPED_RECIPE.settings.entropyCoef} --lr-decay 1`;
