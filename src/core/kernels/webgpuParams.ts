// The policy's weights as one flat, padded vector on the GPU, the layout every WGSL kernel of ours
// reads them in: the weights in the network's order (policyConfig.ts), each starting at a multiple
// of four floats so that a kernel reads its rows as vec4s (a width that is a multiple of 4 keeps
// every row aligned; the [1]-sized output biases are followed by three floats of padding). A
// network's flat copy is refreshed by buffer copies from its variables whenever one of them was
// assigned since (its data id changed): after an update, a restore or an edit, and never otherwise.

import * as tf from '@tensorflow/tfjs-core';
import { weightShapes, type PolicyConfig } from '../policy/policyConfig';
import { copyFloats, deviceTensor, type FloatCopy } from './webgpuKernels';

export interface ParamLayout {
  /** Weight names in the network's order, with their shapes, sizes and offsets in the padded vector. */
  names: string[];
  shapes: number[][];
  sizes: number[];
  offsets: number[];
  /** Floats of the padded vector (a multiple of 4). */
  padded: number;
  /** Floats of the weights themselves (their plain concatenation, as the update's readback holds them). */
  real: number;
  /** The offset of a weight by name (throws for a name the policy does not have). */
  at(name: string): number;
}

const align4 = (n: number) => Math.ceil(n / 4) * 4;

export function paramLayout(cfg: Pick<PolicyConfig, 'width' | 'depth'>): ParamLayout {
  const shapes = weightShapes({ ...cfg, seed: 0 });
  const sizes = shapes.map((s) => s.shape.reduce((a, b) => a * b, 1));
  const offsets: number[] = [];
  let at = 0;
  for (const n of sizes) { offsets.push(at); at += align4(n); }
  const byName = new Map(shapes.map((s, i) => [s.name, offsets[i] as number]));
  return {
    names: shapes.map((s) => s.name), shapes: shapes.map((s) => [...s.shape]), sizes, offsets, padded: at,
    real: sizes.reduce((a, b) => a + b, 0),
    at(name) {
      const o = byName.get(name);
      if (o === undefined) throw new Error(`no weight ${name} in this policy`);
      return o;
    },
  };
}

/** What a network keeps on the device for the kernels: its weights' flat copy and the data ids it was made from. */
export interface FlatParams {
  flat: tf.Tensor1D;
  ids: object[];
}

/** The network's flat copy (made, or refreshed from the variables that changed since). Call on webgpu only. */
export function flatParams(vars: readonly tf.Variable[], layout: ParamLayout, kept: FlatParams | null): FlatParams {
  let cache = kept;
  if (!cache || cache.flat.isDisposed || cache.flat.size !== layout.padded) {
    cache = { flat: tf.keep(tf.zeros([layout.padded])) as tf.Tensor1D, ids: [] }; // zeros: the padding reads 0
  }
  const copies: FloatCopy[] = [];
  vars.forEach((v, i) => {
    const at = layout.offsets[i] as number, size = layout.sizes[i] as number;
    if (cache.ids[i] !== v.dataId) copies.push([v, 0, cache.flat, at, size]);
  });
  copyFloats(copies);
  cache.ids = vars.map((v) => v.dataId);
  return cache;
}

/**
 * Puts weights back into the variables from the padded vector `from` (its first layout.padded floats):
 * each variable gets a new tensor (a snapshot may share the old one), filled by a buffer copy. The flat
 * copy `cache`, when given, takes the same values and notes the variables' new data ids.
 */
export function assignFromFlat(vars: readonly tf.Variable[], layout: ParamLayout, from: tf.Tensor,
  cache: FlatParams | null): void {
  const fresh = vars.map((v) => deviceTensor(v.shape));
  const copies = vars.map((v, i): FloatCopy => [from, layout.offsets[i] as number, fresh[i] as tf.Tensor, 0, v.size]);
  if (cache) copies.push([from, 0, cache.flat, 0, layout.padded]);
  copyFloats(copies);
  vars.forEach((v, i) => v.assign(fresh[i] as tf.Tensor));
  tf.dispose(fresh);
  if (cache) cache.ids = vars.map((v) => v.dataId);
}
