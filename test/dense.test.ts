// The policy's hand-written gradients (dense.ts) against tfjs's own autodiff of a plain second
// implementation of the same network, and the packed update batch against the padded one.

import { beforeAll, describe, expect, it } from 'vitest';
import type * as TF from '@tensorflow/tfjs-core';
import { grpoLoss, type LossConfig } from '../src/core/grpo/loss';
import { collectRollouts, RolloutBuffer, toDecisionBatch } from '../src/core/grpo/rollout';
import { bucketSize } from '../src/core/policy/buckets';
import { scorerTransposes } from '../src/core/policy/dense';
import { catalogScales, STATE_DIM, TOOL_DIM } from '../src/core/policy/features';
import { PolicyNetwork } from '../src/core/policy/network';
import { DEFAULT_SIM } from '../src/core/sim/callModel';
import { BatchEnv } from '../src/core/sim/env';
import { presetCatalog } from '../src/core/sim/presets';
import { SeqRng } from '../src/core/sim/rng';
import { generateTasks } from '../src/core/sim/tasks';
import { useCpu } from './tfSetup';

let tf: typeof TF;
beforeAll(async () => { tf = await useCpu(); });

const catalog = presetCatalog('toolorchestra');
const J = catalog.tools.length;

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

async function values(xs: TF.Tensor[]): Promise<number[][]> {
  return Promise.all(xs.map(async (x) => Array.from(await x.data())));
}

function expectClose(a: number[][], b: number[][], tol: number, what: string): void {
  expect(a.length).toBe(b.length);
  a.forEach((row, i) => row.forEach((x, k) => expect(Math.abs(x - (b[i]?.[k] as number)), `${what}[${i}][${k}]: ${x} vs ${b[i]?.[k]}`).toBeLessThan(tol * (1 + Math.abs(x)))));
}

describe('hand-written layer gradients', () => {
  it.each([[1], [2], [3]])('logits and every weight gradient match autodiff of the plain network (depth %i)', async (depth) => {
    const net = new PolicyNetwork({ width: 16, depth, seed: 7 });
    const M = 37;
    const state = tf.randomNormal([M, STATE_DIM], 0, 1, 'float32', 1) as TF.Tensor2D;
    const tools = tf.randomNormal([M, J, TOOL_DIM], 0, 1, 'float32', 2) as TF.Tensor3D;
    const bias = tf.zeros([M, J + 1]) as TF.Tensor2D;
    const target = tf.randomNormal([M, J + 1], 0, 1, 'float32', 3);
    const objective = (f: () => TF.Tensor2D) => () => tf.sum(tf.mul(f(), target)) as TF.Scalar;
    const pre = scorerTransposes(await state.data() as Float32Array, await tools.data() as Float32Array, M, J);
    for (const withPre of [false, true]) {
      const ours = tf.variableGrads(objective(() => net.logits(state, tools, bias, withPre ? pre : undefined)), net.vars);
      const plain = tf.variableGrads(objective(() => plainLogits(net, state, tools, bias)), net.vars);
      const names = net.vars.map((v) => v.name);
      expectClose(await values([ours.value]), await values([plain.value]), 1e-5, 'objective');
      expectClose(await values(names.map((n) => ours.grads[n] as TF.Tensor)), await values(names.map((n) => plain.grads[n] as TF.Tensor)), 1e-5, `grads (pre ${withPre})`);
      tf.dispose([ours.value, plain.value, ...Object.values(ours.grads), ...Object.values(plain.grads)]);
    }
    expectClose(await values([tf.tidy(() => net.logits(state, tools, bias))]), await values([tf.tidy(() => plainLogits(net, state, tools, bias))]), 1e-5, 'logits');
    tf.dispose([state, tools, bias, target, pre.toolsT, pre.stateRepT]);
    net.dispose();
  });
});

describe('bucketed packing of the update batch', () => {
  it('rounds up to whole buckets', () => {
    expect([0, 1, 64, 65, 128, 129].map((n) => bucketSize(n, 64))).toEqual([64, 64, 64, 128, 128, 192]);
  });

  it('gives the same loss terms and gradients as the padded batch (to 1e-5)', async () => {
    const net = new PolicyNetwork({ width: 12, depth: 2, seed: 11 });
    const sim = { ...DEFAULT_SIM, maxTurns: 6 };
    const N = 10;
    const env = new BatchEnv(catalog, sim, N);
    const buf = new RolloutBuffer(sim.maxTurns, N, J);
    const tasks = generateTasks(catalog, { seed: 5, count: N }).tasks;
    const P = J + 3;
    const prefs = new Float32Array(N * P);
    for (let i = 0; i < N; i++) { prefs[i * P + P - 3] = 1; prefs[i * P + P - 2] = 0.5; }
    await collectRollouts(net, env, catalogScales(catalog), tasks, Array.from({ length: N }, (_, i) => i + 1), prefs, buf, new SeqRng(3), 0);
    const rng = new SeqRng(8);
    for (let i = 0; i < buf.logp.length; i++) buf.logp[i] += (rng.next() - 0.5) * 0.6; // ratios away from 1
    const Mall = buf.turns * N;
    // Slots 0 and 1 form a filtered group (weight 0 although live), the rest train.
    const trains = (m: number) => buf.valid[m] === 1 && m % N > 1;
    const count = Array.from({ length: Mall }, (_, m) => (trains(m) ? 1 : 0)).reduce((a: number, b) => a + b, 0);
    const weight = Float32Array.from({ length: Mall }, (_, m) => (trains(m) ? 1 / count : 0));
    const adv = Float32Array.from({ length: Mall }, () => rng.next() * 2 - 1);
    const padded = toDecisionBatch(buf, adv, weight);
    const packed = toDecisionBatch(buf, adv, weight, undefined, 8);
    expect(packed.weight.shape[0]).toBe(bucketSize(count, 8));
    expect(packed.weight.shape[0]).toBeLessThan(Mall);
    const ref = (b: typeof padded) => tf.tidy(() => tf.sub(b.oldLogp, 0.05)) as TF.Tensor1D;
    padded.refLogp = ref(padded);
    packed.refLogp = ref(packed);
    expect(packed.pre).toBeDefined(); // the packed batch carries its transposes, so the gradient path with them is the one compared
    const cfg: LossConfig = { epsLow: 0.2, epsHigh: 0.28, beta: 0.1, entropyCoef: 0.05, dualClip: 3 };
    const both = [padded, packed].map((b) => tf.variableGrads(() => {
      return grpoLoss(net, b, cfg).total;
    }, net.vars));
    const terms = await Promise.all([padded, packed].map(async (b) => {
      const s = tf.tidy(() => { const t = grpoLoss(net, b, cfg); return tf.stack([t.total, t.surrogate, t.kl, t.entropy, t.clipFrac]); });
      const v = Array.from(await s.data());
      s.dispose();
      return v;
    }));
    expect(terms[0]?.every((x) => Number.isFinite(x))).toBe(true);
    expect(Math.abs(terms[0]?.[1] as number)).toBeGreaterThan(1e-4); // a batch that actually has a loss
    expectClose([terms[1] as number[]], [terms[0] as number[]], 1e-5, 'loss terms');
    const names = net.vars.map((v) => v.name);
    expectClose(await values(names.map((n) => both[1]?.grads[n] as TF.Tensor)), await values(names.map((n) => both[0]?.grads[n] as TF.Tensor)), 1e-5, 'grads');
    tf.dispose([...both.flatMap((b) => [b.value, ...Object.values(b.grads)]), ...Object.values(padded), ...Object.values(packed)]);
    net.dispose();
  });
});
