// What one GRPO iteration reports: the scalar curves the lab plots, calls per tool, the
// advantage histogram, and one whole group (its G trajectories, M raw and normalised, R, A,
// turn-by-turn traces) for the group inspector.

import type { DecisionCounts } from '../bench/floor';
import type { TraceEntry } from '../sim/episode';
import type { Task } from '../sim/tasks';
import type { RewardMode } from './rewardModes';
import type { Collapse } from '../lab/collapseGuard';

/**
 * An update that produced NaN/±Infinity (its weights were restored and Adam reset): the iteration it
 * would have made, and how many weights went non-finite (0: the loss did). Numbers only: the page and
 * the CLI write the words (store/workerText.ts).
 */
export interface Divergence { iteration: number; nonFiniteWeights: number }

export interface GroupTrajectory {
  outcome: number;
  costUSD: number;
  latencyS: number;
  calls: Record<string, number>;
  mRaw: number[];
  mNorm: number[];
  reward: number;
  /** A as trained on (after the ±clip), and before the clip. */
  advantage: number;
  advantageRaw: number;
  trace: TraceEntry[];
}

export interface GroupSample {
  /** The task all G trajectories attempted (its steps render the tool calls). */
  task: Task;
  /** Labels of M's dimensions: tool ids…, outcome, −cost, −latency. */
  dims: string[];
  /** P in M's order. */
  preference: number[];
  /** The reward mode that scored the group (its tool dimensions are shares of the calls under success-first). */
  reward: RewardMode;
  /** Whether A divided by the group's std. */
  normalizeStd: boolean;
  mean: number;
  std: number;
  filtered: boolean;
  trajectories: GroupTrajectory[];
}

export interface Histogram {
  edges: number[];
  counts: number[];
}

export interface IterationMetrics {
  iteration: number;
  meanReward: number;
  accuracy: number;
  meanCostUSD: number;
  meanLatencyS: number;
  /** Mean over groups of the within-group reward std. */
  rewardStd: number;
  meanAbsAdvantage: number;
  kl: number;
  entropy: number;
  clipFrac: number;
  filteredFrac: number;
  /** The surrogate loss (on the first, on-policy epoch: minus the advantage averaged over the decisions, small next to |A|). */
  loss: number;
  gradNorm: number;
  /** The learning rate this iteration's update used (config.ts, learningRateAt). */
  learningRate: number;
  meanTurns: number;
  callsPerTask: Record<string, number>;
  advantageHistogram: Histogram;
  group: GroupSample;
  wallMs: number;
  /** Where the iteration's time went: rollouts (T forwards + env), rewards/advantages, the μ-epoch update. */
  timings: { rolloutMs: number; rewardMs: number; updateMs: number };
  /** Turns the lockstep rollout ran (the longest episode). */
  rolloutTurns: number;
  /**
   * Decisions made by live episodes in the rollouts, and decisions the update trained on (weight > 0), per epoch; with
   * the allowed (decision, tool) pairs the scorer ran on.
   */
  decisions: DecisionCounts;
  /** Set when the update produced NaN/±Infinity: the weights were restored and the optimizer reset. */
  diverged?: Divergence;
  /**
   * Set by the lab session's collapse guard (core/lab/collapseGuard.ts): the run should pause, the
   * best weights are kept.
   */
  collapsed?: Collapse;
}

/** Histogram over fixed edges [−3, 3] in `bins` bins (values outside are clamped into the end bins). */
export function histogram(values: ArrayLike<number>, bins = 24, lo = -3, hi = 3): Histogram {
  const counts = new Array<number>(bins).fill(0);
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    const k = Math.min(bins - 1, Math.max(0, Math.floor(((v - lo) / (hi - lo)) * bins)));
    counts[k]++;
  }
  const edges = Array.from({ length: bins + 1 }, (_, k) => lo + ((hi - lo) * k) / bins);
  return { edges, counts };
}
