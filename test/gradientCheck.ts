// A second, plain implementation of the policy network (concatenated [state ⊕ tool] input scoring
// every tool, add + relu, tfjs's own autodiff) and the check that the packed network's logits and
// hand-written gradients match it, on whichever backend is active.

import { slotsOf } from '../src/core/sim/slots';
import { expect } from 'vitest';
import * as tf from '@tensorflow/tfjs-core';
import type * as TF from '@tensorflow/tfjs-core';
import { disposePolicyInput, packPairs, policyInput } from '../src/core/policy/pairs';
import { STATE_DIM, TOOL_DIM } from '../src/core/policy/features';
import { PolicyNetwork } from '../src/core/policy/network';
import { presetCatalog } from '../src/core/sim/presets';
import { SeqRng } from '../src/core/sim/rng';

const J = slotsOf(presetCatalog('toolorchestra')).length;

/** The network written the plain way (concatenated [state ⊕ tool] input, add + relu), for tfjs's autodiff. */
function plainLogits(net: PolicyNetwork, state: TF.Tensor2D, tools: TF.Tensor3D, bias: TF.Tensor2D): TF.Tensor2D {
  const w = (n: string) => net.vars[net.names.indexOf(n)] as TF.Variable;
  const [M] = state.shape;
  const dense = (x: TF.Tensor2D, layer: string) => tf.add(tf.matMul(x, w(`${layer}/kernel`)), w(`${layer}/bias`)) as TF.Tensor2D;
  const stateRep = tf.reshape(tf.tile(tf.reshape(state, [M, 1, STATE_DIM]), [1, J, 1]), [M * J, STATE_DIM]) as TF.Tensor2D;
  const x = tf.concat([stateRep, tf.reshape(tools, [M * J, TOOL_DIM])], 1);
  let h = tf.relu(tf.add(tf.matMul(x, tf.concat([w('scorer/l0/state'), w('scorer/l0/tool')], 0)), w('scorer/l0/bias'))) as TF.Tensor2D;
  for (let l = 1; l < net.config.depth; l++) h = tf.relu(dense(h, `scorer/l${l}`));
  let g = tf.relu(dense(state, 'submit/l0'));
  for (let l = 1; l < net.config.depth; l++) g = tf.relu(dense(g, `submit/l${l}`));
  return tf.add(tf.concat([tf.reshape(dense(h, 'scorer/out'), [M, J]), dense(g, 'submit/out')], 1), bias);
}

export async function values(xs: TF.Tensor[]): Promise<number[][]> {
  return Promise.all(xs.map(async (x) => Array.from(await x.data())));
}

export function expectClose(a: number[][], b: number[][], tol: number, what: string): void {
  expect(a.length).toBe(b.length);
  a.forEach((row, i) => row.forEach((x, k) => expect(Math.abs(x - (b[i]?.[k] as number)), `${what}[${i}][${k}]: ${x} vs ${b[i]?.[k]}`).toBeLessThan(tol * (1 + Math.abs(x)))));
}

/**
 * Logits and every weight gradient of the packed network (with and without the pairs' full inputs)
 * against autodiff of plainLogits, over M random decisions with about 40% of the tools masked;
 * decision 3 has none allowed (submit only), decision 4 all of them.
 */
export async function compareWithAutodiff({ width, depth, M }: { width: number; depth: number; M: number }): Promise<void> {
  const net = new PolicyNetwork({ width, depth, seed: 7 });
  const A = J + 1;
  const rng = new SeqRng(depth);
  const state = Float32Array.from({ length: M * STATE_DIM }, () => rng.next() * 2 - 1);
  const tools = Float32Array.from({ length: M * J * TOOL_DIM }, () => rng.next() * 2 - 1);
  // About 40% of the tools masked; decision 3 has none allowed (submit only), decision 4 all of them.
  const bias = Float32Array.from({ length: M * A }, (_, i) => {
    const m = Math.floor(i / A), j = i % A;
    if (j === J || m === 4) return 0;
    return m === 3 || rng.next() < 0.4 ? -1e9 : 0;
  });
  const target = Float32Array.from({ length: M * A }, (_, i) => ((bias[i] as number) === 0 ? rng.next() * 2 - 1 : 0));
  const dense = { state: tf.tensor2d(state, [M, STATE_DIM]), tools: tf.tensor3d(tools, [M, J, TOOL_DIM]), bias: tf.tensor2d(bias, [M, A]) };
  const targetT = tf.tensor2d(target, [M, A]);
  // log-probabilities weighted on the allowed actions: a masked action's gradient is 0 either way.
  const objective = (f: () => TF.Tensor2D) => () => tf.sum(tf.mul(tf.logSoftmax(f()), targetT)) as TF.Scalar;
  const plain = tf.variableGrads(objective(() => plainLogits(net, dense.state, dense.tools, dense.bias)), net.vars);
  const names = net.vars.map((v) => v.name);
  for (const forGradients of [false, true]) {
    const packed = packPairs({ state, tools, bias }, J, null, { pairBucket: 16 });
    const input = policyInput(packed, { forGradients });
    expect(input.pairs.shape[0] % 16).toBe(0);
    expect(input.pairs.shape[0]).toBeGreaterThan(packed.pairCount); // padding pairs are in the batch: their scores must not reach a logit or a gradient
    expect(input.pairs.shape[0]).toBeLessThan(M * J); // masked pairs are left out
    const ours = tf.variableGrads(objective(() => net.logits(input)), net.vars);
    expectClose(await values([ours.value]), await values([plain.value]), 1e-5, 'objective');
    expectClose(await values(names.map((n) => ours.grads[n] as TF.Tensor)), await values(names.map((n) => plain.grads[n] as TF.Tensor)), 1e-5, `grads (pair inputs ${forGradients})`);
    const logits = await values([tf.tidy(() => net.logits(input))]);
    const plainL = await values([tf.tidy(() => plainLogits(net, dense.state, dense.tools, dense.bias))]);
    expectClose(logits, plainL, 1e-5, 'logits');
    expect(logits[0]?.filter((x) => x === -1e9 * 1).length).toBe(Array.from(bias).filter((b) => b !== 0).length);
    tf.dispose([ours.value, ...Object.values(ours.grads)]);
    disposePolicyInput(input);
  }
  tf.dispose([plain.value, ...Object.values(plain.grads), dense.state, dense.tools, dense.bias, targetT]);
  net.dispose();
}
