// Two GRPO runs side by side, for a fair comparison of two configurations: one task pool built
// once and shared, both policies built from the same policy seed so both start from the same
// weights, and the same seed — each trainer draws an iteration's tasks and preferences from an rng seeded by
// (seed, iteration), so at every iteration both see the same tasks. The runs step alternately,
// one iteration each, and every pair of metrics is handed out as it comes. Pure core: runs in
// Node and in a Worker. The caller disposes the pair.

import type { Catalog } from '../sim/catalog';
import type { Task } from '../sim/tasks';
import type { TrainConfig } from '../grpo/config';
import type { IterationMetrics } from '../grpo/metrics';
import { GrpoTrainer } from '../grpo/trainer';
import { trainingPool } from '../grpo/trainingPool';

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
  pairs: MetricPair[];
  /** Mean wall time of one pair of iterations (both runs), ms. */
  msPerPair: number;
  /** True when `shouldStop` ended the runs early. */
  stopped: boolean;
}

/**
 * Runs both configurations for `iterations` iterations (fewer when `shouldStop` says so, checked
 * before each pair), calling `onPair` after each; disposes everything, also on failure.
 */
export async function runPaired(catalog: Catalog, configs: readonly [TrainConfig, TrainConfig], iterations: number, hooks: {
  onPair?: (pair: MetricPair, index: number) => void | Promise<void>;
  shouldStop?: () => boolean;
} = {}): Promise<PairedResult> {
  const run = new PairedRun(catalog, configs);
  const pairs: MetricPair[] = [];
  let ms = 0, stopped = false;
  try {
    for (let i = 0; i < iterations; i++) {
      if (hooks.shouldStop?.()) { stopped = true; break; }
      const t0 = performance.now();
      const pair = await run.step();
      ms += performance.now() - t0;
      pairs.push(pair);
      await hooks.onPair?.(pair, i);
    }
  } finally {
    run.dispose();
  }
  return { pairs, msPerPair: pairs.length ? ms / pairs.length : 0, stopped };
}
