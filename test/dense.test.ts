// The policy's hand-written gradients (dense.ts) and its packing of the allowed (decision, tool)
// pairs (pairs.ts) against tfjs's own autodiff of a plain second implementation of the same network
// that scores every tool, and the packed update batch against the padded one.

import { slotsOf } from '../src/core/sim/slots';
import { beforeAll, describe, expect, it } from 'vitest';
import type * as TF from '@tensorflow/tfjs-core';
import { FlatAdam } from '../src/core/grpo/flatAdam';
import { disposeBatch, gradientStep, grpoLoss, LOSS_TERMS, type LossConfig } from '../src/core/grpo/loss';
import { collectRollouts, RolloutBuffer, toDecisionBatch } from '../src/core/grpo/rollout';
import { bucketSize } from '../src/core/policy/buckets';
import { disposePolicyInput, packPairs, policyInput } from '../src/core/policy/pairs';
import { catalogScales, STATE_DIM, TOOL_DIM } from '../src/core/policy/features';
import { PolicyNetwork } from '../src/core/policy/network';
import { DEFAULT_SIM } from '../src/core/sim/callModel';
import { BatchEnv } from '../src/core/sim/env';
import { presetCatalog } from '../src/core/sim/presets';
import { SeqRng } from '../src/core/sim/rng';
import { generateTasks } from '../src/core/sim/tasks';
import { useCpu } from './tfSetup';
import { compareWithAutodiff, expectClose, values } from './gradientCheck';

let tf: typeof TF;
beforeAll(async () => { tf = await useCpu(); });

const catalog = presetCatalog('toolorchestra');
const J = slotsOf(catalog).length; // the scored actions

describe('packing the allowed pairs', () => {
  it('lays out the pairs, their slots and their full inputs (worked by hand: 2 tools, 3 decisions)', async () => {
    const S = STATE_DIM, D = TOOL_DIM, A = 3;
    const state = Float32Array.from({ length: 3 * S }, (_, i) => 100 + i);
    const tools = Float32Array.from({ length: 3 * 2 * D }, (_, i) => i);
    // Decision 0 allows tool 1 only, decision 1 both, decision 2 none (finished: submit only).
    const bias = Float32Array.from([-1e9, 0, 0, 0, 0, 0, -1e9, -1e9, 0]);
    const p = packPairs({ state, tools, bias }, 2, [2, 0, 1], { M: 4, pairBucket: 4 });
    expect(p.pairCount).toBe(3);
    expect(p.M).toBe(4);
    // Rows in the order asked: decision 2, 0, 1, then one zero row. Pairs: (0, tool 1), (1, tool 0), (1, tool 1), one padding pair.
    expect(Array.from(p.slots)).toEqual([1 * A + 1, 2 * A + 0, 2 * A + 1, 4 * A, 0 * A + 2, 1 * A + 2, 2 * A + 2, 3 * A + 2]);
    const row = (q: number) => Array.from(p.pairs.subarray(q * D, (q + 1) * D));
    const toolOf = (m: number, j: number) => Array.from(tools.subarray((m * 2 + j) * D, (m * 2 + j + 1) * D));
    const stateOf = (m: number) => Array.from(state.subarray(m * S, (m + 1) * S));
    expect(row(0)).toEqual(toolOf(0, 1));
    expect(row(1)).toEqual(toolOf(1, 0));
    expect(row(2)).toEqual(toolOf(1, 1));
    expect(row(3).every((x) => x === 0)).toBe(true);
    // The inverse: logit (row 1, tool 1) takes pair 0, (row 2, tool 0) pair 1, (row 2, tool 1) pair 2; submits take
    // Pb + r = 4 + r; every other logit takes index Pb + M = 8, the 0.
    expect(Array.from(p.source)).toEqual([8, 8, 4, 8, 0, 5, 1, 2, 6, 8, 8, 7]);
    expect(Array.from(p.pairRow)).toEqual([1, 2, 2, 0]); // decision 0 is row 1, decision 1 row 2; the padding pair points at row 0
    expect(Array.from(p.state.subarray(0, S))).toEqual(stateOf(2));
    expect(Array.from(p.state.subarray(S, 2 * S))).toEqual(stateOf(0));
    expect(Array.from(p.bias)).toEqual([-1e9, -1e9, 0, -1e9, 0, 0, 0, 0, 0, 0, 0, 0].map(Math.fround));
    const input = policyInput(p, { forGradients: true });
    const X = (await (input.pairInputs as TF.Tensor2D).data()) as Float32Array, W = D + S + 1; // [pairs, tool ⊕ state ⊕ 1]
    disposePolicyInput(input);
    expect(X.length).toBe(W * 4);
    expect(Array.from(X.subarray(2 * W, 2 * W + D))).toEqual(toolOf(1, 1)); // pair 2: (decision 1, tool 1)
    expect(Array.from(X.subarray(0 * W + D, 0 * W + D + S))).toEqual(stateOf(0)); // the state of pair 0's decision
    expect(Array.from(X.subarray(2 * W + D, 2 * W + D + S))).toEqual(stateOf(1)); // pair 2's: decision 1's
    expect(Array.from(X.subarray(3 * W, 3 * W + D)).every((x) => x === 0)).toBe(true); // the padding pair: no tool,
    expect(Array.from(X.subarray(3 * W + D, 3 * W + D + S))).toEqual(stateOf(2)); // row 0's state (its gradient is 0, so it adds nothing)
    expect([0, 1, 2, 3].map((q) => X[q * W + D + S])).toEqual([1, 1, 1, 1]);
  });
});

describe('hand-written layer gradients', () => {
  it.each([[1], [2], [3]])('logits and every weight gradient match autodiff of the plain network scoring every tool (depth %i)', async (depth) => {
    await compareWithAutodiff({ width: 16, depth, M: 37 });
  });
});

describe('a training forward that keeps its activations instead of copying them', () => {
  /** A small batch over random inputs (the submit action taken: always allowed). */
  function keptBatch(M: number, rng: SeqRng) {
    const rand = (n: number) => Float32Array.from({ length: n }, () => rng.next() * 2 - 1);
    const bias = new Float32Array(M * (J + 1));
    for (let i = 0; i < bias.length; i++) if ((i % (J + 1)) < J && rng.next() < 0.4) bias[i] = -1e9;
    return {
      input: policyInput(packPairs({ state: rand(M * STATE_DIM), tools: rand(M * J * TOOL_DIM), bias }, J, null), { forGradients: true }),
      taken: tf.oneHot(tf.tensor1d(Int32Array.from({ length: M }, () => J), 'int32'), J + 1).toFloat() as TF.Tensor2D,
      oldLogp: tf.tensor1d(Array.from({ length: M }, () => -2.5 + rng.next())),
      advantage: tf.tensor1d(rand(M)),
      weight: tf.fill([M], 1 / M) as TF.Tensor1D,
    };
  }
  const cfg: LossConfig = { epsLow: 0.2, epsHigh: 0.28, beta: 0, entropyCoef: 0.05, dualClip: 3 };

  it('gives bit-identical gradients and loss to the copying path, and leaves no tensor behind once `kept` is disposed', async () => {
    const net = new PolicyNetwork({ width: 12, depth: 3, seed: 21 });
    const batch = keptBatch(9, new SeqRng(6));
    const copying = tf.variableGrads(() => grpoLoss(net, batch, cfg).total, net.vars);
    const before = tf.memory().numTensors;
    const kept: TF.Tensor[] = [];
    const keeping = tf.variableGrads(() => grpoLoss(net, batch, cfg, kept).total, net.vars);
    // Each layer's output (depth 3: the scorer's first layer, two hidden and its output layer; the submit head's too) and the loss's five saved tensors.
    expect(kept.length).toBe(8 + 5);
    tf.dispose(kept);
    // What is left is what variableGrads returns: the loss and one gradient per weight.
    expect(tf.memory().numTensors - before).toBe(1 + net.vars.length);
    const names = net.vars.map((v) => v.name);
    expect(await values([keeping.value, ...names.map((n) => keeping.grads[n] as TF.Tensor)])).toEqual(await values([copying.value, ...names.map((n) => copying.grads[n] as TF.Tensor)]));
    tf.dispose([copying.value, keeping.value, ...Object.values(copying.grads), ...Object.values(keeping.grads)]);
    disposeBatch(batch);
    net.dispose();
  });

  it('gradientStep returns the loss terms, then the gradient norm computed apart, and leaves nothing behind', async () => {
    const net = new PolicyNetwork({ width: 12, depth: 2, seed: 22 });
    const batch = keptBatch(11, new SeqRng(7));
    // Apart, before the step moves the weights: the terms from the copying path, the norm in JS over the gradients read back.
    const terms = tf.tidy(() => grpoLoss(net, batch, cfg).packed);
    const { grads, value } = tf.variableGrads(() => grpoLoss(net, batch, cfg).total, net.vars);
    const g = (await values(net.vars.map((v) => grads[v.name] as TF.Tensor))).flat();
    const norm = Math.sqrt(g.reduce((a, x) => a + x * x, 0));
    const opt = new FlatAdam(1e-3);
    const row = tf.tidy(() => gradientStep(net, batch, cfg, opt, 1));
    const got = Array.from(await row.data());
    expect(got.length).toBe(LOSS_TERMS.length + 1);
    expect(got.slice(0, LOSS_TERMS.length)).toEqual(Array.from(await terms.data()));
    expect(Math.abs((got[LOSS_TERMS.length] as number) - norm)).toBeLessThan(1e-5 * norm);
    const before = tf.memory().numTensors; // Adam's two moment vectors exist from here on
    tf.tidy(() => gradientStep(net, batch, cfg, opt, 1)).dispose();
    expect(tf.memory().numTensors).toBe(before);
    tf.dispose([terms, row, value, ...Object.values(grads)]);
    opt.dispose();
    disposeBatch(batch);
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
    await collectRollouts(net, env, catalogScales(catalog, slotsOf(catalog)), tasks, Array.from({ length: N }, (_, i) => i + 1), prefs, buf, new SeqRng(3), 0);
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
    expect(packed.input.pairInputs).toBeDefined(); // the packed batch carries its pairs' full inputs, so the gradient path with them is the one compared
    const cfg: LossConfig = { epsLow: 0.2, epsHigh: 0.28, beta: 0.1, entropyCoef: 0.05, dualClip: 3 };
    const both = [padded, packed].map((b) => tf.variableGrads(() => {
      return grpoLoss(net, b, cfg).total;
    }, net.vars));
    const terms = await Promise.all([padded, packed].map(async (b) => {
      const s = tf.tidy(() => tf.slice(grpoLoss(net, b, cfg).packed, 0, 5)); // total, surrogate, kl, entropy, clipFrac
      const v = Array.from(await s.data());
      s.dispose();
      return v;
    }));
    expect(terms[0]?.every((x) => Number.isFinite(x))).toBe(true);
    expect(Math.abs(terms[0]?.[1] as number)).toBeGreaterThan(1e-4); // a batch that actually has a loss
    expectClose([terms[1] as number[]], [terms[0] as number[]], 1e-5, 'loss terms');
    const names = net.vars.map((v) => v.name);
    expectClose(await values(names.map((n) => both[1]?.grads[n] as TF.Tensor)), await values(names.map((n) => both[0]?.grads[n] as TF.Tensor)), 1e-5, 'grads');
    tf.dispose(both.flatMap((b) => [b.value, ...Object.values(b.grads)]));
    disposeBatch(padded);
    disposeBatch(packed);
    net.dispose();
  });
});
