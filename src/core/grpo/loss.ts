// The GRPO loss on a batch of decisions (docs/DESIGN.md §3), as veRL's core_algos computes it: the
// clipped surrogate on π_θ/π_old (ε_low, ε_high; optional dual clip c), an optional k3 KL penalty to a
// frozen reference (clamped to ±10), an optional entropy bonus, each decision weighted as the trainer
// aggregates. The trainer's path is one op with its gradient written out (lossFromLogits), matched to
// veRL's outputs in test/verl.test.ts; plainLoss writes the same objective op by op for tfjs's autodiff,
// the check of that gradient (test/plainLoss.test.ts).

import * as tf from '@tensorflow/tfjs-core';
import type { PolicyNetwork } from '../policy/network';
import { stash } from '../policy/dense';
import { concatFlat, type FlatAdam } from './flatAdam';
import { disposePolicyInput, type PolicyInput } from '../policy/pairs';

export interface LossConfig {
  epsLow: number;
  epsHigh: number;
  /** KL coefficient β (0 = no reference model). */
  beta: number;
  entropyCoef: number;
  /** veRL's clip_ratio_c (dual clip, > 1) or null for none; ToolOrchestra's run used 10, veRL's default is 3. */
  dualClip: number | null;
}

/** One batch of M decisions over J tools, as tensors. */
export interface DecisionBatch {
  /** The policy's input for the M decisions (its allowed pairs packed, with each pair's full input for μ epochs of gradients). */
  input: PolicyInput;
  /** One-hot of the action taken, [M, J + 1]. */
  taken: tf.Tensor2D;
  oldLogp: tf.Tensor1D;
  advantage: tf.Tensor1D;
  /**
   * Aggregation weight per decision (0 for padding and filtered groups); sums to 1. token-mean:
   * 1/#decisions; seq-mean-token-mean: 1/(#decisions of the trajectory · #trajectories with a decision).
   */
  weight: tf.Tensor1D;
  /** ln π_ref(a|s) of the taken actions, when β > 0. */
  refLogp?: tf.Tensor1D;
  /** Token-mean weights (1/#decisions), for the clip fraction as veRL reports it whatever the aggregation; default `weight`. */
  tokenWeight?: tf.Tensor1D;
}

export function disposeBatch(b: DecisionBatch): void {
  disposePolicyInput(b.input);
  tf.dispose([b.taken, b.oldLogp, b.advantage, b.weight, ...(b.refLogp ? [b.refLogp] : []), ...(b.tokenWeight ? [b.tokenWeight] : [])]);
}

/** The loss's values, in the order of `LossTerms.packed`. */
export const LOSS_TERMS = ['total', 'surrogate', 'kl', 'entropy', 'clipFrac', 'ratioMin', 'ratioMax'] as const;
export type LossTermName = (typeof LOSS_TERMS)[number];

export interface LossTerms {
  /**
   * [total, surrogate, kl, entropy, clipFrac, ratioMin, ratioMax] as one tensor: total = surrogate +
   * β·kl − entropyCoef·entropy; ratioMin/ratioMax are the smallest and largest π_θ/π_old over the
   * decisions that train (weight > 0; 1 when none). The clip fraction is veRL's: the share of decisions
   * where the clipped branch of the surrogate is active. It and the ratio's range are diagnostics: no
   * gradient flows from them.
   */
  packed: tf.Tensor1D;
  /** packed[0] as a scalar, for gradients. */
  total: tf.Scalar;
}

/** The named values of LOSS_TERMS from a readback, starting at `offset`. */
export function lossTermValues(values: ArrayLike<number>, offset = 0): Record<LossTermName, number> {
  return Object.fromEntries(LOSS_TERMS.map((name, k) => [name, values[offset + k] as number])) as Record<LossTermName, number>;
}

/** ln π(a|s) of the taken actions. */
export function takenLogp(net: PolicyNetwork, b: Pick<DecisionBatch, 'input' | 'taken'>): tf.Tensor1D {
  return tf.sum(tf.mul(tf.logSoftmax(net.logits(b.input)), b.taken), 1);
}

/**
 * The loss terms (call inside tf.tidy or variableGrads). `kept`, in a training forward, collects
 * the tensors the gradient needs instead of copies (dense.ts, stash): the caller disposes them
 * after the backward pass.
 */
export function grpoLoss(net: PolicyNetwork, b: DecisionBatch, cfg: LossConfig, kept?: tf.Tensor[]): LossTerms {
  return lossFromLogits(net.logits(b.input, kept), b, cfg, kept);
}

/**
 * One epoch of the update, as the trainer runs it (and the benchmarks time it): the loss's gradients,
 * with the activations the backward pass reads kept instead of copied (dense.ts, stash) and disposed
 * once it is done, clipped to a global norm of `maxGradNorm` and applied by `optimizer`. Returns
 * [LOSS_TERMS…, the gradient norm before the clip]. Call inside tf.tidy.
 */
export function gradientStep(net: PolicyNetwork, b: DecisionBatch, cfg: LossConfig, optimizer: FlatAdam, maxGradNorm: number): tf.Tensor1D {
  const kept: tf.Tensor[] = [];
  let packed: tf.Tensor1D | null = null;
  try {
    const { grads } = tf.variableGrads(() => {
      const terms = grpoLoss(net, b, cfg, kept);
      packed = tf.keep(terms.packed); // variableGrads runs this in its own tidy
      return terms.total;
    }, net.vars);
    const norm = optimizer.applyClipped(net.vars, grads, maxGradNorm);
    return concatFlat([packed as unknown as tf.Tensor1D, tf.reshape(norm, [1]) as tf.Tensor1D]);
  } finally {
    tf.dispose(kept);
    (packed as tf.Tensor1D | null)?.dispose();
  }
}

type LossBatch = Pick<DecisionBatch, 'taken' | 'oldLogp' | 'advantage' | 'weight' | 'refLogp' | 'tokenWeight'>;

/**
 * The loss terms from the masked logits of the M decisions, [M, A] (masked actions at −1e9), as one
 * op whose gradient with respect to the logits is written out (below) instead of recorded op by op:
 * the tape would record about 35 small ops an epoch and clone the tensors each one saves.
 */
export function lossFromLogits(logits: tf.Tensor2D, b: LossBatch, cfg: LossConfig, kept?: tf.Tensor[]): LossTerms {
  const op = tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
    const [z, save] = args as [tf.Tensor2D, tf.GradSaveFunc];
    const f = lossForward(z, b, cfg);
    const saved = stash(save, kept, [], [f.p, f.lp, f.entropyPer, f.gSurrogate, f.gKl]);
    return { value: f.packed, gradFunc: (dy: tf.Tensor, copies: tf.Tensor[]) => lossGradient(dy as tf.Tensor1D, saved(copies) as LossSaved, b, cfg) };
  });
  const packed = op(logits) as tf.Tensor1D;
  return { packed, total: tf.reshape(tf.slice(packed, 0, 1), []) as tf.Scalar };
}

/**
 * The loss as the objective reads, op by op, for tfjs's autodiff (tf.grad, tf.variableGrads): the check
 * of lossFromLogits's written-out gradient, not the trainer's path. Its value is lossFromLogits's total:
 * Σ_t w_t·[max(−A_t·r_t, −A_t·clip(r_t, 1 − ε_low, 1 + ε_high)), capped at −A_t·c where A_t < 0 (dual
 * clip), + β·clamp(k3_t, ±10) − c_H·H_t].
 */
export function plainLoss(logits: tf.Tensor2D, b: LossBatch, cfg: LossConfig): tf.Scalar {
  return tf.tidy(() => {
    const logProbs = tf.logSoftmax(logits);
    const logp = tf.sum(tf.mul(logProbs, b.taken), 1);
    const ratio = tf.exp(tf.sub(logp, b.oldLogp));
    const negA = tf.neg(b.advantage);
    const clipped = tf.clipByValue(ratio, 1 - cfg.epsLow, 1 + cfg.epsHigh);
    let surrogate = tf.maximum(tf.mul(negA, ratio), tf.mul(negA, clipped));
    if (cfg.dualClip !== null) {
      surrogate = tf.where(tf.less(b.advantage, 0), tf.minimum(tf.mul(negA, cfg.dualClip), surrogate), surrogate);
    }
    const entropy = tf.neg(tf.sum(tf.mul(tf.exp(logProbs), logProbs), 1));
    let perDecision = tf.sub(surrogate, tf.mul(cfg.entropyCoef, entropy));
    if (cfg.beta > 0 && b.refLogp) {
      const d = tf.sub(b.refLogp, logp); // k3 = e^d − d − 1 with d = ln π_ref − ln π_θ
      perDecision = tf.add(perDecision, tf.mul(cfg.beta, tf.clipByValue(tf.sub(tf.sub(tf.exp(d), d), 1), -10, 10)));
    }
    return tf.sum(tf.mul(perDecision, b.weight)) as tf.Scalar;
  });
}

type LossSaved = [p: tf.Tensor2D, lp: tf.Tensor2D, entropyPer: tf.Tensor1D, gSurrogate: tf.Tensor1D, gKl: tf.Tensor1D];

/**
 * The values, and per decision the derivatives of the surrogate and of the KL term with respect to
 * ln π(a|s) (∂/∂ logits follows from them, lossGradient). Where the ops have kinks the derivative is
 * the one tfjs's own gradients take (test/verl.test.ts checks it against veRL's autograd): max(a, b)
 * passes to a where a ≥ b, min(a, b) to a where a ≤ b, a clip inside its closed range.
 */
function lossForward(logits: tf.Tensor2D, b: LossBatch, cfg: LossConfig) {
  const lp = tf.logSoftmax(logits);
  const p = tf.exp(lp);
  const logp = tf.sum(tf.mul(lp, b.taken), 1);
  const ratio = tf.exp(tf.sub(logp, b.oldLogp));
  const negA = tf.neg(b.advantage);
  const lossUnclipped = tf.mul(negA, ratio);
  const lossClipped = tf.mul(negA, tf.clipByValue(ratio, 1 - cfg.epsLow, 1 + cfg.epsHigh));
  let perDecision = tf.maximum(lossUnclipped, lossClipped);
  // ∂perDecision/∂ratio = −A where the unclipped branch is taken or the clip is inside its range, else 0.
  let passes = tf.logicalOr(tf.greaterEqual(lossUnclipped, lossClipped),
    tf.logicalAnd(tf.greaterEqual(ratio, 1 - cfg.epsLow), tf.lessEqual(ratio, 1 + cfg.epsHigh)));
  if (cfg.dualClip !== null) {
    // For A < 0, cap the loss at −A·c (veRL: clip_pg_losses2 = min(−A·c, max(l1, l2))); where the cap is taken nothing passes.
    const cap = tf.mul(negA, cfg.dualClip);
    const negative = tf.less(b.advantage, 0);
    passes = tf.logicalAnd(passes, tf.logicalOr(tf.logicalNot(negative), tf.greater(cap, perDecision)));
    perDecision = tf.where(negative, tf.minimum(cap, perDecision), perDecision);
  }
  const surrogate = tf.sum(tf.mul(perDecision, b.weight));
  // ∂surrogate/∂ln π(a|s) = w · ∂perDecision/∂ratio · ratio = w · (−A·ratio) where it passes.
  const gSurrogate = tf.mul(tf.mul(lossUnclipped, b.weight), tf.cast(passes, 'float32')) as tf.Tensor1D;
  const clippedActive = tf.greater(lossClipped, lossUnclipped);
  const clipFrac = tf.sum(tf.mul(tf.cast(clippedActive, 'float32'), b.tokenWeight ?? b.weight));
  // Entropy over allowed actions: masked ones have probability 0 (their p·ln p is 0·(−1e9) = 0).
  const entropyPer = tf.neg(tf.sum(tf.mul(p, lp), 1)) as tf.Tensor1D;
  const entropy = tf.sum(tf.mul(entropyPer, b.weight));
  let kl: tf.Tensor = tf.scalar(0);
  let gKl = tf.zerosLike(logp) as tf.Tensor1D;
  if (cfg.beta > 0 && b.refLogp) {
    // k3 = e^d − d − 1 with d = ln π_ref − ln π, clamped to ±10; ∂k3/∂ln π = −(e^d − 1) inside the clamp.
    const d = tf.sub(b.refLogp, logp);
    const ed = tf.exp(d);
    const raw = tf.sub(tf.sub(ed, d), 1);
    kl = tf.sum(tf.mul(tf.clipByValue(raw, -10, 10), b.weight));
    const inside = tf.logicalAnd(tf.greaterEqual(raw, -10), tf.lessEqual(raw, 10));
    gKl = tf.neg(tf.mul(tf.mul(tf.sub(ed, 1), b.weight), tf.cast(inside, 'float32'))) as tf.Tensor1D;
  }
  const total = tf.sub(tf.add(surrogate, tf.mul(cfg.beta, kl)), tf.mul(cfg.entropyCoef, entropy));
  const trained = tf.where(tf.greater(b.weight, 0), ratio, tf.onesLike(ratio));
  const scalars = [total, surrogate, kl, entropy, clipFrac, tf.min(trained), tf.max(trained)].map((x) => tf.reshape(x, [1]));
  const packed = tf.concat([tf.concat(scalars.slice(0, 4)), tf.concat(scalars.slice(4))]) as tf.Tensor1D; // ≤ 4 inputs a kernel (WebGPU)
  return { packed, p, lp, entropyPer, gSurrogate, gKl };
}

/**
 * ∂/∂logits of dy · packed. With g_m = ∂(surrogate, KL)/∂ln π(a_m|s_m) and ∂ln π(a|s)/∂z = onehot(a) − p,
 * ∂H_m/∂z = −p ⊙ (ln p + H_m): dz = g ⊙ (taken − p) − c_H · w ⊙ p ⊙ (ln p + H), where the weights
 * of the surrogate, the KL and the entropy are dy's on total (1, β, −entropyCoef) plus their own.
 */
function lossGradient(dy: tf.Tensor1D, [p, lp, entropyPer, gSurrogate, gKl]: LossSaved, b: LossBatch, cfg: LossConfig): tf.Tensor2D {
  const coef = tf.reshape(tf.matMul(tf.reshape(dy, [1, LOSS_TERMS.length]), tf.tensor2d(TERM_WEIGHTS(cfg), [LOSS_TERMS.length, 3])), [3]);
  const at = (k: number) => tf.slice(coef, k, 1);
  const g = tf.add(tf.mul(gSurrogate, at(0)), tf.mul(gKl, at(1)));
  const M = g.shape[0];
  const fromLogp = tf.mul(tf.reshape(g, [M, 1]), tf.sub(b.taken, p));
  const fromEntropy = tf.mul(tf.mul(p, tf.add(lp, tf.reshape(entropyPer, [M, 1]))), tf.reshape(tf.mul(b.weight, at(2)), [M, 1]));
  return tf.sub(fromLogp, fromEntropy);
}

/** Rows: LOSS_TERMS; columns: that term's weight on the surrogate, the KL and the entropy. */
const TERM_WEIGHTS = (cfg: LossConfig): number[] => [
  1, cfg.beta, -cfg.entropyCoef, // total
  1, 0, 0, // surrogate
  0, 1, 0, // kl
  0, 0, 1, // entropy
  0, 0, 0, 0, 0, 0, 0, 0, 0, // clipFrac, ratioMin, ratioMax: diagnostics
];
