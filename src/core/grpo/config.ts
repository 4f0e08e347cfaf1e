// Training configuration: every knob of one GRPO run, with the defaults the lab ships.

import type { SimConfig } from '../sim/callModel';
import { DEFAULT_SIM } from '../sim/callModel';
import { DEFAULT_POLICY, type PolicyConfig } from '../policy/policyConfig';
import { DEFAULT_PREFERENCE, type Preference } from '../preference';
import { DEFAULT_ADVANTAGE, type AdvantageOptions } from './advantage';
import { DEFAULT_WEIGHTED, type WeightedCoefficients } from './reward';
import { PREFERENCE_PART, type RewardMode } from './rewardModes';

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
   * How training tasks vary, as the paper's training data does (each example its own tool subset,
   * prices and budget): every tool's price multiplier is drawn log-uniformly in [1/priceSpread,
   * priceSpread] per task (1 = list prices), and each task's turn budget log-uniformly in turnBudgets
   * (null = the world's maxTurns for every task).
   */
  priceSpread: number;
  turnBudgets: { min: number; max: number } | null;
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
  // lr 1.5e-3 with an entropy bonus of 0.03, as in the shipped recipe (recipe.ts, which also drops the std
  // division; the lab keeps it, as its lessons explain it); a larger rate with a smaller bonus lost its
  // entropy and collapsed in an earlier world (docs/REPRODUCTION.md's history is in git).
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
  preference: DEFAULT_PREFERENCE,
  policy: DEFAULT_POLICY,
  sim: DEFAULT_SIM,
  poolSize: 2000,
  availability: 0.75,
  priceSpread: 2,
  turnBudgets: { min: 4, max: 40 },
  lrDecay: null,
};

/**
 * Whether two configurations train alike: every knob the same, and P too when it is fixed (with a random
 * P per task, the sliders' P changes nothing in training).
 */
export function trainsAlike(a: TrainConfig, b: TrainConfig): boolean {
  const knobs = (c: TrainConfig) => JSON.stringify(c.preferenceMode === 'fixed' ? c : { ...c, preference: null });
  return knobs(a) === knobs(b);
}

/** The most turns a training episode can take: the rollout buffers' length. */
export function trainingTurns(cfg: Pick<TrainConfig, 'sim' | 'turnBudgets'>): number {
  return Math.max(cfg.sim.maxTurns, cfg.turnBudgets?.max ?? 0);
}

/**
 * The lab's own schedule (the page's default; the CLI's stays constant unless --lr-decay): the rate
 * falls to 0 by iteration 3000, where a run pauses. At a constant rate a run left alone wanders
 * around what it has learned and can end below its best; with the schedule it settles and holds.
 */
export const LAB_LR_DECAY: Readonly<NonNullable<TrainConfig['lrDecay']>> = { start: 0, end: 3000 };

/**
 * The most iterations a run may have (the CLI's --iterations and a stored run's count, the lab's
 * saved iteration): each iteration's draws are seeded from its number as a 32-bit integer
 * (rng.ts, hashInts), so past 2³² − 1 a run would repeat its draws. Nothing else bounds it: the
 * CLI appends each checkpoint's metrics, so a run's files grow by about a kilobyte an iteration.
 */
export const MAX_ITERATIONS = 2 ** 32 - 1;

/** Whether `n` is a count of iterations a run may have done: a whole number from 0 to MAX_ITERATIONS. */
export const isIterationCount = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0
  && n <= MAX_ITERATIONS;

/**
 * The smallest learning rate a run may set. An Adam step moves a weight by about the rate, and float32
 * weights near 0.1 lie 7.5e-9 apart: below this most weights could not change at all (at 0, or a
 * rate written so small it underflows to 0, none can), and a whole run would train nothing.
 */
export const MIN_LEARNING_RATE = 1e-8;

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

/** A policy file's training record (trainingRecord). */
export type TrainingRecord = TrainConfig & { iterations: number; backend?: string; preferencePart?: number };

/**
 * What a policy file records of its training: the configuration, the iterations done (the lab's
 * count), the backend where known, and for the success-first reward the weight of its preference
 * part, a constant of the formula that a configuration does not hold (a resumed run compares it).
 */
export function trainingRecord(config: TrainConfig, iterations: number, backend?: string): TrainingRecord {
  return { ...config, iterations, ...(backend ? { backend } : {}),
    ...(config.reward === 'success-first' ? { preferencePart: PREFERENCE_PART } : {}) };
}
