// Messages between the page and the compare worker (compare.worker.ts), which runs two
// configurations side by side over several seeds, apart from the training worker. Every message
// carries the page's run id; the page ignores pushes from a run it has replaced.

import type { TrainConfig } from '../core/grpo/config';
import type { Catalog } from '../core/sim/catalog';
import type { BackendName, MetricPoint } from './protocol';

export type CompareRequest =
  /**
   * Runs preset `presetId` on the lab's settings (`train` with the sliders' P) over `seeds` seeds
   * (pairedRuns.shiftSeed), `iterations` iterations each.
   */
  | {
    type: 'start'; runId: number; presetId: string; iterations: number; seeds: number;
    catalog: Catalog; train: TrainConfig; backend: BackendName | null;
  }
  | { type: 'stop'; runId: number };

export type ComparePush =
  /** tfjs is up (`backend`: the one actually used); the pools and the runs are being built. */
  | { type: 'started'; runId: number; backend: BackendName }
  /** New points since the last push, per side and then per seed: `points[side][seed]`. */
  | { type: 'points'; runId: number; points: [MetricPoint[][], MetricPoint[][]] }
  /** The runs ended: all iterations done, or stopped (`stopped`); `completed`: iterations per seed. */
  | { type: 'done'; runId: number; completed: number[]; stopped: boolean; msPerPair: number }
  | { type: 'error'; runId: number; problem: CompareProblem };

/** Why a comparison stopped, in codes and numbers (the page writes the words: store/workerText.ts). */
export type CompareProblem =
  | { code: 'noPreset'; presetId: string }
  | { code: 'noBackend'; error: string }
  /** It failed at `iteration` (of `of`) of the seed `seed`, the one least far on. */
  | { code: 'stoppedAt'; iteration: number; of: number; seed: number; error: string }
  | { code: 'notStarted'; error: string }
  | { code: 'failed'; error: string };

/** At most this often the worker posts points (≤ 4 messages a second). */
export const COMPARE_PUSH_MS = 250;
/** Iterations per seed a comparison runs by default, and the most it may run. */
export const COMPARE_DEFAULT_ITERATIONS = 120;
export const COMPARE_MAX_ITERATIONS = 2000;
/** Seeds per side: at least 3 (a spread needs a few), 3 by default. */
export const COMPARE_MIN_SEEDS = 3;
export const COMPARE_DEFAULT_SEEDS = 3;
export const COMPARE_MAX_SEEDS = 10;
