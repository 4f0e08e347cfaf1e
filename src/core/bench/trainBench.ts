// The training benchmark, one backend at a time (`npm run bench`: Node for wasm/cpu, Chromium's bench
// page for the rest). For each policy width × episode count: decisions per second, time per GRPO
// iteration, the ratio to the arithmetic floor (floor.ts), readbacks per turn, and tensors and GPU
// bytes over many iterations; the yardstick is the naive one-episode-at-a-time way in the same run.
// Bounded: a too-slow size ends that backend's larger sizes, and each backend has a time budget.

import * as tf from '@tensorflow/tfjs-core';
import { DEFAULT_TRAIN, type TrainConfig } from '../grpo/config';
import { GrpoTrainer } from '../grpo/trainer';
import { decide, fillGumbel, allocTurnBuffers } from '../policy/act';
import { catalogScales } from '../policy/features';
import { slotsOf } from '../sim/slots';
import { PolicyNetwork } from '../policy/network';
import { preferenceVector } from '../preference';
import { BatchEnv } from '../sim/env';
import { presetCatalog } from '../sim/presets';
import { hashInts, SeqRng } from '../sim/rng';
import { generateTasks, type Task } from '../sim/tasks';
import { decisionMacs, everyToolScored, iterationMacs, matmulMacsPerMs } from './floor';
import { checkIterationSize } from '../grpo/memoryEstimate';
import { countDispatches } from './dispatchCount';

export interface BenchPlan {
  widths: number[];
  episodes: number[];
  /** Iteration counts of the memory check (e.g. [10, 500]), at width 64 and N = 32 (the count does not depend on size). */
  memoryAt: [number, number];
  /** Time cap of the memory check, ms (slow backends stop earlier and say where). */
  memoryCapMs: number;
  /** Episodes of the naive yardstick's comparison (the batched rate at this N is the numerator). */
  naiveAt: number;
  /** This backend's time budget, ms; sizes after it is spent are skipped. */
  budgetMs: number;
  /** A first iteration (shader compiles included) past this ends the backend's larger sizes (SLOW_ITERATION_MS). */
  slowMs?: number;
}

export const FULL_PLAN: BenchPlan = { widths: [64, 128, 256], episodes: [128, 1024, 4096], memoryAt: [10, 500],
  memoryCapMs: 25_000, naiveAt: 1024, budgetMs: 65_000 };
/** The lab's default size alone (width 64, N = 128), for a quick look at one backend (the bench page's plan=default). */
export const DEFAULT_SIZE_PLAN: BenchPlan = {
  widths: [64], episodes: [128], memoryAt: [1, 2], memoryCapMs: 0, naiveAt: 0, budgetMs: 600_000, slowMs: 300_000,
};
export const QUICK_PLAN: BenchPlan = { widths: [64], episodes: [128, 1024], memoryAt: [10, 100], memoryCapMs: 5_000, naiveAt: 1024, budgetMs: 8_000 };

/** One iteration past this ends the backend's larger sizes. */
export const SLOW_ITERATION_MS = 30_000;

export interface BenchRow {
  width: number;
  episodes: number;
  status: 'ok' | 'skipped';
  note?: string;
  iterationMs?: number;
  /** Decisions of live episodes per second of rollout time. */
  rolloutDecisionsPerS?: number;
  /** The iteration's rollouts (sampling included) and its update, ms. */
  rolloutMs?: number;
  updateMs?: number;
  flopFloorMs?: number;
  ratioToFlopFloor?: number;
  /** The ratio to the floor as first defined, which scores every tool of a decision, masked ones too (for comparison with earlier figures). */
  ratioToDenseFloor?: number;
  /** Share of the live decisions' tools that the mask allowed (the scorer's pairs). */
  allowedToolShare?: number;
  readbacksPerTurn?: number;
  /** `data()` calls per timed iteration: the rollout's turns and the update's one. */
  readbacksPerIteration?: number;
  /** Kernel launches per timed iteration (dispatchCount.ts: GPU programs on WebGPU and WebGL, engine kernels on wasm and cpu). */
  dispatchesPerIteration?: number;
  /** Buffer copies per timed iteration recorded by the kernels of our own (WebGPU; not in dispatchesPerIteration). */
  bufferCopiesPerIteration?: number;
  /** The ten names with the most launches per timed iteration (the engine's kernel, or a program's shader key). */
  dispatchesByName?: Record<string, number>;
  iterationsTimed?: number;
}

export interface BenchReport {
  backend: string;
  matmulGmacPerS: number;
  rows: BenchRow[];
  memory: { width: number; episodes: number; at: { iterations: number; numTensors: number; gpuBytes: number | null }[]; note?: string } | null;
  /** The naive rate against the batched rollout at `episodes` (naiveAt, or the largest N measured at that width). */
  naive: { width: number; episodes: number; decisionsPerS: number; batchedDecisionsPerS: number | null; speedup: number | null; episodesRun: number } | null;
  totalMs: number;
}

const GROUP = 8;

function config(width: number, episodes: number): TrainConfig {
  return { ...DEFAULT_TRAIN, batchTasks: Math.max(1, Math.round(episodes / GROUP)), groupSize: GROUP, policy: { ...DEFAULT_TRAIN.policy, width } };
}

/** Counts `Tensor.data()` calls while `f` runs (the readbacks). */
async function countingReadbacks<T>(f: () => Promise<T>): Promise<{ value: T; reads: number }> {
  const proto = tf.Tensor.prototype as unknown as { data: (...a: unknown[]) => Promise<unknown> };
  const original = proto.data;
  let reads = 0;
  proto.data = function (this: unknown, ...a: unknown[]) { reads++; return original.apply(this, a); };
  try {
    return { value: await f(), reads };
  } finally {
    proto.data = original;
  }
}

function gpuBytes(): number | null {
  const m = tf.memory() as unknown as { numBytesInGPU?: number };
  return typeof m.numBytesInGPU === 'number' ? m.numBytesInGPU : null;
}

/** Runs the plan on the active backend. `log` gets one line per finished row. */
export async function runTrainBench(plan: BenchPlan, log: (line: string) => void = () => undefined): Promise<BenchReport> {
  const started = performance.now();
  const catalog = presetCatalog('toolorchestra');
  const J = slotsOf(catalog).length; // the scored actions: role slots
  const pool = generateTasks(catalog, { seed: 1, count: 1000, availability: DEFAULT_TRAIN.availability }).tasks;
  // The matmul peak is measured before and after the sizes and the higher one kept: a JIT that tiers
  // its wasm up while running (Chromium starts on a baseline compiler) would otherwise lower the floor.
  const peakBefore = await matmulMacsPerMs();
  const rows: BenchRow[] = [];
  const rowMacs = new Map<BenchRow, { macs: number; dense: number }>();
  let tooSlow: string | null = null;
  let last: { macs: number; ms: number } | null = null; // the last measured size, to predict the next one's cost
  const sizes = plan.widths.flatMap((width) => plan.episodes.map((episodes) => ({ width, episodes })))
    .sort((a, b) => a.width * a.episodes - b.width * b.episodes);
  for (const { width, episodes } of sizes) {
    if (tooSlow) { rows.push({ width, episodes, status: 'skipped', note: tooSlow }); continue; }
    const cfg = config(width, episodes);
    // Predicted from the last size by multiply-adds per episode; a warm-up and two iterations must fit the budget.
    const predicted = last ? (3 * last.ms * decisionMacs(cfg.policy, J).forward * episodes) / last.macs : 0;
    if (performance.now() - started + predicted > plan.budgetMs) { rows.push({ width, episodes, status: 'skipped',
      note: `the backend's ${plan.budgetMs / 1000} s budget would be exceeded (about ` +
        `${(predicted / 1000).toFixed(0)} s predicted)` }); continue; }
    const tooBig = checkIterationSize(cfg, J);
    if (tooBig) { rows.push({ width, episodes, status: 'skipped', note: `refused by the lab's memory bound: ${tooBig}` }); continue; }
    const trainer = new GrpoTrainer(catalog, cfg, pool);
    try {
      const warm = await trainer.step(); // kernel compiles, buffer pools
      const slowMs = plan.slowMs ?? SLOW_ITERATION_MS;
      if (warm.wallMs > slowMs) {
        const s = (warm.wallMs / 1000).toFixed(1), limit = `${slowMs / 1000} s`;
        tooSlow = `an iteration at width ${width}, N = ${episodes} took ${(warm.wallMs / 1000).toFixed(0)} s (> ${limit})`;
        rows.push({ width, episodes, status: 'skipped', note: `one iteration took ${s} s (> ${limit}); larger sizes skipped` });
        continue;
      }
      // Fast sizes warm up for up to 5 iterations or 1 s, so that the JIT has compiled the simulation's and the packing's JS before the timing starts.
      for (let w = 1, spent = warm.wallMs; w < 5 && spent + warm.wallMs < 1000; w++) spent += (await trainer.step()).wallMs;
      let n = 0, wall = 0, rolloutMs = 0, updateMs = 0, live = 0, livePairs = 0, macs = 0, dense = 0, turns = 0;
      const launches = countDispatches();
      const { reads } = await countingReadbacks(async () => {
        const t0 = performance.now();
        // At least two timed iterations (one where a single one takes over 5 s), more up to 1.5 s.
        while (n < (warm.wallMs > 5000 ? 1 : 2) || (performance.now() - t0 < 1500 && n < 20)) {
          const m = await trainer.step();
          n++; wall += m.wallMs; rolloutMs += m.timings.rolloutMs; updateMs += m.timings.updateMs;
          live += m.decisions.rollout; turns += m.rolloutTurns;
          macs += iterationMacs(cfg.policy, m.decisions, cfg.epochs, cfg.beta > 0);
          dense += iterationMacs(cfg.policy, everyToolScored(m.decisions, J), cfg.epochs, cfg.beta > 0);
          livePairs += m.decisions.rolloutPairs;
        }
      }).finally(() => launches.stop());
      const iterationMs = wall / n;
      // Every iteration reads once per rollout turn plus once for the update's diagnostics.
      const top = [...launches.byName].sort((a, b) => b[1] - a[1]).slice(0, 10);
      const byName = Object.fromEntries(top.map(([k, c]) => [k, c / n]));
      const row: BenchRow = {
        width, episodes, status: 'ok', iterationMs, rolloutDecisionsPerS: live / (rolloutMs / 1000), rolloutMs: rolloutMs / n,
        updateMs: updateMs / n, readbacksPerTurn: (reads - n) / turns, readbacksPerIteration: reads / n,
          iterationsTimed: n, allowedToolShare: livePairs / (J * live),
        dispatchesPerIteration: launches.total / n, bufferCopiesPerIteration: launches.copies / n, dispatchesByName: byName,
      };
      rows.push(row);
      rowMacs.set(row, { macs: macs / n, dense: dense / n });
      last = { macs: decisionMacs(cfg.policy, J).forward * episodes, ms: iterationMs };
      log(`width ${width} N ${episodes}: ${iterationMs.toFixed(1)} ms/iteration (rollouts ${(rolloutMs / n).toFixed(1)}, `
        + `update ${(updateMs / n).toFixed(1)}), ${(launches.total / n).toFixed(0)} dispatches/iteration, `
        + `${(reads / n).toFixed(1)} readbacks/iteration, ${row.rolloutDecisionsPerS?.toFixed(0)} decisions/s, `
        + `floor ratio ${(iterationMs / (macs / n / peakBefore)).toFixed(2)} (at the first matmul peak)`);
    } finally {
      trainer.dispose();
    }
  }
  const macsPerMs = Math.max(peakBefore, await matmulMacsPerMs());
  for (const [row, m] of rowMacs) {
    row.flopFloorMs = m.macs / macsPerMs;
    row.ratioToFlopFloor = (row.iterationMs as number) / row.flopFloorMs;
    row.ratioToDenseFloor = (row.iterationMs as number) / (m.dense / macsPerMs);
  }
  log(`matmul peak ${(peakBefore / 1e6).toFixed(2)} GMAC/s before the sizes, ${(macsPerMs / 1e6).toFixed(2)} kept`);
  const memory = await memoryCheck(catalog, pool, plan, log);
  const naive = await naiveRate(catalog, pool, plan, rows, log);
  return { backend: tf.getBackend(), matmulGmacPerS: macsPerMs / 1e6, rows, memory, naive, totalMs: performance.now() - started };
}

/** Tensors and GPU bytes after memoryAt[0] and memoryAt[1] iterations at a small size (time-capped). */
async function memoryCheck(catalog: ReturnType<typeof presetCatalog>, pool: Task[], plan: Pick<BenchPlan,
  'memoryAt' | 'memoryCapMs'>, log: (l: string) => void, width = 64, episodes = 32): Promise<BenchReport['memory']> {
  const trainer = new GrpoTrainer(catalog, config(width, episodes), pool);
  const at: NonNullable<BenchReport['memory']>['at'] = [];
  const capMs = plan.memoryCapMs;
  const t0 = performance.now();
  let note: string | undefined;
  try {
    for (let i = 1; i <= plan.memoryAt[1]; i++) {
      await trainer.step();
      if (i === plan.memoryAt[0] || i === plan.memoryAt[1]) at.push({ iterations: i, numTensors: tf.memory().numTensors, gpuBytes: gpuBytes() });
      if (i > plan.memoryAt[0] && performance.now() - t0 > capMs) {
        at.push({ iterations: i, numTensors: tf.memory().numTensors, gpuBytes: gpuBytes() });
        note = `stopped at ${i} of ${plan.memoryAt[1]} iterations (${(capMs / 1000).toFixed(0)} s cap)`;
        break;
      }
    }
  } finally {
    trainer.dispose();
  }
  log(`memory at width ${width} N ${episodes}: ${at.map((a) => `${a.iterations} it → ${a.numTensors} tensors${a.gpuBytes !== null
    ? `, ${a.gpuBytes} GPU bytes` : ''}`).join('; ')}${note ? ` (${note})` : ''}`);
  return { width, episodes, at, ...(note ? { note } : {}) };
}

/** Tensors and GPU bytes after `at[0]` and `at[1]` iterations at a tiny size (the WebGPU pool check of e2e/webgpu.spec.ts). */
export async function memoryFlat(at: [number, number], width = 16, episodes = 8): Promise<NonNullable<BenchReport['memory']>> {
  const catalog = presetCatalog('toolorchestra');
  const pool = generateTasks(catalog, { seed: 1, count: 200, availability: DEFAULT_TRAIN.availability }).tasks;
  return (await memoryCheck(catalog, pool, { memoryAt: at, memoryCapMs: Infinity }, () => undefined, width, episodes)) as NonNullable<BenchReport['memory']>;
}

/** The naive way: one episode at a time, one forward and one readback per decision (time-capped). */
async function naiveRate(catalog: ReturnType<typeof presetCatalog>, pool: Task[], plan: BenchPlan, rows: BenchRow[],
  log: (l: string) => void): Promise<BenchReport['naive']> {
  const width = Math.min(...plan.widths);
  const measured = rows.filter((r) => r.status === 'ok' && r.width === width);
  const episodes = measured.some((r) => r.episodes === plan.naiveAt) ? plan.naiveAt : Math.max(0, ...measured.map((r) => r.episodes));
  const net = new PolicyNetwork({ ...DEFAULT_TRAIN.policy, width });
  const env = new BatchEnv(catalog, DEFAULT_TRAIN.sim, 1);
  const scales = catalogScales(catalog, env.slots);
  const prefs = Float32Array.from(preferenceVector(DEFAULT_TRAIN.preference, catalog));
  const A = env.nActions;
  const buf = allocTurnBuffers(1, env.nSlots);
  const mask = new Uint8Array(A), gumbel = new Float32Array(A), action = new Int32Array(1);
  const rng = new SeqRng(5);
  let decisions = 0, e = 0;
  const capMs = Math.min(10_000, plan.budgetMs / 4);
  const t0 = performance.now();
  try {
    for (; e < plan.naiveAt && performance.now() - t0 < capMs; e++) {
      env.reset([pool[e % pool.length] as Task], [hashInts(1, e)]);
      while (!env.allDone()) {
        env.writeMask(mask);
        fillGumbel(rng, gumbel);
        await decide(net, env, scales, prefs, mask, buf, gumbel, action);
        env.step(action);
        decisions++;
      }
    }
  } finally {
    net.dispose();
  }
  const decisionsPerS = decisions / ((performance.now() - t0) / 1000);
  const batched = rows.find((r) => r.status === 'ok' && r.width === width && r.episodes === episodes)?.rolloutDecisionsPerS ?? null;
  log(`naive: ${decisionsPerS.toFixed(0)} decisions/s over ${e} episodes; batched at N ${episodes}: ${batched?.toFixed(0) ?? 'n/a'}`);
  return { width, episodes, decisionsPerS, batchedDecisionsPerS: batched, speedup: batched ? batched / decisionsPerS : null, episodesRun: e };
}
