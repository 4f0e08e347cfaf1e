// The policy's forward pass as WGSL kernels of our own on WebGPU: one dispatch per layer level where
// tfjs runs a matMul, an add and a ReLU per layer, and a gather, a concat and an add to place the
// scores. The levels are: the decisions' layer (the scorer's state part s·W_s + b and the submit
// head's first layer, in one dispatch), the pairs' first layer relu(tool·W_t + its decision's state
// part), each hidden level (scorer pairs and submit rows in one dispatch), then the logits (a rollout
// turn) or the loss (an update, webgpuTraining.ts). Activations go to one workspace tensor
// (webgpuLayout.ts). An invocation computes a block of RB rows × 4 units, reading each weight vec4
// once for RB rows (on the software adapter this blocking is what makes the arithmetic fast). The sums
// run in k order, not tfjs's, so values agree with tfjs's within float rounding (e2e/webgpu.spec.ts).

import * as tf from '@tensorflow/tfjs-core';
import { deviceTensor, KernelProgram, runProgram, type Uniform } from './webgpuKernels';
import { GRAD_CHUNKS, layoutWgsl, workspaceRegions, type NetDims } from './webgpuLayout';

/** Rows per invocation of a dense level. */
export const RB = 8;

/** vec4s of units per invocation of a dense level: 2 where the width allows (8 units), else 1. */
export const unitBlock = (H: number) => (H % 8 === 0 ? 2 : 1);

/** WGSL: the dimensions, the weights' offsets (floats) and the workspace's regions, for `d` (`params`: the weights are bound). */
export function prelude(d: NetDims, params = true): string {
  const L = d.layout;
  const consts: [string, number][] = [
    ['S', d.S], ['D', d.D], ['H', d.H], ['H4', d.H / 4], ['L', d.L], ['A', d.A], ['J', d.A - 1], ['RB', RB], ['COLS', d.cols],
    ['UB', unitBlock(d.H)], ['NU', d.H / 4 / unitBlock(d.H)], ['PADDED', L.padded], ['CHUNKS', GRAD_CHUNKS],
    ['SC_WS', L.at('scorer/l0/state')], ['SC_WT', L.at('scorer/l0/tool')], ['SC_B0', L.at('scorer/l0/bias')],
    ['SC_WO', L.at('scorer/out/kernel')], ['SC_BO', L.at('scorer/out/bias')],
    ['SU_W0', L.at('submit/l0/kernel')], ['SU_B0', L.at('submit/l0/bias')],
    ['SU_WO', L.at('submit/out/kernel')], ['SU_BO', L.at('submit/out/bias')],
  ];
  for (let l = 1; l < d.L; l++) {
    consts.push([`SC_W${l}`, L.at(`scorer/l${l}/kernel`)], [`SC_B${l}`, L.at(`scorer/l${l}/bias`)]);
    consts.push([`SU_W${l}`, L.at(`submit/l${l}/kernel`)], [`SU_B${l}`, L.at(`submit/l${l}/bias`)]);
  }
  return `${consts.map(([k, v]) => `const ${k} : i32 = ${v};`).join('\n')}
    ${params ? `fn p4(i : i32) -> vec4<f32> { return params[i / 4]; }
    fn p1(i : i32) -> f32 { return params[i / 4][i % 4]; }` : ''}
    fn relu4(v : vec4<f32>) -> vec4<f32> { return select(v, vec4<f32>(0.0), v < vec4<f32>(0.0)); }
    ${layoutWgsl()}`;
}

/** The key of everything prelude() bakes in. */
export const dimsKey = (d: NetDims) => `S${d.S}D${d.D}H${d.H}L${d.L}A${d.A}C${d.cols}`;

/** The uniforms every level takes: decision rows M, pairs P (computed), the pairs' bucket Pb (the workspace's). */
export const shapeUniforms = (M: number, P: number, Pb: number): Uniform[] => [['M', 'i32', M], ['P', 'i32', P], ['Pb', 'i32', Pb]];

/**
 * WGSL: acc{i}_{v} = Σ_{k < K} x(r_i, k) · W[k, units of vec4 group u·UB + v] for the block's rows r_i
 * (clamped to `last`, so a block past the end reads valid rows; the caller writes only rows that
 * exist) and the invocation's UB vec4 groups. `x` gives the input's expression for row variable `r`
 * and the loop's `k`; `w` is the weight's float offset.
 */
export function denseBlock(d: NetDims, K: string, x: (r: string) => string, w: string, first: string, last: string): string {
  const q = Array.from({ length: RB }, (_, i) => i), v = Array.from({ length: unitBlock(d.H) }, (_, i) => i);
  return `${q.map((i) => `let r${i} = min(${first} + ${i}, ${last}); ${v.map((j) => `var acc${i}_${j} = vec4<f32>(0.0);`).join(' ')}`).join('\n')}
    for (var k = 0; k < ${K}; k++) {
      ${v.map((j) => `let wk${j} = p4(${w} + k * H + 4 * (u * UB + ${j}));`).join(' ')}
      ${q.map((i) => `{ let xk = ${x(`r${i}`)}; ${v.map((j) => `acc${i}_${j} = acc${i}_${j} + xk * wk${j};`).join(' ')} }`).join('\n')}
    }`;
}

/** For each of the block's rows that exist (row < `count`) and each vec4 group v, `write(i, v)` (WGSL using acc{i}_{v}, r{i} and unit 4·(u·UB + v)). */
export function forBlock(d: NetDims, first: string, count: string, write: (i: number, v: number, unit: string) => string): string {
  const v = Array.from({ length: unitBlock(d.H) }, (_, j) => j);
  return Array.from({ length: RB }, (_, i) => `if (${first} + ${i} < ${count}) { ${v.map((j) => write(i, j, `4 * (u * UB + ${j})`)).join(' ')} }`).join('\n');
}

/** WGSL: writes v (a vec4) to result[o…o+3]. */
export const store4 = (o: string, v: string) => `{ let o_ = ${o}; let v_ = ${v}; result[o_] = v_.x; result[o_ + 1] = v_.y; result[o_ + 2] = v_.z; result[o_ + 3] = v_.w; }`;

/** WGSL: reads a row's four units from the workspace (`ws`: result, or an input) at float offset o. */
export const load4 = (ws: string, o: string) => `vec4<f32>(${ws}[${o}], ${ws}[${o} + 1], ${ws}[${o} + 2], ${ws}[${o} + 3])`;

/** The tensors a forward reads: the decisions' states (row stride d.cols), the pairs' tools and rows, the weights. */
export interface ForwardInputs {
  params: tf.TensorInfo;
  states: tf.TensorInfo;
  tools: tf.TensorInfo;
  pairRow: tf.TensorInfo;
}

/**
 * The decisions' level: hs = s·W_s + b (the scorer's state part, no activation) and the submit head's
 * first layer relu(s·W + b), for M decisions; then the pairs' first layer relu(tool·W_t + hs[row]).
 */
function firstLevels(d: NetDims, x: ForwardInputs, ws: tf.TensorInfo, M: number, P: number, Pb: number): void {
  const key = dimsKey(d), pre = prelude(d), NU = d.H / 4 / unitBlock(d.H);
  const blocksM = Math.ceil(M / RB), blocksP = Math.ceil(P / RB);
  runProgram(new KernelProgram(`fwd-decisions_${key}`, ['params', 'states'], [4, 1], blocksM * 2 * NU, shapeUniforms(M, P, Pb), `
    let blk = index / (2 * NU); let u2 = index % (2 * NU);
    let scorer = u2 < NU; let u = select(u2 - NU, u2, scorer);
    let f0 = blk * RB;
    let w = select(SU_W0, SC_WS, scorer); let b = select(SU_B0, SC_B0, scorer);
    ${denseBlock(d, 'S', (r) => `states[${r} * COLS + k]`, 'w', 'f0', 'uniforms.M - 1')}
    ${forBlock(d, 'f0', 'uniforms.M', (i, v, unit) => `{ let z = acc${i}_${v} + p4(b + ${unit});
      if (scorer) { ${store4(`HS() + r${i} * H + ${unit}`, 'z')} } else { ${store4(`ACT(0) + (uniforms.Pb + r${i}) * H + ${unit}`, 'relu4(z)')} } }`)}
  `, pre), [x.params, x.states], ws);
  if (P === 0) return;
  runProgram(new KernelProgram(`fwd-pairs0_${key}`, ['params', 'tools', 'pairRow'], [4, 1, 1], blocksP * NU, shapeUniforms(M, P, Pb), `
    let blk = index / NU; let u = index % NU;
    let f0 = blk * RB;
    ${denseBlock(d, 'D', (r) => `tools[${r} * D + k]`, 'SC_WT', 'f0', 'uniforms.P - 1')}
    ${forBlock(d, 'f0', 'uniforms.P', (i, v, unit) => store4(`ACT(0) + r${i} * H + ${unit}`, `relu4(acc${i}_${v} + ${load4('result', `HS() + pairRow[r${i}] * H + ${unit}`)})`))}
  `, pre), [x.params, x.tools, x.pairRow], ws);
}

/** Hidden level l ≥ 1: relu(a·W_l + b_l) for the P scorer pairs and the M submit rows, in one dispatch. */
function hiddenLevel(d: NetDims, l: number, params: tf.TensorInfo, ws: tf.TensorInfo, M: number, P: number, Pb: number): void {
  const blocksP = Math.ceil(P / RB), blocks = blocksP + Math.ceil(M / RB), NU = d.H / 4 / unitBlock(d.H);
  runProgram(new KernelProgram(`fwd-hidden${l}_${dimsKey(d)}`, ['params'], [4], blocks * NU, [...shapeUniforms(M, P, Pb), ['blocksP', 'i32', blocksP]], `
    let blk = index / NU; let u = index % NU;
    let scorer = blk < uniforms.blocksP;
    let f0 = select((blk - uniforms.blocksP) * RB, blk * RB, scorer);
    let cnt = select(uniforms.M, uniforms.P, scorer);
    let bse = select(uniforms.Pb, 0, scorer); // submit rows follow the pair rows' bucket
    let w = select(SU_W${l}, SC_W${l}, scorer); let b = select(SU_B${l}, SC_B${l}, scorer);
    let fr = ACT(${l - 1}) + bse * H;
    ${denseBlock(d, 'H', (r) => `result[fr + ${r} * H + k]`, 'w', 'f0', 'cnt - 1')}
    ${forBlock(d, 'f0', 'cnt', (i, v, unit) => store4(`ACT(${l}) + (bse + r${i}) * H + ${unit}`, `relu4(acc${i}_${v} + p4(b + ${unit}))`))}
  `, prelude(d)), [params], ws);
}

/** Every level up to the last hidden one: the activations the logits and the backward pass read. */
export function forwardLevels(d: NetDims, x: ForwardInputs, ws: tf.TensorInfo, M: number, P: number, Pb: number): void {
  firstLevels(d, x, ws, M, P, Pb);
  for (let l = 1; l < d.L; l++) hiddenLevel(d, l, x.params, ws, M, P, Pb);
}

/**
 * WGSL: the score of logit (m, a) from the last hidden level (`ws`: where it is read from), as tfjs's
 * placeScores gives it before the mask bias: a pair's scorer output, the decision's submit output, or 0.
 */
export const scoreWgsl = (ws: string) => `
  fn score(m : i32, a : i32) -> f32 {
    let s = source[m * A + a];
    var row = -1; var w = SC_WO; var b = SC_BO;
    if (s < uniforms.Pb) { row = s; } else if (s < uniforms.Pb + uniforms.M) { row = uniforms.Pb + m; w = SU_WO; b = SU_BO; }
    if (row < 0) { return 0.0; }
    let fr = ACT(L - 1) + row * H;
    var acc = vec4<f32>(0.0);
    for (var j = 0; j < H4; j++) { acc = acc + ${load4(ws, 'fr + 4 * j')} * p4(w + 4 * j); }
    return (acc.x + acc.y + acc.z + acc.w) + p1(b);
  }`;

/** The logits [M, A] of a rollout turn: each (decision, action)'s score plus its mask bias. */
export function logitsLevel(d: NetDims, params: tf.TensorInfo, ws: tf.TensorInfo, source: tf.TensorInfo, bias: tf.TensorInfo,
  out: tf.TensorInfo, M: number, P: number, Pb: number): void {
  runProgram(new KernelProgram(`fwd-logits_${dimsKey(d)}`, ['params', 'ws', 'source', 'bias'], [4, 1, 1, 1], M * d.A, shapeUniforms(M, P, Pb), `
    let m = index / A; let a = index % A;
    result[index] = score(m, a) + bias[index];
  `, `${prelude(d)}\n${scoreWgsl('ws')}`), [params, ws, source, bias], out);
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

/** The logits [M, A] of a batch of decisions from the weights' flat copy `params` (call inside tf.tidy). */
export function forwardLogits(d: NetDims, params: tf.Tensor, x: DecisionTensors): tf.Tensor2D {
  const [M, A] = x.bias.shape, Pb = x.pairs.shape[0];
  const P = Math.min(Pb, x.pairCount ?? Pb);
  const ws = deviceTensor([workspaceRegions(d, M, Pb, 0).forward]);
  forwardLevels(d, { params, states: x.state, tools: x.pairs, pairRow: x.pairRow }, ws, M, P, Pb);
  const out = deviceTensor<tf.Rank.R2>([M, A]);
  logitsLevel(d, params, ws, x.source, x.bias, out, M, P, Pb);
  ws.dispose();
  return out;
}
