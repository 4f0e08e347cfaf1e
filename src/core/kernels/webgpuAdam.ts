// The end of an update epoch and of an update, as WGSL kernels of our own on WebGPU: the epoch's
// statistics (loss.ts's LOSS_TERMS sums and the gradient's global norm, one STATS_ROW), FlatAdam's
// clipped step over the flat padded [weights | m | v] (flatAdam.ts's expressions in its order), and
// the update's single readback (every epoch's row, the non-finite count and, when asked, the
// weights). The gradient is the sum of the backward kernels' chunks (webgpuTraining.ts), in order.

import * as tf from '@tensorflow/tfjs-core';
import type { AdamScalars } from './wasmKernels';
import { KernelProgram, runProgram, type Uniform } from './webgpuKernels';
import type { NetDims } from './webgpuLayout';
import { batchUniforms, dimsKey, load4, prelude, store4, type Batch } from './webgpuWgsl';

/** Values per epoch in the readback: the loss terms, then the gradient norm (trainer.ts's ROW). */
export const STATS_ROW = 8;

/** Invocations of the one-workgroup kernels. */
const WG = 256;

/** WGSL: `red` (shared) reduced in place by a tree over the workgroup; `combine(a, b)` folds slot b into slot a. */
const treeReduce = (combine: string) => `
    workgroupBarrier();
    for (var s = ${WG / 2}; s > 0; s = s / 2) {
      if (index < s) { ${combine} }
      workgroupBarrier();
    }`;

/** The epoch's row of `stats` (at STATS_ROW · epoch) from the workspace's loss terms and gradient. */
export function epochStats(d: NetDims, b: Batch, ws: tf.TensorInfo, stats: tf.TensorInfo, epoch: number,
  c: { beta: number; entropyCoef: number }): void {
  const u: Uniform[] = [
    ...batchUniforms(b), ['epoch', 'i32', epoch], ['beta', 'f32', c.beta], ['entropyCoef', 'f32', c.entropyCoef],
  ];
  const body = `
    var v : array<f32, 8>;
    v[4] = 3.402823e38; v[5] = -3.402823e38;
    for (var m = index; m < uniforms.M; m = m + ${WG}) {
      let o = TERMS() + 8 * m;
      v[0] = v[0] + ws[o]; v[1] = v[1] + ws[o + 1]; v[2] = v[2] + ws[o + 2]; v[3] = v[3] + ws[o + 3];
      v[4] = min(v[4], ws[o + 4]); v[5] = max(v[5], ws[o + 4]);
    }
    for (var i = index; i < PADDED; i = i + ${WG}) {
      var g = 0.0;
      for (var c = 0; c < CHUNKS; c++) { g = g + ws[GRAD(c) + i]; }
      v[6] = v[6] + g * g;
    }
    for (var k = 0; k < 8; k++) { red[index * 8 + k] = v[k]; }
    ${treeReduce(`let a = index * 8; let b = (index + s) * 8;
      for (var k = 0; k < 4; k++) { red[a + k] = red[a + k] + red[b + k]; }
      red[a + 4] = min(red[a + 4], red[b + 4]); red[a + 5] = max(red[a + 5], red[b + 5]);
      red[a + 6] = red[a + 6] + red[b + 6];`)}
    if (index == 0) {
      let o = ${STATS_ROW} * uniforms.epoch;
      result[o] = (red[0] + uniforms.beta * red[1]) - uniforms.entropyCoef * red[2];
      for (var k = 0; k < 6; k++) { result[o + 1 + k] = red[k]; }
      result[o + 7] = sqrt(red[6]);
    }`;
  const program = new KernelProgram(`stats_${dimsKey(d)}`, ['ws'], [1], WG, u, body,
    `${prelude(d, false)}\nvar<workgroup> red : array<f32, ${8 * WG}>;`, WG, false);
  runProgram(program, [ws], stats);
}

/** One clipped Adam step of `state` = [weights | m | v] (d.layout.padded floats each), in place, from the gradient. */
export function adamStep(d: NetDims, b: Batch, ws: tf.TensorInfo, stats: tf.TensorInfo, state: tf.TensorInfo,
  epoch: number, c: AdamScalars): void {
  const u: Uniform[] = [
    ...batchUniforms(b), ['epoch', 'i32', epoch], ['maxNorm', 'f32', c.maxNorm],
    ['b1', 'f32', c.beta1], ['omb1', 'f32', 1 - c.beta1], ['b2', 'f32', c.beta2], ['omb2', 'f32', 1 - c.beta2],
    ['bc1', 'f32', c.biasCorrection1], ['bc2', 'f32', c.biasCorrection2], ['eps', 'f32', c.epsilon],
    ['negLr', 'f32', -c.learningRate],
  ];
  const body = `
    let norm = stats[${STATS_ROW} * uniforms.epoch + 7];
    var sum = vec4<f32>(0.0);
    for (var c = 0; c < CHUNKS; c++) { sum = sum + ws[GRAD(c) / 4 + index]; }
    let g = sum * min(1.0, uniforms.maxNorm / (norm + 1e-6));
    let m = ${load4('result', 'PADDED + 4 * index')} * uniforms.b1 + g * uniforms.omb1;
    let v = ${load4('result', '2 * PADDED + 4 * index')} * uniforms.b2 + (g * g) * uniforms.omb2;
    let step = ((m / uniforms.bc1) / (sqrt(v / uniforms.bc2) + uniforms.eps)) * uniforms.negLr;
    ${store4('PADDED + 4 * index', 'm')}
    ${store4('2 * PADDED + 4 * index', 'v')}
    ${store4('4 * index', `step + ${load4('result', '4 * index')}`)}`;
  const program = new KernelProgram(`adam_${dimsKey(d)}`, ['ws', 'stats'], [4, 1], d.layout.padded / 4, u, body,
    prelude(d, false));
  runProgram(program, [ws, stats], state);
}

/**
 * The update's readback into `out`: the `epochs` rows of `stats`, the number of non-finite weights in
 * `state`, then (withWeights) the weights in their plain concatenation.
 */
export function updateReadback(d: NetDims, state: tf.TensorInfo, stats: tf.TensorInfo, out: tf.TensorInfo,
  epochs: number, withWeights: boolean): void {
  const { offsets, sizes } = d.layout;
  let real = 0;
  const tensors = offsets.map((o, i) => {
    const line = `{ let o = ${o}; let s = ${sizes[i]}; let r = ${real};
      for (var i = index; i < s; i = i + ${WG}) {
        let x = state[o + i];
        if ((bitcast<u32>(x) & 0x7f800000u) == 0x7f800000u) { bad = bad + 1.0; }
        if (uniforms.withWeights != 0) { result[base + r + i] = x; }
      } }`;
    real += sizes[i] as number;
    return line;
  });
  const body = `
    let base = ${STATS_ROW} * uniforms.epochs + 1;
    var bad = 0.0;
    ${tensors.join('\n')}
    red[index] = bad;
    ${treeReduce('red[index] = red[index] + red[index + s];')}
    if (index == 0) { result[base - 1] = red[0]; }
    for (var i = index; i < base - 1; i = i + ${WG}) { result[i] = stats[i]; }`;
  const u: Uniform[] = [['epochs', 'i32', epochs], ['withWeights', 'i32', withWeights ? 1 : 0]];
  const program = new KernelProgram(`readback_${dimsKey(d)}`, ['state', 'stats'], [1, 1], WG, u, body,
    `var<workgroup> red : array<f32, ${WG}>;`, WG, false);
  runProgram(program, [state, stats], out);
}
