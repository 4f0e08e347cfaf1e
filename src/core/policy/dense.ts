// The policy's layers with hand-written gradients: a fused matMul + bias + ReLU forward, and weight and
// bias gradients xᵀ·dz and Σ dz without tfjs's transposed matmuls (slow on wasm, docs/BENCHMARKS.md):
// on wasm one kernel of our own (kernels/wasmKernels.ts) reading x and dz in place, in XNNPACK's order
// (bit for bit); elsewhere plain matMuls of explicitly transposed operands and ones·dz. The values are
// those of tf.relu(tf.add(tf.matMul(x, W), b)) and its autodiff gradient (test/dense.test.ts).

import * as tf from '@tensorflow/tfjs-core';
import { canRunDense, canRunGatheredWeightGrad, canRunWeightGrad, denseKernel, reluGradKernel, wasmKernelsReady,
  weightGradKernel } from '../kernels/wasmKernels';

type Act = 'relu' | 'linear';

/**
 * act(a·b + bias) as one fused kernel. tf.fused.matMul falls back to three (matMul, add, relu)
 * whenever a gradient tape records, as it does in these layers' forward under variableGrads; the
 * fused kernel is right there, since the gradient is the layer's own gradFunc (measured: 0.27 ms
 * of the two extra passes per layer at 4352 × 64). On wasm, our kernel (the same values).
 */
function fusedDense(a: tf.Tensor2D, b: tf.Tensor2D, bias: tf.Tensor, act: Act): tf.Tensor2D {
  const [M, K] = a.shape, N = b.shape[1];
  if (canRunDense(N, act === 'linear')) return denseKernel(a, b, bias, act === 'relu');
  const inputs = { a: tf.reshape(a, [1, M, K]), b: tf.reshape(b, [1, K, N]), bias } as unknown as tf.NamedTensorMap;
  const out = tf.engine().runKernel('_FusedMatMul', inputs,
    { transposeA: false, transposeB: false, activation: act } as unknown as tf.NamedAttrMap) as tf.Tensor;
  return tf.reshape(out, [M, N]);
}

type Grad = (dy: tf.Tensor, saved: tf.Tensor[]) => tf.Tensor[];

/** tf.customGrad with the inputs as an array (tfjs passes them, then `save`, as arguments). */
function withGrad(f: (inputs: tf.Tensor[], save: tf.GradSaveFunc) => { value: tf.Tensor; gradFunc: Grad }): (...inputs: tf.Tensor[]) => tf.Tensor2D {
  const g = tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => f(args.slice(0, -1) as tf.Tensor[], args[args.length - 1] as tf.GradSaveFunc));
  return (...inputs) => g(...inputs) as tf.Tensor2D;
}

/**
 * Hands a layer's gradient the tensors it needs: its `inputs` and the `made` tensors its forward
 * computed. Without `kept`, customGrad's save(), which copies each one (the forward runs in a tidy
 * that disposes what it made). With `kept` (a training forward under variableGrads), the tensors
 * themselves: the made ones kept past that tidy and listed in `kept`, which the caller disposes
 * after the backward pass; the inputs as they are — the caller's, or an earlier layer's made
 * ones, kept the same way. No copies (about 0.7 ms an iteration of P × 64 copies on wasm).
 */
export function stash(save: tf.GradSaveFunc, kept: tf.Tensor[] | undefined, inputs: tf.Tensor[], made: tf.Tensor[]): (saved: tf.Tensor[]) => tf.Tensor[] {
  if (!kept) {
    save([...inputs, ...made]);
    return (saved) => saved;
  }
  for (const t of made) kept.push(tf.keep(t));
  const all = [...inputs, ...made];
  return () => all;
}

/** dz = dy · relu'(z), given the layer's output y = relu(z) (relu'(z) = 1 where y > 0); on wasm one kernel of our own (the same values). */
function activationGrad(dy: tf.Tensor2D, y: tf.Tensor2D, act: Act): tf.Tensor2D {
  if (act !== 'relu') return dy;
  return wasmKernelsReady() ? reluGradKernel(dy, y) : tf.mul(dy, tf.step(y));
}

/** Σ over rows of dz [R, H] as ones[1, R]·dz (a matmul instead of a transpose and a reduce). */
function columnSums(dz: tf.Tensor2D): tf.Tensor1D {
  return tf.reshape(tf.matMul(tf.ones([1, dz.shape[0]]) as tf.Tensor2D, dz), [dz.shape[1]]);
}

/**
 * A layer's weight and bias gradients, [xᵀ·dz [K, H], Σ_p dz [H]]: on wasm our kernel; elsewhere
 * xᵀ·dz with dz as the right operand (on tfjs-wasm the one repacked for XNNPACK, which the bias
 * gradient's ones·dz then reuses; a transpose of x costs less than repacking x would — measured at
 * R = 4032 rows for an output layer of one column: dzᵀ·x 1.4 ms, xᵀ·dz 0.35 ms).
 */
function weightAndBiasGrads(x: tf.Tensor2D, dz: tf.Tensor2D): [tf.Tensor2D, tf.Tensor1D] {
  if (canRunWeightGrad(dz.shape[1])) return weightGradKernel(x, dz);
  return [tf.matMul(transpose2d(x), dz), columnSums(dz)];
}

/**
 * xᵀ of a tall [R, C] activation. On wasm, tfjs's rank-2 transpose takes twice as long as the same
 * permutation written as [R, 4, C/4] → [4, C/4, R] (measured at [2816, 64] on fresh tensors: 487
 * against 232 µs; 8 × 8 or 2 × 32 splits land within 10% of it); other backends keep their own
 * rank-2 kernel (WebGPU's is a tiled shared-memory one).
 */
export function transpose2d(x: tf.Tensor2D): tf.Tensor2D {
  const [R, C] = x.shape;
  if (tf.getBackend() !== 'wasm' || C % 4 !== 0 || R < 64) return tf.transpose(x);
  return tf.reshape(tf.transpose(tf.reshape(x, [R, 4, C / 4]), [1, 2, 0]), [C, R]);
}

/** act(x·W + b) for a layer whose input x is data (no gradient flows into x): gradients for W and b (`kept`: see stash). */
export function inputLayer(x: tf.Tensor2D, w: tf.Variable, b: tf.Variable, act: Act, kept?: tf.Tensor[]): tf.Tensor2D {
  const f = withGrad(([wIn, bIn], save) => {
    const y = fusedDense(x, wIn as tf.Tensor2D, bIn, act);
    const saved = stash(save, kept, [], [y]);
    return {
      value: y,
      gradFunc: (dy, copies) => {
        const dz = activationGrad(dy as tf.Tensor2D, saved(copies)[0] as tf.Tensor2D, act);
        return weightAndBiasGrads(x, dz);
      },
    };
  });
  return f(w, b);
}

/** act(x·W + b) with gradients for x, W and b (`kept`: see stash). */
export function hiddenLayer(x: tf.Tensor2D, w: tf.Variable, b: tf.Variable, act: Act, kept?: tf.Tensor[]): tf.Tensor2D {
  const f = withGrad(([xIn, wIn, bIn], save) => {
    const y = fusedDense(xIn as tf.Tensor2D, wIn as tf.Tensor2D, bIn, act);
    const saved = stash(save, kept, [xIn as tf.Tensor, wIn as tf.Tensor], [y]);
    return {
      value: y,
      gradFunc: (dy, copies) => {
        const [xs, ws, ys] = saved(copies) as [tf.Tensor2D, tf.Tensor2D, tf.Tensor2D];
        const dz = activationGrad(dy as tf.Tensor2D, ys, act);
        const H = ws.shape[1];
        // dz·Wᵀ; for a single output column this is an outer product, cheaper as a broadcast multiply.
        const dx = H === 1 ? tf.mul(dz, tf.reshape(ws, [1, ws.shape[0]])) : canRunDense(ws.shape[0])
          ? denseKernel(dz, tf.transpose(ws), null, false) : tf.matMul(dz, tf.transpose(ws));
        return [dx, ...weightAndBiasGrads(xs, dz)];
      },
    };
  });
  return f(x, w, b);
}

/**
 * The scorer's first layer over P packed (decision, tool) pairs (pairs.ts): relu(tool·W_t + s·W_s + b)
 * for pair p of decision r(p), with the state part s·W_s + b computed once per decision and
 * gathered to its pairs (gatherND). `pairInputs` may carry [tool ⊕ state ⊕ 1] of each pair,
 * [P, D + S + 1] (put together once per update, pairs.ts, where the kernels of our own do not run):
 * then the gradients of W_t, W_s and b are one product, (dzᵀ·pairInputs)ᵀ, whose right operand
 * XNNPACK packs once for μ epochs (a transpose of dz costs less than packing it: measured on wasm at
 * P = 3520, 0.94 against 1.45 ms for pairInputsᵀ·dz); without it, the states are gathered to the
 * pairs. On wasm our kernel reads each pair's state in place instead (the same sums in the same order).
 * No scatter in either direction (see pairs.ts).
 */
export function pairInputLayer(state: tf.Tensor2D, tools: tf.Tensor2D, pairRow: tf.Tensor2D, wt: tf.Variable,
  ws: tf.Variable, b: tf.Variable, pairInputs?: tf.Tensor2D, kept?: tf.Tensor[]): tf.Tensor2D {
  const D = wt.shape[0] as number, S = ws.shape[0] as number, H = wt.shape[1] as number;
  const f = withGrad(([wtIn, wsIn, bIn], save) => {
    const hs = fusedDense(state, wsIn as tf.Tensor2D, bIn as tf.Tensor, 'linear');
    const y = canRunDense(H)
      ? denseKernel(tools, wtIn as tf.Tensor2D, null, true, { rows: hs, rowIdx: pairRow }) // one pass on wasm, the same values
      : (tf.relu(tf.add(tf.matMul(tools, wtIn as tf.Tensor2D), tf.gatherND(hs, pairRow))) as tf.Tensor2D);
    const saved = stash(save, kept, [], [y]);
    return {
      value: y,
      gradFunc: (dy, copies) => {
        const dz = activationGrad(dy as tf.Tensor2D, saved(copies)[0] as tf.Tensor2D, 'relu');
        if (canRunGatheredWeightGrad(H)) {
          // On wasm: W_s's gradient reads each pair's state where it lies (rows = pairRow), nothing gathered.
          const [dWt, db] = weightGradKernel(tools, dz);
          return [dWt, weightGradKernel(state, dz, false, pairRow)[0], db];
        }
        if (!pairInputs) {
          const [dWt, db] = weightAndBiasGrads(tools, dz);
          return [dWt, weightAndBiasGrads(tf.gatherND(state, pairRow) as tf.Tensor2D, dz)[0], db];
        }
        // [D + S + 1, H]: W_t's gradient, W_s's, then Σ_p dz = b's
        const g = tf.transpose(tf.matMul(transpose2d(dz), pairInputs));
        return [tf.slice(g, [0, 0], [D, H]), tf.slice(g, [D, 0], [S, H]), tf.reshape(tf.slice(g, [D + S, 0], [1, H]), [H])];
      },
    };
  });
  return f(wt, ws, b);
}

/**
 * Places V scores in the M·A logits by the inverse index `source` (int32 [M·A, 1]: a score's
 * index, or V for a logit no score reaches, which gets 0). The gradient gathers each score's
 * logit back by `slots` (int32 [V, 1]; M·A, past the end, for a padding score, which gets 0). A
 * gather both ways: tfjs has no gradient for scatterND, and WebGL runs scatterND as a loop over
 * every update for every output element.
 */
export function placeScores(values: tf.Tensor1D, source: tf.Tensor2D, slots: tf.Tensor2D): tf.Tensor1D {
  const zero = () => tf.zeros([1]);
  const f = withGrad(([v]) => ({
    value: tf.gatherND(tf.concat([v as tf.Tensor1D, zero()]), source),
    gradFunc: (dy) => [tf.gatherND(tf.concat([dy as tf.Tensor1D, zero()]), slots)],
  }));
  return f(values) as unknown as tf.Tensor1D;
}
