// The policy's forward pass as WGSL kernels of our own on WebGPU: one dispatch per layer level (the
// decisions' layer, the pairs' first layer, each hidden level, then the logits or the loss) where
// tfjs runs several ops per layer. Activations go to one workspace tensor (webgpuLayout.ts); dense
// levels use webgpuWgsl.ts's register-blocked loop. Sums run in k order, not tfjs's, so values agree
// with tfjs's within float rounding (e2e/webgpu.spec.ts).

import * as tf from '@tensorflow/tfjs-core';
import { deviceTensor, fitsOnDevice, KernelProgram, runProgram } from './webgpuKernels';
import { workspaceRegions, type NetDims } from './webgpuLayout';
import {
  batchUniforms, denseBlock, dimsKey, forBlock, load4, prelude, RB, store4, unitBlock, type Batch,
} from './webgpuWgsl';

/** What a forward reads: the weights' flat copy, the states (rows of d.cols floats), the pairs' tools and rows. */
export interface ForwardInputs {
  params: tf.TensorInfo;
  states: tf.TensorInfo;
  tools: tf.TensorInfo;
  pairRow: tf.TensorInfo;
}

/** Invocations per row block: the width's vec4 groups of UB. */
const groups = (d: NetDims) => d.H / 4 / unitBlock(d.H);

/**
 * The decisions' level: hs = s·W_s + b (the scorer's state part, no activation) and the submit head's
 * first layer relu(s·W + b), for the M decisions; then the pairs' first layer relu(tool·W_t + hs[row]).
 */
function firstLevels(d: NetDims, b: Batch, x: ForwardInputs, ws: tf.TensorInfo): void {
  const pre = prelude(d);
  const decisions = `
    let blk = index / (2 * NU); let u2 = index % (2 * NU);
    let scorer = u2 < NU; let u = select(u2 - NU, u2, scorer);
    let f0 = blk * RB;
    let w = select(SU_W0, SC_WS, scorer); let b = select(SU_B0, SC_B0, scorer);
    ${denseBlock(d, 'S', (r) => `states[${r} * COLS + k]`, 'w', 'f0', 'uniforms.M - 1')}
    ${forBlock(d, 'f0', 'uniforms.M', (i, v, unit) => `{ let z = acc${i}_${v} + p4(b + ${unit});
      if (scorer) { ${store4(`HS() + r${i} * H + ${unit}`, 'z')} }
      else { ${store4(`ACT(0) + (uniforms.Pb + r${i}) * H + ${unit}`, 'relu4(z)')} } }`)}`;
  const threadsM = Math.ceil(b.M / RB) * 2 * groups(d);
  const first = new KernelProgram(`fwd-decisions_${dimsKey(d)}`, ['params', 'states'], [4, 1], threadsM,
    batchUniforms(b), decisions, pre);
  runProgram(first, [x.params, x.states], ws);
  if (b.P === 0) return;
  const pairs = `
    let blk = index / NU; let u = index % NU;
    let f0 = blk * RB;
    ${denseBlock(d, 'D', (r) => `tools[${r} * D + k]`, 'SC_WT', 'f0', 'uniforms.P - 1')}
    ${forBlock(d, 'f0', 'uniforms.P', (i, v, unit) => {
      const hs = load4('result', `HS() + pairRow[r${i}] * H + ${unit}`);
      return store4(`ACT(0) + r${i} * H + ${unit}`, `relu4(acc${i}_${v} + ${hs})`);
    })}`;
  const threadsP = Math.ceil(b.P / RB) * groups(d);
  const second = new KernelProgram(`fwd-pairs0_${dimsKey(d)}`, ['params', 'tools', 'pairRow'], [4, 1, 1], threadsP,
    batchUniforms(b), pairs, pre);
  runProgram(second, [x.params, x.tools, x.pairRow], ws);
}

/** Hidden level l ≥ 1: relu(a·W_l + b_l) for the P scorer pairs and the M submit rows, in one dispatch. */
function hiddenLevel(d: NetDims, b: Batch, l: number, params: tf.TensorInfo, ws: tf.TensorInfo): void {
  const blocksP = Math.ceil(b.P / RB), blocks = blocksP + Math.ceil(b.M / RB);
  const body = `
    let blk = index / NU; let u = index % NU;
    let scorer = blk < uniforms.blocksP;
    let f0 = select((blk - uniforms.blocksP) * RB, blk * RB, scorer);
    let cnt = select(uniforms.M, uniforms.P, scorer);
    let bse = select(uniforms.Pb, 0, scorer); // the submit rows follow the pair rows' bucket
    let w = select(SU_W${l}, SC_W${l}, scorer); let b = select(SU_B${l}, SC_B${l}, scorer);
    let fr = ACT(${l - 1}) + bse * H;
    ${denseBlock(d, 'H', (r) => `result[fr + ${r} * H + k]`, 'w', 'f0', 'cnt - 1')}
    ${forBlock(d, 'f0', 'cnt', (i, v, unit) =>
      store4(`ACT(${l}) + (bse + r${i}) * H + ${unit}`, `relu4(acc${i}_${v} + p4(b + ${unit}))`))}`;
  const program = new KernelProgram(`fwd-hidden${l}_${dimsKey(d)}`, ['params'], [4], blocks * groups(d),
    [...batchUniforms(b), ['blocksP', 'i32', blocksP]], body, prelude(d));
  runProgram(program, [params], ws);
}

/** Every level up to the last hidden one: the activations the logits and the backward pass read. */
export function forwardLevels(d: NetDims, b: Batch, x: ForwardInputs, ws: tf.TensorInfo): void {
  firstLevels(d, b, x, ws);
  for (let l = 1; l < d.L; l++) hiddenLevel(d, b, l, x.params, ws);
}

/**
 * WGSL: score(m, a), the score of logit (m, a) from the last hidden level (`ws`: where it is read from),
 * as tfjs's placeScores gives it before the mask bias: a pair's scorer output, the decision's submit
 * output, or 0 for a masked tool. Needs the `source` binding.
 */
export const scoreWgsl = (ws: string) => `
  fn score(m : i32, a : i32) -> f32 {
    let s = source[m * A + a];
    var row = -1; var w = SC_WO; var b = SC_BO;
    if (s < uniforms.Pb) { row = s; }
    else if (s < uniforms.Pb + uniforms.M) { row = uniforms.Pb + m; w = SU_WO; b = SU_BO; }
    if (row < 0) { return 0.0; }
    let fr = ACT(L - 1) + row * H;
    var acc = vec4<f32>(0.0);
    for (var j = 0; j < H4; j++) { acc = acc + ${load4(ws, 'fr + 4 * j')} * p4(w + 4 * j); }
    return (acc.x + acc.y + acc.z + acc.w) + p1(b);
  }`;

/** The logits [M, A] of a rollout turn, into `out`: each (decision, action)'s score plus its mask bias. */
export function logitsLevel(d: NetDims, b: Batch, params: tf.TensorInfo, ws: tf.TensorInfo, source: tf.TensorInfo,
  bias: tf.TensorInfo, out: tf.TensorInfo): void {
  const body = `let m = index / A; let a = index % A; result[index] = score(m, a) + bias[index];`;
  const program = new KernelProgram(`fwd-logits_${dimsKey(d)}`, ['params', 'ws', 'source', 'bias'], [4, 1, 1, 1],
    b.M * d.A, batchUniforms(b), body, `${prelude(d)}\n${scoreWgsl('ws')}`);
  runProgram(program, [params, ws, source, bias], out);
}

/** A batch of decisions as the policy's forward takes it (pairs.ts's PolicyInput). */
export interface DecisionTensors {
  state: tf.Tensor2D;
  pairs: tf.Tensor2D;
  pairRow: tf.Tensor2D;
  source: tf.Tensor2D;
  bias: tf.Tensor2D;
  /** Allowed pairs before the bucket's padding (all of `pairs` when absent). */
  pairCount?: number;
}

/**
 * The logits [M, A] of a batch of decisions from the weights' flat copy (`params`: made when needed;
 * call inside tf.tidy), or null when the workspace would not fit the device.
 */
export function forwardLogits(d: NetDims, params: () => tf.Tensor, x: DecisionTensors): tf.Tensor2D | null {
  const [M, A] = x.bias.shape, Pb = x.pairs.shape[0];
  const b: Batch = { M, P: Math.min(Pb, x.pairCount ?? Pb), Pb };
  const size = workspaceRegions(d, M, Pb, 0).forward;
  if (!fitsOnDevice(size)) return null;
  const ws = deviceTensor([size]);
  const flat = params();
  forwardLevels(d, b, { params: flat, states: x.state, tools: x.pairs, pairRow: x.pairRow }, ws);
  const out = deviceTensor<tf.Rank.R2>([M, A]);
  logitsLevel(d, b, flat, ws, x.source, x.bias, out);
  ws.dispose();
  return out;
}
