// The orchestrator policy network (docs/DESIGN.md §4): a shared tool scorer over [state ⊕ tool
// descriptor] and a submit head over the state, MLPs of configurable width and depth; logits =
// [score(tool 1) … score(tool n), submit] + mask bias, the scorer run only on allowed pairs (pairs.ts).
// The first layer's weight is stored split (W_s, W_t) as the export format names it; layers and
// gradients are dense.ts's. Weights are seeded (Glorot uniform, our own generator), so a seed gives
// the same network on every backend.

import * as tf from '@tensorflow/tfjs-core';
import { SeqRng } from '../sim/rng';
import { hiddenLayer, inputLayer, pairInputLayer, placeScores } from './dense';
import type { PolicyInput } from './pairs';
import { weightShapes, type PolicyConfig } from './policyConfig';
import { webgpuKernelsReady, webgpuWidthOk } from '../kernels/webgpuKernels';
import { flatParams, type FlatParams } from '../kernels/webgpuParams';
import { forwardLogits } from '../kernels/webgpuForward';
import { netDims, type NetDims } from '../kernels/webgpuLayout';

export { DEFAULT_POLICY, weightShapes, type PolicyConfig } from './policyConfig';

function glorot(rng: SeqRng, rows: number, cols: number, gain = 1): Float32Array {
  const limit = gain * Math.sqrt(6 / (rows + cols));
  const w = new Float32Array(rows * cols);
  for (let i = 0; i < w.length; i++) w[i] = (2 * rng.next() - 1) * limit;
  return w;
}

let variableCounter = 0;

/** Whether a gradient tape records (inside tf.grads/variableGrads): the kernels of our own have no tfjs gradient. */
function recordingGradients(): boolean {
  return (tf.engine() as unknown as { state: { gradientDepth: number } }).state.gradientDepth > 0;
}

export class PolicyNetwork {
  readonly vars: tf.Variable[];
  readonly names: string[];
  private readonly byName: Map<string, tf.Variable>;
  /** On WebGPU, the weights' flat copy the kernels of our own read (kernels/webgpuParams.ts); freed with the net. */
  private flat: FlatParams | null = null;

  /** A freshly initialised network, or one built from given weights (same names and shapes). */
  constructor(readonly config: PolicyConfig, weights?: tf.NamedTensorMap) {
    if (!(config.width >= 1 && config.depth >= 1)) throw new Error(`policy width and depth must be ≥ 1 (got ${config.width}×${config.depth})`);
    const rng = new SeqRng(config.seed);
    const shapes = weightShapes(config);
    this.names = shapes.map((s) => s.name);
    this.vars = shapes.map(({ name, shape }) => {
      const given = weights?.[name];
      if (weights && !given) throw new Error(`weights are missing "${name}"`);
      if (given && given.shape.join('×') !== shape.join('×')) throw new Error(`weight "${name}" has shape ` +
        `${given.shape.join('×')}, expected ${shape.join('×')}`);
      const init = given
        ? given
        : shape.length === 1
          ? tf.zeros(shape)
          : tf.tensor2d(glorot(rng, shape[0], shape[1], name.includes('/out/') ? 0.1 : 1), shape);
      const v = tf.variable(init, true, `${name}#${++variableCounter}`); // tfjs variable names must be unique
      if (!given) init.dispose();
      return v;
    });
    this.byName = new Map(this.names.map((n, i) => [n, this.vars[i] as tf.Variable]));
  }

  private w(name: string): tf.Variable {
    const v = this.byName.get(name);
    if (!v) throw new Error(`no weight ${name}`);
    return v;
  }

  /**
   * Logits [M, J + 1] for the M decisions of `x` (masked actions at −1e9). Call inside tf.tidy. In a
   * training forward, `kept` collects the activations the gradient needs instead of copies of them
   * (dense.ts, stash); the caller disposes them after the backward pass.
   */
  logits(x: PolicyInput, kept?: tf.Tensor[]): tf.Tensor2D {
    if (!kept && this.onKernels() && !recordingGradients()) {
      // WebGPU: the WGSL kernels of our own, when the batch fits the device's buffers.
      const out = forwardLogits(this.dims(x.bias.shape[1]), () => this.flatWeights(), x);
      if (out) return out;
    }
    const [M, A] = x.bias.shape;
    const P = x.pairs.shape[0];
    let h = pairInputLayer(x.state, x.pairs, x.pairRow, this.w('scorer/l0/tool'), this.w('scorer/l0/state'), this.w('scorer/l0/bias'), x.pairInputs, kept);
    for (let l = 1; l < this.config.depth; l++) h = hiddenLayer(h, this.w(`scorer/l${l}/kernel`), this.w(`scorer/l${l}/bias`), 'relu', kept);
    const toolScores = tf.reshape(hiddenLayer(h, this.w('scorer/out/kernel'), this.w('scorer/out/bias'), 'linear', kept), [P]) as tf.Tensor1D;
    let g = inputLayer(x.state, this.w('submit/l0/kernel'), this.w('submit/l0/bias'), 'relu', kept);
    for (let l = 1; l < this.config.depth; l++) g = hiddenLayer(g, this.w(`submit/l${l}/kernel`), this.w(`submit/l${l}/bias`), 'relu', kept);
    const submit = tf.reshape(hiddenLayer(g, this.w('submit/out/kernel'), this.w('submit/out/bias'), 'linear', kept), [M]) as tf.Tensor1D;
    const flat = placeScores(tf.concat([toolScores, submit]), x.source, x.slots);
    return tf.add(tf.reshape(flat, [M, A]), x.bias);
  }

  /** Whether the WGSL kernels of our own run this network (WebGPU, a width they take). */
  onKernels(): boolean {
    return webgpuKernelsReady() && webgpuWidthOk(this.config.width);
  }

  /** The shapes the kernels are built for, with `actions` per decision and `cols` floats per decision row. */
  dims(actions: number, cols?: number): NetDims {
    return netDims(this.config, actions, cols);
  }

  /** The weights as one flat padded vector on the device (refreshed from the variables assigned since; WebGPU only). */
  flatWeights(): tf.Tensor1D {
    this.flat = flatParams(this.vars, netDims(this.config, 1).layout, this.flat);
    return this.flat.flat;
  }

  /** The flat copy as it stands, for an update that writes its new weights there too (null before a first forward). */
  flatCache(): FlatParams | null {
    return this.flat;
  }

  /** An independent copy (e.g. the frozen reference of the KL term). */
  copy(): PolicyNetwork {
    const weights = this.snapshot();
    const net = new PolicyNetwork(this.config, weights);
    tf.dispose(Object.values(weights));
    return net;
  }

  /** Copies of the weights by name (the caller disposes them). */
  snapshot(): tf.NamedTensorMap {
    return Object.fromEntries(this.names.map((n, i) => [n, (this.vars[i] as tf.Variable).clone()]));
  }

  /** Overwrites the weights from a snapshot. */
  assign(weights: tf.NamedTensorMap): void {
    this.names.forEach((n, i) => {
      const w = weights[n];
      if (!w) throw new Error(`weights are missing "${n}"`);
      (this.vars[i] as tf.Variable).assign(w);
    });
  }

  dispose(): void {
    for (const v of this.vars) v.dispose();
    this.flat?.flat.dispose();
    this.flat = null;
  }
}
