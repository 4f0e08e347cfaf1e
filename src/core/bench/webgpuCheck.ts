// A self-check of the WGSL kernels of our own (src/core/kernels/webgpu*.ts) on the active WebGPU
// backend, run by the bench page (plan=kernels) for e2e/webgpu.spec.ts: the same inputs through the
// kernels and through tfjs's own ops on the same backend (the kernels switched off), for a few policy
// shapes — the logits of a batch of random decisions, and three training iterations from one seed
// (rollouts, loss terms, gradient norms, clipping, the KL term, the new weights). Returns the largest
// differences, relative to each quantity's scale.

import * as tf from '@tensorflow/tfjs-core';
import { PolicyNetwork } from '../policy/network';
import { packPairs, policyInput, disposePolicyInput, type PolicyInput } from '../policy/pairs';
import { STATE_DIM, TOOL_DIM } from '../policy/features';
import { setWebGPUKernelsEnabled } from '../kernels/webgpuKernels';
import { SeqRng } from '../sim/rng';
import { DEFAULT_TRAIN, type TrainConfig } from '../grpo/config';
import { GrpoTrainer } from '../grpo/trainer';
import { presetCatalog } from '../sim/presets';
import { generateTasks } from '../sim/tasks';

export interface KernelCheckCase {
  width: number;
  depth: number;
  decisions: number;
  /** max |kernels − tfjs| / max(1, max |tfjs|) over the logits that are not masked (a masked one must be equal). */
  logits: number;
}

/** Three training iterations from the same seed and weights, with the kernels and with tfjs's ops. */
export interface UpdateCheckCase {
  width: number;
  depth: number;
  beta: number;
  dualClip: number | null;
  learningRate: number;
  /** Whether both took the same actions (every iteration's mean reward agrees exactly). */
  sameRollouts: boolean;
  /** Largest difference over METRICS and iterations, each relative to max(1e-3, |tfjs's|). */
  metrics: number;
  /** max |w_kernels − w_tfjs| / max(1, max |w_tfjs|) after the iterations. */
  weights: number;
  /** Each iteration's metrics. */
  ours: Record<string, number>[];
  theirs: Record<string, number>[];
}

export interface KernelCheck {
  backend: string;
  cases: KernelCheckCase[];
  updates: UpdateCheckCase[];
}

/** Random decisions: states, tools and a mask that allows each tool with probability `allow` (the submit always). */
function randomDecisions(rng: SeqRng, M: number, J: number, allow = 0.55) {
  const state = Float32Array.from({ length: M * STATE_DIM }, () => rng.next() * 2 - 1);
  const tools = Float32Array.from({ length: M * J * TOOL_DIM }, () => rng.next() * 2 - 1);
  const bias = new Float32Array(M * (J + 1));
  for (let m = 0; m < M; m++) for (let j = 0; j < J; j++) bias[m * (J + 1) + j] = rng.next() < allow ? 0 : -1e9;
  return { state, tools, bias };
}

async function withKernels<T>(on: boolean, f: () => Promise<T>): Promise<T> {
  setWebGPUKernelsEnabled(on);
  try { return await f(); } finally { setWebGPUKernelsEnabled(true); }
}

async function logitsOf(net: PolicyNetwork, x: PolicyInput): Promise<Float32Array> {
  const out = tf.tidy(() => net.logits(x));
  try { return (await out.data()) as Float32Array; } finally { out.dispose(); }
}

async function logitsCase(rng: SeqRng, width: number, depth: number, decisions: number): Promise<KernelCheckCase> {
  const J = 10;
  const net = new PolicyNetwork({ width, depth, seed: width + depth });
  const x = policyInput(packPairs(randomDecisions(rng, decisions, J), J, null, { pairBucket: 16 }));
  try {
    const ours = await withKernels(true, () => logitsOf(net, x));
    const theirs = await withKernels(false, () => logitsOf(net, x));
    let diff = 0, scale = 1;
    theirs.forEach((t, i) => {
      const o = ours[i] as number;
      if (t < -1e8) { diff = Math.max(diff, o === t ? 0 : Infinity); return; }
      diff = Math.max(diff, Math.abs(o - t));
      scale = Math.max(scale, Math.abs(t));
    });
    return { width, depth, decisions, logits: diff / scale };
  } finally {
    disposePolicyInput(x);
    net.dispose();
  }
}

const METRICS = ['loss', 'kl', 'entropy', 'clipFrac', 'gradNorm', 'meanReward', 'accuracy'] as const;

/** Three iterations' metrics (each one's values in turn) and the weights after them. */
async function stepWith(on: boolean, cfg: TrainConfig): Promise<{ m: Record<string, number>[]; w: Float32Array }> {
  return withKernels(on, async () => {
    const catalog = presetCatalog('toolorchestra');
    const pool = generateTasks(catalog, { seed: 1, count: 200, availability: DEFAULT_TRAIN.availability }).tasks;
    const trainer = new GrpoTrainer(catalog, cfg, pool);
    try {
      const m: Record<string, number>[] = [];
      for (let i = 0; i < 3; i++) {
        const it = await trainer.step();
        m.push(Object.fromEntries(METRICS.map((k) => [k, it[k]])));
      }
      const flat = tf.tidy(() => tf.concat(trainer.net.vars.map((v) => tf.reshape(v, [-1]))));
      const w = (await flat.data()) as Float32Array;
      flat.dispose();
      return { m, w };
    } finally {
      trainer.dispose();
    }
  });
}

async function updateCase(width: number, depth: number, beta: number, dualClip: number | null,
  learningRate: number): Promise<UpdateCheckCase> {
  const policy = { width, depth, seed: 1 };
  const cfg: TrainConfig = { ...DEFAULT_TRAIN, batchTasks: 8, groupSize: 4, beta, dualClip, learningRate, policy };
  const ours = await stepWith(true, cfg), theirs = await stepWith(false, cfg);
  let metrics = 0, weights = 0, scale = 1;
  ours.m.forEach((o, i) => {
    const t = theirs.m[i] as Record<string, number>;
    for (const k of METRICS) {
      const [a, b] = [o[k] as number, t[k] as number];
      metrics = Math.max(metrics, Math.abs(a - b) / Math.max(1e-3, Math.abs(b)));
    }
  });
  theirs.w.forEach((t, i) => {
    weights = Math.max(weights, Math.abs((ours.w[i] as number) - t));
    scale = Math.max(scale, Math.abs(t));
  });
  const sameRollouts = ours.m.every((o, i) => o.meanReward === theirs.m[i]?.meanReward);
  return {
    width, depth, beta, dualClip, learningRate, sameRollouts, metrics, weights: weights / scale, ours: ours.m, theirs: theirs.m,
  };
}

export async function webgpuKernelCheck(): Promise<KernelCheck> {
  const rng = new SeqRng(7);
  const cases: KernelCheckCase[] = [];
  for (const [width, depth, decisions] of [[16, 2, 16], [64, 2, 48], [32, 3, 80], [8, 1, 16]] as const) {
    cases.push(await logitsCase(rng, width, depth, decisions));
  }
  // A learning rate of 0.05 moves the second epoch's ratios past the clip range (the first epoch's
  // ratios are 1, unclipped); one shape adds the KL term and the dual clip. Each shape runs twice
  // (our kernels, tfjs's ops) on the adapter, so three shapes cover depths 1–3 and widths 8–64.
  const shapes = [[32, 3, 0.05, 3, 0.05], [8, 1, 0, null, 0.05], [64, 2, 0, null, 0.05]] as const;
  const updates: UpdateCheckCase[] = [];
  for (const [width, depth, beta, dualClip, lr] of shapes) updates.push(await updateCase(width, depth, beta, dualClip, lr));
  return { backend: tf.getBackend(), cases, updates };
}
