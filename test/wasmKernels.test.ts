// The wasm backend's own code path of the policy's layers (dense.ts): the rank-3 transpose of a tall
// activation and the weight-gradient kernel of our own (kernels/wasmKernels.ts) run only on wasm,
// so they are checked here, on wasm: the transpose against a plain JS transpose, the kernel against
// a plain JS loop that sums in the order it states (bit for bit) and against tfjs-wasm's own
// matMul(xᵀ, dz), and the network's gradients that use both against autodiff.

import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs-core';
import { initNodeBackend } from '../src/cli/tfBackend';
import { transpose2d } from '../src/core/policy/dense';
import { compareWithAutodiff } from './gradientCheck';
import { recreateActiveBackend } from '../src/core/runtime/backendRecovery';
import { FlatAdam } from '../src/core/grpo/flatAdam';
import { divergenceCheck } from '../src/core/bench/divergenceCheck';
import { DEFAULT_TRAIN } from '../src/core/grpo/config';
import { GrpoTrainer } from '../src/core/grpo/trainer';
import { trainingPool } from '../src/core/grpo/trainingPool';
import { presetCatalog } from '../src/core/sim/presets';
import { canRunDense, canRunWeightGrad, denseKernel, reluGradKernel, setWasmKernelsEnabled, wasmKernelsReady, weightGradKernel } from '../src/core/kernels/wasmKernels';
import { KERNELS_WASM } from '../src/core/kernels/kernelsWasm';
// @ts-expect-error: a plain .mjs script without types
import { compileWat } from '../scripts/build-kernels.mjs';

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

  it.each([[12, 2], [1, 1], [8, 3]])('at width %i, depth %i (partly or not at all the kernels\' shapes) the packed network on wasm still matches autodiff', async (width, depth) => {
    await compareWithAutodiff({ width, depth, M: 40 });
  });

  /** xᵀ·dz and Σ_p dz the plain way: float32 rounding after every product and every add, p in order from 0. */
  function plainWeightGrad(x: Float32Array, dz: Float32Array, P: number, K: number, H: number): { w: Float32Array; b: Float32Array } {
    const f = Math.fround, w = new Float32Array(K * H), b = new Float32Array(H);
    for (let k = 0; k < K; k++) for (let h = 0; h < H; h++) {
      let acc = 0;
      for (let p = 0; p < P; p++) acc = f(acc + f((x[p * K + k] as number) * (dz[p * H + h] as number)));
      w[k * H + h] = acc;
    }
    for (let h = 0; h < H; h++) { let acc = 0; for (let p = 0; p < P; p++) acc = f(acc + (dz[p * H + h] as number)); b[h] = acc; }
    return { w, b };
  }

  const noisy = (n: number, seed: number) => Float32Array.from({ length: n }, (_, i) => Math.sin(i * 12.9898 + seed) * 43758.5453 % 1 * 3);

  // Shapes of the policy's layers (K = 16, 28, 45, 64; H = 64, 128, 1), a remainder of K mod 4, fewer
  // rows than a chunk of 64 and more than several, and no rows at all.
  it.each([[2752, 64, 64], [130, 45, 64], [7, 28, 64], [200, 16, 128], [65, 5, 8], [64, 64, 1], [131, 45, 1], [3, 3, 1], [0, 16, 8], [0, 6, 1]])(
    'the weight-gradient kernel at P = %i, K = %i, H = %i gives the plain loop\'s sums bit for bit', async (P, K, H) => {
      expect(canRunWeightGrad(H)).toBe(true);
      const xv = noisy(P * K, 1), dv = noisy(P * H, 2);
      const x = tf.tensor2d(xv, [P, K]), dz = tf.tensor2d(dv, [P, H]);
      const [w, b] = weightGradKernel(x, dz);
      const [wOnly] = weightGradKernel(x, dz, false);
      expect(w.shape).toEqual([K, H]);
      expect(b.shape).toEqual([H]);
      const want = plainWeightGrad(xv, dv, P, K, H);
      expect(Array.from(await w.data())).toEqual(Array.from(want.w));
      expect(Array.from(await b.data())).toEqual(Array.from(want.b));
      expect(Array.from(await wOnly.data())).toEqual(Array.from(want.w));
      // tfjs-wasm's own product (XNNPACK) sums in the same order: the same values, so training reproduces with the kernel or without.
      if (P > 0) {
        const viaMatMul = tf.matMul(tf.transpose(x), dz);
        const viaOnes = tf.matMul(tf.ones([1, P]), dz); // the bias gradient as dense.ts computes it elsewhere (columnSums)
        expect(Array.from(await viaMatMul.data())).toEqual(Array.from(want.w));
        expect(Array.from(await viaOnes.data())).toEqual(Array.from(want.b));
        tf.dispose([viaMatMul, viaOnes]);
      }
      tf.dispose([x, dz, w, b, wOnly]);
    });

  /** act(x·W + b) the plain way: b, then + x·w in k order with float32 rounding after every step, then the added row, then max(0, ·). */
  function plainDense(x: Float32Array, w: Float32Array, b: Float32Array | null, M: number, K: number, H: number, relu: boolean, add?: { rows: Float32Array; idx: Int32Array }): Float32Array {
    const f = Math.fround, out = new Float32Array(M * H);
    for (let m = 0; m < M; m++) for (let h = 0; h < H; h++) {
      let acc = b ? (b[h] as number) : 0;
      for (let k = 0; k < K; k++) acc = f(acc + f((x[m * K + k] as number) * (w[k * H + h] as number)));
      if (add) acc = f(acc + (add.rows[(add.idx[m] as number) * H + h] as number));
      out[m * H + h] = relu ? Math.max(0, acc) : acc;
    }
    return out;
  }

  // The layers' shapes: a decision batch's rows (M), input widths K = 16 (tools), 28 (state), 64; widths H = 64, 128, 8; M mod 4 ≠ 0.
  it.each([[2752, 64, 64], [97, 28, 64], [5, 16, 64], [130, 64, 128], [3, 45, 8], [1, 16, 64]])(
    'the dense kernel at M = %i, K = %i, H = %i gives the plain loop\'s values and tfjs-wasm\'s own ops\' bit for bit', async (M, K, H) => {
      expect(canRunDense(H)).toBe(true);
      const xv = noisy(M * K, 7), wv = noisy(K * H, 8), bv = noisy(H, 9);
      const R = Math.ceil(M / 5), rowsV = noisy(R * H, 10), idxV = Int32Array.from({ length: M }, (_, i) => (i * 7) % R);
      const x = tf.tensor2d(xv, [M, K]), w = tf.tensor2d(wv, [K, H]), b = tf.tensor1d(bv);
      const rows = tf.tensor2d(rowsV, [R, H]), idx = tf.tensor2d(idxV, [M, 1], 'int32');
      const fused = (act: 'relu' | 'linear') => tf.reshape(tf.engine().runKernel('_FusedMatMul', { a: tf.reshape(x, [1, M, K]), b: tf.reshape(w, [1, K, H]), bias: b } as unknown as tf.NamedTensorMap, { transposeA: false, transposeB: false, activation: act } as unknown as tf.NamedAttrMap) as tf.Tensor, [M, H]);
      const cases: [tf.Tensor, Float32Array, tf.Tensor][] = [
        [denseKernel(x, w, b, true), plainDense(xv, wv, bv, M, K, H, true), fused('relu')],
        [denseKernel(x, w, b, false), plainDense(xv, wv, bv, M, K, H, false), fused('linear')],
        [denseKernel(x, w, null, false), plainDense(xv, wv, null, M, K, H, false), tf.matMul(x, w)],
        [denseKernel(x, w, null, true, { rows, rowIdx: idx }), plainDense(xv, wv, null, M, K, H, true, { rows: rowsV, idx: idxV }), tf.relu(tf.add(tf.matMul(x, w), tf.gatherND(rows, idx)))],
      ];
      for (const [got, plain, viaTf] of cases) {
        expect(got.shape).toEqual([M, H]);
        const [g, t] = await Promise.all([got.data(), viaTf.data()]);
        expect(Array.from(g)).toEqual(Array.from(plain));
        expect(Array.from(g)).toEqual(Array.from(t));
      }
      tf.dispose([x, w, b, rows, idx, ...cases.flatMap(([a, , c]) => [a, c])]);
    });

  // An output layer (one column, a bias, linear): rows in blocks of 4 and a remainder, K a multiple of 4 or not.
  it.each([[2752, 64], [97, 64], [3, 64], [1, 64], [50, 30], [9, 3]])('the dense kernel for an output layer at M = %i, K = %i gives the plain loop\'s values and tfjs-wasm\'s _FusedMatMul\'s bit for bit', async (M, K) => {
    expect(canRunDense(1, true)).toBe(true);
    const xv = noisy(M * K, 11), wv = noisy(K, 12), bv = noisy(1, 13);
    const x = tf.tensor2d(xv, [M, K]), w = tf.tensor2d(wv, [K, 1]), b = tf.tensor1d(bv);
    const got = denseKernel(x, w, b, false);
    const viaTf = tf.reshape(tf.engine().runKernel('_FusedMatMul', { a: tf.reshape(x, [1, M, K]), b: tf.reshape(w, [1, K, 1]), bias: b } as unknown as tf.NamedTensorMap, { transposeA: false, transposeB: false, activation: 'linear' } as unknown as tf.NamedAttrMap) as tf.Tensor, [M, 1]);
    expect(got.shape).toEqual([M, 1]);
    const [g, t] = await Promise.all([got.data(), viaTf.data()]);
    expect(Array.from(g)).toEqual(Array.from(plainDense(xv, wv, bv, M, K, 1, false)));
    expect(Array.from(g)).toEqual(Array.from(t));
    tf.dispose([x, w, b, got, viaTf]);
  });

  it('the ReLU-gradient kernel gives tfjs\'s mul(dy, step(y)) bit for bit, NaN, ±0 and a tail past a multiple of 4 included', async () => {
    expect(wasmKernelsReady()).toBe(true);
    const yv = Float32Array.from([1.5, 0, -0, -2, NaN, 3e-39, -3e-39, 7, 0.25, NaN, -1]);
    const dv = Float32Array.from([2, -3, 4, 5, -6, 7, 8, -9, NaN, 1, -1]);
    const y = tf.tensor2d(yv, [1, 11]), dy = tf.tensor2d(dv, [1, 11]);
    const [gotT, viaTfT] = [reluGradKernel(dy, y), tf.tidy(() => tf.mul(dy, tf.step(y)))];
    const [got, viaTf] = await Promise.all([gotT.data(), viaTfT.data()]);
    // By hand: dy where y > 0, 0 (signed as dy·0) where y ≤ 0, NaN where y or dy is NaN.
    const want = Array.from(yv, (v, i) => (dv[i] as number) * (Number.isNaN(v) ? NaN : v > 0 ? 1 : 0));
    expect(Array.from(got)).toEqual(want);
    expect(Array.from(got)).toEqual(Array.from(viaTf));
    tf.dispose([y, dy, gotT, viaTfT]);
  });

  it.each([[2752, 28, 64, 600], [130, 28, 64, 7], [5, 3, 8, 2], [0, 28, 64, 4]])('the weight-gradient kernel over gathered rows (P = %i, K = %i, H = %i from %i rows) gives the plain loop\'s sums bit for bit', async (P, K, H, R) => {
    const xv = noisy(R * K, 14), dv = noisy(P * H, 15), rowsV = Int32Array.from({ length: P }, (_, p) => (p * 13 + 5) % R);
    const gatheredV = new Float32Array(P * K);
    for (let p = 0; p < P; p++) for (let k = 0; k < K; k++) gatheredV[p * K + k] = xv[(rowsV[p] as number) * K + k] as number;
    const x = tf.tensor2d(xv, [R, K]), dz = tf.tensor2d(dv, [P, H]), rows = tf.tensor2d(rowsV, [P, 1], 'int32');
    const [w] = weightGradKernel(x, dz, false, rows);
    expect(w.shape).toEqual([K, H]);
    const got = Array.from(await w.data());
    expect(got).toEqual(Array.from(plainWeightGrad(gatheredV, dv, P, K, H).w));
    if (P > 0) {
      const viaTf = tf.matMul(tf.transpose(tf.gatherND(x, rows) as tf.Tensor2D), dz);
      expect(got).toEqual(Array.from(await viaTf.data()));
      viaTf.dispose();
    }
    tf.dispose([x, dz, rows, w]);
  });

  it('FlatAdam\'s step on wasm (one kernel) gives its op-by-op step\'s weights, moments and norm bit for bit, an infinite and a NaN gradient included', async () => {
    const shapes = [[3, 5], [7], [2, 2]];
    const run = async (kernels: boolean) => {
      setWasmKernelsEnabled(kernels);
      try {
        const w = shapes.map((sh, i) => tf.variable(tf.tensor(noisy(sh.reduce((a, b) => a * b, 1), 20 + i), sh)));
        const opt = new FlatAdam(0.01);
        const seen: number[][] = [];
        for (const [step, scale, maxNorm] of [[1, 10, 1], [2, 0.1, 1], [3, 0.5, 2], [4, Infinity, 1], [5, NaN, 1]] as const) {
          const grads = Object.fromEntries(w.map((x, i) => [x.name, tf.tensor(Float32Array.from(noisy(x.size, 40 + 10 * step + i), (g, j) => (j === 0 && i === 1 ? g * scale : g)), shapes[i])]));
          const norm = tf.tidy(() => opt.applyClipped(w, grads, maxNorm));
          const moments = opt as unknown as { m: tf.Variable; v: tf.Variable };
          seen.push(Array.from(await norm.data()), Array.from(await moments.m.data()), Array.from(await moments.v.data()));
          for (const x of w) seen.push(Array.from(await x.data()));
          tf.dispose([norm, ...Object.values(grads)]);
        }
        opt.dispose();
        tf.dispose(w);
        return seen;
      } finally {
        setWasmKernelsEnabled(true);
      }
    };
    expect(await run(true)).toEqual(await run(false));
  });

  it('FlatAdam\'s step on wasm (one kernel) gives a plain float32 loop\'s weights, moments and norm bit for bit: three steps, the clip active in the first', async () => {
    const f = Math.fround, shapes = [[3, 5], [7], [2, 2]];
    const wv = shapes.map((sh, i) => noisy(sh.reduce((a, b) => a * b, 1), 20 + i));
    const w = shapes.map((sh, i) => tf.variable(tf.tensor(wv[i] as Float32Array, sh)));
    const opt = new FlatAdam(0.01);
    const total = wv.reduce((n, x) => n + x.length, 0), m = new Float32Array(total), v = new Float32Array(total), plainW = wv.map((x) => Float32Array.from(x));
    const eps = tf.backend().epsilon();
    for (const [step, scale, maxNorm] of [[1, 10, 1], [2, 0.1, 1], [3, 0.5, 2]] as const) {
      const gv = shapes.map((sh, i) => Float32Array.from(noisy(sh.reduce((a, b) => a * b, 1), 40 + 10 * step + i), (x) => x * scale));
      const grads = Object.fromEntries(w.map((x, i) => [x.name, tf.tensor(gv[i] as Float32Array, shapes[i])]));
      const norm = tf.tidy(() => opt.applyClipped(w, grads, maxNorm));
      // The plain way, in the order flatAdam.ts's ops take: Σ g² over the weights in order, √, the clip, then Adam per element.
      let sum = 0;
      for (const g of gv) for (const x of g) sum = f(sum + f(x * x));
      const n = f(Math.sqrt(sum)), q = f(f(maxNorm) / f(n + f(1e-6))), clip = q < 1 ? q : 1;
      let k = 0; // the element's place in the flat moments
      gv.forEach((g, t) => {
        const pw = plainW[t] as Float32Array;
        g.forEach((x, j) => {
          const gc = f(x * clip);
          m[k] = f(f((m[k] as number) * f(0.9)) + f(gc * f(1 - 0.9)));
          v[k] = f(f((v[k] as number) * f(0.999)) + f(f(gc * gc) * f(1 - 0.999)));
          const mHat = f((m[k] as number) / f(1 - 0.9 ** step)), vHat = f((v[k] as number) / f(1 - 0.999 ** step));
          pw[j] = f(f(f(mHat / f(f(Math.sqrt(vHat)) + f(eps))) * f(-0.01)) + (pw[j] as number));
          k++;
        });
      });
      expect((await norm.data())[0]).toBe(n);
      for (let t = 0; t < w.length; t++) expect(Array.from(await (w[t] as tf.Variable).data())).toEqual(Array.from(plainW[t] as Float32Array));
      tf.dispose([norm, ...Object.values(grads)]);
    }
    opt.dispose();
    tf.dispose(w);
  });

  it('the divergence guard still sees an update that overflows on wasm (the Adam kernel writes the non-finite weights) and restores the weights', async () => {
    expect(wasmKernelsReady()).toBe(true);
    const r = await divergenceCheck();
    expect(r.backend).toBe('wasm');
    expect(r.diverged?.nonFiniteWeights).toBeGreaterThan(0);
    expect(r.maxWeightChange).toBe(0);
    expect(r.nonFiniteAfter).toBe(0);
  });

  it('training gives the same weights and metrics with the kernels and without them (20 iterations, every kernel on its path)', async () => {
    const catalog = presetCatalog('toolorchestra');
    const cfg = { ...DEFAULT_TRAIN, batchTasks: 6, seed: 5 };
    const train = async (kernels: boolean) => {
      setWasmKernelsEnabled(kernels);
      expect(wasmKernelsReady()).toBe(kernels);
      const trainer = new GrpoTrainer(catalog, cfg, trainingPool(catalog, cfg));
      try {
        const metrics: number[] = [];
        for (let i = 0; i < 20; i++) { const m = await trainer.step(); metrics.push(m.meanReward, m.accuracy, m.loss, m.gradNorm, m.entropy); }
        const weights: number[][] = [];
        for (const v of trainer.net.vars) weights.push(Array.from(await v.data()));
        return { metrics, weights };
      } finally {
        trainer.dispose();
        setWasmKernelsEnabled(true);
      }
    };
    const withKernels = await train(true), withoutThem = await train(false);
    expect(withKernels.metrics).toEqual(withoutThem.metrics);
    expect(withKernels.weights).toEqual(withoutThem.weights);
  });

  it('the kernels run only where they can: the wasm backend; H = 1 or a multiple of 8 (gradient), a multiple of 8 (forward)', async () => {
    expect(canRunWeightGrad(64)).toBe(true);
    expect(canRunWeightGrad(1)).toBe(true);
    expect(canRunWeightGrad(12)).toBe(false);
    expect(canRunWeightGrad(0)).toBe(false);
    expect(canRunDense(64)).toBe(true);
    expect(canRunDense(1)).toBe(false);
    expect(canRunDense(1, true)).toBe(true);
    expect(canRunDense(12)).toBe(false);
    await tf.setBackend('cpu');
    try {
      expect(canRunWeightGrad(64)).toBe(false);
      expect(canRunDense(64)).toBe(false);
      expect(canRunDense(1, true)).toBe(false);
      expect(wasmKernelsReady()).toBe(false);
    } finally {
      await tf.setBackend('wasm');
    }
  });

  it('the kernels keep nothing: neither tensors nor the backend\'s buffers (their scratch included)', () => {
    const x = tf.tensor2d(noisy(300 * 64, 3), [300, 64]), dz = tf.tensor2d(noisy(300 * 64, 4), [300, 64]);
    const w = tf.variable(tf.tensor2d(noisy(64 * 8, 5), [64, 8])), opt = new FlatAdam(0.01);
    tf.tidy(() => opt.applyClipped([w], { [w.name]: tf.ones([64, 8]) }, 1)); // the moments exist from here on
    const before = { tensors: tf.memory().numTensors, buffers: tf.backend().numDataIds() };
    tf.tidy(() => {
      weightGradKernel(x, dz);
      weightGradKernel(x, dz, false);
      denseKernel(x, w, null, true);
      reluGradKernel(x, dz);
      opt.applyClipped([w], { [w.name]: tf.ones([64, 8]) }, 1);
    });
    expect(tf.memory().numTensors).toBe(before.tensors);
    expect(tf.backend().numDataIds()).toBe(before.buffers);
    opt.dispose();
    tf.dispose([x, dz, w]);
  });

  it('a kernel refuses inputs it would read or write past, with a message, and allocates nothing', () => {
    const x = tf.tensor2d(noisy(10 * 16, 6), [10, 16]), dz = tf.tensor2d(noisy(10 * 12, 7), [10, 12]), rows = tf.tensor2d([0, 1, 2, 3, 4, 5, 6, 7, 8, 99], [10, 1], 'int32');
    const before = tf.backend().numDataIds();
    expect(() => weightGradKernel(x, dz)).toThrow(/H = 12: 1 or a multiple of 8/);
    expect(() => weightGradKernel(x, tf.tensor2d(noisy(10 * 8, 8), [10, 8]), false, rows)).toThrow(/row indices must be 10 int32 values in \[0, 10\)/);
    expect(() => denseKernel(x, tf.ones([15, 8]) as tf.Tensor2D, null, false)).toThrow(/x has 16 columns, W 15 rows/);
    expect(() => denseKernel(x, tf.ones([16, 8]) as tf.Tensor2D, tf.ones([7]), false)).toThrow(/the bias has 7 values for 8 columns/);
    expect(() => denseKernel(x, tf.ones([16, 8]) as tf.Tensor2D, null, true, { rows: tf.ones([3, 8]) as tf.Tensor2D, rowIdx: rows })).toThrow(/row indices must be 10 int32 values in \[0, 3\)/);
    // Only the inputs made inside the expectations are new; the kernels allocated nothing.
    expect(tf.backend().numDataIds()).toBe(before + 6);
    tf.dispose([x, dz, rows]);
  });

  it('after the wasm backend is made anew (backend recovery: a new heap), the kernel reads the new heap', async () => {
    const heap = () => (tf.backend() as unknown as { wasm: { asm: { memory: WebAssembly.Memory } } }).wasm.asm.memory;
    const before = heap();
    await recreateActiveBackend();
    expect(heap()).not.toBe(before);
    const xv = noisy(70 * 16, 5), dv = noisy(70 * 8, 6);
    const x = tf.tensor2d(xv, [70, 16]), dz = tf.tensor2d(dv, [70, 8]);
    const [w, b] = weightGradKernel(x, dz);
    const want = plainWeightGrad(xv, dv, 70, 16, 8);
    expect(Array.from(await w.data())).toEqual(Array.from(want.w));
    expect(Array.from(await b.data())).toEqual(Array.from(want.b));
    tf.dispose([x, dz, w, b]);
  });

  it('the shipped kernel bytes are the compile of kernels.wat (run scripts/build-kernels.mjs after editing it)', async () => {
    const source = readFileSync(new URL('../src/core/kernels/kernels.wat', import.meta.url), 'utf8');
    expect(await compileWat(source, 'kernels.wat')).toBe(KERNELS_WASM);
  });
});
