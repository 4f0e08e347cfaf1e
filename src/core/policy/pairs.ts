// The policy's input for a batch of decisions, with the tool scorer's rows packed to the ALLOWED
// (decision, tool) pairs: a masked tool's logit is −1e9 whatever it scores, so scoring it is wasted.
// Each pair carries its tool's descriptor and its decision's index, whose state part is computed once
// and gathered (gatherND); scores go to their places by a gather with the inverse index (network.ts),
// never a scatter. Pairs are padded to a bucket multiple, so a backend meets few shapes.

import * as tf from '@tensorflow/tfjs-core';
import { bucketSize } from './buckets';
import { STATE_DIM, TOOL_DIM } from './features';
import { canRunGatheredWeightGrad } from '../kernels/wasmKernels';

/** Rows per bucket step of the packed pairs. */
export const PAIR_BUCKET_ROWS = 64;

/** Whether an action with this additive mask bias is allowed (maskBias writes 0, or −1e9 for a masked one). */
export const isAllowed = (bias: number): boolean => bias > -1e8;

/** How many of the J tools the mask allows in row m of a bias array [rows, J + 1]. */
export function allowedTools(bias: ArrayLike<number>, m: number, J: number): number {
  let n = 0;
  for (let j = 0; j < J; j++) if (isAllowed(bias[m * (J + 1) + j] as number)) n++;
  return n;
}

export interface PolicyInput {
  /** [M, STATE_DIM]: the decisions' states (the submit head's input, and the scorer's state part). */
  state: tf.Tensor2D;
  /** [Pb, TOOL_DIM]: the tool descriptor of each allowed (decision, tool) pair, then zero rows up to the bucket. */
  pairs: tf.Tensor2D;
  /** int32 [Pb, 1]: each pair's decision row (padding pairs: 0). */
  pairRow: tf.Tensor2D;
  /**
   * int32 [Pb + M, 1]: the flat logit index of each pair's score (m·A + j; padding pairs: M·A, past the end), then of
   * each decision's submit score (m·A + J).
   */
  slots: tf.Tensor2D;
  /** int32 [M·A, 1]: the inverse — for each logit, its score's index in [pair scores ⊕ submit scores ⊕ 0] (Pb + M, the 0, for a masked tool). */
  source: tf.Tensor2D;
  /** [M, A]: 0 where allowed, −1e9 where masked. */
  bias: tf.Tensor2D;
  /** The allowed pairs before the bucket's padding (the WGSL kernels compute only these). */
  pairCount?: number;
  /**
   * [Pb, TOOL_DIM + STATE_DIM + 1]: each pair's tool descriptor, its decision's state and a 1, when
   * built for an update on a backend other than wasm (there the kernels of our own read the states
   * in place): the first layer's three gradients in one matmul whose packed right operand
   * is this constant tensor, reused over μ epochs (dense.ts). Put together on the device (a gather
   * and a concat, about 0.1 ms) rather than in JS (1.1–1.4 ms a default update for its 200 k floats).
   * A padding pair carries row 0's state: its gradient dz is 0, so what it carries adds nothing.
   */
  pairInputs?: tf.Tensor2D;
}

/** The CPU side of a PolicyInput. */
export interface PackedPairs {
  M: number;
  A: number;
  /** Allowed pairs (before bucket padding). */
  pairCount: number;
  state: Float32Array;
  pairs: Float32Array;
  pairRow: Int32Array;
  slots: Int32Array;
  source: Int32Array;
  bias: Float32Array;
}

export interface DecisionArrays {
  /** [rows, STATE_DIM] */
  state: Float32Array;
  /** [rows, J, TOOL_DIM] */
  tools: Float32Array;
  /** [rows, J + 1] */
  bias: Float32Array;
}

/**
 * Packs decisions `rows` of `src` (all of them when null) into M ≥ rows.length decision rows (the
 * extra ones zero: no pair, bias 0) and their allowed pairs, padded to a multiple of `pairBucket`.
 */
export function packPairs(src: DecisionArrays, J: number, rows: readonly number[] | null, opts: { M?: number; pairBucket?: number } = {}): PackedPairs {
  const A = J + 1, S = STATE_DIM, D = TOOL_DIM;
  const count = rows ? rows.length : src.bias.length / A;
  const M = Math.max(count, opts.M ?? count);
  const fromState = src.state, fromTools = src.tools, fromBias = src.bias;
  let pairCount = 0;
  for (let r = 0; r < count; r++) pairCount += allowedTools(fromBias, rows ? (rows[r] as number) : r, J);
  const Pb = bucketSize(pairCount, opts.pairBucket ?? PAIR_BUCKET_ROWS);
  const state = new Float32Array(M * S), bias = new Float32Array(M * A);
  const pairs = new Float32Array(Pb * D), pairRow = new Int32Array(Pb), slots = new Int32Array(Pb + M).fill(M * A, 0, Pb);
  const source = new Int32Array(M * A).fill(Pb + M);
  // Plain index loops, no subarray views: this runs per row and per pair.
  let p = 0;
  for (let r = 0; r < count; r++) {
    const m = rows ? (rows[r] as number) : r;
    for (let k = 0, a = m * S, b = r * S; k < S; k++) state[b + k] = fromState[a + k] as number;
    for (let k = 0, a = m * A, b = r * A; k < A; k++) bias[b + k] = fromBias[a + k] as number;
    for (let j = 0; j < J; j++) {
      if (!isAllowed(fromBias[m * A + j] as number)) continue;
      for (let k = 0, a = (m * J + j) * D, b = p * D; k < D; k++) pairs[b + k] = fromTools[a + k] as number;
      pairRow[p] = r;
      source[r * A + j] = p;
      slots[p++] = r * A + j;
    }
  }
  for (let r = 0; r < M; r++) {
    slots[Pb + r] = r * A + J;
    source[r * A + J] = Pb + r;
  }
  return { M, A, pairCount, state, pairs, pairRow, slots, source, bias };
}

/**
 * The tensors of a packed batch (the caller disposes them: disposePolicyInput); `forGradients` adds
 * pairInputs, unless the policy's first layer (`firstLayerWidth` outputs) gets its gradient from the
 * states in place (dense.ts, on wasm).
 */
export function policyInput(p: PackedPairs, opts: { forGradients?: boolean; firstLayerWidth?: number } = {}): PolicyInput {
  const Pb = p.pairRow.length;
  const x: PolicyInput = {
    state: tf.tensor2d(p.state, [p.M, STATE_DIM]),
    pairs: tf.tensor2d(p.pairs, [Pb, TOOL_DIM]),
    pairRow: tf.tensor2d(p.pairRow, [Pb, 1], 'int32'),
    slots: tf.tensor2d(p.slots, [p.slots.length, 1], 'int32'),
    source: tf.tensor2d(p.source, [p.source.length, 1], 'int32'),
    bias: tf.tensor2d(p.bias, [p.M, p.A]),
    pairCount: p.pairCount,
  };
  // On wasm the first layer's gradient reads the states in place (dense.ts), so the pairs' full inputs are not needed there.
  const statesInPlace = opts.firstLayerWidth !== undefined && canRunGatheredWeightGrad(opts.firstLayerWidth);
  if (opts.forGradients && !statesInPlace) x.pairInputs = tf.tidy(() => tf.concat([x.pairs,
    tf.gatherND(x.state, x.pairRow), tf.ones([Pb, 1])], 1) as tf.Tensor2D);
  return x;
}

export function disposePolicyInput(x: PolicyInput): void {
  tf.dispose([x.state, x.pairs, x.pairRow, x.slots, x.source, x.bias, ...(x.pairInputs ? [x.pairInputs] : [])]);
}
