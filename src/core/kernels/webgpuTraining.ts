// The update's loss and backward pass as WGSL kernels of our own on WebGPU, after webgpuForward.ts's
// levels filled the workspace (webgpuLayout.ts): the loss per decision (loss.ts's expressions in its
// order, ∂loss/∂score), each hidden level's weight gradients and dz in one dispatch, and the first
// level's W_s, W_t, b and submit-head gradients. A weight gradient sums its rows in GRAD_CHUNKS chunks
// (webgpuAdam.ts adds them up). A ReLU's gradient is tfjs's Step: 1 where y > 0, NaN for NaN, else 0.

import * as tf from '@tensorflow/tfjs-core';
import { KernelProgram, runProgram, type Uniform } from './webgpuKernels';
import { scoreWgsl } from './webgpuForward';
import { GRAD_CHUNKS, type NetDims } from './webgpuLayout';
import {
  batchUniforms, dimsKey, load4, prelude, RB, segments, store4, unitBlock, unroll, zeros, type Batch,
} from './webgpuWgsl';

/** Columns of the update's decision rows after the state: the mask bias (A), then these five. */
export const ROW_FIELDS = ['action', 'oldLogp', 'advantage', 'weight', 'tokenWeight'] as const;

/** Floats per decision row of the update's input: state, mask bias, ROW_FIELDS. */
export const updateCols = (S: number, A: number) => S + A + ROW_FIELDS.length;

/** The loss's settings (loss.ts's LossConfig). */
export interface LossUniforms {
  epsLow: number;
  epsHigh: number;
  beta: number;
  entropyCoef: number;
  dualClip: number | null;
}

/** The update's inputs on the device: decision rows [M, updateCols], the pairs' tools and rows, the scores' places. */
export interface UpdateInputs {
  params: tf.TensorInfo;
  rows: tf.TensorInfo;
  tools: tf.TensorInfo;
  pairRow: tf.TensorInfo;
  source: tf.TensorInfo;
  /** The reference policy's logits [M, A], when β > 0. */
  refLogits: tf.TensorInfo | null;
}

const LOSS = `
    let m = index; let rb = m * COLS;
    var lp : array<f32, A>; var p : array<f32, A>;
    var mx = -3.402823e38;
    for (var a = 0; a < A; a++) { lp[a] = score(m, a) + rows[rb + S + a]; mx = max(mx, lp[a]); }
    var se = 0.0;
    for (var a = 0; a < A; a++) { lp[a] = lp[a] - mx; se = se + exp(lp[a]); }
    let lse = log(se);
    var pl = 0.0;
    for (var a = 0; a < A; a++) { lp[a] = lp[a] - lse; p[a] = exp(lp[a]); pl = pl + p[a] * lp[a]; }
    let entropyPer = -pl;
    let act = clamp(i32(rows[rb + S + A]), 0, A - 1);
    let logp = lp[act];
    let ratio = exp(logp - rows[rb + S + A + 1]);
    let adv = rows[rb + S + A + 2]; let w = rows[rb + S + A + 3]; let tw = rows[rb + S + A + 4];
    let negA = -adv;
    let lu = negA * ratio;
    let lc = negA * clamp(ratio, uniforms.lo, uniforms.hi);
    var per = max(lu, lc);
    var passes = lu >= lc || (ratio >= uniforms.lo && ratio <= uniforms.hi);
    if (uniforms.dual != 0) {
      let cap = negA * uniforms.dualClip;
      let neg = adv < 0.0;
      passes = passes && (!neg || cap > per);
      if (neg) { per = min(cap, per); }
    }
    let gS = (lu * w) * select(0.0, 1.0, passes);
    var kl = 0.0; var gK = 0.0;`;

const KL = `
    if (uniforms.beta > 0.0) {
      var rmx = -3.402823e38;
      for (var a = 0; a < A; a++) { rmx = max(rmx, refLogits[m * A + a]); }
      var rse = 0.0;
      for (var a = 0; a < A; a++) { rse = rse + exp(refLogits[m * A + a] - rmx); }
      let refLogp = (refLogits[m * A + act] - rmx) - log(rse);
      let dd = refLogp - logp; let ed = exp(dd); let raw = (ed - dd) - 1.0;
      kl = clamp(raw, -10.0, 10.0) * w;
      gK = -(((ed - 1.0) * w) * select(0.0, 1.0, raw >= -10.0 && raw <= 10.0));
    }`;

// ∂/∂score goes to the pair's (or the submit row's) DSC/DSUB slot, and the last hidden level's dz to
// ∂score · w ⊙ step(y).
const GRADIENT = `
    let o = TERMS() + 8 * m;
    result[o] = per * w; result[o + 1] = kl; result[o + 2] = entropyPer * w;
    result[o + 3] = select(0.0, 1.0, lc > lu) * tw; result[o + 4] = select(1.0, ratio, w > 0.0);
    let g = gS * 1.0 + gK * uniforms.beta;
    let cE = w * -uniforms.entropyCoef;
    for (var a = 0; a < A; a++) {
      let dz = g * (select(0.0, 1.0, a == act) - p[a]) - (p[a] * (lp[a] + entropyPer)) * cE;
      var row = -1; var wo = SC_WO;
      if (a == J) { result[DSUB() + m] = dz; row = uniforms.Pb + m; wo = SU_WO; }
      else { let s = source[m * A + a]; if (s < uniforms.Pb) { result[DSC() + s] = dz; row = s; } }
      if (row >= 0) {
        for (var u = 0; u < H4; u++) {
          let o = row * H + 4 * u;
          ${store4('DZ(L - 1) + o', `(dz * p4(wo + 4 * u)) * step4(${load4('result', 'ACT(L - 1) + o')})`)}
        }
      }
    }`;

/**
 * The loss of the M decisions (their terms to TERMS), ∂loss/∂score of each pair and submit logit, and the
 * last hidden level's dz; with `x.refLogits`, the KL term.
 */
export function lossLevel(d: NetDims, b: Batch, x: UpdateInputs, ws: tf.TensorInfo, c: LossUniforms): void {
  const ref = x.refLogits !== null;
  const u: Uniform[] = [
    ...batchUniforms(b), ['lo', 'f32', 1 - c.epsLow], ['hi', 'f32', 1 + c.epsHigh], ['beta', 'f32', c.beta],
    ['entropyCoef', 'f32', c.entropyCoef], ['dualClip', 'f32', c.dualClip ?? 0],
    ['dual', 'i32', c.dualClip === null ? 0 : 1],
  ];
  const names = ['params', 'rows', 'source', ...(ref ? ['refLogits'] : [])];
  const program = new KernelProgram(`loss${ref ? '-ref' : ''}_${dimsKey(d)}`, names, [4, 1, 1, 1], b.M, u,
    `${LOSS}${ref ? KL : ''}${GRADIENT}`, `${prelude(d)}\n${scoreWgsl('result')}`);
  runProgram(program, [x.params, x.rows, x.source, ...(x.refLogits ? [x.refLogits] : [])], ws);
}

/** WGSL: this invocation's chunk c of `cnt` rows, [r0, r1) (its partial sums go to GRAD(c)). */
const chunkRows = (cnt: string) =>
  `let len = (${cnt} + CHUNKS - 1) / CHUNKS; let r0 = c * len; let r1 = min(${cnt}, r0 + len);`;

/**
 * Segments (for segments()) of the output level's gradients: each head's output weight gradient
 * Σ_r y_r·∂score_r and bias gradient Σ_r ∂score_r, as partial sums over chunks of rows (zeroing the
 * bias's padding). They read what the loss wrote, so they join the next backward dispatch.
 */
const OUTPUT_GRADS: [string, string] = ['CHUNKS * 2 * (H4 + 1)', `
    let c = t / (2 * (H4 + 1)); let t2 = t % (2 * (H4 + 1));
    let sc = t2 < H4 + 1; let k = select(t2 - (H4 + 1), t2, sc);
    let cnt = select(uniforms.M, uniforms.P, sc); let bse = select(uniforms.Pb, 0, sc);
    let dOff = select(DSUB(), DSC(), sc); let fr = ACT(L - 1) + bse * H;
    ${chunkRows('cnt')}
    if (k < H4) {
      var acc = vec4<f32>(0.0);
      for (var r = r0; r < r1; r++) { acc = acc + ${load4('result', 'fr + r * H + 4 * k')} * result[dOff + r]; }
      ${store4('GRAD(c) + select(SU_WO, SC_WO, sc) + 4 * k', 'acc')}
    } else {
      var s = 0.0;
      for (var r = r0; r < r1; r++) { s = s + result[dOff + r]; }
      let o = GRAD(c) + select(SU_BO, SC_BO, sc);
      result[o] = s; result[o + 1] = 0.0; result[o + 2] = 0.0; result[o + 3] = 0.0;
    }`];

/** Invocations of OUTPUT_GRADS. */
const outputGradThreads = (d: NetDims) => GRAD_CHUNKS * 2 * (d.H / 4 + 1);

/** Weight rows per invocation of a weight gradient. */
const KB = 8;

/** Invocations of a weight gradient with K rows (chunks × row blocks × vec4 groups). */
const weightGradThreads = (d: NetDims, K: number) => GRAD_CHUNKS * Math.ceil(K / KB) * (d.H / 4 / unitBlock(d.H));

/**
 * WGSL: a chunk's partial Σ_r x(r, k)ᵀ · dz[r, units] for KB rows k of a [K, H] weight and the
 * invocation's UB vec4 groups, over its chunk of `cnt` rows; stored as rows of GRAD(c) + `dst`.
 */
function weightGrad(d: NetDims, K: string, x: (r: string, k: string) => string, dz: string, cnt: string,
  dst: string): string {
  const V = unitBlock(d.H);
  const init = (i: number) => `let k${i} = min(${KB} * kb + ${i}, ${K} - 1); ${zeros(`a${i}`, V)}`;
  const fma = (i: number) => `{ let xk = ${x('r', `k${i}`)}; ${unroll(V, (j) => `a${i}_${j} += xk * g${j};`)} }`;
  const store = (i: number) => {
    const row = `GRAD(c) + ${dst} + (${KB} * kb + ${i}) * H`;
    const units = unroll(V, (j) => store4(`${row} + 4 * (u * UB + ${j})`, `a${i}_${j}`));
    return `if (${KB} * kb + ${i} < ${K}) { ${units} }`;
  };
  return `let blocks = (${K} + ${KB - 1}) / ${KB};
    let c = t / (blocks * NU); let t2 = t % (blocks * NU); let kb = t2 / NU; let u = t2 % NU;
    ${chunkRows(cnt)}
    ${unroll(KB, init, '\n')}
    for (var r = r0; r < r1; r++) {
      ${unroll(V, (j) => `let g${j} = ${load4('result', `${dz} + r * H + 4 * (u * UB + ${j})`)};`)}
      ${unroll(KB, fma, '\n')}
    }
    ${unroll(KB, store, '\n')}`;
}

/** WGSL: a chunk's partial Σ_r dz[r, units] over its chunk of `cnt` rows, as the bias gradient at GRAD(c) + `dst`. */
const biasGrad = (dz: string, cnt: string, dst: string) => `let c = t / H4; let u = t % H4;
    ${chunkRows(cnt)}
    var acc = vec4<f32>(0.0);
    for (var r = r0; r < r1; r++) { acc = acc + ${load4('result', `${dz} + r * H + 4 * u`)}; }
    ${store4(`GRAD(c) + ${dst} + 4 * u`, 'acc')}`;

/**
 * WGSL: dz of level l − 1 for RB rows and the invocation's UB vec4 groups of units k: (Σ_j dz_l[r, j]·W_l[k, j])
 * ⊙ step(y_{l−1}[r, k]), reading four rows of W_l as vec4s per four j.
 */
function dzPrevious(d: NetDims, l: number): string {
  const V = unitBlock(d.H);
  const init = (i: number) => `let r${i} = min(f0 + ${i}, cnt - 1); ${zeros(`acc${i}`, V)}`;
  const weights = (j: number) => `let k${j} = 4 * (u * UB + ${j});
    ${unroll(4, (e) => `let w${j}${e} = p4(w + (k${j} + ${e}) * H + 4 * j);`)}`;
  const dot4 = (j: number) => `vec4<f32>(${unroll(4, (e) => `dot(g, w${j}${e})`, ', ')})`;
  const dots = (i: number) => `{ let g = ${load4('result', `dzf + r${i} * H + 4 * j`)};
    ${unroll(V, (j) => `acc${i}_${j} += ${dot4(j)};`)} }`;
  const unit = (i: number, j: number) => `{ let o = (bse + r${i}) * H + 4 * (u * UB + ${j});
    ${store4(`DZ(${l - 1}) + o`, `acc${i}_${j} * step4(${load4('result', `ACT(${l - 1}) + o`)})`)} }`;
  const store = (i: number) => `if (f0 + ${i} < cnt) { ${unroll(V, (j) => unit(i, j))} }`;
  return `let blk = t / NU; let u = t % NU;
    let sc = blk < uniforms.blocksP;
    let f0 = select((blk - uniforms.blocksP) * RB, blk * RB, sc);
    let cnt = select(uniforms.M, uniforms.P, sc); let bse = select(uniforms.Pb, 0, sc);
    let w = select(SU_W${l}, SC_W${l}, sc);
    let dzf = DZ(${l}) + bse * H;
    ${unroll(RB, init, '\n')}
    for (var j = 0; j < H4; j++) {
      ${unroll(V, weights, '\n')}
      ${unroll(RB, dots, '\n')}
    }
    ${unroll(RB, store, '\n')}`;
}

/** Hidden level l ≥ 1: both heads' W_l and b_l gradients, and dz of level l − 1, in one dispatch. */
export function hiddenBackward(d: NetDims, b: Batch, l: number, params: tf.TensorInfo, ws: tf.TensorInfo): void {
  const blocksP = Math.ceil(b.P / RB), blocks = blocksP + Math.ceil(b.M / RB), NU = d.H / 4 / unitBlock(d.H);
  const grads = (sc: boolean): [string, string][] => {
    const cnt = sc ? 'uniforms.P' : 'uniforms.M', bse = sc ? '0' : 'uniforms.Pb', h = sc ? 'SC' : 'SU';
    const x = (r: string, k: string) => `result[ACT(${l - 1}) + (${bse} + ${r}) * H + ${k}]`;
    return [
      [`${weightGradThreads(d, d.H)}`, weightGrad(d, 'H', x, `DZ(${l}) + ${bse} * H`, cnt, `${h}_W${l}`)],
      ['CHUNKS * H4', biasGrad(`DZ(${l}) + ${bse} * H`, cnt, `${h}_B${l}`)],
    ];
  };
  const top = l === d.L - 1; // the output level's gradients join the first backward dispatch
  const n = (top ? outputGradThreads(d) : 0) + 2 * (weightGradThreads(d, d.H) + GRAD_CHUNKS * (d.H / 4)) + blocks * NU;
  const body = segments([...(top ? [OUTPUT_GRADS] : []), ...grads(true), ...grads(false),
    ['(uniforms.blocksP + (uniforms.M + RB - 1) / RB) * NU', dzPrevious(d, l)]]);
  const program = new KernelProgram(`bwd-hidden${l}_${dimsKey(d)}`, ['params'], [4], n,
    [...batchUniforms(b), ['blocksP', 'i32', blocksP]], body, prelude(d));
  runProgram(program, [params], ws);
}

/**
 * The first level: the scorer's W_s (each pair's decision state, through pairRow), W_t and b, and the
 * submit head's first W and b, in one dispatch (with depth 1, the output level's too).
 */
export function firstBackward(d: NetDims, b: Batch, x: UpdateInputs, ws: tf.TensorInfo): void {
  const kS = weightGradThreads(d, d.S), kD = weightGradThreads(d, d.D), kB = GRAD_CHUNKS * (d.H / 4);
  const top = d.L === 1;
  const n = (top ? outputGradThreads(d) : 0) + kS + kD + kB + kS + kB;
  const submit = 'DZ(0) + uniforms.Pb * H';
  const body = segments([
    ...(top ? [OUTPUT_GRADS] : []),
    [`${kS}`, weightGrad(d, 'S', (r, k) => `rows[pairRow[${r}] * COLS + ${k}]`, 'DZ(0)', 'uniforms.P', 'SC_WS')],
    [`${kD}`, weightGrad(d, 'D', (r, k) => `tools[${r} * D + ${k}]`, 'DZ(0)', 'uniforms.P', 'SC_WT')],
    [`${kB}`, biasGrad('DZ(0)', 'uniforms.P', 'SC_B0')],
    [`${kS}`, weightGrad(d, 'S', (r, k) => `rows[${r} * COLS + ${k}]`, submit, 'uniforms.M', 'SU_W0')],
    [`${kB}`, biasGrad(submit, 'uniforms.M', 'SU_B0')],
  ]);
  const program = new KernelProgram(`bwd-first_${dimsKey(d)}`, ['rows', 'tools', 'pairRow'], [1, 1, 1], n,
    batchUniforms(b), body, prelude(d, false));
  runProgram(program, [x.rows, x.tools, x.pairRow], ws);
}
