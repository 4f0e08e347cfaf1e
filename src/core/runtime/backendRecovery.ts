// Recovery from a broken backend. When an iteration fails and even putting the weights back fails
// (a wasm heap past its end — "memory access out of bounds" — fails every later call), the backend
// itself is replaced by a fresh instance of the same kind, and the policy is rebuilt from the last
// weights the trainer copied to the CPU (trainer.lastGood). Works the same in Node and the worker.

import * as tf from '@tensorflow/tfjs-core';
import { PolicyNetwork, weightShapes } from '../policy/network';
import type { PolicyConfig } from '../policy/policyConfig';

/** Whether the active backend still computes: 1 + 1, read back. */
export async function backendAlive(): Promise<boolean> {
  try {
    const t = tf.tidy(() => tf.add(tf.scalar(1), tf.scalar(1)));
    const v = await t.data();
    t.dispose();
    return v[0] === 2;
  } catch {
    return false;
  }
}

/** Replaces the active backend by a fresh instance of the same kind (its registered factory, started anew). */
export async function recreateActiveBackend(): Promise<string> {
  const name = tf.getBackend();
  const factory = tf.findBackendFactory(name);
  if (!factory) throw new Error(`no factory is registered for backend "${name}"`);
  tf.removeBackend(name);
  tf.registerBackend(name, factory);
  if (!(await tf.setBackend(name))) throw new Error(`backend "${name}" did not start again`);
  await tf.ready();
  return name;
}

/** A policy built from weights flattened in weightShapes order (trainer.lastGood.weights). */
export function networkFromFlat(config: PolicyConfig, flat: Float32Array): PolicyNetwork {
  const shapes = weightShapes(config);
  const total = shapes.reduce((a, w) => a + w.shape.reduce((x, y) => x * y, 1), 0);
  if (flat.length !== total) throw new Error(`the saved weights hold ${flat.length} values; a ${config.width}×${config.depth} policy has ${total}`);
  let at = 0;
  const tensors: tf.NamedTensorMap = {};
  for (const w of shapes) {
    const n = w.shape.reduce((x, y) => x * y, 1);
    tensors[w.name] = tf.tensor(flat.subarray(at, at + n), w.shape);
    at += n;
  }
  try {
    return new PolicyNetwork(config, tensors);
  } finally {
    tf.dispose(Object.values(tensors));
  }
}
