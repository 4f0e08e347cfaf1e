// Training configuration: every knob of one GRPO run, with the defaults the lab ships.

import type { SimConfig } from '../sim/callModel';
import { DEFAULT_SIM } from '../sim/callModel';
import { DEFAULT_POLICY, type PolicyConfig } from '../policy/policyConfig';
import type { Preference } from '../preference';
import { DEFAULT_ADVANTAGE, type AdvantageOptions } from './advantage';
import { DEFAULT_WEIGHTED, type RewardMode, type WeightedCoefficients } from './reward';

export type Aggregation = 'token-mean' | 'seq-mean-token-mean';
export type PreferenceMode = 'fixed' | 'random';

export interface TrainConfig {
  seed: number;
  /** Tasks per iteration (B) and rollouts per task (G). */
  batchTasks: number;
  groupSize: number;
  learningRate: number;
  epsLow: number;
  epsHigh: number;
  beta: number;
  entropyCoef: number;
  /** veRL's dual clip ratio c (> 1) or null (off, the default; ToolOrchestra's run used 10). */
  dualClip: number | null;
  /** Inner epochs μ over each iteration's batch. */
  epochs: number;
  maxGradNorm: number;
  aggregation: Aggregation;
  reward: RewardMode;
  weighted: WeightedCoefficients;
  advantage: AdvantageOptions;
  preferenceMode: PreferenceMode;
  /** P for every task when preferenceMode = 'fixed'. */
  preference: Preference;
  policy: PolicyConfig;
  sim: SimConfig;
  /** Size of the training task pool (generated with `seed`) and each tool's availability there. */
  poolSize: number;
  availability: number;
  /**
   * Linear decay of the learning rate: full until iteration `start` (0-based), then falling in equal
   * steps to 0 at iteration `end` (the run's length; its last iteration still takes 1/(end − start)
   * of a step). null: constant, veRL's default. TRL's default (Hugging Face's linear schedule) decays
   * over the whole run, start 0. learningRateAt() gives the rate of an iteration.
   */
  lrDecay: { start: number; end: number } | null;
}

export const DEFAULT_TRAIN: Readonly<TrainConfig> = {
  seed: 1,
  batchTasks: 16,
  groupSize: 8,
  // lr 1.5e-3 with an entropy bonus of 0.03, as in the README's headline recipe (which also drops the std
  // division; the lab keeps it, as its lessons explain it): at 3e-3 and 0.003, a run from
  // scratch at cost weight 1 lost its entropy (0.05 by iteration 450) and collapsed at iteration 702
  // (seed 1, Node wasm: the lab's collapse guard paused it); with these, seeds 1 and 2 kept entropy
  // 0.12–0.55 over 1500 iterations at the same accuracy (49–57% on the training pool).
  learningRate: 1.5e-3,
  epsLow: 0.2,
  epsHigh: 0.28,
  beta: 0,
  entropyCoef: 0.03,
  dualClip: null,
  epochs: 2,
  maxGradNorm: 1,
  aggregation: 'token-mean',
  reward: 'toolorchestra',
  weighted: DEFAULT_WEIGHTED,
  advantage: DEFAULT_ADVANTAGE,
  preferenceMode: 'fixed',
  preference: { outcome: 1, cost: 0.5, latency: 0, tools: {} },
  policy: DEFAULT_POLICY,
  sim: DEFAULT_SIM,
  poolSize: 4000,
  availability: 0.75,
  lrDecay: null,
};

/** The learning rate of iteration `iteration` (0-based) under cfg.lrDecay. */
export function learningRateAt(cfg: Pick<TrainConfig, 'learningRate' | 'lrDecay'>, iteration: number): number {
  const d = cfg.lrDecay;
  if (!d || iteration < d.start) return cfg.learningRate;
  return (cfg.learningRate * Math.max(0, d.end - iteration)) / (d.end - d.start);
}

/** A decay over the last `fraction` of a run of `iterations` (0: none; 1: the whole run, as TRL). */
export function linearDecay(iterations: number, fraction: number): TrainConfig['lrDecay'] {
  if (!(fraction >= 0 && fraction <= 1)) throw new Error(`the decay fraction must be in [0, 1] (got ${fraction})`);
  const start = Math.round((1 - fraction) * iterations);
  return start >= iterations ? null : { start, end: iterations };
}
