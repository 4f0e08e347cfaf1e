// The shipped policy's recipe, in one place: the policy in public/pretrained, every table of
// `reproduce`, `train`'s notice and the lab's "Use that recipe" all read SHIPPED_RECIPE. One policy
// for every preference: random P per task (the paper's way), the lab's success-first reward, the
// advantage R − mean (Dr. GRPO), and the learning rate falling linearly to 0 over the run.

import { DEFAULT_TRAIN, linearDecay, type TrainConfig } from './config';

export const SHIPPED_RECIPE = {
  /** The seed nearest the median of five on the validation sample (`reproduce --seeds 5`, docs/CLAIMS.md). */
  seed: 3,
  iterations: 3000,
  preferenceMode: 'random',
  reward: 'success-first',
  learningRate: 0.0015,
  entropyCoef: 0.03,
  /** Whether the advantage divides by the group's std (false: R − mean, Dr. GRPO). */
  normalizeStd: false,
  /** The learning rate falls linearly to 0 over this share of the run (`train --lr-decay`). */
  lrDecayFraction: 1,
} as const satisfies Pick<TrainConfig, 'seed' | 'preferenceMode' | 'reward' | 'learningRate' | 'entropyCoef'>
  & { iterations: number; normalizeStd: boolean; lrDecayFraction: number };

/** What the recipe sets in a configuration for a run of `iterations` (the lab applies it to its own settings). */
export function recipePatch(base: Pick<TrainConfig, 'advantage'>, iterations: number = SHIPPED_RECIPE.iterations,
): Partial<TrainConfig> {
  const r = SHIPPED_RECIPE;
  return {
    preferenceMode: r.preferenceMode, reward: r.reward, learningRate: r.learningRate, entropyCoef: r.entropyCoef,
    advantage: { ...base.advantage, normalizeStd: r.normalizeStd }, lrDecay: linearDecay(iterations, r.lrDecayFraction),
  };
}

/** The recipe's whole configuration for `iterations` (the network seeded with the run's seed, as `train --seed`). */
export function recipeConfig(iterations: number = SHIPPED_RECIPE.iterations, seed: number = SHIPPED_RECIPE.seed,
  base: TrainConfig = DEFAULT_TRAIN): TrainConfig {
  return { ...base, ...recipePatch(base, iterations), seed, policy: { ...base.policy, seed } };
}

/** The recipe as `train` options (what the README and the notices quote). */
export const RECIPE_OPTIONS = [
  ...(SHIPPED_RECIPE.preferenceMode === 'random' ? ['--random-preferences'] : []),
  `--reward ${SHIPPED_RECIPE.reward}`,
  `--advantage ${SHIPPED_RECIPE.normalizeStd ? 'std' : 'mean'}`,
  `--lr ${SHIPPED_RECIPE.learningRate}`,
  `--entropy ${SHIPPED_RECIPE.entropyCoef}`,
  `--lr-decay ${SHIPPED_RECIPE.lrDecayFraction}`,
].join(' ');

/** The recipe in words, for the lab's note and notice. */
export const RECIPE_IN_WORDS = `the ${SHIPPED_RECIPE.reward} reward, the advantage `
  + `${SHIPPED_RECIPE.normalizeStd ? "divided by the group's std" : 'without the std division'}, `
  + `lr ${SHIPPED_RECIPE.learningRate}`
  + (SHIPPED_RECIPE.lrDecayFraction > 0 ? ` falling to 0 by iteration ${SHIPPED_RECIPE.iterations}` : '');
