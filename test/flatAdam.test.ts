// FlatAdam (one flat vector for all weights, the global-norm clip in front) against a step worked
// out by hand and against a second implementation: tfjs's own tf.train.adam behind a plain
// per-tensor clip.

import { beforeAll, describe, expect, it } from 'vitest';
import type * as TF from '@tensorflow/tfjs-core';
import { concatFlat, FlatAdam } from '../src/core/grpo/flatAdam';
import { SeqRng } from '../src/core/sim/rng';
import { useCpu } from './tfSetup';

let tf: typeof TF;
beforeAll(async () => { tf = await useCpu(); });

/** The weight's values, each to 5 decimals. */
async function expectValues(w: TF.Variable, want: number[]): Promise<void> {
  const got = await w.data();
  want.forEach((x, i) => expect(got[i]).toBeCloseTo(x, 5));
}

describe('FlatAdam', () => {
  it('first step by hand: the gradient [3, 4] (norm 5) clipped to norm 1, then Adam moves each weight by −lr·sign(g)', async () => {
    const w = tf.variable(tf.tensor1d([1, 2]), true, 'flatAdam/hand');
    const opt = new FlatAdam(0.1);
    // m̂ = g', v̂ = g'² after one step, so the step is −lr·g'/(|g'| + ε) = −0.1 per weight.
    const norm = tf.tidy(() => opt.applyClipped([w], { [w.name]: tf.tensor1d([3, 4]) }, 1));
    expect(await norm.data()).toEqual(new Float32Array([5]));
    await expectValues(w, [0.9, 1.9]);
    tf.dispose([w, norm]);
    opt.dispose();
  });

  it('matches tf.train.adam behind a per-tensor global-norm clip over 6 steps on three weight tensors (to 1e-6), one step with a weight that has no gradient', async () => {
    const rng = new SeqRng(11);
    const rand = (n: number, scale: number) => Float32Array.from({ length: n }, () => (2 * rng.next() - 1) * scale);
    const shapes: [number, number][] = [[5, 3], [3, 1], [1, 4]];
    const init = shapes.map(([r, c]) => rand(r * c, 1));
    const mine = shapes.map(([r, c], i) => tf.variable(tf.tensor2d(init[i] as Float32Array, [r, c]), true, `flatAdam/a${i}`));
    const ref = shapes.map(([r, c], i) => tf.variable(tf.tensor2d(init[i] as Float32Array, [r, c]), true, `flatAdam/b${i}`));
    const flat = new FlatAdam(0.01);
    const adam = tf.train.adam(0.01);
    for (let step = 0; step < 6; step++) {
      // Large gradients on even steps (the clip scales them), small ones on odd steps (it does not).
      const scale = step % 2 === 0 ? 3 : 0.01;
      const gs = shapes.map(([r, c]) => rand(r * c, scale));
      // On step 3 the last weight gets no gradient: tf.train.adam skips it, its moments too (it keys
      // the moments by position in the map, so only a missing last one can be compared with it).
      const has = (i: number) => !(step === 3 && i === 2);
      const norm = tf.tidy(() => flat.applyClipped(mine, Object.fromEntries(mine.flatMap((v, i) => (has(i) ? [[v.name, tf.tensor2d(gs[i] as Float32Array, shapes[i])]] : []))), 1));
      // The second implementation: the norm over the tensors, a clip per tensor, tfjs's Adam.
      const sq = gs.reduce((a, g, i) => a + (has(i) ? g.reduce((b, x) => b + x * x, 0) : 0), 0);
      const k = Math.min(1, 1 / (Math.sqrt(sq) + 1e-6));
      tf.tidy(() => adam.applyGradients(Object.fromEntries(ref.flatMap((v, i) => (has(i) ? [[v.name, tf.mul(tf.tensor2d(gs[i] as Float32Array, shapes[i]), k)]] : []))) as Record<string, TF.Tensor> as Parameters<typeof adam.applyGradients>[0]));
      expect((await norm.data())[0]).toBeCloseTo(Math.sqrt(sq), 4);
      norm.dispose();
      for (let i = 0; i < shapes.length; i++) {
        const a = await (mine[i] as TF.Variable).data(), b = await (ref[i] as TF.Variable).data();
        for (let j = 0; j < a.length; j++) expect(Math.abs((a[j] as number) - (b[j] as number))).toBeLessThan(1e-6);
      }
    }
    tf.dispose([...mine, ...ref]);
    flat.dispose();
    adam.dispose();
  });

  it('another list of weights of the same size starts fresh moments: its first step is −lr·sign(g), as by hand', async () => {
    const a = tf.variable(tf.zeros([2]), true, 'flatAdam/own-a'), b = tf.variable(tf.tensor1d([1, 1]), true, 'flatAdam/own-b');
    const opt = new FlatAdam(0.1);
    for (let i = 0; i < 3; i++) tf.tidy(() => { opt.applyClipped([a], { [a.name]: tf.tensor1d([-1, 2]) }, 10); });
    // With a's moments and t = 4, b would move by other amounts; fresh moments move it by exactly lr.
    tf.tidy(() => { opt.applyClipped([b], { [b.name]: tf.tensor1d([0.5, -0.25]) }, 10); });
    await expectValues(b, [0.9, 1.1]);
    tf.dispose([a, b]);
    opt.dispose();
  });

  it('holds the tensor count flat across steps, and concatFlat keeps the order of its inputs', async () => {
    const ws = [tf.variable(tf.zeros([3]), true, 'flatAdam/c0'), tf.variable(tf.zeros([2, 2]), true, 'flatAdam/c1')];
    const opt = new FlatAdam(0.1);
    const step = () => tf.tidy(() => { opt.applyClipped(ws, Object.fromEntries(ws.map((w) => [w.name, tf.onesLike(w)])), 1); });
    step();
    const before = tf.memory().numTensors;
    for (let i = 0; i < 5; i++) step();
    expect(tf.memory().numTensors).toBe(before);
    const parts = Array.from({ length: 9 }, (_, i) => tf.tensor1d([i, i + 0.5]));
    const joined = tf.tidy(() => concatFlat(parts));
    expect(Array.from(await joined.data())).toEqual(Array.from({ length: 9 }, (_, i) => [i, i + 0.5]).flat());
    tf.dispose([...ws, ...parts, joined]);
    opt.dispose();
  });
});
