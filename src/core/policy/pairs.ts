// The policy's input for a batch of decisions, with the tool scorer's rows packed to the ALLOWED
// (decision, tool) pairs. A masked tool's logit is −1e9 whatever the scorer says (its score is lost
// in the float32 sum, its probability and gradient are exactly 0), so scoring it is wasted work —
// about half of all pairs at the default settings. Each scorer row is [tool descriptor ⊕ the state of
// its decision], built here on the CPU from the batch's own arrays (a device gather of per-decision
// rows is slow on tfjs-wasm); the scores are scattered back to their places in the [M, J + 1]
// logits (network.ts). The pair rows are padded to a multiple of a bucket, so a backend meets few
// shapes; padded pairs score into a spare slot that is dropped.

import * as tf from '@tensorflow/tfjs-core';
import { bucketSize } from './buckets';
import { STATE_DIM, TOOL_DIM } from './features';

/** Width of a scorer row: the tool's descriptor, then its decision's state. */
export const PAIR_DIM = TOOL_DIM + STATE_DIM;

/** Rows per bucket step of the packed pairs. */
export const PAIR_BUCKET_ROWS = 64;

/** Whether an action with this additive mask bias is allowed (maskBias writes 0, or −1e9 for a masked one). */
export const isAllowed = (bias: number): boolean => bias > -1e8;

export interface PolicyInput {
  /** [M, STATE_DIM]: the submit head's input. */
  state: tf.Tensor2D;
  /** [Pb, PAIR_DIM]: one row per allowed (decision, tool) pair, then zero rows up to the bucket. */
  pairs: tf.Tensor2D;
  /** int32 [Pb + M, 1]: the flat logit index of each pair's score (m·A + j; padding rows: the spare slot M·A), then of each decision's submit score (m·A + J). */
  slots: tf.Tensor2D;
  /** [M, A]: 0 where allowed, −1e9 where masked. */
  bias: tf.Tensor2D;
  /** [PAIR_DIM + 1, Pb]: the pairs transposed with a row of ones (the first layer's weight and bias gradient in one matmul), when built for an update. */
  pairsT?: tf.Tensor2D;
}

/** The CPU side of a PolicyInput. */
export interface PackedPairs {
  M: number;
  A: number;
  /** Allowed pairs (before bucket padding). */
  pairCount: number;
  state: Float32Array;
  pairs: Float32Array;
  slots: Int32Array;
  bias: Float32Array;
  pairsT: Float32Array | null;
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
 * With `transposed`, also the pairs' transpose with a ones row (for μ epochs of gradients).
 */
export function packPairs(src: DecisionArrays, J: number, rows: readonly number[] | null, opts: { M?: number; pairBucket?: number; transposed?: boolean } = {}): PackedPairs {
  const A = J + 1;
  const count = rows ? rows.length : src.bias.length / A;
  const M = Math.max(count, opts.M ?? count);
  const at = (r: number) => (rows ? (rows[r] as number) : r);
  let pairCount = 0;
  for (let r = 0; r < count; r++) {
    const b = at(r) * A;
    for (let j = 0; j < J; j++) if (isAllowed(src.bias[b + j] as number)) pairCount++;
  }
  const Pb = bucketSize(pairCount, opts.pairBucket ?? PAIR_BUCKET_ROWS);
  const state = new Float32Array(M * STATE_DIM), bias = new Float32Array(M * A);
  const pairs = new Float32Array(Pb * PAIR_DIM), slots = new Int32Array(Pb + M).fill(M * A, 0, Pb);
  let p = 0;
  for (let r = 0; r < count; r++) {
    const m = at(r);
    const s = src.state.subarray(m * STATE_DIM, (m + 1) * STATE_DIM);
    state.set(s, r * STATE_DIM);
    bias.set(src.bias.subarray(m * A, (m + 1) * A), r * A);
    for (let j = 0; j < J; j++) {
      if (!isAllowed(src.bias[m * A + j] as number)) continue;
      pairs.set(src.tools.subarray((m * J + j) * TOOL_DIM, (m * J + j + 1) * TOOL_DIM), p * PAIR_DIM);
      pairs.set(s, p * PAIR_DIM + TOOL_DIM);
      slots[p++] = r * A + j;
    }
  }
  for (let r = 0; r < M; r++) slots[Pb + r] = r * A + J;
  let pairsT: Float32Array | null = null;
  if (opts.transposed) {
    pairsT = new Float32Array((PAIR_DIM + 1) * Pb);
    for (let q = 0; q < Pb; q++) for (let k = 0; k < PAIR_DIM; k++) pairsT[k * Pb + q] = pairs[q * PAIR_DIM + k] as number;
    pairsT.fill(1, PAIR_DIM * Pb);
  }
  return { M, A, pairCount, state, pairs, slots, bias, pairsT };
}

/** The tensors of a packed batch (the caller disposes them: disposePolicyInput). */
export function policyInput(p: PackedPairs): PolicyInput {
  const Pb = p.pairs.length / PAIR_DIM;
  return {
    state: tf.tensor2d(p.state, [p.M, STATE_DIM]),
    pairs: tf.tensor2d(p.pairs, [Pb, PAIR_DIM]),
    slots: tf.tensor2d(p.slots, [p.slots.length, 1], 'int32'),
    bias: tf.tensor2d(p.bias, [p.M, p.A]),
    ...(p.pairsT ? { pairsT: tf.tensor2d(p.pairsT, [PAIR_DIM + 1, Pb]) } : {}),
  };
}

export function disposePolicyInput(x: PolicyInput): void {
  tf.dispose([x.state, x.pairs, x.slots, x.bias, ...(x.pairsT ? [x.pairsT] : [])]);
}

/** A mask bias [M, J + 1] that allows `share` of the tools, spread evenly, submit always (synthetic batches of benchmarks and probes). */
export function spreadMaskBias(M: number, J: number, share: number): Float32Array {
  const A = J + 1, bias = new Float32Array(M * A);
  // Bresenham: pair k is allowed when ⌊(k + 1)·share⌋ steps past ⌊k·share⌋.
  for (let m = 0; m < M; m++) for (let j = 0; j < J; j++) { const k = m * J + j; if (Math.floor((k + 1) * share) === Math.floor(k * share)) bias[m * A + j] = -1e9; }
  return bias;
}
