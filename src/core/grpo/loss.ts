// The GRPO loss on a batch of decisions (DESIGN.md §3): PPO's clipped surrogate on the
// per-decision ratio π_θ/π_old with asymmetric clip (ε_low, ε_high: "clip-higher"), an optional
// KL penalty to a frozen reference with the k3 estimator (π_ref/π_θ − ln(π_ref/π_θ) − 1), and an
// optional entropy bonus. Aggregation is a per-decision weight vector that the trainer builds
// (token-mean: 1/#decisions; seq-mean-token-mean: 1/(#decisions of the trajectory · #trajectories)).

import * as tf from '@tensorflow/tfjs-core';
import type { PolicyNetwork } from '../policy/network';

export interface LossConfig {
  epsLow: number;
  epsHigh: number;
  /** KL coefficient β (0 = no reference model). */
  beta: number;
  entropyCoef: number;
}

/** One batch of M decisions over J tools, as tensors. */
export interface DecisionBatch {
  state: tf.Tensor2D;
  tools: tf.Tensor3D;
  bias: tf.Tensor2D;
  /** One-hot of the action taken, [M, J + 1]. */
  taken: tf.Tensor2D;
  oldLogp: tf.Tensor1D;
  advantage: tf.Tensor1D;
  /** Aggregation weight per decision (0 for padding and filtered groups); sums to 1. */
  weight: tf.Tensor1D;
  /** ln π_ref(a|s) of the taken actions, when β > 0. */
  refLogp?: tf.Tensor1D;
}

export interface LossTerms {
  total: tf.Scalar;
  surrogate: tf.Scalar;
  kl: tf.Scalar;
  entropy: tf.Scalar;
  clipFrac: tf.Scalar;
}

/** ln π(a|s) of the taken actions. */
export function takenLogp(net: PolicyNetwork, b: Pick<DecisionBatch, 'state' | 'tools' | 'bias' | 'taken'>): tf.Tensor1D {
  return tf.sum(tf.mul(tf.logSoftmax(net.logits(b.state, b.tools, b.bias)), b.taken), 1);
}

/** The loss terms (call inside tf.tidy or variableGrads). */
export function grpoLoss(net: PolicyNetwork, b: DecisionBatch, cfg: LossConfig): LossTerms {
  const logProbs = tf.logSoftmax(net.logits(b.state, b.tools, b.bias));
  const logp = tf.sum(tf.mul(logProbs, b.taken), 1);
  const ratio = tf.exp(tf.sub(logp, b.oldLogp));
  const unclipped = tf.mul(ratio, b.advantage);
  const clipped = tf.mul(tf.clipByValue(ratio, 1 - cfg.epsLow, 1 + cfg.epsHigh), b.advantage);
  const perDecision = tf.neg(tf.minimum(unclipped, clipped));
  const surrogate = tf.sum(tf.mul(perDecision, b.weight));
  const outside = tf.logicalOr(tf.less(ratio, 1 - cfg.epsLow), tf.greater(ratio, 1 + cfg.epsHigh));
  const clipFrac = tf.sum(tf.mul(tf.cast(outside, 'float32'), b.weight));
  // Entropy over allowed actions: masked ones have probability 0 (their p·ln p is 0·(−1e9) = 0).
  const entropyPer = tf.neg(tf.sum(tf.mul(tf.exp(logProbs), logProbs), 1));
  const entropy = tf.sum(tf.mul(entropyPer, b.weight));
  let kl: tf.Scalar = tf.scalar(0);
  if (cfg.beta > 0 && b.refLogp) {
    const d = tf.sub(b.refLogp, logp);
    kl = tf.sum(tf.mul(tf.sub(tf.sub(tf.exp(d), d), 1), b.weight));
  }
  const total = tf.sub(tf.add(surrogate, tf.mul(cfg.beta, kl)), tf.mul(cfg.entropyCoef, entropy)) as tf.Scalar;
  return { total, surrogate: surrogate as tf.Scalar, kl, entropy: entropy as tf.Scalar, clipFrac: clipFrac as tf.Scalar };
}

/** Scales the gradients to a global norm of at most `maxNorm`, applies them, and returns the norm before clipping. */
export function applyClipped(optimizer: tf.Optimizer, grads: tf.NamedTensorMap, maxNorm: number): tf.Scalar {
  const norm = tf.sqrt(tf.addN(Object.values(grads).map((g) => tf.sum(tf.square(g))))) as tf.Scalar;
  const scale = tf.minimum(1, tf.div(maxNorm, tf.add(norm, 1e-6)));
  const clipped: tf.NamedTensorMap = {};
  for (const [k, g] of Object.entries(grads)) clipped[k] = tf.mul(g, scale);
  optimizer.applyGradients(clipped);
  return norm;
}
