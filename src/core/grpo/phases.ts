// One GRPO iteration written as its eight named phases, one function each: 1 Sample · 2 Roll out ·
// 3 Measure M · 4 Normalise · 5 Gate and weight: R · 6 Advantage: A · 7 Update · 8 New probabilities
// (an observation, run only when asked). The trainer runs them back to back (trainer.step); the
// worker runs them one at a time for "Slow motion" (core/lab/phaseReport.ts). One implementation of
// the maths: the numbers the slow motion shows are the numbers the update trains on.

import type { Catalog } from '../sim/catalog';
import type { BatchEnv } from '../sim/env';
import { hashInts, SeqRng } from '../sim/rng';
import { taskIndex } from './taskOrder';
import type { Task } from '../sim/tasks';
import type { CatalogScales } from '../policy/features';
import type { PolicyNetwork } from '../policy/network';
import { allowedTools } from '../policy/pairs';
import { INSTRUCTION_PRESETS } from '../instructionPresets';
import { preferenceVector, samplePreference } from '../preference';
import { groupAdvantages, type GroupAdvantage } from './advantage';
import { learningRateAt, type TrainConfig } from './config';
import { histogram, type Divergence, type GroupSample, type IterationMetrics } from './metrics';
import { gateAndWeight, measureDims, measureVector, normaliseGroup, type TrajectoryStats } from './reward';
import { measuresShares } from './rewardModes';
import { collectRollouts, type RolloutBuffer } from './rollout';

export { PHASE_NAMES, type PhaseName } from './phaseNames';

/** One epoch of the update, as read back: the surrogate, KL, entropy, clip fraction, gradient norm and the ratio's range. */
export interface EpochStats { loss: number; kl: number; entropy: number; clipFrac: number; gradNorm: number; ratioMin: number; ratioMax: number }

export interface UpdateStats { loss: number; kl: number; entropy: number; clipFrac: number; gradNorm: number;
  epochs: EpochStats[]; diverged: Divergence | undefined }

/** What the phases need of the trainer that runs them. */
export interface PhaseHost {
  readonly catalog: Catalog;
  readonly config: TrainConfig;
  readonly pool: readonly Task[];
  readonly net: PolicyNetwork;
  readonly env: BatchEnv;
  readonly buf: RolloutBuffer;
  readonly scales: CatalogScales;
  /** N × (tools + 3) preference rows, one per episode. */
  readonly prefs: Float32Array;
  /** Iterations completed before this one. */
  readonly iteration: number;
  /** μ epochs of the clipped surrogate on the buffer's decisions, with per-decision advantage and weights. */
  update(adv: Float32Array, weight: Float32Array, tokenWeight: Float32Array): Promise<UpdateStats>;
  /** Softmax action probabilities of the buffer's decisions at `rows` ([t·N + n]), rows × (tools + 1), in one readback. */
  probabilities(rows: readonly number[]): Promise<Float32Array>;
}

/** An iteration in progress: what each phase has computed so far. */
export interface IterationState {
  readonly host: PhaseHost;
  /** Run phase 8 (New probabilities) as well. */
  readonly observe: boolean;
  /** The group the slow motion follows (chosen after the rollouts: the first with mixed outcomes; 0 otherwise and when not observing). */
  shown: number;
  /** Index of the next phase to run (0 … 8; 8 = done). */
  next: number;
  /** How long each phase's function took, ms (not the pauses between phases in slow motion). */
  readonly durations: number[];
  readonly rng: SeqRng;
  tasks: Task[];
  groupPrefs: number[][];
  stats: TrajectoryStats[][];
  mRaw: number[][][];
  mNorm: number[][][];
  rewards: number[][];
  advantages: GroupAdvantage[];
  /** Per episode: A, whether its group trains, and its number of decisions. */
  adv: Float32Array;
  used: Uint8Array;
  decisions: Int32Array;
  trainedDecisions: number;
  /** Allowed (decision, tool) pairs of the rollouts' decisions and of the trained ones (the scorer's rows). */
  pairs: { rollout: number; trained: number };
  update: UpdateStats | null;
  /** Phase 8: the shown group's decisions ([t·N + g] rows) and their probabilities before and after the update. */
  probs: { rows: number[]; before: Float32Array; after: Float32Array | null } | null;
}

const PRESET_VECTORS = INSTRUCTION_PRESETS.map((x) => x.preference);

export function beginIteration(host: PhaseHost, observe = false): IterationState {
  const N = host.config.batchTasks * host.config.groupSize;
  return {
    host, observe, shown: 0, next: 0, durations: [], rng: new SeqRng(hashInts(host.config.seed, host.iteration, 0x6770)),
    tasks: [], groupPrefs: [], stats: [], mRaw: [], mNorm: [], rewards: [], advantages: [],
    adv: new Float32Array(N), used: new Uint8Array(N), decisions: new Int32Array(N), trainedDecisions: 0,
      pairs: { rollout: 0, trained: 0 }, update: null, probs: null,
  };
}

/** 1. B tasks from the pool and a preference vector per task (the sliders' P, or a random one per task). */
export function samplePhase(s: IterationState): void {
  const { config: c, catalog, pool, prefs } = s.host;
  const G = c.groupSize, P = catalog.tools.length + 3;
  for (let b = 0; b < c.batchTasks; b++) {
    const task = pool[taskIndex(c.seed, pool.length, s.host.iteration, c.batchTasks, b)] as Task;
    const pref = c.preferenceMode === 'random' ? samplePreference(() => s.rng.next(), catalog, PRESET_VECTORS) : c.preference;
    const row = preferenceVector(pref, catalog);
    s.groupPrefs.push(row);
    for (let g = 0; g < G; g++) {
      s.tasks.push(task);
      prefs.set(row, (b * G + g) * P);
    }
  }
}

/** 2. All B·G episodes in lockstep through the batched env, one batched forward per turn (the first group traced). */
export async function rolloutPhase(s: IterationState): Promise<void> {
  const h = s.host, N = s.tasks.length;
  const keys = Array.from({ length: N }, (_, i) => hashInts(h.config.seed, h.iteration, i, 0x7e11));
  // Traced: the first group, or every episode when observing (so any group can be followed).
  const G = h.config.groupSize;
  await collectRollouts(h.net, h.env, h.scales, s.tasks, keys, h.prefs, h.buf, s.rng, s.observe ? N : G);
  if (s.observe) {
    for (let b = 0; b < h.config.batchTasks; b++) {
      let solved = 0;
      for (let g = 0; g < G; g++) solved += h.env.outcome[b * G + g] as number;
      if (solved > 0 && solved < G) { s.shown = b; break; }
    }
  }
}

/** 3. M(τ) = [calls (or, success-first, share of calls) per tool…, outcome, −cost, −latency] of every trajectory. */
export function measurePhase(s: IterationState): void {
  const { env, config: c, catalog } = s.host;
  const J = catalog.tools.length, G = c.groupSize;
  for (let b = 0; b < c.batchTasks; b++) {
    const stats: TrajectoryStats[] = [];
    for (let g = 0; g < G; g++) {
      const i = b * G + g;
      stats.push({ calls: env.calls.subarray(i * J, (i + 1) * J), outcome: env.outcome[i] as number,
        costUSD: env.cost[i] as number, latencyS: (env.latencyMs[i] as number) / 1000,
        tokens: env.tokens[i] as number });
    }
    s.stats.push(stats);
    s.mRaw.push(stats.map((t) => measureVector(t, J, measuresShares(c.reward))));
  }
}

/** 4. Each dimension of M min–max normalised within its group (0 where the group is constant). */
export function normalisePhase(s: IterationState): void {
  s.mNorm = s.mRaw.map((m) => normaliseGroup(m));
}

/** 5. R = outcome · Σ_k P_k · M̃_k (or the configured reward mode). */
export function gatePhase(s: IterationState): void {
  const c = s.host.config;
  s.rewards = s.stats.map((stats, b) => gateAndWeight(c.reward, stats, s.mNorm[b] as number[][], s.groupPrefs[b] as number[], c.weighted));
}

/** 6. A = (R − mean)/(std + ε) within each group; groups whose std is under the filter threshold get A = 0 and do not train. */
export function advantagePhase(s: IterationState): void {
  const G = s.host.config.groupSize;
  s.advantages = s.rewards.map((r) => groupAdvantages(r, s.host.config.advantage));
  s.advantages.forEach((a, b) => {
    for (let g = 0; g < G; g++) {
      s.adv[b * G + g] = a.advantages[g] as number;
      s.used[b * G + g] = a.filtered ? 0 : 1;
    }
  });
}

/** Rows of the buffer holding the followed group's decisions (for phase 8). */
function shownRows(s: IterationState): number[] {
  const { buf, config } = s.host;
  const rows: number[] = [];
  const G = config.groupSize;
  for (let g = s.shown * G; g < (s.shown + 1) * G; g++) for (let t = 0; t < buf.turns; t++) if (buf.valid[t * buf.slots + g]) rows.push(t * buf.slots + g);
  return rows;
}

/** 7. Aggregation weights per decision, then μ epochs of the clipped surrogate (ratio π_θ/π_old, clip, KL). */
export async function updatePhase(s: IterationState): Promise<void> {
  const { buf, config: c } = s.host;
  const T = buf.turns, N = buf.slots, M = T * N;
  const J = buf.nTools;
  for (let t = 0; t < T; t++) {
    for (let n = 0; n < N; n++) {
      const m = t * N + n;
      if (!buf.valid[m]) continue;
      s.decisions[n]++;
      const allowed = allowedTools(buf.bias, m, J);
      s.pairs.rollout += allowed;
      if (s.used[n]) s.pairs.trained += allowed;
    }
  }
  let trainedTraj = 0, trainedDec = 0;
  for (let n = 0; n < N; n++) if (s.used[n] && s.decisions[n]) { trainedTraj++; trainedDec += s.decisions[n] as number; }
  s.trainedDecisions = trainedDec;
  const weight = new Float32Array(M), tokenWeight = new Float32Array(M), perDecisionAdv = new Float32Array(M);
  for (let t = 0; t < T; t++) {
    perDecisionAdv.set(s.adv, t * N);
    for (let n = 0; n < N; n++) {
      if (!buf.valid[t * N + n] || !s.used[n]) continue;
      weight[t * N + n] = c.aggregation === 'token-mean' ? 1 / trainedDec : 1 / ((s.decisions[n] as number) * trainedTraj);
      tokenWeight[t * N + n] = 1 / trainedDec;
    }
  }
  if (s.observe) {
    const rows = shownRows(s);
    s.probs = { rows, before: await s.host.probabilities(rows), after: null };
  }
  s.update = trainedDec > 0 ? await s.host.update(perDecisionAdv, weight, tokenWeight) : { loss: 0, kl: 0, entropy: 0,
    clipFrac: 0, gradNorm: 0, epochs: [], diverged: undefined };
}

/** 8. The action probabilities of the shown group's decisions after the update (observation only). */
export async function newProbabilitiesPhase(s: IterationState): Promise<void> {
  if (s.probs) s.probs.after = await s.host.probabilities(s.probs.rows);
}

const RUN: ((s: IterationState) => void | Promise<void>)[] = [samplePhase, rolloutPhase, measurePhase, normalisePhase,
  gatePhase, advantagePhase, updatePhase, newProbabilitiesPhase];

/** Runs the next phase (phase 8 only when the iteration observes); returns false when none is left. */
export async function runNextPhase(s: IterationState): Promise<boolean> {
  const last = s.observe ? 8 : 7;
  if (s.next >= last) return false;
  const t0 = performance.now();
  await (RUN[s.next] as (s: IterationState) => void | Promise<void>)(s);
  s.durations[s.next] = performance.now() - t0;
  s.next++;
  return true;
}

/** Whether the update (phase 7) has run, so the weights have changed. */
export const updated = (s: IterationState): boolean => s.update !== null;

/** The iteration's metrics (after phase 7), as the charts plot them; `group` is the first group, whole. */
export function iterationMetrics(s: IterationState): IterationMetrics {
  const { env, catalog } = s.host;
  const stats = s.update as UpdateStats;
  const N = s.tasks.length, J = catalog.tools.length, B = s.rewards.length;
  const ms = (from: number, to: number) => s.durations.slice(from, to + 1).reduce((a, d) => a + d, 0);
  let rolloutTurns = 0, solved = 0, cost = 0, latency = 0, turns = 0, absAdv = 0, reward = 0;
  const calls = new Float64Array(J);
  for (let i = 0; i < N; i++) {
    rolloutTurns = Math.max(rolloutTurns, env.turn[i] as number);
    solved += env.outcome[i] as number; cost += env.cost[i] as number; latency += env.latencyMs[i] as number;
      turns += env.turn[i] as number; absAdv += Math.abs(s.adv[i] as number);
    for (let j = 0; j < J; j++) calls[j] += env.calls[i * J + j] as number;
  }
  for (const r of s.rewards) for (const x of r) reward += x;
  const decisions = Array.from(s.decisions).reduce((a, d) => a + d, 0);
  return {
    iteration: s.host.iteration + 1,
    meanReward: reward / N,
    accuracy: solved / N,
    meanCostUSD: cost / N,
    meanLatencyS: latency / N / 1000,
    rewardStd: s.advantages.reduce((a, x) => a + x.std, 0) / B,
    meanAbsAdvantage: absAdv / N,
    kl: stats.kl,
    entropy: stats.entropy,
    clipFrac: stats.clipFrac,
    filteredFrac: s.advantages.filter((a) => a.filtered).length / B,
    loss: stats.loss,
    gradNorm: stats.gradNorm,
    learningRate: learningRateAt(s.host.config, s.host.iteration),
    meanTurns: turns / N,
    callsPerTask: Object.fromEntries(catalog.tools.map((t, j) => [t.id, (calls[j] as number) / N])),
    advantageHistogram: histogram(s.adv),
    group: groupSample(s),
    wallMs: ms(0, 6),
    timings: { rolloutMs: ms(0, 1), rewardMs: ms(2, 5), updateMs: ms(6, 6) },
    rolloutTurns,
    decisions: { rollout: decisions, trained: s.trainedDecisions, rolloutPairs: s.pairs.rollout, trainedPairs: s.pairs.trained },
    ...(stats.diverged ? { diverged: stats.diverged } : {}),
  };
}

/**
 * The followed group (the first unless slow motion chose another), whole: its task, P, M raw and normalised, R, A
 * (before and after the clip), and the turn-by-turn traces.
 */
export function groupSample(s: IterationState): GroupSample {
  const { catalog, env } = s.host;
  const ids = catalog.tools.map((t) => t.id);
  const b = s.shown, G = s.host.config.groupSize;
  const stats = s.stats[b] as TrajectoryStats[], a = s.advantages[b] as GroupAdvantage;
  return {
    task: s.tasks[b * G] as Task,
    dims: measureDims(ids),
    preference: s.groupPrefs[b] as number[],
    reward: s.host.config.reward,
    normalizeStd: s.host.config.advantage.normalizeStd,
    mean: a.mean,
    std: a.std,
    filtered: a.filtered,
    trajectories: stats.map((t, g) => ({
      outcome: t.outcome,
      costUSD: t.costUSD,
      latencyS: t.latencyS,
      calls: Object.fromEntries(ids.map((id, j) => [id, t.calls[j] as number]).filter(([, n]) => (n as number) > 0)),
      mRaw: (s.mRaw[b] as number[][])[g] as number[],
      mNorm: (s.mNorm[b] as number[][])[g] as number[],
      reward: (s.rewards[b] as number[])[g] as number,
      advantage: a.advantages[g] as number,
      advantageRaw: a.raw[g] as number,
      trace: env.traces?.[b * G + g] ? [...(env.traces[b * G + g] as [])] : [],
    })),
  };
}
