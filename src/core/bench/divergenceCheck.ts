// A self-check of the trainer's divergence guard on the active backend (run by the bench page on
// WebGPU in a browser test): one iteration whose learning rate overflows float32 (1e39 → ∞) makes
// Adam write non-finite weights (no group is filtered, so the entropy term alone has a gradient even
// where every rollout failed); the guard must see them in its one readback, restore the weights
// from before the update, and say so. Returns what happened, read back once at the end.

import * as tf from '@tensorflow/tfjs-core';
import { DEFAULT_TRAIN } from '../grpo/config';
import { GrpoTrainer } from '../grpo/trainer';
import type { Divergence } from '../grpo/metrics';
import { presetCatalog } from '../sim/presets';
import { generateTasks } from '../sim/tasks';

export interface DivergenceCheck {
  backend: string;
  /** What the trainer reported, or null when it did not notice. */
  diverged: Divergence | null;
  /** Largest |w_after − w_before| over all weights (0 when the restore worked). */
  maxWeightChange: number;
  /** Non-finite weights left after the iteration. */
  nonFiniteAfter: number;
}

export async function divergenceCheck(): Promise<DivergenceCheck> {
  const catalog = presetCatalog('toolorchestra');
  const pool = generateTasks(catalog, { seed: 3, count: 50 }).tasks;
  const trainer = new GrpoTrainer(catalog, { ...DEFAULT_TRAIN, batchTasks: 4, groupSize: 4, learningRate: 1e39,
    advantage: { ...DEFAULT_TRAIN.advantage, filterStd: null }, policy: { width: 16, depth: 2, seed: 4 } }, pool);
  const before = trainer.net.snapshot();
  try {
    const m = await trainer.step();
    const summary = tf.tidy(() => {
      const diffs = trainer.net.vars.map((v, i) => tf.max(tf.abs(tf.sub(v, before[trainer.net.names[i] as string] as tf.Tensor))));
      const bad = trainer.net.vars.map((v) => tf.sum(tf.cast(tf.logicalNot(tf.isFinite(v)), 'float32')));
      return tf.stack([tf.max(tf.stack(diffs)), tf.sum(tf.stack(bad))]);
    });
    const [maxWeightChange, nonFiniteAfter] = Array.from(await summary.data());
    summary.dispose();
    return { backend: tf.getBackend(), diverged: m.diverged ?? null, maxWeightChange: maxWeightChange as number, nonFiniteAfter: nonFiniteAfter as number };
  } finally {
    tf.dispose(Object.values(before));
    trainer.dispose();
  }
}
