// GRPO rollouts: all N = B·G episodes of an iteration advance in lockstep through the batched
// env, one batched policy forward and one small readback per turn (docs/DESIGN.md §5). Every turn's
// inputs, actions and log-probs are kept in fixed-size buffers (T × N, padded, with a validity
// mask); the update packs the decisions that train into a few fixed bucket shapes.

import * as tf from '@tensorflow/tfjs-core';
import type { BatchEnv } from '../sim/env';
import type { SeqRng } from '../sim/rng';
import type { Task } from '../sim/tasks';
import { decide, fillGumbel, type TurnBuffers } from '../policy/act';
import { STATE_DIM, TOOL_DIM, type CatalogScales } from '../policy/features';
import type { PolicyNetwork } from '../policy/network';
import { bucketSize, gatherRows } from '../policy/buckets';
import { packPairs, policyInput } from '../policy/pairs';
import type { DecisionBatch } from './loss';

export class RolloutBuffer {
  readonly state: Float32Array;
  readonly tools: Float32Array;
  readonly bias: Float32Array;
  readonly actions: Int32Array;
  readonly logp: Float32Array;
  /** 1 where slot n made a decision at turn t ([t·N + n]). */
  readonly valid: Uint8Array;
  readonly mask: Uint8Array;
  readonly gumbel: Float32Array;

  constructor(readonly turns: number, readonly slots: number, readonly nTools: number) {
    const M = turns * slots, A = nTools + 1;
    this.state = new Float32Array(M * STATE_DIM);
    this.tools = new Float32Array(M * nTools * TOOL_DIM);
    this.bias = new Float32Array(M * A);
    this.actions = new Int32Array(M);
    this.logp = new Float32Array(M);
    this.valid = new Uint8Array(M);
    this.mask = new Uint8Array(slots * A);
    this.gumbel = new Float32Array(slots * A);
  }

  /** Views of turn t's rows. */
  turn(t: number): TurnBuffers & { actions: Int32Array; logp: Float32Array; valid: Uint8Array } {
    const N = this.slots, J = this.nTools, A = J + 1;
    return {
      state: this.state.subarray(t * N * STATE_DIM, (t + 1) * N * STATE_DIM),
      tools: this.tools.subarray(t * N * J * TOOL_DIM, (t + 1) * N * J * TOOL_DIM),
      bias: this.bias.subarray(t * N * A, (t + 1) * N * A),
      actions: this.actions.subarray(t * N, (t + 1) * N),
      logp: this.logp.subarray(t * N, (t + 1) * N),
      valid: this.valid.subarray(t * N, (t + 1) * N),
    };
  }
}

/** Runs every slot's episode to the end with sampled actions, recording each decision. */
export async function collectRollouts(
  net: PolicyNetwork, env: BatchEnv, scales: CatalogScales, tasks: readonly Task[], keys: ArrayLike<number>,
  prefs: Float32Array, buf: RolloutBuffer, rng: SeqRng, traceSlots: number,
): Promise<void> {
  env.reset(tasks, keys, { trace: traceSlots });
  buf.valid.fill(0);
  for (let t = 0; t < buf.turns; t++) {
    const view = buf.turn(t);
    if (env.allDone()) break;
    env.writeMask(buf.mask);
    for (let i = 0; i < buf.slots; i++) view.valid[i] = i < env.size && !env.done[i] ? 1 : 0;
    fillGumbel(rng, buf.gumbel, { valid: view.valid, width: buf.nTools + 1, mask: buf.mask }); // finished slots draw nothing
    await decide(net, env, scales, prefs, buf.mask, view, buf.gumbel, view.actions, view.logp);
    env.step(view.actions);
  }
}

/** Rows per bucket step of the update's packed batch (buckets.ts). */
export const BUCKET_ROWS = 64;

/**
 * The buffer's decisions as tensors for the loss. With `bucket`, only the decisions of weight > 0
 * (live, in a group that trains) are packed, in order, into bucketSize(n, bucket) rows; the extra
 * rows are zeros with weight 0. Without it, all T·N rows (padding rows carry weight 0). The
 * scorer's input holds the allowed pairs of those rows and each pair's full input (pairs.ts).
 */
export function toDecisionBatch(buf: RolloutBuffer, advantage: Float32Array, weight: Float32Array,
  tokenWeight?: Float32Array, bucket?: number, firstLayerWidth?: number): DecisionBatch {
  const J = buf.nTools;
  const all = buf.turns * buf.slots;
  let rows: number[] | null = null;
  if (bucket) {
    rows = [];
    for (let m = 0; m < all; m++) if ((weight[m] as number) > 0) rows.push(m);
  }
  const M = rows && bucket ? bucketSize(rows.length, bucket) : all;
  const pick = <T extends Float32Array | Int32Array>(src: T, out: T): T => (rows ? gatherRows(src, 1, rows, out) : src);
  const f32 = (src: Float32Array) => pick(src, new Float32Array(M));
  return {
    input: policyInput(packPairs(buf, J, rows, { M }), { forGradients: true, firstLayerWidth }),
    taken: tf.tidy(() => tf.cast(tf.oneHot(tf.tensor1d(pick(buf.actions, new Int32Array(M)), 'int32'), J + 1), 'float32') as tf.Tensor2D),
    oldLogp: tf.tensor1d(f32(buf.logp)),
    advantage: tf.tensor1d(f32(advantage)),
    weight: tf.tensor1d(f32(weight)),
    ...(tokenWeight ? { tokenWeight: tf.tensor1d(f32(tokenWeight)) } : {}),
  };
}
