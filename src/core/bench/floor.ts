// The arithmetic floor of a GRPO iteration (issue "Fast by default"): the multiply-adds of its
// useful work — the rollout forwards of live episodes, and forward + backward over the decisions
// the update trains on, μ epochs — divided by the backend's own matmul throughput, measured on a
// large matmul in the same run. An iteration's time over this floor says how much goes to
// overhead (per-op dispatch, elementwise passes, the simulation) rather than arithmetic.

import * as tf from '@tensorflow/tfjs-core';
import { STATE_DIM, TOOL_DIM } from '../policy/features';
import type { PolicyConfig } from '../policy/network';

/** Multiply-adds of one decision over J tools: the forward, and its backward (weight gradients, plus input gradients of the non-input layers). */
export function decisionMacs(policy: Pick<PolicyConfig, 'width' | 'depth'>, J: number): { forward: number; backward: number } {
  const H = policy.width, hidden = (policy.depth - 1) * H * H;
  const inputLayers = 2 * STATE_DIM * H + J * TOOL_DIM * H; // scorer state + tool parts, submit l0
  const forward = inputLayers + J * (hidden + H) + hidden + H;
  return { forward, backward: 2 * forward - inputLayers };
}

/** Multiply-adds of an iteration's useful work. */
export function iterationMacs(policy: Pick<PolicyConfig, 'width' | 'depth'>, J: number, decisions: { rollout: number; trained: number }, epochs: number, withReference = false): number {
  const d = decisionMacs(policy, J);
  return decisions.rollout * d.forward + epochs * decisions.trained * (d.forward + d.backward) + (withReference ? decisions.trained * d.forward : 0);
}

/** The backend's matmul throughput in multiply-adds per millisecond, on an n×n·n×n product (best of `reps`, after a warm-up). */
export async function matmulMacsPerMs(n = 512, reps = 8): Promise<number> {
  const a = tf.randomUniform([n, n], -1, 1, 'float32', 1);
  const b = tf.randomUniform([n, n], -1, 1, 'float32', 2);
  let best = Infinity;
  for (let r = 0; r <= reps; r++) {
    const t0 = performance.now();
    const c = tf.matMul(a, b);
    await c.data();
    const ms = performance.now() - t0;
    c.dispose();
    if (r > 0) best = Math.min(best, ms); // r = 0 warms up (kernel compile, buffer allocation)
  }
  tf.dispose([a, b]);
  return n ** 3 / best;
}
