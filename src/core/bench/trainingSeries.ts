// The same training on any backend, for comparing backends (e2e/webgpu.spec.ts runs it on WebGPU and on
// wasm through the bench page, plan=series): a fixed seed, pool and policy, and every iteration's
// diagnostics as the charts plot them.

import * as tf from '@tensorflow/tfjs-core';
import { DEFAULT_TRAIN, type TrainConfig } from '../grpo/config';
import { GrpoTrainer } from '../grpo/trainer';
import { presetCatalog } from '../sim/presets';
import { generateTasks } from '../sim/tasks';

/** The diagnostics compared (IterationMetrics' names). */
export const SERIES_METRICS = [
  'meanReward', 'accuracy', 'loss', 'kl', 'entropy', 'clipFrac', 'gradNorm', 'meanTurns',
] as const;

export interface TrainingSeries {
  backend: string;
  config: { batchTasks: number; groupSize: number; width: number; depth: number; seed: number };
  /** One row per iteration: SERIES_METRICS in order. */
  rows: number[][];
}

/** `iterations` iterations of the default recipe at B = 8, G = 4 (width 64, depth 2, seed 1) on the active backend. */
export async function trainingSeries(iterations = 20): Promise<TrainingSeries> {
  const catalog = presetCatalog('toolorchestra');
  const pool = generateTasks(catalog, { seed: 1, count: 200, availability: DEFAULT_TRAIN.availability }).tasks;
  const cfg: TrainConfig = { ...DEFAULT_TRAIN, batchTasks: 8, groupSize: 4 };
  const trainer = new GrpoTrainer(catalog, cfg, pool);
  const rows: number[][] = [];
  try {
    for (let i = 0; i < iterations; i++) {
      const m = await trainer.step();
      rows.push(SERIES_METRICS.map((k) => m[k]));
    }
  } finally {
    trainer.dispose();
  }
  const { batchTasks, groupSize, seed, policy: { width, depth } } = cfg;
  return { backend: tf.getBackend(), config: { batchTasks, groupSize, width, depth, seed }, rows };
}
