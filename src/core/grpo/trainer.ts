// The GRPO trainer: the policy, Adam, the batched env and rollout buffers, and one iteration run as
// its eight named phases (phases.ts: sample → roll out → measure M → normalise → gate and weight R →
// advantage A → μ epochs of the clipped surrogate, loss.ts, with Adam and gradient-norm clipping).
// Scalars are read back once per iteration; a non-finite loss or weight restores the last finite
// weights and resets Adam.

import { errorMessage } from '../errorMessage';
import * as tf from '@tensorflow/tfjs-core';
import type { Catalog } from '../sim/catalog';
import { BatchEnv } from '../sim/env';
import type { Task } from '../sim/tasks';
import { slotsOf } from '../sim/slots';
import { catalogScales, type CatalogScales } from '../policy/features';
import { packPairs, policyInput } from '../policy/pairs';
import { PolicyNetwork } from '../policy/network';
import { checkIterationSize } from './memoryEstimate';
import { learningRateAt, trainingTurns, type TrainConfig } from './config';
import { FlatAdam, concatFlat } from './flatAdam';
import { disposeBatch, gradientStep, lossTermValues, LOSS_TERMS, takenLogp, type DecisionBatch } from './loss';
import type { Divergence, IterationMetrics } from './metrics';
import { beginIteration, iterationMetrics, runNextPhase, updated, type EpochStats, type IterationState, type PhaseHost, type UpdateStats } from './phases';
import { BUCKET_ROWS, RolloutBuffer, toDecisionBatch } from './rollout';
import { deviceUpdate } from './webgpuUpdate';

/** Values per epoch in the update's readback: the loss's LOSS_TERMS, then the gradient norm. */
const ROW = LOSS_TERMS.length + 1;

/** A failed update whose restore failed too: the backend itself is broken (the lab's session rebuilds it). */
export class BrokenBackendError extends Error {}

export class GrpoTrainer {
  readonly net: PolicyNetwork;
  private ref: PolicyNetwork | null = null;
  private optimizer: FlatAdam;
  private readonly env: BatchEnv;
  private readonly buf: RolloutBuffer;
  private readonly scales: CatalogScales;
  private readonly prefs: Float32Array;
  iteration = 0;
  /**
   * The last weights the update left finite, copied to the CPU in the update's one readback (every
   * iteration up to 256k weights, else every 25th): what a broken backend is rebuilt from
   * (core/runtime/backendRecovery.ts), since a device-side snapshot dies with the device.
   */
  lastGood: { iteration: number; weights: Float32Array } | null = null;

  constructor(readonly catalog: Catalog, private cfg: TrainConfig, readonly pool: readonly Task[], net?: PolicyNetwork) {
    const config = cfg;
    if (pool.length === 0) throw new Error('the training pool is empty');
    const S = slotsOf(catalog).length;
    const tooBig = checkIterationSize(config, S);
    if (tooBig) throw new Error(tooBig);
    const N = config.batchTasks * config.groupSize;
    this.net = net ?? new PolicyNetwork(config.policy);
    this.optimizer = new FlatAdam(config.learningRate);
    this.env = new BatchEnv(catalog, config.sim, N);
    this.buf = new RolloutBuffer(trainingTurns(config), N, S);
    this.scales = catalogScales(catalog, this.env.slots);
    this.prefs = new Float32Array(N * (catalog.tools.length + 3));
    if (config.beta > 0) this.ref = this.net.copy();
  }

  get config(): TrainConfig {
    return this.cfg;
  }

  /**
   * Applies settings that need no new buffers (preferences, clipping, β, entropy, μ, rewards,
   * advantage options, learning rate) and keeps Adam's moments, unless the learning rate changed.
   * Returns false when `next` changes the shape of the run (B, G, turns, policy, seed, pool):
   * then build a new trainer.
   */
  reconfigure(next: TrainConfig): boolean {
    const shape = (c: TrainConfig) => JSON.stringify([c.batchTasks, c.groupSize, c.sim, c.policy, c.seed, c.poolSize,
      c.availability, c.priceSpread, c.turnBudgets]);
    if (shape(next) !== shape(this.cfg)) return false;
    if (next.learningRate !== this.cfg.learningRate) {
      this.optimizer.dispose();
      this.optimizer = new FlatAdam(next.learningRate);
    }
    if (next.beta > 0 && !this.ref) this.ref = this.net.copy();
    this.cfg = next;
    return true;
  }

  /**
   * Starts an iteration to be run phase by phase (phases.ts; the lab's slow motion). With
   * `observe`, phase 8 (New probabilities) runs too. With `keepStart`, the copy of the weights the
   * iteration started from (which the update needs anyway as its restore point) is kept for the
   * caller: takeStartWeights() hands it over — one snapshot per iteration, not two.
   */
  begin(opts: { keepStart?: boolean; observe?: boolean } = {}): IterationState {
    this.dropStartWeights();
    if (opts.keepStart) this.startWeights = this.net.snapshot();
    return beginIteration(this.host(), !!opts.observe);
  }

  /** Ends an iteration whose update has run: the counter moves on; returns its metrics. */
  finish(s: IterationState): IterationMetrics {
    if (!updated(s)) throw new Error('the iteration has not reached its update yet');
    this.iteration++;
    return iterationMetrics(s);
  }

  /** Drops an iteration that stopped before its update (the weights are untouched). */
  abandon(s: IterationState): void {
    if (updated(s)) throw new Error('the iteration has updated the weights: finish it');
    this.dropStartWeights();
  }

  /** Runs one GRPO iteration — its phases back to back — and returns its metrics. */
  async step(opts: { keepStart?: boolean } = {}): Promise<IterationMetrics> {
    const s = this.begin(opts);
    while (await runNextPhase(s));
    return this.finish(s);
  }

  /** The trainer's side of the phases: its buffers, and the update and probability readers. */
  private host(): PhaseHost {
    return {
      catalog: this.catalog, config: this.cfg, pool: this.pool, net: this.net, env: this.env, buf: this.buf,
        scales: this.scales, prefs: this.prefs, iteration: this.iteration,
      update: (adv, weight, tokenWeight) => this.update(adv, weight, tokenWeight, this.startWeights),
      probabilities: (rows) => this.probabilities(rows),
    };
  }

  /** Softmax probabilities of the buffer's decisions at `rows`; one readback. */
  private async probabilities(rows: readonly number[]): Promise<Float32Array> {
    if (rows.length === 0) return new Float32Array(0);
    const pairs = packPairs(this.buf, this.env.nSlots, rows);
    const out = tf.tidy(() => tf.softmax(this.net.logits(policyInput(pairs))));
    try {
      return Float32Array.from(await out.data());
    } finally {
      out.dispose();
    }
  }

  /** μ epochs from `start` (the weights before the update: the restore point; made here when not given, and then disposed here). */
  private async update(adv: Float32Array, weight: Float32Array, tokenWeight: Float32Array, start: tf.NamedTensorMap | null): Promise<UpdateStats> {
    const cfg = this.config;
    const backup = start ?? this.net.snapshot();
    try {
      return await this.updateFrom(backup, adv, weight, tokenWeight);
    } catch (e) {
      // Out of memory or a broken kernel mid-update: put back the weights from before it, so a
      // failed iteration never leaves a half-updated policy behind.
      try {
        this.net.assign(backup);
        this.optimizer.dispose();
        this.optimizer = new FlatAdam(cfg.learningRate);
      } catch (restoreError) {
        throw new BrokenBackendError(`the update failed (${errorMessage(e)}) and the weights could not be ` +
          `restored (${errorMessage(restoreError)}); the backend is broken`, { cause: restoreError });
      }
      throw new Error(`the update failed (${errorMessage(e)}); the weights from before it were restored`, { cause: e });
    } finally {
      if (!start) tf.dispose(Object.values(backup));
    }
  }

  private async updateFrom(backup: tf.NamedTensorMap, adv: Float32Array, weight: Float32Array, tokenWeight: Float32Array): Promise<UpdateStats> {
    const cfg = this.config;
    this.optimizer.learningRate = learningRateAt(cfg, this.iteration);
    const size = this.net.vars.reduce((a, v) => a + v.size, 0);
    const withWeights = size <= 262_144 || (this.iteration + 1) % 25 === 0;
    // One readback: per epoch ROW values, then the non-finite count and (withWeights) the weights.
    // On WebGPU the WGSL kernels of our own (unless the batch is too large for one buffer), else tfjs's ops.
    const onDevice = this.net.onKernels() ? await deviceUpdate({
      net: this.net, ref: this.ref, optimizer: this.optimizer, buf: this.buf, advantage: adv, weight, tokenWeight,
      loss: cfg, epochs: cfg.epochs, maxGradNorm: cfg.maxGradNorm, withWeights, bucket: BUCKET_ROWS,
    }) : null;
    const all = onDevice ?? await this.opsUpdate(adv, weight, tokenWeight, withWeights);
    const epochs: EpochStats[] = Array.from({ length: cfg.epochs }, (_, e) => {
      const t = lossTermValues(all, ROW * e);
      return { loss: t.surrogate, kl: t.kl, entropy: t.entropy, clipFrac: t.clipFrac,
        gradNorm: all[ROW * e + LOSS_TERMS.length] as number, ratioMin: t.ratioMin, ratioMax: t.ratioMax };
    });
    const mean = (k: keyof EpochStats): number => epochs.reduce((a, x) => a + x[k], 0) / cfg.epochs;
    const [loss, kl, entropy, clipFrac, gradNorm] = (['loss', 'kl', 'entropy', 'clipFrac', 'gradNorm'] as const).map(mean);
    const nonFiniteWeights = all[ROW * cfg.epochs] as number;
    const bad = nonFiniteWeights > 0 || ![loss, kl, entropy, gradNorm].every((x) => Number.isFinite(x));
    if (withWeights && !bad) this.lastGood = { iteration: this.iteration + 1,
      weights: Float32Array.from(all.subarray(ROW * cfg.epochs + 1, ROW * cfg.epochs + 1 + size)) };
    let diverged: Divergence | undefined;
    if (bad) {
      this.net.assign(backup);
      this.optimizer.dispose();
      this.optimizer = new FlatAdam(cfg.learningRate);
      diverged = { iteration: this.iteration + 1, nonFiniteWeights };
    }
    return { loss: loss as number, kl: kl as number, entropy: entropy as number, clipFrac: clipFrac as number, gradNorm: gradNorm as number, epochs, diverged };
  }

  /** The update with tfjs's ops (every backend but WebGPU with the kernels of our own); returns its one readback. */
  private async opsUpdate(adv: Float32Array, weight: Float32Array, tokenWeight: Float32Array,
    withWeights: boolean): Promise<Float32Array | Int32Array | Uint8Array> {
    const cfg = this.config;
    const batch = toDecisionBatch(this.buf, adv, weight, tokenWeight, BUCKET_ROWS, this.config.policy.width);
    if (this.ref && cfg.beta > 0) batch.refLogp = tf.tidy(() => takenLogp(this.ref as PolicyNetwork, batch));
    // Per epoch one row of ROW values; all rows and the non-finite
    // count travel in ONE readback at the end (averaged here, not accumulated on the device).
    const rows: tf.Tensor1D[] = [];
    let packed: tf.Tensor1D | null = null;
    try {
      for (let e = 0; e < cfg.epochs; e++) rows.push(tf.tidy(() => this.epoch(batch)));
      packed = tf.tidy(() => {
        const countBad = (x: tf.Tensor) => tf.sum(tf.cast(tf.logicalNot(tf.isFinite(x)), 'float32'));
        // With the weights read back they are one flat copy anyway, counted once; without, each is counted in place (two-input adds).
        const weights = withWeights ? concatFlat(this.net.vars.map((v) => tf.reshape(v, [-1]) as tf.Tensor1D)) : null;
        const bad = weights ? countBad(weights) : this.net.vars.map(countBad).reduce((x, y) => tf.add(x, y));
        return concatFlat([...rows, tf.reshape(bad, [1]) as tf.Tensor1D, ...(weights ? [weights] : [])]);
      });
      return await packed.data();
    } finally {
      disposeBatch(batch);
      tf.dispose([...rows, ...(packed ? [packed] : [])]);
    }
  }

  /** One epoch: gradients of the loss, clipped, applied; returns its ROW values (call in tf.tidy). */
  private epoch(batch: DecisionBatch): tf.Tensor1D {
    return gradientStep(this.net, batch, this.config, this.optimizer, this.config.maxGradNorm);
  }

  private startWeights: tf.NamedTensorMap | null = null;

  /** The weights the last step({ keepStart: true }) started from; the caller owns (and disposes) them. */
  takeStartWeights(): tf.NamedTensorMap | null {
    const w = this.startWeights;
    this.startWeights = null;
    return w;
  }

  private dropStartWeights(): void {
    if (this.startWeights) tf.dispose(Object.values(this.startWeights));
    this.startWeights = null;
  }

  /** Fresh Adam moments (after the weights were replaced from outside, e.g. a restored snapshot). */
  resetOptimizer(): void {
    this.optimizer.dispose();
    this.optimizer = new FlatAdam(this.cfg.learningRate);
  }

  /** Frees the trainer's tensors; `keepNet` leaves the policy alive for a new trainer. */
  dispose(keepNet = false): void {
    this.dropStartWeights();
    if (!keepNet) this.net.dispose();
    this.ref?.dispose();
    this.optimizer.dispose();
  }
}
