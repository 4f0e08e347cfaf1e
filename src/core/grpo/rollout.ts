// GRPO rollouts: all N = B·G episodes of an iteration advance in lockstep through the batched
// env, one batched policy forward and one small readback per turn (DESIGN.md §5). Every turn's
// inputs, actions and log-probs are kept in fixed-size buffers (T × N, padded, with a validity
// mask) so the update is one batched forward/backward of fixed shape.

import * as tf from '@tensorflow/tfjs-core';
import type { BatchEnv } from '../sim/env';
import type { SeqRng } from '../sim/rng';
import type { Task } from '../sim/tasks';
import { decide, fillGumbel, type TurnBuffers } from '../policy/act';
import { STATE_DIM, TOOL_DIM, type CatalogScales } from '../policy/features';
import type { PolicyNetwork } from '../policy/network';
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
    fillGumbel(rng, buf.gumbel);
    await decide(net, env, scales, prefs, buf.mask, view, buf.gumbel, view.actions, view.logp);
    env.step(view.actions);
  }
}

/** The buffer's T·N decisions as tensors for the loss (padding rows carry weight 0). */
export function toDecisionBatch(buf: RolloutBuffer, advantage: Float32Array, weight: Float32Array, tokenWeight?: Float32Array): DecisionBatch {
  const M = buf.turns * buf.slots, J = buf.nTools, A = J + 1;
  return {
    state: tf.tensor2d(buf.state, [M, STATE_DIM]),
    tools: tf.tensor3d(buf.tools, [M, J, TOOL_DIM]),
    bias: tf.tensor2d(buf.bias, [M, A]),
    taken: tf.tidy(() => tf.cast(tf.oneHot(tf.tensor1d(buf.actions, 'int32'), A), 'float32') as tf.Tensor2D),
    oldLogp: tf.tensor1d(buf.logp),
    advantage: tf.tensor1d(advantage),
    weight: tf.tensor1d(weight),
    ...(tokenWeight ? { tokenWeight: tf.tensor1d(tokenWeight) } : {}),
  };
}
