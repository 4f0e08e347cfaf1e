// The plumbing of the lab's WGSL kernels on tfjs-webgpu: a program of ours runs through the backend's
// own runWebGPUProgram, so it mixes with tfjs's kernels in one command stream. Our kernels write
// several results into one workspace tensor passed back as the program's output, and read the weights
// from one flat, padded copy (webgpuParams.ts), so few storage buffers are bound. Buffer copies are
// recorded into the backend's encoder. Nothing here runs unless the backend is webgpu.

import * as tf from '@tensorflow/tfjs-core';
import { noteBufferCopies } from '../bench/dispatchCount';

/** The parts of tfjs-webgpu's backend used here (public in its JS; some private in its typings). */
interface WebGPUBackendParts {
  device: GPUDevice;
  tensorMap: { get(dataId: object): { resource?: unknown } | undefined };
  runWebGPUProgram(program: KernelProgram, inputs: tf.TensorInfo[], dtype: tf.DataType,
    uniforms?: { type: string; data: number[] }[], output?: tf.TensorInfo): tf.TensorInfo;
  makeTensorInfo(shape: number[], dtype: tf.DataType): tf.TensorInfo;
  uploadToGPU(dataId: object): void;
  ensureCommandEncoderReady(): void;
  endComputePassEncoder(): void;
  commandEncoder: GPUCommandEncoder | null;
  commandQueueOwnedIds: WeakSet<object>;
}

let enabled = true;

/** Turns the kernels off (tfjs's own ops run instead) or on again: for A/B measurements and checks. */
export function setWebGPUKernelsEnabled(on: boolean): void {
  enabled = on;
}

function parts(): WebGPUBackendParts {
  return tf.backend() as unknown as WebGPUBackendParts;
}

/** Whether the kernels run on the active backend: webgpu, with the backend methods they use. */
export function webgpuKernelsReady(): boolean {
  if (!enabled || tf.getBackend() !== 'webgpu') return false;
  const be = parts();
  return typeof be.runWebGPUProgram === 'function' && typeof be.ensureCommandEncoderReady === 'function' && !!be.device;
}

/**
 * Whether a tensor of `floats` values can be bound as one storage buffer on this device (its limits on a
 * binding and a buffer). A workspace past them runs on tfjs's ops instead, whose tensors are smaller.
 */
export function fitsOnDevice(floats: number): boolean {
  const { limits } = parts().device;
  return 4 * floats <= Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize);
}

/** Whether a policy of this width runs on the kernels: its rows are read four floats at a time. */
export function webgpuWidthOk(width: number): boolean {
  return width > 0 && width % 4 === 0;
}

/** A uniform of a program: its WGSL name, type and value. */
export type Uniform = [name: string, type: 'i32' | 'f32', value: number];

/** One of our programs, in the shape tfjs-webgpu's runWebGPUProgram takes (webgpu_program.ts). */
export class KernelProgram {
  readonly outputShape: number[];
  readonly dispatchLayout = { x: [0] };
  readonly dispatch: [number, number, number];
  readonly workgroupSize: [number, number, number];
  readonly uniforms: string;
  readonly size = false;
  readonly variableComponents: number[];
  shaderKey: string;

  /**
   * `key` names the WGSL (everything baked into the code must be in it); `variableNames` are the storage
   * buffers read, each with its `components` (4: read as vec4<f32>); `threads` invocations run `body`
   * (after `prelude`, at module scope), which sees `index` (< uniforms.n) and `uniforms.<name>` for each
   * of `values`. Without `guard` every invocation runs the body (a single workgroup that synchronises).
   */
  constructor(key: string, readonly variableNames: string[], components: number[], readonly threads: number,
    readonly values: Uniform[], private readonly body: string, private readonly prelude = '', workgroup = 64,
    private readonly guard = true) {
    this.shaderKey = `orchestra-${key}`;
    this.variableComponents = components;
    this.workgroupSize = [workgroup, 1, 1];
    this.outputShape = [Math.max(1, threads)];
    this.dispatch = [Math.max(1, Math.ceil(threads / workgroup)), 1, 1];
    this.uniforms = ['n : i32,', ...values.map(([name, type]) => `${name} : ${type},`)].join(' ');
  }

  getUserCode(): string {
    return `${this.prelude}
      fn main(index : i32) {
        ${this.guard ? 'if (index >= uniforms.n) { return; }' : ''}
        ${this.body}
      }`;
  }
}

/** Runs `program` over `inputs`, writing into `output` in place (what it does not write keeps its values). */
export function runProgram(program: KernelProgram, inputs: tf.TensorInfo[], output: tf.TensorInfo): void {
  const values = [{ type: 'int32', data: [program.threads] },
    ...program.values.map(([, type, value]) => ({ type: type === 'i32' ? 'int32' : 'float32', data: [value] }))];
  parts().runWebGPUProgram(program, inputs, 'float32', values, output);
}

/** A new float32 tensor of this shape on the device, holding whatever its pooled buffer held (the kernels write it). */
export function deviceTensor<R extends tf.Rank = tf.Rank.R1>(shape: number[]): tf.Tensor<R> {
  const be = parts();
  const info = be.makeTensorInfo(shape, 'float32');
  be.uploadToGPU(info.dataId);
  return tf.engine().makeTensorFromTensorInfo(info) as tf.Tensor<R>;
}

/** A GPU buffer's handle for a tensor's data (uploaded first if it still lies on the CPU). */
function bufferOf(be: WebGPUBackendParts, t: tf.TensorInfo): GPUBuffer {
  be.uploadToGPU(t.dataId);
  const resource = be.tensorMap.get(t.dataId)?.resource;
  if (!(resource instanceof GPUBuffer)) throw new Error('webgpu kernels: a tensor without a GPU buffer');
  return resource;
}

/** Records copies of float ranges between tensors' buffers ([from, fromOffset, to, toOffset, count] in floats). */
export type FloatCopy = [from: tf.TensorInfo, fromOffset: number, to: tf.TensorInfo, toOffset: number, count: number];

export function copyFloats(copies: FloatCopy[]): void {
  if (copies.length === 0) return;
  const be = parts();
  const buffers = copies.map(([from, , to]) => [bufferOf(be, from), bufferOf(be, to)] as const);
  be.ensureCommandEncoderReady();
  be.endComputePassEncoder();
  const encoder = be.commandEncoder as GPUCommandEncoder;
  copies.forEach(([from, fromOffset, to, toOffset, count], i) => {
    const [src, dst] = buffers[i] as readonly [GPUBuffer, GPUBuffer];
    if (count > 0) encoder.copyBufferToBuffer(src, 4 * fromOffset, dst, 4 * toOffset, 4 * count);
    // As tfjs does for its programs: a buffer a pending command uses is not reused before the submit.
    be.commandQueueOwnedIds.add(from.dataId);
    be.commandQueueOwnedIds.add(to.dataId);
  });
  noteBufferCopies(copies.length);
}
