// The update on WebGPU with the WGSL kernels of our own (src/core/kernels/webgpu*.ts): μ epochs of
// forward, loss, backward and a clipped Adam step over the decisions that train, every value staying
// on the device, and one readback at the end (loss terms, gradient norms, the non-finite count, the
// new weights). The batch is packed on the CPU as for tfjs's path, into four uploads; an epoch is
// 2·depth + 4 dispatches.

import * as tf from '@tensorflow/tfjs-core';
import type { PolicyNetwork } from '../policy/network';
import { PAIR_BUCKET_ROWS, packPairs } from '../policy/pairs';
import { bucketSize } from '../policy/buckets';
import { copyFloats, deviceTensor, fitsOnDevice } from '../kernels/webgpuKernels';
import { assignFromFlat } from '../kernels/webgpuParams';
import { forwardLevels, forwardLogits } from '../kernels/webgpuForward';
import {
  firstBackward, hiddenBackward, lossLevel, updateCols, type LossUniforms, type UpdateInputs,
} from '../kernels/webgpuTraining';
import type { Batch } from '../kernels/webgpuWgsl';
import { adamStep, epochStats, STATS_ROW, updateReadback } from '../kernels/webgpuAdam';
import { workspaceRegions } from '../kernels/webgpuLayout';
import type { FlatAdam } from './flatAdam';
import type { RolloutBuffer } from './rollout';

export interface DeviceUpdate {
  net: PolicyNetwork;
  /** The frozen reference of the KL term (used when loss.beta > 0). */
  ref: PolicyNetwork | null;
  optimizer: FlatAdam;
  buf: RolloutBuffer;
  advantage: Float32Array;
  weight: Float32Array;
  tokenWeight: Float32Array;
  loss: LossUniforms;
  epochs: number;
  maxGradNorm: number;
  /** Read the new weights back too (for the trainer's last finite copy). */
  withWeights: boolean;
  /** Rows per bucket of the packed decisions. */
  bucket: number;
}

/** The decisions of weight > 0, packed: their rows [M, cols] and allowed pairs (pairs.ts). */
export function packUpdate(u: Pick<DeviceUpdate, 'buf' | 'weight' | 'advantage' | 'tokenWeight' | 'bucket'>) {
  const { buf } = u;
  const J = buf.nTools, A = J + 1, S = buf.state.length / (buf.turns * buf.slots);
  const rows: number[] = [];
  for (let m = 0; m < buf.turns * buf.slots; m++) if ((u.weight[m] as number) > 0) rows.push(m);
  const M = bucketSize(rows.length, u.bucket);
  const packed = packPairs(buf, J, rows, { M });
  const cols = updateCols(S, A);
  const data = new Float32Array(M * cols);
  rows.forEach((m, r) => {
    const o = r * cols;
    data.set(packed.state.subarray(r * S, (r + 1) * S), o);
    data.set(packed.bias.subarray(r * A, (r + 1) * A), o + S);
    const fields = [buf.actions[m], buf.logp[m], u.advantage[m], u.weight[m], u.tokenWeight[m]]; // ROW_FIELDS' order
    data.set(fields as number[], o + S + A);
  });
  // Padding rows: their bias (0), weight 0.
  for (let r = rows.length; r < M; r++) data.set(packed.bias.subarray(r * A, (r + 1) * A), r * cols + S);
  return { packed, data, M, cols, A };
}

/**
 * Whether every update of this rollout buffer fits the device: the workspace of its largest batch (every
 * decision trains, every tool allowed) binds as one buffer. Depends on the shapes only, so a run keeps
 * to one path (and one Adam state) throughout.
 */
function fits(u: DeviceUpdate, A: number, cols: number): boolean {
  const all = u.buf.turns * u.buf.slots, d = u.net.dims(A, cols);
  const M = bucketSize(all, u.bucket), Pb = bucketSize(all * (A - 1), PAIR_BUCKET_ROWS);
  return fitsOnDevice(workspaceRegions(d, M, Pb, d.layout.padded).update);
}

/**
 * Runs the update; returns its readback (STATS_ROW values an epoch, the non-finite count, (withWeights)
 * the weights), or null, having changed nothing, when the buffer's batches may not fit the device.
 */
export async function deviceUpdate(u: DeviceUpdate): Promise<Float32Array | null> {
  const { net } = u;
  const A = u.buf.nTools + 1, cols = updateCols(u.buf.state.length / (u.buf.turns * u.buf.slots), A);
  if (!fits(u, A, cols)) return null;
  const { packed, data, M } = packUpdate(u);
  const d = net.dims(A, cols);
  const Pb = packed.pairRow.length, P = packed.pairCount;
  const size = workspaceRegions(d, M, Pb, d.layout.padded).update;
  const b: Batch = { M, P, Pb };
  const made: tf.Tensor[] = [];
  const keep = <T extends tf.Tensor>(t: T): T => { made.push(t); return t; };
  try {
    const rows = keep(tf.tensor2d(data, [M, cols]));
    const tools = keep(tf.tensor2d(packed.pairs, [Pb, d.D]));
    const pairRow = keep(tf.tensor2d(packed.pairRow, [Pb, 1], 'int32'));
    const source = keep(tf.tensor2d(packed.source, [M * A, 1], 'int32'));
    let refLogits: tf.Tensor | null = null;
    if (u.loss.beta > 0 && u.ref) {
      const ref = u.ref;
      const bias = keep(tf.tensor2d(packed.bias, [M, A]));
      const x = { state: rows, pairs: tools, pairRow, source, bias, pairCount: P };
      const logits = tf.tidy(() => forwardLogits(ref.dims(A, cols), () => ref.flatWeights(), x) ?? undefined);
      if (!logits) return null; // (its workspace is smaller than the update's: not reached)
      refLogits = keep(logits as tf.Tensor2D);
    }
    const ws = keep(deviceTensor([size]));
    const stats = keep(deviceTensor([STATS_ROW * u.epochs]));
    const state = u.optimizer.deviceState(net.vars, d.layout.padded);
    copyFloats([[net.flatWeights(), 0, state, 0, d.layout.padded]]);
    const x: UpdateInputs = { params: state, rows, tools, pairRow, source, refLogits };
    for (let e = 0; e < u.epochs; e++) {
      const step = u.optimizer.nextStep(u.maxGradNorm);
      forwardLevels(d, b, { params: state, states: rows, tools, pairRow }, ws);
      lossLevel(d, b, x, ws, u.loss);
      for (let l = d.L - 1; l >= 1; l--) hiddenBackward(d, b, l, state, ws);
      firstBackward(d, b, x, ws);
      epochStats(d, b, ws, stats, e, u.loss);
      adamStep(d, b, ws, stats, state, e, step);
    }
    const out = keep(deviceTensor([STATS_ROW * u.epochs + 1 + (u.withWeights ? d.layout.real : 0)]));
    updateReadback(d, state, stats, out, u.epochs, u.withWeights);
    assignFromFlat(net.vars, d.layout, state, net.flatCache());
    return (await out.data()) as Float32Array;
  } finally {
    tf.dispose(made);
  }
}
