// Parity with veRL's GRPO: the lab's advantage and loss fed the exact inputs of
// test/fixtures/verl-reference.json (outputs of veRL's own core_algos on those inputs, not of
// this project's code) must give every output — advantages, policy loss under both aggregations
// with and without dual clip, veRL's clip fraction, k3 KL, entropy, the total, and its gradient
// with respect to the logits — to 1e-5 relative.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type * as TF from '@tensorflow/tfjs-core';
import { groupAdvantages } from '../src/core/grpo/advantage';
import { lossFromLogits, lossTermValues } from '../src/core/grpo/loss';
import { useCpu } from './tfSetup';

interface Output { aggregation: 'token-mean' | 'seq-mean-token-mean'; dualClip: number | null; advantage: number[]; pgLoss: number; clipFracVerl: number; entropy: number; kl: number; total: number; grad: number[][][] }
interface Case { name: string; N: number; T: number; A: number; rewards: number[]; index: number[]; logits: number[][][]; bias: number[][][]; taken: number[][]; mask: number[][]; oldLogp: number[][]; refLogp: number[][]; epsLow: number; epsHigh: number; beta: number; entropyCoef: number; outputs: Output[] }

const ref = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'verl-reference.json'), 'utf8')) as { cases: Case[] };
let tf: typeof TF;
beforeAll(async () => { tf = await useCpu(); });

/** |lab − veRL| ≤ 1e-5·|veRL|, with a floor of 1e-5 of the largest magnitude in the same output (for entries near 0). */
function close(lab: number, verl: number, scale: number, what: string): void {
  expect(Math.abs(lab - verl), `${what}: lab ${lab} veRL ${verl}`).toBeLessThanOrEqual(1e-5 * Math.max(Math.abs(verl), scale) + 1e-9);
}

/** Advantages the lab's way: groupAdvantages per index group (std division, no clip, no filter: veRL's GRPO). */
function advantages(c: Case): number[] {
  const out = new Array<number>(c.N).fill(0);
  for (const g of new Set(c.index)) {
    const rows = c.index.map((x, i) => (x === g ? i : -1)).filter((i) => i >= 0);
    const a = groupAdvantages(rows.map((i) => c.rewards[i] as number), { normalizeStd: true, clip: null, filterStd: null });
    rows.forEach((i, k) => { out[i] = a.advantages[k] as number; });
  }
  return out;
}

/** The trainer's aggregation weights per decision from the mask. */
function weights(c: Case, agg: Output['aggregation']): number[] {
  const perRow = c.mask.map((r) => r.reduce((a, x) => a + x, 0));
  const total = perRow.reduce((a, x) => a + x, 0);
  const rowsWithDecisions = perRow.filter((x) => x > 0).length;
  return c.mask.flatMap((r, n) => r.map((m) => (m ? (agg === 'token-mean' ? 1 / total : 1 / ((perRow[n] as number) * rowsWithDecisions)) : 0)));
}

describe('GRPO at parity with veRL (core_algos at commit b178a3cd)', () => {
  for (const c of ref.cases) {
    for (const o of c.outputs) {
      it(`${c.name}: ${o.aggregation}, dual clip ${o.dualClip ?? 'off'}`, async () => {
        const adv = advantages(c);
        const advScale = Math.max(...o.advantage.map(Math.abs));
        adv.forEach((a, i) => close(a, o.advantage[i] as number, advScale, `advantage[${i}]`));
        const M = c.N * c.T;
        const flat = (x: number[][]) => x.flat();
        const logits = tf.tensor3d(c.logits.map((row, n) => row.map((l, t) => l.map((v, k) => v + (c.bias[n]?.[t]?.[k] ?? 0)))), [c.N, c.T, c.A]);
        const b = {
          taken: tf.oneHot(tf.tensor1d(flat(c.taken), 'int32'), c.A).toFloat() as TF.Tensor2D,
          oldLogp: tf.tensor1d(flat(c.oldLogp)),
          refLogp: tf.tensor1d(flat(c.refLogp)),
          advantage: tf.tensor1d(c.index.flatMap((_, n) => new Array<number>(c.T).fill(adv[n] as number))),
          weight: tf.tensor1d(weights(c, o.aggregation)),
          tokenWeight: tf.tensor1d(weights(c, 'token-mean')),
        };
        const cfg = { epsLow: c.epsLow, epsHigh: c.epsHigh, beta: c.beta, entropyCoef: c.entropyCoef, dualClip: o.dualClip };
        const terms = lossFromLogits(tf.reshape(logits, [M, c.A]) as TF.Tensor2D, b, cfg);
        const t = lossTermValues(await terms.packed.data());
        close(t.surrogate, o.pgLoss, 0, 'pgLoss');
        close(t.clipFrac, o.clipFracVerl, 0, 'clip fraction');
        close(t.entropy, o.entropy, 0, 'entropy');
        close(t.kl, o.kl, 0, 'kl');
        expect((await terms.total.data())[0]).toBe(t.total);
        // The total is a difference of its terms: float32 rounding is relative to the largest of them.
        close(t.total, o.total, Math.max(Math.abs(o.pgLoss), c.entropyCoef * Math.abs(o.entropy), c.beta * Math.abs(o.kl)), 'total');
        const grad = tf.grad((x: TF.Tensor) => lossFromLogits(tf.reshape(x, [M, c.A]) as TF.Tensor2D, b, cfg).total)(logits);
        const g = await grad.data();
        const want = o.grad.flat(2);
        const gScale = Math.max(...want.map(Math.abs));
        want.forEach((w, i) => close(g[i] as number, w, gScale, `grad[${i}]`));
        tf.dispose([logits, grad, ...Object.values(b), ...Object.values(terms)]);
      });
    }
  }

  it('a group of one gets veRL’s advantage r/(1 + 1e-6)', () => {
    expect(groupAdvantages([0.7], { normalizeStd: true, clip: null, filterStd: null }).advantages[0]).toBeCloseTo(0.7 / (1 + 1e-6), 12);
  });
});
