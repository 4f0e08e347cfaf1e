// The wasm backend's own code path of the policy's layers (dense.ts): the rank-3 transpose of a tall
// activation runs only on wasm and only at the sizes of a real batch, so it is checked here, on
// wasm, against a plain JS transpose, and the network's gradients that use it against autodiff.

import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs-core';
import { initNodeBackend } from '../src/cli/tfBackend';
import { transpose2d } from '../src/core/policy/dense';
import { compareWithAutodiff } from './gradientCheck';

beforeAll(async () => { await initNodeBackend('wasm'); });

describe('on the wasm backend', () => {
  it.each([[300, 64], [64, 16], [130, 44], [97, 45], [10, 64]])('transpose2d of [%i, %i] is the transpose (element by element, against a JS loop)', async (R, C) => {
    expect(tf.getBackend()).toBe('wasm');
    const values = Float32Array.from({ length: R * C }, (_, i) => i * 0.5 - 3);
    const x = tf.tensor2d(values, [R, C]);
    const t = transpose2d(x);
    expect(t.shape).toEqual([C, R]);
    const got = await t.data();
    for (let r = 0; r < R; r++) for (let c = 0; c < C; c++) expect(got[c * R + r]).toBe(values[r * C + c]);
    tf.dispose([x, t]);
  });

  it('the packed network at the default width matches autodiff on a batch large enough for the wasm paths', async () => {
    await compareWithAutodiff({ width: 64, depth: 2, M: 90 }); // about 650 allowed pairs: every activation transposed the wasm way
  });
});
