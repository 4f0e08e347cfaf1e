// Adam over all of the policy's weights as one flat vector, with the global-norm clip in front
// (DESIGN.md §5, "fewer tiny ops in Adam"). tf.train.adam runs 14 kernels per weight tensor and
// the clip 3 more: about 240 kernels an epoch for the policy's 13 weights, whose arithmetic is
// 13 k elements, so on wasm the time is the kernels' dispatch (measured: 1.47 ms an epoch at the
// default size). Here an epoch's gradients are concatenated once and both moments live as flat
// vectors: the clip and the Adam step are a dozen kernels over one vector, plus a slice and an
// add per weight. The update is tf.train.adam's — β1 0.9, β2 0.999, ε the backend's, the same
// expressions in the same order — checked against it in test/flatAdam.test.ts.

import * as tf from '@tensorflow/tfjs-core';

/**
 * Concatenates 1-D tensors, at most four inputs per kernel. A WebGPU dispatch binds one storage
 * buffer per input, and past the adapter's per-stage limit (8 on Chromium's software adapter) it
 * fails validation and, with it, the rest of its command batch: every value read back from that
 * batch is 0. Four inputs and the output stay well inside.
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
  private steps = 0;

  constructor(readonly learningRate: number, readonly beta1 = 0.9, readonly beta2 = 0.999) {}

  /**
   * Scales the gradients to a global L2 norm of at most `maxNorm`, applies one Adam step to
   * `vars` (a weight without a gradient gets a zero one), and returns the norm before the clip.
   * Call inside tf.tidy.
   */
  applyClipped(vars: readonly tf.Variable[], grads: tf.NamedTensorMap, maxNorm: number): tf.Scalar {
    const flat = concatFlat(vars.map((w) => tf.reshape(grads[w.name] ?? tf.zerosLike(w), [-1]) as tf.Tensor1D));
    const norm = tf.sqrt(tf.sum(tf.square(flat))) as tf.Scalar;
    const g = tf.mul(flat, tf.minimum(1, tf.div(maxNorm, tf.add(norm, 1e-6))));
    if (!this.m || !this.v || this.m.size !== g.size) {
      this.dispose();
      this.m = tf.variable(tf.zerosLike(g), false);
      this.v = tf.variable(tf.zerosLike(g), false);
    }
    this.steps++;
    const { beta1: b1, beta2: b2 } = this;
    const m = tf.add(tf.mul(this.m, b1), tf.mul(g, 1 - b1));
    const v = tf.add(tf.mul(this.v, b2), tf.mul(tf.square(g), 1 - b2));
    this.m.assign(m);
    this.v.assign(v);
    // Bias correction 1 − β^t (tf.train.adam keeps β^t as a float32 scalar on the device; the same value to float32 rounding).
    const mHat = tf.div(m, 1 - b1 ** this.steps);
    const vHat = tf.div(v, 1 - b2 ** this.steps);
    const step = tf.mul(tf.div(mHat, tf.add(tf.sqrt(vHat), tf.backend().epsilon())), -this.learningRate);
    let offset = 0;
    for (const w of vars) {
      w.assign(tf.add(tf.reshape(tf.slice(step, offset, w.size), w.shape), w));
      offset += w.size;
    }
    return norm;
  }

  dispose(): void {
    this.m?.dispose();
    this.v?.dispose();
    this.m = this.v = null;
    this.steps = 0;
  }
}
