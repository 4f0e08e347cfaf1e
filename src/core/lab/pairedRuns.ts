// Two GRPO runs side by side, for a fair comparison of two configurations, over several seeds.
// Per seed: one task pool built once and shared, both policies built from the same policy seed
// (the same starting weights) and the same training seed, which draws each iteration's tasks and
// preferences from (seed, iteration), so at every iteration both sides see the same tasks. The
// seeds step in turn, one pair of iterations each, so every seed is as far as the others. Pure
// core: runs in Node and in a Worker; everything is disposed at the end, also on failure.

import type { Catalog } from '../sim/catalog';
import type { Task } from '../sim/tasks';
import type { TrainConfig } from '../grpo/config';
import type { IterationMetrics } from '../grpo/metrics';
import { GrpoTrainer } from '../grpo/trainer';
import { trainingPool } from '../grpo/trainingPool';
import { shiftSeed } from './seedSpread';

export type MetricPair = [IterationMetrics, IterationMetrics];

/** What both runs must share to be a paired comparison; null when they do, else why not. */
export function unpairedReason(a: TrainConfig, b: TrainConfig): string | null {
  const keys = ['seed', 'batchTasks', 'groupSize', 'policy', 'sim', 'poolSize', 'availability'] as const;
  const differ = keys.filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
  return differ.length ? `a paired comparison varies training knobs only; these differ between the two runs: ${differ.join(', ')}` : null;
}

class PairedRun {
  readonly pool: readonly Task[];
  private readonly trainers: [GrpoTrainer, GrpoTrainer];

  constructor(readonly catalog: Catalog, readonly configs: readonly [TrainConfig, TrainConfig]) {
    const [a, b] = configs;
    const why = unpairedReason(a, b);
    if (why) throw new Error(why);
    this.pool = trainingPool(catalog, a); // the pool the lab itself trains on for these settings
    // Both trainers build their policy from the same policy seed (unpairedReason checks it): the same starting weights.
    const first = new GrpoTrainer(catalog, a, this.pool);
    try {
      this.trainers = [first, new GrpoTrainer(catalog, b, this.pool)];
    } catch (e) {
      first.dispose();
      throw e;
    }
  }

  /** One iteration of each run, the first then the second. */
  async step(): Promise<MetricPair> {
    const a = await this.trainers[0].step();
    const b = await this.trainers[1].step();
    return [a, b];
  }

  dispose(): void {
    for (const t of this.trainers) t.dispose();
  }
}

export interface PairedResult {
  /** Per seed, its pairs of metrics, one per iteration. */
  pairs: MetricPair[][];
  /** Mean wall time of one pair of iterations (both runs of one seed), ms. */
  msPerPair: number;
  /** True when `shouldStop` ended the runs early. */
  stopped: boolean;
}

/**
 * Runs both configurations over `seeds` seeds (shiftSeed) for `iterations` iterations each: iteration
 * i of every seed, then i + 1. `shouldStop` is checked before each pair, `onPair` called after it.
 */
export async function runPaired(
  catalog: Catalog, configs: readonly [TrainConfig, TrainConfig], iterations: number, hooks: {
  onPair?: (pair: MetricPair, iteration: number, seed: number) => void | Promise<void>;
  shouldStop?: () => boolean;
} = {}, seeds = 1): Promise<PairedResult> {
  const runs: PairedRun[] = [];
  const pairs: MetricPair[][] = [];
  let ms = 0, count = 0, stopped = false;
  try {
    for (let k = 0; k < seeds; k++) {
      runs.push(new PairedRun(catalog, [shiftSeed(configs[0], k), shiftSeed(configs[1], k)]));
      pairs.push([]);
    }
    for (let i = 0; i < iterations && !stopped; i++) {
      for (let k = 0; k < seeds; k++) {
        if (hooks.shouldStop?.()) { stopped = true; break; }
        const t0 = performance.now();
        const pair = await (runs[k] as PairedRun).step();
        ms += performance.now() - t0;
        count++;
        (pairs[k] as MetricPair[]).push(pair);
        await hooks.onPair?.(pair, i, k);
      }
    }
  } finally {
    for (const r of runs) r.dispose();
  }
  return { pairs, msPerPair: count ? ms / count : 0, stopped };
}
