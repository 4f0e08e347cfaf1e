// The arithmetic floor of a GRPO iteration (issue "Fast by default"): the multiply-adds of its useful
// work (rollout forwards of live episodes, forward + backward over the decisions that train, μ epochs,
// allowed pairs only) divided by the backend's own matmul throughput, timed in the same run. An
// iteration's time over this floor is overhead (dispatch, elementwise passes, the simulation).

import * as tf from '@tensorflow/tfjs-core';
import { STATE_DIM, TOOL_DIM } from '../policy/features';
import type { PolicyConfig } from '../policy/network';

/** Multiply-adds of one decision that scores K tools: the forward, and its backward (weight gradients, plus input gradients of the non-input layers). */
export function decisionMacs(policy: Pick<PolicyConfig, 'width' | 'depth'>, K: number): { forward: number; backward: number } {
  const H = policy.width, hidden = (policy.depth - 1) * H * H;
  const inputLayers = 2 * STATE_DIM * H + K * TOOL_DIM * H; // scorer state + tool parts, submit l0
  const forward = inputLayers + K * (hidden + H) + hidden + H;
  return { forward, backward: 2 * forward - inputLayers };
}

/** Decisions and the allowed (decision, tool) pairs among them. */
export interface DecisionCounts { rollout: number; rolloutPairs: number; trained: number; trainedPairs: number }

/**
 * The same decisions with every tool scored, masked ones too: the floor as first defined (for comparison with figures
 * measured before the scorer skipped masked pairs).
 */
export function everyToolScored(c: DecisionCounts, J: number): DecisionCounts {
  return { ...c, rolloutPairs: J * c.rollout, trainedPairs: J * c.trained };
}

/** Multiply-adds of `decisions` decisions scoring `pairs` tools in all (decisionMacs is linear in K). */
function workMacs(policy: Pick<PolicyConfig, 'width' | 'depth'>, decisions: number, pairs: number): { forward: number; backward: number } {
  const none = decisionMacs(policy, 0), one = decisionMacs(policy, 1);
  return { forward: decisions * none.forward + pairs * (one.forward - none.forward),
    backward: decisions * none.backward + pairs * (one.backward - none.backward) };
}

/** Multiply-adds of an iteration's useful work. */
export function iterationMacs(policy: Pick<PolicyConfig, 'width' | 'depth'>, counts: DecisionCounts, epochs: number, withReference = false): number {
  const rollout = workMacs(policy, counts.rollout, counts.rolloutPairs), trained = workMacs(policy, counts.trained, counts.trainedPairs);
  return rollout.forward + epochs * (trained.forward + trained.backward) + (withReference ? trained.forward : 0);
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
