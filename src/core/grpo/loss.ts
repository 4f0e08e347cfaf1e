// The GRPO loss on a batch of decisions (DESIGN.md §3), as veRL's core_algos computes it: PPO's
// clipped surrogate on the per-decision ratio π_θ/π_old with asymmetric clip (ε_low, ε_high:
// "clip-higher") and optional dual clip (clip_ratio_c: for A < 0 the loss is capped at −A·c), an
// optional KL penalty to a frozen reference with the k3 estimator (π_ref/π_θ − ln(π_ref/π_θ) − 1,
// clamped to ±10 as veRL's low_var_kl), and an optional entropy bonus. The clip fraction is veRL's:
// the share of decisions where the clipped branch of the surrogate is active. Aggregation is a
// per-decision weight vector that the trainer builds (token-mean: 1/#decisions;
// seq-mean-token-mean: 1/(#decisions of the trajectory · #trajectories with a decision)).
// test/verl.test.ts matches veRL's outputs on fixed inputs (shared/reference/verl-reference.json).

import * as tf from '@tensorflow/tfjs-core';
import type { PolicyNetwork } from '../policy/network';
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
  /** Aggregation weight per decision (0 for padding and filtered groups); sums to 1. */
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

export interface LossTerms {
  total: tf.Scalar;
  surrogate: tf.Scalar;
  kl: tf.Scalar;
  entropy: tf.Scalar;
  clipFrac: tf.Scalar;
  /** The smallest and largest ratio π_θ/π_old over the decisions that train (weight > 0; 1 when none). */
  ratioMin: tf.Scalar;
  ratioMax: tf.Scalar;
}

/** ln π(a|s) of the taken actions. */
export function takenLogp(net: PolicyNetwork, b: Pick<DecisionBatch, 'input' | 'taken'>): tf.Tensor1D {
  return tf.sum(tf.mul(tf.logSoftmax(net.logits(b.input)), b.taken), 1);
}

/** The loss terms (call inside tf.tidy or variableGrads). */
export function grpoLoss(net: PolicyNetwork, b: DecisionBatch, cfg: LossConfig): LossTerms {
  return lossFromLogits(net.logits(b.input), b, cfg);
}

/** The loss terms from the masked logits of the M decisions, [M, A] (masked actions at −1e9). */
export function lossFromLogits(logits: tf.Tensor2D, b: Pick<DecisionBatch, 'taken' | 'oldLogp' | 'advantage' | 'weight' | 'refLogp' | 'tokenWeight'>, cfg: LossConfig): LossTerms {
  const logProbs = tf.logSoftmax(logits);
  const logp = tf.sum(tf.mul(logProbs, b.taken), 1);
  const ratio = tf.exp(tf.sub(logp, b.oldLogp));
  const negA = tf.neg(b.advantage);
  const lossUnclipped = tf.mul(negA, ratio);
  const lossClipped = tf.mul(negA, tf.clipByValue(ratio, 1 - cfg.epsLow, 1 + cfg.epsHigh));
  let perDecision = tf.maximum(lossUnclipped, lossClipped);
  if (cfg.dualClip !== null) {
    // For A < 0, cap the loss at −A·c (veRL: clip_pg_losses2 = min(−A·c, max(l1, l2))).
    const capped = tf.minimum(tf.mul(negA, cfg.dualClip), perDecision);
    perDecision = tf.where(tf.less(b.advantage, 0), capped, perDecision);
  }
  const surrogate = tf.sum(tf.mul(perDecision, b.weight));
  const clippedActive = tf.greater(lossClipped, lossUnclipped);
  const clipFrac = tf.sum(tf.mul(tf.cast(clippedActive, 'float32'), b.tokenWeight ?? b.weight));
  // Entropy over allowed actions: masked ones have probability 0 (their p·ln p is 0·(−1e9) = 0).
  const entropyPer = tf.neg(tf.sum(tf.mul(tf.exp(logProbs), logProbs), 1));
  const entropy = tf.sum(tf.mul(entropyPer, b.weight));
  let kl: tf.Scalar = tf.scalar(0);
  if (cfg.beta > 0 && b.refLogp) {
    const d = tf.sub(b.refLogp, logp);
    kl = tf.sum(tf.mul(tf.clipByValue(tf.sub(tf.sub(tf.exp(d), d), 1), -10, 10), b.weight));
  }
  const total = tf.sub(tf.add(surrogate, tf.mul(cfg.beta, kl)), tf.mul(cfg.entropyCoef, entropy)) as tf.Scalar;
  const trains = tf.greater(b.weight, 0);
  const ones = tf.onesLike(ratio);
  const ratioMin = tf.min(tf.where(trains, ratio, ones)) as tf.Scalar;
  const ratioMax = tf.max(tf.where(trains, ratio, ones)) as tf.Scalar;
  return { total, surrogate: surrogate as tf.Scalar, kl, entropy: entropy as tf.Scalar, clipFrac: clipFrac as tf.Scalar, ratioMin, ratioMax };
}
