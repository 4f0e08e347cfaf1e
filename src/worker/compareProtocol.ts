// Messages between the page and the compare worker (compare.worker.ts), which runs two
// configurations side by side apart from the training worker. Every message carries the page's
// run id; the page ignores pushes from a run it has replaced.

import type { TrainConfig } from '../core/grpo/config';
import type { Catalog } from '../core/sim/catalog';
import type { BackendName, MetricPoint } from './protocol';

export type CompareRequest =
  /** Runs preset `presetId` on the lab's settings (`train` with the sliders' P) for `iterations` iterations. */
  | { type: 'start'; runId: number; presetId: string; iterations: number; catalog: Catalog; train: TrainConfig; backend: BackendName | null }
  | { type: 'stop'; runId: number };

export type ComparePush =
  /** tfjs is up (`backend`: the one actually used); the pool and the two runs are being built. */
  | { type: 'started'; runId: number; backend: BackendName }
  /** New points of each run since the last push (same iterations for both). */
  | { type: 'points'; runId: number; points: [MetricPoint[], MetricPoint[]] }
  /** The runs ended: all iterations done, or stopped (`stopped`). */
  | { type: 'done'; runId: number; completed: number; stopped: boolean; msPerPair: number }
  | { type: 'error'; runId: number; message: string };

/** At most this often the worker posts points (≤ 4 messages a second). */
export const COMPARE_PUSH_MS = 250;
/** Iterations a comparison runs by default, and the most it may run. */
export const COMPARE_DEFAULT_ITERATIONS = 120;
export const COMPARE_MAX_ITERATIONS = 2000;
