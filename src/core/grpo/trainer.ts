// One GRPO iteration = sample B tasks and a preference per task → G rollouts each through the
// batched env → rewards (reward.ts) → group advantages (advantage.ts) → μ epochs of the clipped
// surrogate (loss.ts) with Adam and gradient-norm clipping. Scalars are read back once per
// iteration; a non-finite loss or weight restores the last finite weights and resets Adam.

import * as tf from '@tensorflow/tfjs-core';
import type { Catalog } from '../sim/catalog';
import { BatchEnv } from '../sim/env';
import { hashInts, SeqRng } from '../sim/rng';
import type { Task } from '../sim/tasks';
import { catalogScales, type CatalogScales } from '../policy/features';
import { PolicyNetwork } from '../policy/network';
import { INSTRUCTION_PRESETS } from '../instructionPresets';
import { preferenceVector, samplePreference } from '../preference';
import { groupAdvantages } from './advantage';
import { checkIterationSize } from './memoryEstimate';
import type { TrainConfig } from './config';
import { applyClipped, concatAll, grpoLoss, sumAll, takenLogp, type DecisionBatch } from './loss';
import { histogram, type GroupSample, type IterationMetrics } from './metrics';
import { groupRewards, type TrajectoryStats } from './reward';
import { BUCKET_ROWS, collectRollouts, RolloutBuffer, toDecisionBatch } from './rollout';

const PRESET_VECTORS = INSTRUCTION_PRESETS.map((x) => x.preference);

export class GrpoTrainer {
  readonly net: PolicyNetwork;
  private ref: PolicyNetwork | null = null;
  private optimizer: tf.Optimizer;
  private readonly env: BatchEnv;
  private readonly buf: RolloutBuffer;
  private readonly scales: CatalogScales;
  private readonly prefs: Float32Array;
  iteration = 0;
  /**
   * The last weights the update left finite, copied to the CPU in the update's one readback (every
   * iteration up to 256k weights, else every 25th): what a broken backend is rebuilt from
   * (backendRecovery.ts), since a device-side snapshot dies with the device.
   */
  lastGood: { iteration: number; weights: Float32Array } | null = null;

  constructor(readonly catalog: Catalog, private cfg: TrainConfig, readonly pool: readonly Task[], net?: PolicyNetwork) {
    const config = cfg;
    if (pool.length === 0) throw new Error('the training pool is empty');
    const tooBig = checkIterationSize(config, catalog.tools.length);
    if (tooBig) throw new Error(tooBig);
    const N = config.batchTasks * config.groupSize;
    this.net = net ?? new PolicyNetwork(config.policy);
    this.optimizer = tf.train.adam(config.learningRate);
    this.env = new BatchEnv(catalog, config.sim, N);
    this.buf = new RolloutBuffer(config.sim.maxTurns, N, catalog.tools.length);
    this.scales = catalogScales(catalog);
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
    const shape = (c: TrainConfig) => JSON.stringify([c.batchTasks, c.groupSize, c.sim, c.policy, c.seed, c.poolSize, c.availability]);
    if (shape(next) !== shape(this.cfg)) return false;
    if (next.learningRate !== this.cfg.learningRate) {
      this.optimizer.dispose();
      this.optimizer = tf.train.adam(next.learningRate);
    }
    if (next.beta > 0 && !this.ref) this.ref = this.net.copy();
    this.cfg = next;
    return true;
  }

  /**
   * Runs one GRPO iteration and returns its metrics. With `keepStart`, the copy of the weights the
   * iteration started from (which the update needs anyway as its restore point) is kept for the
   * caller: takeStartWeights() hands it over — one snapshot per iteration, not two.
   */
  async step(opts: { keepStart?: boolean } = {}): Promise<IterationMetrics> {
    this.dropStartWeights();
    if (opts.keepStart) this.startWeights = this.net.snapshot();
    const t0 = performance.now();
    const { batchTasks: B, groupSize: G, seed } = this.config;
    const N = B * G, J = this.catalog.tools.length, P = J + 3;
    const it = this.iteration;
    const rng = new SeqRng(hashInts(seed, it, 0x6770));

    // 1. Tasks, preferences and rollouts.
    const tasks: Task[] = [];
    const groupPrefs: number[][] = [];
    for (let b = 0; b < B; b++) {
      const task = this.pool[rng.int(this.pool.length)] as Task;
      const pref = this.config.preferenceMode === 'random' ? samplePreference(() => rng.next(), this.catalog, PRESET_VECTORS) : this.config.preference;
      const row = preferenceVector(pref, this.catalog);
      groupPrefs.push(row);
      for (let g = 0; g < G; g++) {
        tasks.push(task);
        this.prefs.set(row, (b * G + g) * P);
      }
    }
    const keys = Array.from({ length: N }, (_, i) => hashInts(seed, it, i, 0x7e11));
    await collectRollouts(this.net, this.env, this.scales, tasks, keys, this.prefs, this.buf, rng, G);
    const t1 = performance.now();

    // 2. Rewards and advantages per group.
    const env = this.env;
    const adv = new Float32Array(N);
    const rewards = new Float64Array(N);
    const used = new Uint8Array(N);
    let stdSum = 0, filtered = 0;
    let group: GroupSample | null = null;
    for (let b = 0; b < B; b++) {
      const stats: TrajectoryStats[] = [];
      for (let g = 0; g < G; g++) {
        const i = b * G + g;
        stats.push({ calls: env.calls.subarray(i * J, (i + 1) * J), outcome: env.outcome[i], costUSD: env.cost[i], latencyS: env.latencyMs[i] / 1000, tokens: env.tokens[i] });
      }
      const r = groupRewards(this.config.reward, stats, groupPrefs[b] as number[], this.config.weighted);
      const a = groupAdvantages(r.rewards, this.config.advantage);
      stdSum += a.std;
      if (a.filtered) filtered++;
      for (let g = 0; g < G; g++) {
        rewards[b * G + g] = r.rewards[g] as number;
        adv[b * G + g] = a.advantages[g] as number;
        used[b * G + g] = a.filtered ? 0 : 1;
      }
      if (b === 0) group = this.groupSample(tasks[0] as Task, groupPrefs[0] as number[], stats, r, a);
    }

    // 3. Aggregation weights per decision, then μ epochs.
    const T = this.buf.turns, M = T * N;
    const weight = new Float32Array(M);
    const tokenWeight = new Float32Array(M);
    const decisions = new Int32Array(N);
    for (let t = 0; t < T; t++) for (let n = 0; n < N; n++) if (this.buf.valid[t * N + n]) decisions[n]++;
    const trainedTraj = Array.from(used).reduce((s, u, n) => s + (u && decisions[n] ? 1 : 0), 0);
    const trainedDec = Array.from(decisions).reduce((s, d, n) => s + (used[n] ? d : 0), 0);
    for (let t = 0; t < T; t++) {
      for (let n = 0; n < N; n++) {
        if (!this.buf.valid[t * N + n] || !used[n]) continue;
        weight[t * N + n] = this.config.aggregation === 'token-mean' ? 1 / trainedDec : 1 / (decisions[n] * trainedTraj);
        tokenWeight[t * N + n] = 1 / trainedDec;
      }
    }
    const perDecisionAdv = new Float32Array(M);
    for (let t = 0; t < T; t++) perDecisionAdv.set(adv, t * N);
    const t2 = performance.now();
    const stats = trainedDec > 0 ? await this.update(perDecisionAdv, weight, tokenWeight, this.startWeights) : { loss: 0, kl: 0, entropy: 0, clipFrac: 0, gradNorm: 0, diverged: undefined };

    // 4. Metrics.
    const t3 = performance.now();
    this.iteration++;
    let rolloutTurns = 0;
    for (let i = 0; i < N; i++) rolloutTurns = Math.max(rolloutTurns, env.turn[i]);
    let solved = 0, cost = 0, latency = 0, turns = 0, absAdv = 0;
    const calls = new Float64Array(J);
    for (let i = 0; i < N; i++) {
      solved += env.outcome[i]; cost += env.cost[i]; latency += env.latencyMs[i]; turns += env.turn[i]; absAdv += Math.abs(adv[i] as number);
      for (let j = 0; j < J; j++) calls[j] += env.calls[i * J + j];
    }
    return {
      iteration: this.iteration,
      meanReward: rewards.reduce((s, x) => s + x, 0) / N,
      accuracy: solved / N,
      meanCostUSD: cost / N,
      meanLatencyS: latency / N / 1000,
      rewardStd: stdSum / B,
      meanAbsAdvantage: absAdv / N,
      kl: stats.kl,
      entropy: stats.entropy,
      clipFrac: stats.clipFrac,
      filteredFrac: filtered / B,
      loss: stats.loss,
      gradNorm: stats.gradNorm,
      meanTurns: turns / N,
      callsPerTask: Object.fromEntries(this.catalog.tools.map((t, j) => [t.id, (calls[j] as number) / N])),
      advantageHistogram: histogram(adv),
      group: group as GroupSample,
      wallMs: performance.now() - t0,
      timings: { rolloutMs: t1 - t0, rewardMs: t2 - t1, updateMs: t3 - t2 },
      rolloutTurns,
      decisions: { rollout: Array.from(decisions).reduce((a, d) => a + d, 0), trained: trainedDec },
      ...(stats.diverged ? { diverged: stats.diverged } : {}),
    };
  }

  /** μ epochs on the iteration's decisions; one readback at the end. */
  /** μ epochs from `start` (the weights before the update: the restore point; made here when not given, and then disposed here). */
  private async update(adv: Float32Array, weight: Float32Array, tokenWeight: Float32Array, start: tf.NamedTensorMap | null): Promise<{ loss: number; kl: number; entropy: number; clipFrac: number; gradNorm: number; diverged: string | undefined }> {
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
        this.optimizer = tf.train.adam(cfg.learningRate);
      } catch (restoreError) {
        throw new Error(`the update failed (${(e as Error).message}) and the weights could not be restored (${(restoreError as Error).message}); the backend is broken — reload the page or switch backend`, { cause: restoreError });
      }
      throw new Error(`the update failed (${(e as Error).message}); the weights from before it were restored`, { cause: e });
    } finally {
      if (!start) tf.dispose(Object.values(backup));
    }
  }

  private async updateFrom(backup: tf.NamedTensorMap, adv: Float32Array, weight: Float32Array, tokenWeight: Float32Array): Promise<{ loss: number; kl: number; entropy: number; clipFrac: number; gradNorm: number; diverged: string | undefined }> {
    const cfg = this.config;
    const batch = toDecisionBatch(this.buf, adv, weight, tokenWeight, BUCKET_ROWS);
    if (this.ref && cfg.beta > 0) batch.refLogp = tf.tidy(() => takenLogp(this.ref as PolicyNetwork, batch));
    // Per epoch one row [surrogate, kl, entropy, clipFrac, gradNorm]; all rows and the non-finite
    // count travel in ONE readback at the end (averaged here, not accumulated on the device).
    const rows: tf.Tensor1D[] = [];
    let packed: tf.Tensor1D | null = null;
    let all: Float32Array | Int32Array | Uint8Array;
    const size = this.net.vars.reduce((a, v) => a + v.size, 0);
    const withWeights = size <= 262_144 || (this.iteration + 1) % 25 === 0;
    try {
      for (let e = 0; e < cfg.epochs; e++) rows.push(tf.tidy(() => this.epoch(batch)));
      packed = tf.tidy(() => {
        const nonFinite = sumAll(this.net.vars.map((v) => tf.sum(tf.cast(tf.logicalNot(tf.isFinite(v)), 'float32'))));
        const weights = withWeights ? this.net.vars.map((v) => tf.reshape(v, [-1]) as tf.Tensor1D) : [];
        return concatAll([...rows, tf.reshape(nonFinite, [1]) as tf.Tensor1D, ...weights]);
      });
      all = await packed.data();
    } finally {
      tf.dispose([...rows, ...Object.values(batch), ...(packed ? [packed] : [])]);
    }
    const mean = (k: number): number => { let s = 0; for (let e = 0; e < cfg.epochs; e++) s += all[5 * e + k] as number; return s / cfg.epochs; };
    const [loss, kl, entropy, clipFrac, gradNorm] = [0, 1, 2, 3, 4].map(mean);
    const nonFiniteWeights = all[5 * cfg.epochs] as number;
    const bad = nonFiniteWeights > 0 || ![loss, kl, entropy, gradNorm].every((x) => Number.isFinite(x));
    if (withWeights && !bad) this.lastGood = { iteration: this.iteration + 1, weights: Float32Array.from(all.subarray(5 * cfg.epochs + 1, 5 * cfg.epochs + 1 + size)) };
    let diverged: string | undefined;
    if (bad) {
      this.net.assign(backup);
      this.optimizer.dispose();
      this.optimizer = tf.train.adam(cfg.learningRate);
      diverged = `iteration ${this.iteration + 1}: the update produced ${nonFiniteWeights > 0 ? `${nonFiniteWeights} non-finite weights` : 'a non-finite loss'}; the last finite weights were restored and Adam was reset. Try a lower learning rate or a smaller gradient-norm clip.`;
    }
    return { loss: loss as number, kl: kl as number, entropy: entropy as number, clipFrac: clipFrac as number, gradNorm: gradNorm as number, diverged };
  }

  /** One epoch: gradients of the loss, clipped, applied; returns [surrogate, kl, entropy, clipFrac, gradNorm] (call in tf.tidy). */
  private epoch(batch: DecisionBatch): tf.Tensor1D {
    const cfg = this.config;
    let terms = null as ReturnType<typeof grpoLoss> | null;
    const { grads } = tf.variableGrads(() => {
      terms = grpoLoss(this.net, batch, cfg);
      // variableGrads runs this in its own tidy: keep the reported terms, dispose them below.
      for (const x of [terms.surrogate, terms.kl, terms.entropy, terms.clipFrac]) tf.keep(x);
      return terms.total;
    }, this.net.vars);
    const norm = applyClipped(this.optimizer, grads, cfg.maxGradNorm);
    const t = terms as unknown as ReturnType<typeof grpoLoss>;
    const row = concatAll([t.surrogate, t.kl, t.entropy, t.clipFrac, norm].map((x) => tf.reshape(x, [1]) as tf.Tensor1D));
    tf.dispose([t.surrogate, t.kl, t.entropy, t.clipFrac]);
    return row;
  }

  private groupSample(task: Task, pref: number[], stats: TrajectoryStats[], r: ReturnType<typeof groupRewards>, a: ReturnType<typeof groupAdvantages>): GroupSample {
    const ids = this.catalog.tools.map((t) => t.id);
    return {
      task,
      dims: [...ids, 'outcome', '−cost', '−latency'],
      preference: pref,
      mean: a.mean,
      std: a.std,
      filtered: a.filtered,
      trajectories: stats.map((s, g) => ({
        outcome: s.outcome,
        costUSD: s.costUSD,
        latencyS: s.latencyS,
        calls: Object.fromEntries(ids.map((id, j) => [id, s.calls[j] as number]).filter(([, n]) => (n as number) > 0)),
        mRaw: r.mRaw[g] as number[],
        mNorm: r.mNorm[g] as number[],
        reward: r.rewards[g] as number,
        advantage: a.advantages[g] as number,
        trace: this.env.traces?.[g] ? [...(this.env.traces[g] as [])] : [],
      })),
    };
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
    this.optimizer = tf.train.adam(this.cfg.learningRate);
  }

  /** Frees the trainer's tensors; `keepNet` leaves the policy alive for a new trainer. */
  dispose(keepNet = false): void {
    this.dropStartWeights();
    if (!keepNet) this.net.dispose();
    this.ref?.dispose();
    this.optimizer.dispose();
  }
}
