// The GRPO loss twice: the trainer's one op with its gradient written out (lossFromLogits, grpoLoss) and
// plainLoss, the objective op by op under tfjs's autodiff. On a small batch worked out by hand both give
// the values computed here; on a fixed random batch (clipping on both sides, the dual clip, the KL
// clamp, the entropy, masked actions and zero weights) they agree on the loss and on every gradient,
// with respect to the logits and to the network's weights.
import { beforeAll, describe, expect, it } from 'vitest';
import type * as TF from '@tensorflow/tfjs-core';
import { grpoLoss, lossFromLogits, plainLoss, takenLogp } from '../src/core/grpo/loss';
import type { DecisionBatch, LossConfig } from '../src/core/grpo/loss';
import { STATE_DIM, TOOL_DIM } from '../src/core/policy/features';
import { PolicyNetwork } from '../src/core/policy/network';
import { disposePolicyInput, packPairs, policyInput } from '../src/core/policy/pairs';
import { presetCatalog } from '../src/core/sim/presets';
import { SeqRng } from '../src/core/sim/rng';
import { slotsOf } from '../src/core/sim/slots';
import { expectClose, values } from './gradientCheck';
import { useCpu } from './tfSetup';

let tf: typeof TF;
beforeAll(async () => { tf = await useCpu(); });

const base: LossConfig = { epsLow: 0.2, epsHigh: 0.28, beta: 0, entropyCoef: 0, dualClip: null };

describe('the plain GRPO loss beside the fast one', () => {
  it('gives the values and logit gradients worked out by hand', async () => {
    // Two actions at logits (0, 0): p = ½ each, action 0 taken, ln π = ln ½. Weights ⅓ each.
    // d1: π_old = ½ → r = 1, A = 1: max(−1, −1) = −1, ∂/∂ln π = −A·r = −1.
    // d2: π_old = ¼ → r = 2, A = 1: max(−2, −1.28) = −1.28, the clipped branch: no gradient.
    // d3: π_old = ¼ → r = 2, A = −1: max(2, 1.28) = 2, ∂/∂ln π = 2;
    //     with the dual clip c = 1.5: min(1.5, 2) = 1.5, no gradient.
    // ∂ln π(0)/∂z = onehot − p = (½, −½), so a row's gradient is ⅓·g·(½, −½).
    const b = {
      taken: tf.tensor2d([[1, 0], [1, 0], [1, 0]]),
      oldLogp: tf.tensor1d([Math.log(0.5), Math.log(0.25), Math.log(0.25)]),
      advantage: tf.tensor1d([1, 1, -1]), weight: tf.tensor1d([1 / 3, 1 / 3, 1 / 3]),
    };
    const logits = tf.zeros([3, 2]) as TF.Tensor2D;
    const cases = [
      { cfg: base, total: (-1 - 1.28 + 2) / 3, grad: [[-1 / 6, 1 / 6], [0, 0], [1 / 3, -1 / 3]] },
      { cfg: { ...base, dualClip: 1.5 }, total: (-1 - 1.28 + 1.5) / 3, grad: [[-1 / 6, 1 / 6], [0, 0], [0, 0]] },
    ];
    for (const c of cases) {
      const plain = (z: TF.Tensor) => plainLoss(z as TF.Tensor2D, b, c.cfg);
      const fast = (z: TF.Tensor) => lossFromLogits(z as TF.Tensor2D, b, c.cfg).total;
      for (const loss of [plain, fast]) {
        const { value, grad } = tf.valueAndGrad(loss)(logits);
        expect((await value.data())[0]).toBeCloseTo(c.total, 6);
        expectClose(await values([grad]), [c.grad.flat()], 1e-6, 'grad');
        tf.dispose([value, grad]);
      }
    }
    // Entropy alone at p = (½, ½): H = ln 2, so L = −0.1·ln 2 and ∂H/∂z = −p ⊙ (ln p + H) = 0.
    const one = {
      taken: tf.tensor2d([[1, 0]]), oldLogp: tf.tensor1d([Math.log(0.5)]),
      advantage: tf.tensor1d([0]), weight: tf.tensor1d([1]),
    };
    const z1 = tf.zeros([1, 2]) as TF.Tensor2D;
    const h = tf.valueAndGrad((z: TF.Tensor) => plainLoss(z as TF.Tensor2D, one, { ...base, entropyCoef: 0.1 }))(z1);
    expect((await h.value.data())[0]).toBeCloseTo(-0.1 * Math.LN2, 6);
    expectClose(await values([h.grad]), [[0, 0]], 1e-6, 'entropy grad');
    tf.dispose([logits, z1, h.value, h.grad, ...Object.values(b), ...Object.values(one)]);
  });

  it('agrees with the fast loss on a fixed batch: value, logit gradients and weight gradients', async () => {
    const catalog = presetCatalog('toolorchestra');
    const J = slotsOf(catalog).length, A = J + 1, M = 24;
    const rng = new SeqRng(11);
    const u = (lo: number, hi: number) => lo + (hi - lo) * rng.next();
    const state = Float32Array.from({ length: M * STATE_DIM }, () => u(-1, 1));
    const tools = Float32Array.from({ length: M * J * TOOL_DIM }, () => u(-1, 1));
    // About 40% of the tools masked; submit (the last action) always allowed.
    const bias = Float32Array.from({ length: M * A }, (_, i) => (i % A === J || rng.next() > 0.4 ? 0 : -1e9));
    const actions = Array.from({ length: M }, (_, m) => {
      const allowed = Array.from({ length: A }, (_, j) => j).filter((j) => bias[m * A + j] === 0);
      return allowed[Math.floor(rng.next() * allowed.length)] as number;
    });
    const net = new PolicyNetwork({ width: 16, depth: 2, seed: 5 });
    const input = policyInput(packPairs({ state, tools, bias }, J, null, { pairBucket: 16 }), { forGradients: true });
    const taken = tf.oneHot(tf.tensor1d(actions, 'int32'), A).toFloat() as TF.Tensor2D;
    const now = await takenLogp(net, { input, taken }).data();
    // Ratios from 0.5 to 1.7, ln π_ref − ln π from −1 to 3 (k3 = e^d − d − 1 passes its clamp of 10 above d ≈ 2.53).
    const raw = Array.from({ length: M }, () => u(0, 1));
    const weight = raw.map((x, m) => (m % 7 === 3 ? 0 : x));
    const sum = weight.reduce((a, x) => a + x, 0);
    const ratio = Array.from({ length: M }, () => u(0.5, 1.7)), d = Array.from({ length: M }, () => u(-1, 3));
    const adv = Array.from({ length: M }, () => u(-2, 2));
    // Some decision that trains takes each branch: both clips, the dual clip (A < 0, r > 1.5), the KL clamp.
    const trains = (f: (m: number) => boolean) => ratio.filter((_, m) => weight[m]! > 0 && f(m)).length;
    expect(trains((m) => ratio[m]! < 0.8 && adv[m]! < 0)).toBeGreaterThan(0);
    expect(trains((m) => ratio[m]! > 1.28 && adv[m]! > 0)).toBeGreaterThan(0);
    expect(trains((m) => ratio[m]! > 1.5 && adv[m]! < 0)).toBeGreaterThan(0);
    expect(trains((m) => Math.exp(d[m]!) - d[m]! - 1 > 10)).toBeGreaterThan(0);
    const b: DecisionBatch = {
      input, taken,
      oldLogp: tf.tensor1d(Array.from(now, (lp, m) => lp - Math.log(ratio[m]!))),
      refLogp: tf.tensor1d(Array.from(now, (lp, m) => lp + d[m]!)),
      advantage: tf.tensor1d(adv),
      weight: tf.tensor1d(weight.map((x) => x / sum)),
    };
    const configs = [
      { ...base, beta: 0.1, entropyCoef: 0.03 }, { ...base, beta: 0.05, entropyCoef: 0.01, dualClip: 1.5 },
    ];
    for (const cfg of configs) {
      const logits = tf.tidy(() => net.logits(input));
      const fastL = tf.valueAndGrad((z: TF.Tensor) => lossFromLogits(z as TF.Tensor2D, b, cfg).total)(logits);
      const plainL = tf.valueAndGrad((z: TF.Tensor) => plainLoss(z as TF.Tensor2D, b, cfg))(logits);
      expectClose(await values([fastL.value]), await values([plainL.value]), 1e-5, `loss (${JSON.stringify(cfg)})`);
      expectClose(await values([fastL.grad]), await values([plainL.grad]), 1e-5, 'logit gradients');
      const kept: TF.Tensor[] = [];
      const fastW = tf.variableGrads(() => grpoLoss(net, b, cfg, kept).total, net.vars);
      tf.dispose(kept);
      const plainW = tf.variableGrads(() => plainLoss(net.logits(input), b, cfg), net.vars);
      const names = net.vars.map((v) => v.name);
      expectClose(await values([fastW.value]), await values([plainW.value]), 1e-5, 'loss through the network');
      const grads = (g: TF.NamedTensorMap) => values(names.map((n) => g[n] as TF.Tensor));
      expectClose(await grads(fastW.grads), await grads(plainW.grads), 1e-5, 'weight gradients');
      tf.dispose([logits, fastL.value, fastL.grad, plainL.value, plainL.grad, fastW.value, plainW.value]);
      tf.dispose([...Object.values(fastW.grads), ...Object.values(plainW.grads)]);
    }
    disposePolicyInput(input);
    tf.dispose([taken, b.oldLogp, b.refLogp as TF.Tensor, b.advantage, b.weight]);
    net.dispose();
  });
});
