// WGSL building blocks shared by the lab's WebGPU kernels (webgpuForward.ts, webgpuTraining.ts,
// webgpuAdam.ts): the constants a shader is built for (the policy's shape and its weights' offsets in
// the flat layout, webgpuParams.ts), the workspace's regions (webgpuLayout.ts), and the register-
// blocked inner loop of a dense level. That loop gives an invocation RB rows × UB·4 units and reads
// each weight vec4 once for its RB rows: on Chromium's software adapter this blocking is what makes
// the arithmetic run at the speed of a large matmul rather than a few times slower.

import type { Uniform } from './webgpuKernels';
import { GRAD_CHUNKS, layoutWgsl, type NetDims } from './webgpuLayout';

/** Rows per invocation of a dense level. */
export const RB = 8;

/** vec4s of units per invocation of a dense level: 2 where the width allows (8 units), else 1. */
export const unitBlock = (H: number) => (H % 8 === 0 ? 2 : 1);

/** The rows of a batch: M decisions, P allowed pairs computed, and Pb, the pairs' bucket (the workspace's rows). */
export interface Batch { M: number; P: number; Pb: number }

/** The uniforms of a batch, which every kernel takes first. */
export const batchUniforms = (b: Batch): Uniform[] => [['M', 'i32', b.M], ['P', 'i32', b.P], ['Pb', 'i32', b.Pb]];

/** The key of everything prelude() bakes in. */
export const dimsKey = (d: NetDims) => `S${d.S}D${d.D}H${d.H}L${d.L}A${d.A}C${d.cols}`;

/**
 * WGSL at module scope: the dimensions and the weights' offsets (floats) as constants, the workspace's
 * regions, and, with `params` (the weights bound as vec4s), p4/p1 to read them.
 */
export function prelude(d: NetDims, params = true): string {
  const at = (name: string) => d.layout.at(name);
  const consts: [string, number][] = [
    ['S', d.S], ['D', d.D], ['H', d.H], ['H4', d.H / 4], ['L', d.L], ['A', d.A], ['J', d.A - 1], ['COLS', d.cols],
    ['RB', RB], ['UB', unitBlock(d.H)], ['NU', d.H / 4 / unitBlock(d.H)], ['PADDED', d.layout.padded],
    ['CHUNKS', GRAD_CHUNKS],
    ['SC_WS', at('scorer/l0/state')], ['SC_WT', at('scorer/l0/tool')], ['SC_B0', at('scorer/l0/bias')],
    ['SC_WO', at('scorer/out/kernel')], ['SC_BO', at('scorer/out/bias')],
    ['SU_W0', at('submit/l0/kernel')], ['SU_B0', at('submit/l0/bias')],
    ['SU_WO', at('submit/out/kernel')], ['SU_BO', at('submit/out/bias')],
  ];
  for (let l = 1; l < d.L; l++) {
    consts.push([`SC_W${l}`, at(`scorer/l${l}/kernel`)], [`SC_B${l}`, at(`scorer/l${l}/bias`)]);
    consts.push([`SU_W${l}`, at(`submit/l${l}/kernel`)], [`SU_B${l}`, at(`submit/l${l}/bias`)]);
  }
  const reads = `fn p4(i : i32) -> vec4<f32> { return params[i / 4]; }
    fn p1(i : i32) -> f32 { return params[i / 4][i % 4]; }`;
  return `${consts.map(([k, v]) => `const ${k} : i32 = ${v};`).join('\n')}
    ${params ? reads : ''}
    fn relu4(v : vec4<f32>) -> vec4<f32> { return select(v, vec4<f32>(0.0), v < vec4<f32>(0.0)); }
    fn step4(y : vec4<f32>) -> vec4<f32> {
      return select(select(vec4<f32>(0.0), vec4<f32>(1.0), y > vec4<f32>(0.0)), y, isnanVec4(y));
    }
    ${layoutWgsl()}`;
}

/** WGSL: writes v (a vec4) to result[o…o+3]. */
export const store4 = (o: string, v: string) => `{ let o_ = ${o}; let v_ = ${v};
  result[o_] = v_.x; result[o_ + 1] = v_.y; result[o_ + 2] = v_.z; result[o_ + 3] = v_.w; }`;

/** WGSL: four floats of a buffer (`ws`: result, or an input) from float offset o, as a vec4. */
export const load4 = (ws: string, o: string) =>
  `vec4<f32>(${ws}[${o}], ${ws}[${o} + 1], ${ws}[${o} + 2], ${ws}[${o} + 3])`;

/** [0, 1, …, n − 1]. */
export const upTo = (n: number) => Array.from({ length: n }, (_, i) => i);

/** f(i) for each i < n, joined by `sep`: the unrolled statements of a generated loop. */
export const unroll = (n: number, f: (i: number) => string, sep = ' ') => upTo(n).map(f).join(sep);

/** WGSL: `var name_0 … name_{n−1} = vec4(0)`, a row's accumulators. */
export const zeros = (name: string, n: number) => unroll(n, (j) => `var ${name}_${j} = vec4<f32>(0.0);`);

/**
 * WGSL: acc{i}_{v} = Σ_{k < K} x(r_i, k) · W[k, the units of vec4 group u·UB + v] for the block's rows
 * r_i = first + i (clamped to `last`, so a block past the end reads valid rows; the caller writes only
 * rows that exist) and the invocation's UB vec4 groups. `x` gives the input's expression for a row
 * variable and the loop's `k`; `w` is the weight's float offset.
 */
export function denseBlock(d: NetDims, K: string, x: (r: string) => string, w: string, first: string,
  last: string): string {
  const V = unitBlock(d.H);
  const init = (i: number) => `let r${i} = min(${first} + ${i}, ${last}); ${zeros(`acc${i}`, V)}`;
  const fma = (i: number) => `{ let xk = ${x(`r${i}`)}; ${unroll(V, (j) => `acc${i}_${j} += xk * wk${j};`)} }`;
  return `${unroll(RB, init, '\n')}
    for (var k = 0; k < ${K}; k++) {
      ${unroll(V, (j) => `let wk${j} = p4(${w} + k * H + 4 * (u * UB + ${j}));`)}
      ${unroll(RB, fma, '\n')}
    }`;
}

/**
 * WGSL: for each of the block's rows that exist (first + i < `count`) and each vec4 group v of the
 * invocation, `write(i, v, unit)` (which may use acc{i}_{v}, r{i}, and `unit`, the group's first unit).
 */
export function forBlock(d: NetDims, first: string, count: string,
  write: (i: number, v: number, unit: string) => string): string {
  const V = unitBlock(d.H);
  const units = (i: number) => unroll(V, (j) => write(i, j, `4 * (u * UB + ${j})`));
  const row = (i: number) => `if (${first} + ${i} < ${count}) { ${units(i)} }`;
  return unroll(RB, row, '\n');
}

/** WGSL: runs the first of `parts` ([invocations, body]) that `index` falls in, with `t` its index within it. */
export function segments(parts: [string, string][]): string {
  return `var t = index;\n${parts.map(([n, body]) => `if (t < ${n}) { ${body} return; } t = t - (${n});`).join('\n')}`;
}
