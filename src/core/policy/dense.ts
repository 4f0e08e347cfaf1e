// The policy's layers with hand-written gradients. tfjs's own gradient of matMul multiplies with
// the transpose flags set, and on the wasm backend a transposed matmul runs 5–8× slower than a
// plain one on the same operands (measured, docs/BENCHMARKS.md: 73 ms against 8 ms for
// [18432, 64]·[64, 64]ᵀ); its gradient of a bias or a broadcast add is a reduction over the
// leading axis, which wasm runs as a full transpose and a sum. Here every backward product is a
// plain matMul of explicitly transposed operands (the transpose of a small matrix is almost free),
// a bias gradient is ones·dz, and the forward is one fused matMul + bias + ReLU kernel. The values
// are the same as tf.relu(tf.add(tf.matMul(x, W), b)) and its autodiff gradient (test/dense.test.ts).

import * as tf from '@tensorflow/tfjs-core';

type Act = 'relu' | 'linear';

/** Transposes of a batch's inputs that the scorer's gradient reuses over μ epochs (scorerTransposes). */
export interface ScorerTransposes {
  toolsT: tf.Tensor2D;
  stateRepT: tf.Tensor2D;
}

type Grad = (dy: tf.Tensor, saved: tf.Tensor[]) => tf.Tensor[];

/** tf.customGrad with the inputs as an array (tfjs passes them, then `save`, as arguments). */
function withGrad(f: (inputs: tf.Tensor[], save: tf.GradSaveFunc) => { value: tf.Tensor; gradFunc: Grad }): (...inputs: tf.Tensor[]) => tf.Tensor2D {
  const g = tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => f(args.slice(0, -1) as tf.Tensor[], args[args.length - 1] as tf.GradSaveFunc));
  return (...inputs) => g(...inputs) as tf.Tensor2D;
}

/** dz = dy · relu'(z), given the layer's output y = relu(z) (relu'(z) = 1 where y > 0). */
function activationGrad(dy: tf.Tensor2D, y: tf.Tensor2D, act: Act): tf.Tensor2D {
  return act === 'relu' ? tf.mul(dy, tf.step(y)) : dy;
}

/** Σ over rows of dz [R, H] as ones[1, R]·dz (a matmul instead of a transpose and a reduce). */
function columnSums(dz: tf.Tensor2D): tf.Tensor1D {
  return tf.reshape(tf.matMul(tf.ones([1, dz.shape[0]]) as tf.Tensor2D, dz), [dz.shape[1]]);
}

/** xᵀ·dz [K, H]: transposes whichever operand is narrower (dz is narrow for the output layer). */
function weightGrad(x: tf.Tensor2D, dz: tf.Tensor2D): tf.Tensor2D {
  const [, K] = x.shape, [R, H] = dz.shape;
  if (H === 1) return tf.reshape(tf.matMul(tf.reshape(dz, [1, R]) as tf.Tensor2D, x), [K, 1]) as tf.Tensor2D;
  return H < K ? (tf.transpose(tf.matMul(tf.transpose(dz), x)) as tf.Tensor2D) : tf.matMul(tf.transpose(x), dz);
}

/**
 * act(x·W + b) for a layer whose input x is data (no gradient flows into x): gradients for W and b.
 * `xT` may carry xᵀ when the caller has it already (e.g. once per batch for μ epochs).
 */
export function inputLayer(x: tf.Tensor2D, w: tf.Variable, b: tf.Variable, act: Act, xT?: tf.Tensor2D): tf.Tensor2D {
  const f = withGrad(([wIn, bIn], save) => {
    const y = tf.fused.matMul({ a: x, b: wIn as tf.Tensor2D, bias: bIn, activation: act });
    save([y]);
    return {
      value: y,
      gradFunc: (dy, saved) => {
        const dz = activationGrad(dy as tf.Tensor2D, saved[0] as tf.Tensor2D, act);
        return [xT ? tf.matMul(xT, dz) : weightGrad(x, dz), columnSums(dz)];
      },
    };
  });
  return f(w, b);
}

/** act(x·W + b) with gradients for x, W and b. */
export function hiddenLayer(x: tf.Tensor2D, w: tf.Variable, b: tf.Variable, act: Act): tf.Tensor2D {
  const f = withGrad(([xIn, wIn, bIn], save) => {
    const y = tf.fused.matMul({ a: xIn as tf.Tensor2D, b: wIn as tf.Tensor2D, bias: bIn, activation: act });
    save([xIn, wIn, y]);
    return {
      value: y,
      gradFunc: (dy, saved) => {
        const [xs, ws, ys] = saved as [tf.Tensor2D, tf.Tensor2D, tf.Tensor2D];
        const dz = activationGrad(dy as tf.Tensor2D, ys, act);
        const H = ws.shape[1];
        // dz·Wᵀ; for a single output column this is an outer product, cheaper as a broadcast multiply.
        const dx = H === 1 ? tf.mul(dz, tf.reshape(ws, [1, ws.shape[0]])) : tf.matMul(dz, tf.transpose(ws));
        return [dx, weightGrad(xs, dz), columnSums(dz)];
      },
    };
  });
  return f(x, w, b);
}

/**
 * The scorer's first layer over M decisions × J tools: relu(tools·W_t + state·W_s + b), the state
 * part computed once per decision and broadcast over the J tools. Returns [M·J, H]. `stateRepT`
 * may carry the state repeated J times and transposed, [S, M·J] (built once per batch), so that
 * W_s's gradient is one matmul instead of a sum over the tool axis.
 */
export function scorerInputLayer(
  state: tf.Tensor2D, tools: tf.Tensor3D, ws: tf.Variable, wt: tf.Variable, b: tf.Variable, pre?: ScorerTransposes,
): tf.Tensor2D {
  const [M, J, D] = tools.shape;
  const H = wt.shape[1] as number;
  const flat = tf.reshape(tools, [M * J, D]) as tf.Tensor2D;
  const f = withGrad(([wsIn, wtIn, bIn], save) => {
    const hs = tf.reshape(tf.fused.matMul({ a: state, b: wsIn as tf.Tensor2D, bias: bIn }), [M, 1, H]);
    const ht = tf.reshape(tf.matMul(flat, wtIn as tf.Tensor2D), [M, J, H]);
    const y = tf.reshape(tf.relu(tf.add(ht, hs)), [M * J, H]) as tf.Tensor2D;
    save([y]);
    return {
      value: y,
      gradFunc: (dy, saved) => {
        const dz = activationGrad(dy as tf.Tensor2D, saved[0] as tf.Tensor2D, 'relu');
        const stateRepT = pre?.stateRepT ?? tf.transpose(tf.reshape(tf.tile(tf.reshape(state, [M, 1, state.shape[1]]), [1, J, 1]), [M * J, state.shape[1]]));
        const dWt = pre?.toolsT ? tf.matMul(pre.toolsT, dz) : weightGrad(flat, dz);
        return [tf.matMul(stateRepT, dz), dWt, columnSums(dz)];
      },
    };
  });
  return f(ws, wt, b);
}

/**
 * The per-batch transposes scorerInputLayer's gradient uses, built on the CPU from the batch's own
 * arrays (state [M, S], tools [M, J, D] row-major): toolsT [D, M·J] and stateRepT [S, M·J].
 * Built once per update and reused over μ epochs; no device op (tf.tile is slow on wasm).
 */
export function scorerTransposes(state: Float32Array, tools: Float32Array, M: number, J: number): ScorerTransposes {
  const S = state.length / M, D = tools.length / (M * J), R = M * J;
  const toolsT = new Float32Array(D * R), stateRepT = new Float32Array(S * R);
  for (let r = 0; r < R; r++) {
    for (let d = 0; d < D; d++) toolsT[d * R + r] = tools[r * D + d] as number;
    const m = Math.floor(r / J);
    for (let k = 0; k < S; k++) stateRepT[k * R + r] = state[m * S + k] as number;
  }
  return { toolsT: tf.tensor2d(toolsT, [D, R]), stateRepT: tf.tensor2d(stateRepT, [S, R]) };
}
