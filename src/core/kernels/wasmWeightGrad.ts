// A dense layer's weight gradient xᵀ·dz (and its bias gradient Σ_p dz) as a tfjs kernel of our own on
// the wasm backend. tfjs-wasm computes matMul(xᵀ, dz) with XNNPACK, which first needs x transposed
// (a pass over it) and then repacks dz, its right operand, as if it were a weight — a second,
// slower pass, since dz is new every epoch (measured at P = 2752 rows × 64: the product 0.79 ms,
// with a fresh dz 1.61 ms). This kernel (weightGrad.wat, wasm SIMD) reads x and dz where they lie on
// tfjs-wasm's heap and sums in the same order as XNNPACK, so its values are the same bit for bit.
// It runs where it can: the wasm backend, a non-shared heap, H = 1 or a multiple of 8; elsewhere
// the caller keeps tfjs's matMul (canRunWeightGrad).

import * as tf from '@tensorflow/tfjs-core';
import { WEIGHT_GRAD_WASM } from './weightGradWasm';

export const WEIGHT_GRAD_KERNEL = 'OrchestraWeightGrad';

/** The parts of tfjs-wasm's backend the kernel uses (its module's memory, tensor offsets, outputs). */
interface WasmBackendParts {
  wasm?: { asm?: { memory?: unknown } };
  dataIdMap: { get(dataId: object): { memoryOffset: number } | undefined };
  makeOutput(shape: number[], dtype: 'float32'): tf.TensorInfo;
}

interface KernelExports {
  xtdz8(x: number, dz: number, out: number, bout: number, P: number, K: number, H: number): void;
  xtdz1(x: number, dz: number, out: number, bout: number, P: number, K: number): void;
}

let compiled: WebAssembly.Module | null | undefined; // null: this engine cannot compile it (no wasm SIMD)
let bound: { memory: WebAssembly.Memory; exports: KernelExports | null } | null = null;

function decode(base64: string): Uint8Array {
  const bin = atob(base64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

/** The kernel's exports bound to tfjs-wasm's memory (a backend made anew has a new one), or null where it cannot run. */
function kernelsFor(memory: unknown): KernelExports | null {
  if (!(memory instanceof WebAssembly.Memory)) return null;
  if (bound?.memory === memory) return bound.exports;
  if (compiled === undefined) {
    try { compiled = new WebAssembly.Module(decode(WEIGHT_GRAD_WASM) as BufferSource); } catch { compiled = null; }
  }
  let exports: KernelExports | null = null;
  if (compiled) {
    try { exports = new WebAssembly.Instance(compiled, { env: { memory } }).exports as unknown as KernelExports; } catch { exports = null; } // a shared heap (tfjs-wasm's threaded build) does not link
  }
  bound = { memory, exports };
  return exports;
}

function wasmParts(): WasmBackendParts {
  return tf.backend() as unknown as WasmBackendParts;
}

/** Whether the kernel runs for an output of H columns on the active backend. */
export function canRunWeightGrad(H: number): boolean {
  if (tf.getBackend() !== 'wasm' || !(H === 1 || (H > 0 && H % 8 === 0))) return false;
  return kernelsFor(wasmParts().wasm?.asm?.memory) !== null;
}

/** [xᵀ·dz [K, H], Σ_p dz [H]] for x [P, K] and dz [P, H] (check canRunWeightGrad(H) first). */
export function weightGradKernel(x: tf.Tensor2D, dz: tf.Tensor2D): [tf.Tensor2D, tf.Tensor1D];
export function weightGradKernel(x: tf.Tensor2D, dz: tf.Tensor2D, withBias: false): [tf.Tensor2D];
export function weightGradKernel(x: tf.Tensor2D, dz: tf.Tensor2D, withBias = true): tf.Tensor[] {
  if (x.shape[0] !== dz.shape[0]) throw new Error(`weight gradient: x has ${x.shape[0]} rows, dz ${dz.shape[0]}`);
  return tf.engine().runKernel(WEIGHT_GRAD_KERNEL, { x, dz } as unknown as tf.NamedTensorMap, { withBias } as unknown as tf.NamedAttrMap) as tf.Tensor[];
}

if (!tf.getKernel(WEIGHT_GRAD_KERNEL, 'wasm')) {
  tf.registerKernel({
    kernelName: WEIGHT_GRAD_KERNEL,
    backendName: 'wasm',
    kernelFunc: ({ inputs, backend, attrs }) => {
      const { x, dz } = inputs as unknown as { x: tf.TensorInfo; dz: tf.TensorInfo };
      const be = backend as unknown as WasmBackendParts;
      const k = kernelsFor(be.wasm?.asm?.memory);
      const [P, K] = x.shape as [number, number], H = dz.shape[1] as number;
      if (!k || x.dtype !== 'float32' || dz.dtype !== 'float32') throw new Error(`${WEIGHT_GRAD_KERNEL} cannot run here (check canRunWeightGrad first)`);
      const out = be.makeOutput([K, H], 'float32');
      const bout = (attrs as unknown as { withBias: boolean }).withBias ? be.makeOutput([H], 'float32') : null;
      const at = (t: tf.TensorInfo) => (P === 0 && t !== out && t !== bout ? 0 : (be.dataIdMap.get(t.dataId)?.memoryOffset as number));
      if (H === 1) k.xtdz1(at(x), at(dz), at(out), bout ? at(bout) : 0, P, K);
      else k.xtdz8(at(x), at(dz), at(out), bout ? at(bout) : 0, P, K, H);
      return bout ? [out, bout] : [out];
    },
  });
}
