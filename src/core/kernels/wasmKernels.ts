// The training's hot kernels as tfjs kernels of our own on the wasm backend (kernels.wat, wasm SIMD),
// reading operands in place on tfjs-wasm's heap and computing in tfjs's order, bit for bit the same:
// the weight and bias gradients xᵀ·dz and Σ dz, the fused forward act(x·W + b) and the scorer's first
// layer, a ReLU's gradient, and FlatAdam's clipped step. They run on a non-shared heap with wasm SIMD
// and supported widths; elsewhere callers keep tfjs's ops (wasmKernelsReady, canRunWeightGrad,
// canRunDense).

import * as tf from '@tensorflow/tfjs-core';
import { KERNELS_WASM } from './kernelsWasm';

export const WEIGHT_GRAD_KERNEL = 'OrchestraWeightGrad';
export const DENSE_KERNEL = 'OrchestraDense';
export const RELU_GRAD_KERNEL = 'OrchestraReluGrad';
export const ADAM_KERNEL = 'OrchestraAdam';

/** The parts of tfjs-wasm's backend the kernel uses (its module's memory, tensor offsets, outputs). */
interface WasmBackendParts {
  wasm?: { asm?: { memory?: unknown } };
  dataIdMap: { get(dataId: object): { memoryOffset: number } | undefined };
  makeOutput(shape: number[], dtype: 'float32'): tf.TensorInfo;
  disposeData(dataId: object): boolean;
}

interface KernelExports {
  xtdz8(x: number, dz: number, out: number, bout: number, P: number, K: number, H: number, rows: number): void;
  xtdz1(x: number, dz: number, out: number, bout: number, P: number, K: number): void;
  dense8(x: number, w: number, bias: number, out: number, M: number, K: number, H: number, relu: number, add: number, rowIdx: number): void;
  dense1(x: number, w: number, bias: number, out: number, M: number, K: number): void;
  reluGrad(dy: number, y: number, out: number, n: number): void;
  adam(table: number, n: number, m: number, v: number, mOut: number, vOut: number, normOut: number, maxNorm: number,
    b1: number, omb1: number, b2: number, omb2: number, bc1: number, bc2: number, eps: number, negLr: number): void;
}

let compiled: WebAssembly.Module | null | undefined; // null: this engine cannot compile it (no wasm SIMD)
/** Instances by tfjs-wasm heap (weakly: a backend's heap that was replaced can be collected). */
const instances = new WeakMap<WebAssembly.Memory, KernelExports | null>();
let enabled = true;

/**
 * Turns the kernels off (every caller then takes tfjs's own ops) or on again: for A/B measurements
 * and for the tests that check that training gives the same weights either way.
 */
export function setWasmKernelsEnabled(on: boolean): void {
  enabled = on;
}

function decode(base64: string): Uint8Array {
  const bin = atob(base64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

/** The kernel's exports bound to tfjs-wasm's memory (a backend made anew has a new one), or null where it cannot run. */
function kernelsFor(memory: unknown): KernelExports | null {
  if (!(memory instanceof WebAssembly.Memory)) return null;
  const known = instances.get(memory);
  if (known !== undefined) return known;
  if (compiled === undefined) {
    try { compiled = new WebAssembly.Module(decode(KERNELS_WASM) as BufferSource); } catch { compiled = null; }
  }
  let exports: KernelExports | null = null;
  if (compiled) {
    try { exports = new WebAssembly.Instance(compiled, { env: { memory } }).exports as unknown as KernelExports;
      } catch { exports = null; } // a shared heap (tfjs-wasm's threaded build) does not link
  }
  instances.set(memory, exports);
  return exports;
}

function wasmParts(): WasmBackendParts {
  return tf.backend() as unknown as WasmBackendParts;
}

/** Whether the kernels run on the active backend: wasm, with a heap they link to. */
export function wasmKernelsReady(): boolean {
  return enabled && tf.getBackend() === 'wasm' && kernelsFor(wasmParts().wasm?.asm?.memory) !== null;
}

/** Whether the weight-gradient kernel runs for an output of H columns on the active backend (H = 1 or a multiple of 8). */
export function canRunWeightGrad(H: number): boolean {
  return (H === 1 || (H > 0 && H % 8 === 0)) && wasmKernelsReady();
}

/** Whether the weight-gradient kernel runs over gathered rows (weightGradKernel's `rows`) for an output of H columns: H a multiple of 8. */
export function canRunGatheredWeightGrad(H: number): boolean {
  return H > 0 && H % 8 === 0 && wasmKernelsReady();
}

/**
 * Whether the forward kernel runs for a layer of H outputs on the active backend: H a multiple of 8,
 * or H = 1 for a linear layer with a bias (an output layer).
 */
export function canRunDense(H: number, outputLayer = false): boolean {
  return ((H > 0 && H % 8 === 0) || (H === 1 && outputLayer)) && wasmKernelsReady();
}

/** dy · step(y) (tfjs's Step: 1 where y > 0, NaN where y is NaN, else 0) in one pass (check wasmKernelsReady first). */
export function reluGradKernel(dy: tf.Tensor2D, y: tf.Tensor2D): tf.Tensor2D {
  return tf.engine().runKernel(RELU_GRAD_KERNEL, { dy, y } as unknown as tf.NamedTensorMap, {}) as tf.Tensor2D;
}

/**
 * act(x·W + bias) [M, H] for x [M, K], W [K, H] (bias [H] or null; check canRunDense first). With
 * `addRows` ([R, H]) and `rowIdx` (int32 [M, 1]), row rowIdx[m] of addRows is added to row m after the
 * product and before the activation. Values as tfjs-wasm's _FusedMatMul (or matMul, then add and relu).
 */
export function denseKernel(x: tf.Tensor2D, w: tf.Tensor2D, bias: tf.Tensor | null, relu: boolean,
  add?: { rows: tf.Tensor2D; rowIdx: tf.Tensor2D }): tf.Tensor2D {
  const inputs: Record<string, tf.Tensor> = { x, w };
  if (bias) inputs.bias = bias;
  if (add) { inputs.addRows = add.rows; inputs.rowIdx = add.rowIdx; }
  return tf.engine().runKernel(DENSE_KERNEL, inputs as unknown as tf.NamedTensorMap, { relu } as unknown as tf.NamedAttrMap) as tf.Tensor2D;
}

/**
 * [xᵀ·dz [K, H], Σ_p dz [H]] for x [P, K] and dz [P, H] (check canRunWeightGrad(H) first). With `rows`
 * (int32 [P, 1]; H a multiple of 8), row p of x is row rows[p] of x [R, K]: Σ_p x[rows[p]]ᵀ·dz[p].
 */
export function weightGradKernel(x: tf.Tensor2D, dz: tf.Tensor2D): [tf.Tensor2D, tf.Tensor1D];
export function weightGradKernel(x: tf.Tensor2D, dz: tf.Tensor2D, withBias: false, rows?: tf.Tensor2D): [tf.Tensor2D];
export function weightGradKernel(x: tf.Tensor2D, dz: tf.Tensor2D, withBias = true, rows?: tf.Tensor2D): tf.Tensor[] {
  const inputs = rows ? { x, dz, rows } : { x, dz };
  return tf.engine().runKernel(WEIGHT_GRAD_KERNEL, inputs as unknown as tf.NamedTensorMap, { withBias } as unknown as tf.NamedAttrMap) as tf.Tensor[];
}

/** The scalars of one clipped Adam step, as tfjs would make them (each rounded to float32 when passed). */
export interface AdamScalars {
  maxNorm: number;
  beta1: number;
  beta2: number;
  /** 1 − β1^t and 1 − β2^t, computed exactly in JS. */
  biasCorrection1: number;
  biasCorrection2: number;
  epsilon: number;
  learningRate: number;
}

/**
 * One clipped Adam step over `weights` with their `grads` (same order and shapes) and the flat moments
 * m and v: [the new weights…, m', v', the gradients' global norm before the clip]. The values of
 * flatAdam.ts's op-by-op step, bit for bit (check wasmKernelsReady first).
 */
export function adamKernel(weights: readonly tf.Tensor[], grads: readonly tf.Tensor[], m: tf.Tensor, v: tf.Tensor,
  c: AdamScalars): { weights: tf.Tensor[]; m: tf.Tensor; v: tf.Tensor; norm: tf.Scalar } {
  if (weights.length !== grads.length) throw new Error(`adam: ${weights.length} weights, ${grads.length} gradients`);
  const inputs: Record<string, tf.Tensor> = { m, v };
  weights.forEach((w, i) => { inputs[`w${i}`] = w; inputs[`g${i}`] = grads[i] as tf.Tensor; });
  const out = tf.engine().runKernel(ADAM_KERNEL, inputs as unknown as tf.NamedTensorMap,
    { n: weights.length, ...c } as unknown as tf.NamedAttrMap) as tf.Tensor[];
  const n = weights.length;
  return { weights: out.slice(0, n), m: out[n] as tf.Tensor, v: out[n + 1] as tf.Tensor, norm: out[n + 2] as tf.Scalar };
}

function offsetOf(be: WasmBackendParts, t: tf.TensorInfo): number {
  return be.dataIdMap.get(t.dataId)?.memoryOffset as number;
}

const sizeOf = (t: tf.TensorInfo): number => t.shape.reduce((a, b) => a * b, 1);

/**
 * Refuses inputs the kernel would read or write past (they are registered for anyone to call): each
 * condition's message names what is wrong. Row indices are read off the heap and checked against
 * the rows they index.
 */
function check(kernel: string, conditions: [() => boolean, string][]): void {
  for (const [ok, message] of conditions) if (!ok()) throw new Error(`${kernel}: ${message}`); // in order: later ones may rely on earlier ones
}

function rowsInRange(be: WasmBackendParts, memory: WebAssembly.Memory, idx: tf.TensorInfo, n: number, limit: number): boolean {
  if (idx.dtype !== 'int32' || sizeOf(idx) !== n) return false;
  if (n === 0) return true;
  const view = new Int32Array(memory.buffer, offsetOf(be, idx), n);
  for (let i = 0; i < n; i++) { const r = view[i] as number; if (r < 0 || r >= limit) return false; }
  return true;
}

interface KernelCall {
  inputs: Record<string, tf.TensorInfo | undefined>;
  attrs: Record<string, unknown>;
  be: WasmBackendParts;
  memory: WebAssembly.Memory;
  k: KernelExports;
}

/** Registers one of our kernels for the wasm backend (once): `run` gets the kernel's exports bound to the backend's heap. */
function registerWasmKernel(kernelName: string, run: (c: KernelCall) => tf.TensorInfo | tf.TensorInfo[]): void {
  if (tf.getKernel(kernelName, 'wasm')) return;
  tf.registerKernel({
    kernelName,
    backendName: 'wasm',
    kernelFunc: ({ inputs, backend, attrs }) => {
      const be = backend as unknown as WasmBackendParts;
      const memory = be.wasm?.asm?.memory;
      const k = kernelsFor(memory);
      if (!k) throw new Error(`${kernelName}: cannot run here (check wasmKernelsReady first)`);
      return run({ inputs: inputs as unknown as KernelCall['inputs'], attrs: (attrs ?? {}) as Record<string, unknown>,
        be, memory: memory as WebAssembly.Memory, k });
    },
  });
}

registerWasmKernel(DENSE_KERNEL, ({ inputs, attrs, be, memory, k }) => {
  const { bias, addRows, rowIdx } = inputs;
  const x = inputs.x as tf.TensorInfo, w = inputs.w as tf.TensorInfo;
  const [M, K] = x.shape as [number, number], H = w.shape[1] as number;
  const relu = attrs.relu === true;
  const oneColumn = H === 1 && bias && !addRows && !relu;
  check(DENSE_KERNEL, [
    [() => Boolean(oneColumn) || (H > 0 && H % 8 === 0), `H = ${H}: a multiple of 8, or 1 for a linear layer with a bias`],
    [() => x.shape.length === 2 && w.shape.length === 2 && w.shape[0] === K, `x has ${K} columns, W ${w.shape[0]} rows`],
    [() => [x, w, bias, addRows].every((t) => !t || t.dtype === 'float32'), 'x, W, the bias and the added rows must be float32'],
    [() => !bias || sizeOf(bias) === H, `the bias has ${bias ? sizeOf(bias) : 0} values for ${H} columns`],
    [() => !addRows === !rowIdx, 'added rows need their row indices and the other way round'],
    [() => !addRows || (addRows.shape.length === 2 && addRows.shape[1] === H), `the added rows ${addRows?.shape.join('×')} are not ${H} wide`],
    [() => !addRows || !rowIdx || rowsInRange(be, memory, rowIdx, M, addRows.shape[0] as number),
      `the row indices must be ${M} int32 values in [0, ${addRows?.shape[0]})`],
  ]);
  const out = be.makeOutput([M, H], 'float32');
  if (M > 0) {
    const at = (t: tf.TensorInfo | undefined) => (t ? offsetOf(be, t) : 0);
    if (oneColumn) k.dense1(at(x), at(w), at(bias), at(out), M, K);
    else k.dense8(at(x), at(w), at(bias), at(out), M, K, H, relu ? 1 : 0, at(addRows), at(rowIdx));
  }
  return out;
});

registerWasmKernel(RELU_GRAD_KERNEL, ({ inputs, be, k }) => {
  const dy = inputs.dy as tf.TensorInfo, y = inputs.y as tf.TensorInfo;
  check(RELU_GRAD_KERNEL, [
    [() => sizeOf(dy) === sizeOf(y) && dy.dtype === 'float32' && y.dtype === 'float32',
      `dy (${dy.shape.join('×')}) and y (${y.shape.join('×')}) must be float32 of one size`],
  ]);
  const out = be.makeOutput([...dy.shape], 'float32');
  const n = sizeOf(dy);
  if (n > 0) k.reluGrad(offsetOf(be, dy), offsetOf(be, y), offsetOf(be, out), n);
  return out;
});

registerWasmKernel(WEIGHT_GRAD_KERNEL, ({ inputs, attrs, be, memory, k }) => {
  const { rows } = inputs;
  const x = inputs.x as tf.TensorInfo, dz = inputs.dz as tf.TensorInfo;
  const P = dz.shape[0] as number, K = x.shape[1] as number, H = dz.shape[1] as number;
  check(WEIGHT_GRAD_KERNEL, [
    [() => x.shape.length === 2 && dz.shape.length === 2 && x.dtype === 'float32' && dz.dtype === 'float32', 'x and dz must be float32 matrices'],
    [() => H === 1 || (H > 0 && H % 8 === 0), `H = ${H}: 1 or a multiple of 8`],
    [() => !rows || H % 8 === 0, 'gathered rows need H a multiple of 8'],
    [() => (rows ? rowsInRange(be, memory, rows, P, x.shape[0] as number) : x.shape[0] === P),
      rows ? `the row indices must be ${P} int32 values in [0, ${x.shape[0]})` : `x has ${x.shape[0]} rows, dz ${P}`],
  ]);
  const out = be.makeOutput([K, H], 'float32');
  const bout = attrs.withBias === true ? be.makeOutput([H], 'float32') : null;
  const at = (t: tf.TensorInfo | null | undefined) => (t && (P > 0 || t === out || t === bout) ? offsetOf(be, t) : 0); // no rows: the inputs are never read
  if (H === 1) k.xtdz1(at(x), at(dz), at(out), at(bout), P, K);
  else k.xtdz8(at(x), at(dz), at(out), at(bout), P, K, H, at(rows));
  return bout ? [out, bout] : [out];
});

registerWasmKernel(ADAM_KERNEL, ({ inputs, attrs, be, memory, k }) => {
  const a = attrs as unknown as AdamScalars & { n: number };
  const m = inputs.m as tf.TensorInfo, v = inputs.v as tf.TensorInfo;
  const pairs = Array.from({ length: a.n }, (_, i) => [inputs[`w${i}`], inputs[`g${i}`]] as const);
  const total = pairs.reduce((n, [w]) => n + (w ? sizeOf(w) : 0), 0);
  check(ADAM_KERNEL, [
    [() => pairs.every(([w, g]) => w && g && sizeOf(w) === sizeOf(g) && w.dtype === 'float32' && g.dtype === 'float32'),
      'every weight needs a float32 gradient of its size'],
    [() => sizeOf(m) === total && sizeOf(v) === total, `the moments hold ${sizeOf(m)} and ${sizeOf(v)} values for ${total} weights`],
  ]);
  const weights = pairs.map(([w]) => w as tf.TensorInfo);
  const newWeights = weights.map((w) => be.makeOutput([...w.shape], 'float32'));
  const mOut = be.makeOutput([...m.shape], 'float32'), vOut = be.makeOutput([...v.shape], 'float32'), norm = be.makeOutput([], 'float32');
  const table = be.makeOutput([4 * a.n], 'float32'); // scratch: per tensor [gradient, weight, new weight, size]
  const at = (t: tf.TensorInfo) => offsetOf(be, t);
  const rows = new Int32Array(memory.buffer, at(table), 4 * a.n); // after every allocation: the heap may have grown
  pairs.forEach(([w, g], i) => rows.set([at(g as tf.TensorInfo), at(w as tf.TensorInfo),
    at(newWeights[i] as tf.TensorInfo), sizeOf(w as tf.TensorInfo)], 4 * i));
  k.adam(at(table), a.n, at(m), at(v), at(mOut), at(vOut), at(norm), a.maxNorm, a.beta1, 1 - a.beta1, a.beta2,
    1 - a.beta2, a.biasCorrection1, a.biasCorrection2, a.epsilon, -a.learningRate);
  be.disposeData(table.dataId);
  return [...newWeights, mOut, vOut, norm];
});
