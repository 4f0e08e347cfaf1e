// Adam over all of the policy's weights as one flat vector, with the global-norm clip in front
// (docs/DESIGN.md §5, "fewer tiny ops in Adam"): a dozen kernels over one vector instead of dozens per
// weight tensor, and on wasm one kernel of our own (kernels/wasmKernels.ts), bit for bit the same.
// The update is tf.train.adam's (same expressions and order, test/flatAdam.test.ts), except that the
// bias correction 1 − β^t is exact here (float64 in JS) where tfjs keeps β^t as a float32 scalar.

import * as tf from '@tensorflow/tfjs-core';
import { adamKernel, wasmKernelsReady, type AdamScalars } from '../kernels/wasmKernels';

/**
 * Concatenates 1-D tensors, at most four inputs per kernel. A WebGPU dispatch binds one storage
 * buffer per input, and past the adapter's per-stage limit (8 on Chromium's software adapter) it
 * fails validation and, with it, the rest of its command batch: every value read back from that
 * batch is 0 (tf.addN did, 19097e2). tfjs-webgpu 4.22 splits a concat past the limit itself; four
 * inputs keep this code inside it whatever a backend does.
 */
export function concatFlat(xs: readonly tf.Tensor1D[]): tf.Tensor1D {
  if (xs.length === 0) return tf.zeros([0]) as tf.Tensor1D;
  let level = [...xs];
  while (level.length > 1) {
    const next: tf.Tensor1D[] = [];
    for (let i = 0; i < level.length; i += 4) {
      const group = level.slice(i, i + 4);
      next.push(group.length === 1 ? (group[0] as tf.Tensor1D) : tf.concat(group));
    }
    level = next;
  }
  return level[0] as tf.Tensor1D;
}

export class FlatAdam {
  private m: tf.Variable | null = null;
  private v: tf.Variable | null = null;
  /** On WebGPU: [weights | m | v], each a flat padded vector (kernels/webgpuAdam.ts), in place of m and v. */
  private device: tf.Tensor1D | null = null;
  private steps = 0;
  /** The weights the moments belong to (their ids); another list starts fresh moments. */
  private owner = '';

  /** The step size of the next applyClipped (the trainer sets it each update from its schedule, config.ts). */
  learningRate: number;

  constructor(learningRate: number, readonly beta1 = 0.9, readonly beta2 = 0.999) {
    this.learningRate = learningRate;
  }

  /**
   * Scales the gradients to a global L2 norm of at most `maxNorm`, applies one Adam step to
   * `vars`, and returns the norm before the clip. A weight without a gradient keeps its value and
   * its moments (tf.train.adam skips it too). Call inside tf.tidy.
   */
  applyClipped(vars: readonly tf.Variable[], grads: tf.NamedTensorMap, maxNorm: number): tf.Scalar {
    const owner = vars.map((w) => w.id).join(',');
    if (!this.m || !this.v || this.owner !== owner) {
      this.dispose();
      const size = vars.reduce((n, w) => n + w.size, 0);
      this.m = tf.variable(tf.zeros([size]), false);
      this.v = tf.variable(tf.zeros([size]), false);
      this.owner = owner;
    }
    this.steps++;
    const { beta1: b1, beta2: b2 } = this;
    if (vars.every((w) => grads[w.name]) && wasmKernelsReady()) {
      // On wasm one kernel of our own does the whole step, with the values of the ops below bit for bit.
      const r = adamKernel(vars, vars.map((w) => grads[w.name] as tf.Tensor), this.m, this.v, {
        maxNorm, beta1: b1, beta2: b2, biasCorrection1: 1 - b1 ** this.steps, biasCorrection2: 1 - b2 ** this.steps,
          epsilon: tf.backend().epsilon(), learningRate: this.learningRate,
      });
      this.m.assign(r.m as tf.Tensor1D);
      this.v.assign(r.v as tf.Tensor1D);
      vars.forEach((w, i) => w.assign(r.weights[i] as tf.Tensor));
      return r.norm;
    }
    const flat = concatFlat(vars.map((w) => tf.reshape(grads[w.name] ?? tf.zerosLike(w), [-1]) as tf.Tensor1D));
    const norm = tf.sqrt(tf.sum(tf.square(flat))) as tf.Scalar;
    const g = tf.mul(flat, tf.minimum(1, tf.div(maxNorm, tf.add(norm, 1e-6))));
    // 1 where a weight has a gradient, 0 where it has none (only built when one is missing).
    const has = vars.every((w) => grads[w.name]) ? null : concatFlat(vars.map((w) => (grads[w.name] ? tf.ones([w.size]) : tf.zeros([w.size])) as tf.Tensor1D));
    const only = (next: tf.Tensor, old: tf.Tensor): tf.Tensor => (has ? tf.add(old, tf.mul(has, tf.sub(next, old))) : next);
    const m = only(tf.add(tf.mul(this.m, b1), tf.mul(g, 1 - b1)), this.m);
    const v = only(tf.add(tf.mul(this.v, b2), tf.mul(tf.square(g), 1 - b2)), this.v);
    this.m.assign(m);
    this.v.assign(v);
    // Bias correction 1 − β^t, exact (tf.train.adam's float32 β^t differs by about 6e-6 relative).
    const mHat = tf.div(m, 1 - b1 ** this.steps);
    const vHat = tf.div(v, 1 - b2 ** this.steps);
    const raw = tf.mul(tf.div(mHat, tf.add(tf.sqrt(vHat), tf.backend().epsilon())), -this.learningRate);
    const step = has ? tf.mul(raw, has) : raw;
    // One split (one kernel call on wasm, where each slice is also an engine dispatch), then a reshape and an add per weight.
    const pieces = tf.split(step, vars.map((w) => w.size));
    vars.forEach((w, i) => w.assign(tf.add(tf.reshape(pieces[i] as tf.Tensor, w.shape), w)));
    return norm;
  }

  /**
   * The WGSL kernels' state for `vars` laid out in `padded` floats: [weights | m | v], the moments zero
   * when new (a new list of weights, as with m and v, starts fresh moments). The caller writes the weights.
   */
  deviceState(vars: readonly tf.Variable[], padded: number): tf.Tensor1D {
    const owner = vars.map((w) => w.id).join(',');
    if (!this.device || this.owner !== owner || this.device.size !== 3 * padded) {
      this.dispose();
      this.device = tf.keep(tf.zeros([3 * padded])) as tf.Tensor1D;
      this.owner = owner;
    }
    return this.device;
  }

  /** Counts one step (as applyClipped does) and returns its scalars for the kernels, the bias corrections exact. */
  nextStep(maxNorm: number): AdamScalars {
    this.steps++;
    const { beta1: b1, beta2: b2 } = this;
    return {
      maxNorm, beta1: b1, beta2: b2, biasCorrection1: 1 - b1 ** this.steps, biasCorrection2: 1 - b2 ** this.steps,
      epsilon: tf.backend().epsilon(), learningRate: this.learningRate,
    };
  }

  dispose(): void {
    this.m?.dispose();
    this.v?.dispose();
    this.device?.dispose();
    this.device = null;
    this.m = this.v = null;
    this.steps = 0;
    this.owner = '';
  }
}
