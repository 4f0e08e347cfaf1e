// The update's loss and backward pass as WGSL kernels of our own on WebGPU, after the forward levels
// of webgpuForward.ts have filled the workspace (webgpuLayout.ts):
// - the loss (one invocation per decision): the logits, log-softmax, the clipped surrogate, the KL and
//   entropy terms of loss.ts with its expressions in its order, each decision's terms for the sums of
//   webgpuAdam.ts, and ∂loss/∂logit (loss.ts's lossGradient) scattered to each pair's score;
// - the output level: both heads' output weight and bias gradients (sums over rows) and, in the same
//   dispatch, the last hidden level's dz = ∂/∂score · w ⊙ step(y);
// - each hidden level l: W_l's and b_l's gradients (xᵀ·dz and Σ dz) and dz of level l − 1, (dz·W_lᵀ) ⊙
//   step(y), in one dispatch;
// - the first level: W_s's gradient from each pair's decision state (read in place through its row
//   index), W_t's and b's, and the submit head's first layer.
// A ReLU's gradient is tfjs's Step: 1 where y > 0, NaN where y is NaN, else 0.

import * as tf from '@tensorflow/tfjs-core';
import { KernelProgram, runProgram, type Uniform } from './webgpuKernels';
import { RB, dimsKey, load4, prelude, scoreWgsl, shapeUniforms, store4 } from './webgpuForward';
import type { NetDims } from './webgpuLayout';

/** Columns of the update's decision rows after the state: the mask bias (A), then these five. */
export const ROW_FIELDS = ['action', 'oldLogp', 'advantage', 'weight', 'tokenWeight'] as const;

/** Floats per decision row of the update's input: state, mask bias, ROW_FIELDS. */
export const updateCols = (S: number, A: number) => S + A + ROW_FIELDS.length;

/** The loss's settings (loss.ts's LossConfig, with the clip range as tfjs rounds it). */
export interface LossUniforms { epsLow: number; epsHigh: number; beta: number; entropyCoef: number; dualClip: number | null }

const STEP4 = `fn step4(y : vec4<f32>) -> vec4<f32> {
    return select(select(vec4<f32>(0.0), vec4<f32>(1.0), y > vec4<f32>(0.0)), y, isnanVec4(y));
  }`;

/** WGSL: runs the first of `parts` ([invocations, body]) that `index` falls in, with `t` its index within it. */
function segments(parts: [string, string][]): string {
  return `var t = index;\n${parts.map(([n, body]) => `if (t < ${n}) { ${body} return; } t = t - (${n});`).join('\n')}`;
}

/** The loss of M decisions and ∂loss/∂score of each pair and submit logit (with `refLogits` [M, A] when β > 0). */
export function lossLevel(d: NetDims, params: tf.TensorInfo, rows: tf.TensorInfo, source: tf.TensorInfo, refLogits: tf.TensorInfo | null,
  ws: tf.TensorInfo, M: number, P: number, Pb: number, c: LossUniforms): void {
  const ref = refLogits !== null;
  const u: Uniform[] = [...shapeUniforms(M, P, Pb), ['lo', 'f32', 1 - c.epsLow], ['hi', 'f32', 1 + c.epsHigh], ['beta', 'f32', c.beta],
    ['entropyCoef', 'f32', c.entropyCoef], ['dualClip', 'f32', c.dualClip ?? 0], ['dual', 'i32', c.dualClip === null ? 0 : 1]];
  runProgram(new KernelProgram(`loss${ref ? '-ref' : ''}_${dimsKey(d)}`, ['params', 'rows', 'source', ...(ref ? ['refLogits'] : [])], [4, 1, 1, 1], M, u, `
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
    var kl = 0.0; var gK = 0.0;
    ${ref ? `if (uniforms.beta > 0.0) {
      var rmx = -3.402823e38;
      for (var a = 0; a < A; a++) { rmx = max(rmx, refLogits[m * A + a]); }
      var rse = 0.0;
      for (var a = 0; a < A; a++) { rse = rse + exp(refLogits[m * A + a] - rmx); }
      let refLogp = (refLogits[m * A + act] - rmx) - log(rse);
      let dd = refLogp - logp; let ed = exp(dd); let raw = (ed - dd) - 1.0;
      kl = clamp(raw, -10.0, 10.0) * w;
      gK = -(((ed - 1.0) * w) * select(0.0, 1.0, raw >= -10.0 && raw <= 10.0));
    }` : ''}
    let o = TERMS() + 8 * m;
    result[o] = per * w; result[o + 1] = kl; result[o + 2] = entropyPer * w;
    result[o + 3] = select(0.0, 1.0, lc > lu) * tw; result[o + 4] = select(1.0, ratio, w > 0.0);
    let g = gS * 1.0 + gK * uniforms.beta;
    let cE = w * -uniforms.entropyCoef;
    for (var a = 0; a < A; a++) {
      let dz = g * (select(0.0, 1.0, a == act) - p[a]) - (p[a] * (lp[a] + entropyPer)) * cE;
      if (a == J) { result[DSUB() + m] = dz; } else { let s = source[m * A + a]; if (s < uniforms.Pb) { result[DSC() + s] = dz; } }
    }
  `, `${prelude(d)}\n${scoreWgsl('result')}`), [params, rows, source, ...(ref ? [refLogits] : [])], ws);
}

/**
 * The output level: each head's output weight gradient Σ_r y_r·∂score_r and bias gradient Σ_r ∂score_r
 * (zeroing the bias's padding), and the last hidden level's dz, in one dispatch.
 */
export function outputBackward(d: NetDims, params: tf.TensorInfo, ws: tf.TensorInfo, M: number, P: number, Pb: number): void {
  const H4 = d.H / 4;
  const head = `let sc = t < H4 + 1; let k = select(t - (H4 + 1), t, sc);
    let cnt = select(uniforms.M, uniforms.P, sc); let bse = select(uniforms.Pb, 0, sc);
    let dOff = select(DSUB(), DSC(), sc); let fr = ACT(L - 1) + bse * H;
    if (k < H4) {
      var acc = vec4<f32>(0.0);
      for (var r = 0; r < cnt; r++) { acc = acc + ${load4('result', 'fr + r * H + 4 * k')} * result[dOff + r]; }
      ${store4('GRAD() + select(SU_WO, SC_WO, sc) + 4 * k', 'acc')}
    } else {
      var s = 0.0;
      for (var r = 0; r < cnt; r++) { s = s + result[dOff + r]; }
      let o = GRAD() + select(SU_BO, SC_BO, sc);
      result[o] = s; result[o + 1] = 0.0; result[o + 2] = 0.0; result[o + 3] = 0.0;
    }`;
  const rowsDz = `let rr = t / H4; let u = t % H4;
    let sc = rr < uniforms.P;
    var srow = rr; var dv = 0.0;
    if (sc) { dv = result[DSC() + rr]; } else { srow = uniforms.Pb + rr - uniforms.P; dv = result[DSUB() + rr - uniforms.P]; }
    let y = ${load4('result', 'ACT(L - 1) + srow * H + 4 * u')};
    ${store4('DZ(L - 1) + srow * H + 4 * u', '(dv * p4(select(SU_WO, SC_WO, sc) + 4 * u)) * step4(y)')}`;
  const n = 2 * (H4 + 1) + (P + M) * H4;
  runProgram(new KernelProgram(`bwd-out_${dimsKey(d)}`, ['params'], [4], n, shapeUniforms(M, P, Pb),
    segments([['2 * (H4 + 1)', head], ['(uniforms.P + uniforms.M) * H4', rowsDz]]), `${prelude(d)}\n${STEP4}`), [params], ws);
}

/** WGSL: Σ_r x(r, 4kb…4kb+3)ᵀ · dz[r, 4u…4u+3] over `cnt` rows into a0…a3, then stored as rows of the gradient at `dst`. */
function weightGrad(K: string, x: (r: string, k: string) => string, dz: string, cnt: string, dst: string): string {
  const q = [0, 1, 2, 3];
  return `let kb = t / H4; let u = t % H4;
    ${q.map((i) => `var a${i} = vec4<f32>(0.0); let k${i} = min(4 * kb + ${i}, ${K} - 1);`).join(' ')}
    for (var r = 0; r < ${cnt}; r++) {
      let dzv = ${load4('result', `${dz} + r * H + 4 * u`)};
      ${q.map((i) => `a${i} = a${i} + ${x('r', `k${i}`)} * dzv;`).join(' ')}
    }
    ${q.map((i) => `if (4 * kb + ${i} < ${K}) { ${store4(`GRAD() + ${dst} + (4 * kb + ${i}) * H + 4 * u`, `a${i}`)} }`).join('\n')}`;
}

/** WGSL: Σ_r dz[r, 4t…4t+3] over `cnt` rows, stored as the bias gradient at `dst`. */
const biasGrad = (dz: string, cnt: string, dst: string) => `var acc = vec4<f32>(0.0);
    for (var r = 0; r < ${cnt}; r++) { acc = acc + ${load4('result', `${dz} + r * H + 4 * t`)}; }
    ${store4(`GRAD() + ${dst} + 4 * t`, 'acc')}`;

/** Hidden level l ≥ 1: both heads' W_l and b_l gradients, and dz of level l − 1, in one dispatch. */
export function hiddenBackward(d: NetDims, l: number, params: tf.TensorInfo, ws: tf.TensorInfo, M: number, P: number, Pb: number): void {
  const H4 = d.H / 4, blocksP = Math.ceil(P / RB), blocks = blocksP + Math.ceil(M / RB);
  const grads = (sc: boolean) => {
    const cnt = sc ? 'uniforms.P' : 'uniforms.M', bse = sc ? '0' : 'uniforms.Pb', h = sc ? 'SC' : 'SU';
    return [
      ['H4 * H4', weightGrad('H', (r, k) => `result[ACT(${l - 1}) + (${bse} + ${r}) * H + ${k}]`, `DZ(${l}) + ${bse} * H`, cnt, `${h}_W${l}`)],
      ['H4', biasGrad(`DZ(${l}) + ${bse} * H`, cnt, `${h}_B${l}`)],
    ] as [string, string][];
  };
  const q = Array.from({ length: RB }, (_, i) => i);
  const dzPrev = `let blk = t / H4; let u = t % H4;
    let sc = blk < uniforms.blocksP;
    let f0 = select((blk - uniforms.blocksP) * RB, blk * RB, sc);
    let cnt = select(uniforms.M, uniforms.P, sc); let bse = select(uniforms.Pb, 0, sc);
    let w = select(SU_W${l}, SC_W${l}, sc);
    let dzf = DZ(${l}) + bse * H;
    ${q.map((i) => `let r${i} = min(f0 + ${i}, cnt - 1); var acc${i} = vec4<f32>(0.0);`).join(' ')}
    for (var j = 0; j < H4; j++) {
      let w0 = p4(w + (4 * u) * H + 4 * j); let w1 = p4(w + (4 * u + 1) * H + 4 * j);
      let w2 = p4(w + (4 * u + 2) * H + 4 * j); let w3 = p4(w + (4 * u + 3) * H + 4 * j);
      ${q.map((i) => `{ let g = ${load4('result', `dzf + r${i} * H + 4 * j`)}; acc${i} = acc${i} + vec4<f32>(dot(g, w0), dot(g, w1), dot(g, w2), dot(g, w3)); }`).join('\n')}
    }
    ${q.map((i) => `if (f0 + ${i} < cnt) {
      let y = ${load4('result', `ACT(${l - 1}) + (bse + r${i}) * H + 4 * u`)};
      ${store4(`DZ(${l - 1}) + (bse + r${i}) * H + 4 * u`, `acc${i} * step4(y)`)} }`).join('\n')}`;
  const n = 2 * (H4 * H4 + H4) + blocks * H4;
  runProgram(new KernelProgram(`bwd-hidden${l}_${dimsKey(d)}`, ['params'], [4], n, [...shapeUniforms(M, P, Pb), ['blocksP', 'i32', blocksP]],
    segments([...grads(true), ...grads(false), ['(uniforms.blocksP + (uniforms.M + RB - 1) / RB) * H4', dzPrev]]), `${prelude(d)}\n${STEP4}`), [params], ws);
}

/**
 * The first level: the scorer's W_s (each pair's decision state, through pairRow), W_t and b, and the
 * submit head's first W and b, in one dispatch. `rows` are the update's decision rows (state first).
 */
export function firstBackward(d: NetDims, rows: tf.TensorInfo, tools: tf.TensorInfo, pairRow: tf.TensorInfo, ws: tf.TensorInfo,
  M: number, P: number, Pb: number): void {
  const H4 = d.H / 4, kS = Math.ceil(d.S / 4) * H4, kD = Math.ceil(d.D / 4) * H4;
  const n = kS + kD + H4 + kS + H4;
  runProgram(new KernelProgram(`bwd-first_${dimsKey(d)}`, ['rows', 'tools', 'pairRow'], [1, 1, 1], n, shapeUniforms(M, P, Pb), segments([
    [`${kS}`, weightGrad('S', (r, k) => `rows[pairRow[${r}] * COLS + ${k}]`, 'DZ(0)', 'uniforms.P', 'SC_WS')],
    [`${kD}`, weightGrad('D', (r, k) => `tools[${r} * D + ${k}]`, 'DZ(0)', 'uniforms.P', 'SC_WT')],
    ['H4', biasGrad('DZ(0)', 'uniforms.P', 'SC_B0')],
    [`${kS}`, weightGrad('S', (r, k) => `rows[${r} * COLS + ${k}]`, 'DZ(0) + uniforms.Pb * H', 'uniforms.M', 'SU_W0')],
    ['H4', biasGrad('DZ(0) + uniforms.Pb * H', 'uniforms.M', 'SU_B0')],
  ]), prelude(d, false)), [rows, tools, pairRow], ws);
}
