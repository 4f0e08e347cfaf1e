// The backend speed probe: how many GRPO iterations per second the current tfjs backend would train
// at the configured size, estimated from its parts (the rollouts' batched forwards and μ updates over a
// packed batch), each timed warm on the trainer's path. A stage's first run (where WebGPU compiles its
// kernels, which training then reuses) is outside the timed budget, under an allowance of its own: a
// GPU is judged on its speed, not on a one-off compile. It checks both between stages and stops early
// once its forward alone proves it cannot beat `beat`: it then reports that bound, never a guess.

import * as tf from '@tensorflow/tfjs-core';
import { FlatAdam } from '../grpo/flatAdam';
import { gradientStep, type LossConfig } from '../grpo/loss';
import { bucketSize } from '../policy/buckets';
import { STATE_DIM, TOOL_DIM } from '../policy/features';
import { PolicyNetwork } from '../policy/network';
import { disposePolicyInput, packPairs, policyInput } from '../policy/pairs';
import { ALLOWED_TOOL_SHARE, allowedActions, spreadMaskBias } from './syntheticBatch';
import { BUCKET_ROWS, RolloutBuffer } from '../grpo/rollout';
import { deviceUpdate } from '../grpo/webgpuUpdate';
import type { ProbeSize } from './probeSize';

/** Full-batch forwards a default rollout costs (955 live decisions over N = 128: 7.5; rounded up). */
export const ROLLOUT_FULL_TURNS = 8;
/** Decisions per episode that the update trains on (580 of 128 episodes at the default size: 4.5). */
export const TRAINED_PER_EPISODE = 4.5;

export interface SpeedProbe {
  /** Estimated iterations per second, or the upper bound when `bound` is set. */
  itPerS: number;
  /** True when the probe stopped early and itPerS is an upper bound. */
  bound: boolean;
  forwardMs: number;
  /** One update epoch at the packed size (absent when the probe stopped after the forward). */
  updateMs?: number;
  /** Wall time the probe took, first runs included. */
  probeMs: number;
  /** The stages' first runs (compiling, on WebGPU), not counted in the timed budget. */
  firstRunMs: number;
}

/**
 * How long a probe may take: warm stages within `timedMs`, the stages' first runs within `firstRunMs`
 * beside it; with `firstRunMs` 0 the first runs count in `timedMs` (wasm and cpu compile nothing worth
 * leaving out: their first run is the same work, a little slower).
 */
export interface ProbeLimits {
  timedMs: number;
  firstRunMs: number;
  /** The best speed so far (it/s): a backend whose forward alone cannot beat it stops with that bound. */
  beat?: number;
}

export class ProbeTimeout extends Error {
  /** Which allowance ran out, and the first runs' time spent by then. */
  constructor(message: string, readonly during: 'first run' | 'timed', readonly firstRunMs = 0) { super(message); }
}

const LOSS: LossConfig = { epsLow: 0.2, epsHigh: 0.28, beta: 0, entropyCoef: 0.003, dualClip: null };

/** Probes the active backend. Throws ProbeTimeout, between stages, once either of `limits` is spent. */
export async function probeSpeed(size: ProbeSize, limits: ProbeLimits): Promise<SpeedProbe> {
  const t0 = performance.now();
  const beat = limits.beat ?? 0;
  let firstRunMs = 0, inFirstRun = false;
  const N = size.episodes, J = size.nTools, A = J + 1;
  const M = bucketSize(Math.round(TRAINED_PER_EPISODE * N), 64);
  const net = new PolicyNetwork({ ...size.policy, seed: 1 });
  const optimizer = new FlatAdam(1e-9); // the update's full work, with weights that barely move
  const rnd = (n: number, seed: number) => Float32Array.from({ length: n }, (_, i) => Math.sin(seed * 7919 + i * 12.9898) * 0.5);
  const fwd = policyInput(packPairs({ state: rnd(N * STATE_DIM, 1), tools: rnd(N * J * TOOL_DIM, 2),
    bias: spreadMaskBias(N, J, ALLOWED_TOOL_SHARE) }, J, null));
  const upBias = spreadMaskBias(M, J, ALLOWED_TOOL_SHARE);
  const actions = allowedActions(upBias, M, A);
  // The same decisions as the trainer's rollout buffer holds them, for the update on the kernels (WebGPU).
  const buf = new RolloutBuffer(1, M, J);
  buf.state.set(rnd(M * STATE_DIM, 3)); buf.tools.set(rnd(M * J * TOOL_DIM, 4)); buf.bias.set(upBias); buf.actions.set(actions);
  buf.logp.fill(-Math.log(A)); buf.valid.fill(1);
  const perDecision = { advantage: rnd(M, 5), weight: new Float32Array(M).fill(1 / M), tokenWeight: new Float32Array(M).fill(1 / M) };
  // tfjs's ops take the decisions as tensors, made when first needed (where the kernels run, never: they would cost dispatches).
  const makeBatch = () => ({
    input: policyInput(packPairs({ state: rnd(M * STATE_DIM, 3), tools: rnd(M * J * TOOL_DIM, 4), bias: upBias }, J,
      null), { forGradients: true, firstLayerWidth: size.policy.width }),
    taken: tf.tidy(() => tf.cast(tf.oneHot(tf.tensor1d(actions, 'int32'), A), 'float32') as tf.Tensor2D),
    oldLogp: tf.fill([M], -Math.log(A)) as tf.Tensor1D, advantage: tf.tensor1d(rnd(M, 5)), weight: tf.fill([M], 1 / M) as tf.Tensor1D,
  });
  const ops: { batch?: ReturnType<typeof makeBatch> } = {};
  const apart = limits.firstRunMs > 0; // the first runs outside the timed budget
  const check = () => {
    const during = apart && inFirstRun ? 'first run' : 'timed';
    if (during === 'first run' ? firstRunMs > limits.firstRunMs : performance.now() - t0 - (apart ? firstRunMs : 0) > limits.timedMs) {
      throw new ProbeTimeout('the probe ran out of time', during, firstRunMs);
    }
  };
  const forward = async () => {
    check(); // also stops a probe that outlived its caller's timer before it issues more work
    const out = tf.tidy(() => net.logits(fwd)); // as a rollout turn: the logits are read back and sampled on the CPU
    await out.data();
    out.dispose();
  };
  const update = async () => {
    check();
    if (net.onKernels()) {
      const done = await deviceUpdate({
        net, ref: null, optimizer, buf, ...perDecision, loss: LOSS, epochs: 1, maxGradNorm: 1, withWeights: false, bucket: BUCKET_ROWS,
      });
      if (done) return; // else too large for the device's buffers: tfjs's ops, as the trainer would
    }
    const batch = (ops.batch ??= makeBatch());
    const out = tf.tidy(() => gradientStep(net, batch, LOSS, optimizer, 1)); // as the trainer's epoch runs it
    await out.data();
    out.dispose();
  };
  const timed = async (f: () => Promise<void>, reps: number) => {
    const s = performance.now();
    for (let r = 0; r < reps; r++) await f();
    return (performance.now() - s) / reps;
  };
  /** A stage's first run, outside the timed budget (WebGPU compiles its kernels here). */
  const firstRun = async (f: () => Promise<void>) => {
    inFirstRun = true;
    const s = performance.now();
    try { await f(); } finally { inFirstRun = false; firstRunMs += performance.now() - s; }
    return performance.now() - s;
  };
  // A stage that ran fast the first time is warmed up twice more: on a cold start (the page's first load)
  // the JIT and the wasm heap's growth still slow its second run (measured in Node, three probes in a
  // row: 14.9, 17.8, 25.7 it/s with one warm-up; the trainer then runs about 23 it/s).
  const warm = async (f: () => Promise<void>, fastMs: number) => {
    const fast = (await firstRun(f)) < fastMs;
    if (fast) await timed(f, 2);
    return fast;
  };
  try {
    const fastForward = await warm(forward, 20);
    const forwardMs = await timed(forward, fastForward ? 3 : 2);
    const rolloutMs = ROLLOUT_FULL_TURNS * forwardMs;
    const upper = 1000 / rolloutMs;
    if (upper <= beat) return { itPerS: upper, bound: true, forwardMs, probeMs: performance.now() - t0, firstRunMs };
    const fastUpdate = await warm(update, 100);
    const updateMs = await timed(update, fastUpdate ? 2 : 1);
    return { itPerS: 1000 / (rolloutMs + size.epochs * updateMs), bound: false, forwardMs, updateMs,
      probeMs: performance.now() - t0, firstRunMs };
  } finally {
    disposePolicyInput(fwd);
    if (ops.batch) {
      disposePolicyInput(ops.batch.input);
      tf.dispose([ops.batch.taken, ops.batch.oldLogp, ops.batch.advantage, ops.batch.weight]);
    }
    net.dispose();
    optimizer.dispose();
  }
}
