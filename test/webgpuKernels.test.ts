// The parts of the WGSL kernels' path that run in Node (the kernels themselves run in the browser:
// e2e/webgpu.spec.ts checks them against tfjs's ops and wasm): the flat padded layout of the weights,
// the workspace's regions as the JS and the WGSL compute them, the update's packed decision rows,
// FlatAdam's step scalars for the kernels, the dispatch counter, and that nothing of it runs off WebGPU.

import { beforeAll, describe, expect, it } from 'vitest';
import type * as TF from '@tensorflow/tfjs-core';
import { paramLayout } from '../src/core/kernels/webgpuParams';
import { GRAD_CHUNKS, layoutWgsl, workspaceRegions } from '../src/core/kernels/webgpuLayout';
import { webgpuKernelsReady } from '../src/core/kernels/webgpuKernels';
import { packUpdate } from '../src/core/grpo/webgpuUpdate';
import { updateCols } from '../src/core/kernels/webgpuTraining';
import { RolloutBuffer } from '../src/core/grpo/rollout';
import { FlatAdam } from '../src/core/grpo/flatAdam';
import { PolicyNetwork } from '../src/core/policy/network';
import { countDispatches } from '../src/core/bench/dispatchCount';
import { STATE_DIM, TOOL_DIM } from '../src/core/policy/features';
import { SeqRng } from '../src/core/sim/rng';
import { useCpu } from './tfSetup';

let tf: typeof TF;
beforeAll(async () => { tf = await useCpu(); });

describe('the weights\' flat padded layout', () => {
  it('keeps the network\'s order, starts every weight at a multiple of four floats, and pads only after a weight', () => {
    for (const [width, depth] of [[64, 2], [16, 1], [12, 3]] as const) {
      const net = new PolicyNetwork({ width, depth, seed: 1 });
      const layout = paramLayout({ width, depth });
      expect(layout.names).toEqual(net.names);
      let at = 0, real = 0;
      net.vars.forEach((v, i) => {
        expect(layout.sizes[i]).toBe(v.size);
        expect(layout.offsets[i]).toBe(at);
        expect((layout.offsets[i] as number) % 4).toBe(0);
        expect(layout.at(net.names[i] as string)).toBe(at);
        at += Math.ceil(v.size / 4) * 4;
        real += v.size;
      });
      expect(layout.padded).toBe(at);
      expect(layout.real).toBe(real);
      expect(() => layout.at('nope')).toThrow(/no weight nope/);
      net.dispose();
    }
  });
});

/** The WGSL region functions evaluated in JS (each is `fn NAME(args) -> i32 { return EXPR; }`). */
type Fn = (...a: number[]) => number;

function wgslRegions(M: number, Pb: number, H: number, L: number, PADDED: number): Record<string, Fn> {
  const fns: Record<string, Fn> = {};
  const src = layoutWgsl();
  for (const m of src.matchAll(/fn (\w+)\(([^)]*)\) -> i32 \{ return ([^;]+); \}/g)) {
    const args = (m[2] as string).split(',').map((a) => a.split(':')[0]?.trim()).filter((a): a is string => !!a);
    const body = (m[3] as string).replace(/uniforms\.(\w+)/g, (_, k: string) => String({ M, Pb }[k as 'M' | 'Pb']));
    const f = new Function('H', 'L', 'PADDED', 'f', ...args, `with (f) { return Math.trunc(${body}); }`);
    fns[m[1] as string] = f.bind(null, H, L, PADDED, fns) as Fn;
  }
  return fns;
}

describe('the workspace\'s regions', () => {
  it('are the same in the JS and in the WGSL, in order, without overlap, and fill the update\'s size', () => {
    for (const [H, L, M, Pb] of [[64, 2, 1216, 8128], [16, 1, 16, 16], [32, 3, 64, 128]] as const) {
      const padded = paramLayout({ width: H, depth: L }).padded;
      const js = workspaceRegions({ H, L }, M, Pb, padded);
      const w = wgslRegions(M, Pb, H, L, padded);
      expect(w.HS?.()).toBe(js.hs);
      for (let l = 0; l < L; l++) expect(w.ACT?.(l)).toBe(js.act(l));
      expect(w.TERMS?.()).toBe(js.terms);
      expect(w.DSC?.()).toBe(js.dsc);
      expect(w.DSUB?.()).toBe(js.dsub);
      expect([w.DZ?.(0), w.DZ?.(1)]).toEqual([js.dz(0), js.dz(1)]);
      expect(w.GRAD?.(0)).toBe(js.grad);
      // Each region ends where the next begins: HS [M, H], L levels [Pb + M, H], terms [M, 8], DSC [Pb],
      // DSUB [M], two DZ, the gradient's chunks.
      const level = (Pb + M) * H;
      const ends: [number, number][] = [
        [js.hs, M * H], ...Array.from({ length: L }, (_, l): [number, number] => [js.act(l), level]), [js.terms, 8 * M],
        [js.dsc, Pb], [js.dsub, M], [js.dz(0), level], [js.dz(1), level], [js.grad, GRAD_CHUNKS * padded],
      ];
      ends.slice(1).forEach(([start], i) => {
        const [before, size] = ends[i] as [number, number];
        expect(start).toBe(before + size);
      });
      expect(js.update).toBe(js.grad + GRAD_CHUNKS * padded);
      expect(js.forward).toBe(js.act(L));
      for (const [start] of ends) expect(start % 4).toBe(0);
    }
  });
});

describe('the update\'s packed decisions', () => {
  it('hold, for each decision of weight > 0 in order, its state, mask bias, action, old log-prob, advantage and weights; padding rows have weight 0', () => {
    const T = 2, N = 3, J = 4, A = J + 1;
    const buf = new RolloutBuffer(T, N, J);
    const rng = new SeqRng(3);
    buf.state.forEach((_, i) => { buf.state[i] = rng.next(); });
    buf.tools.forEach((_, i) => { buf.tools[i] = rng.next(); });
    for (let m = 0; m < T * N; m++) {
      for (let a = 0; a < A; a++) buf.bias[m * A + a] = a === J || (m + a) % 2 === 0 ? 0 : -1e9;
      buf.actions[m] = J;
      buf.logp[m] = -0.1 * m;
      buf.valid[m] = 1;
    }
    const weight = Float32Array.from([0, 0.5, 0, 0.25, 0.25, 0]);
    const advantage = Float32Array.from([1, 2, 3, 4, 5, 6]), tokenWeight = Float32Array.from([0, 0.3, 0, 0.3, 0.4, 0]);
    const { data, M, cols, packed } = packUpdate({ buf, weight, advantage, tokenWeight, bucket: 4 });
    expect(M).toBe(4);
    expect(cols).toBe(updateCols(STATE_DIM, A));
    expect(cols).toBe(STATE_DIM + A + 5);
    const trained = [1, 3, 4];
    trained.forEach((m, r) => {
      const row = Array.from(data.subarray(r * cols, (r + 1) * cols));
      expect(row.slice(0, STATE_DIM)).toEqual(Array.from(buf.state.subarray(m * STATE_DIM, (m + 1) * STATE_DIM)));
      expect(row.slice(STATE_DIM, STATE_DIM + A)).toEqual(Array.from(buf.bias.subarray(m * A, (m + 1) * A)));
      const fields = [J, buf.logp[m], advantage[m], weight[m], tokenWeight[m]] as number[];
      expect(row.slice(STATE_DIM + A)).toEqual(fields.map((x) => Math.fround(x)));
    });
    expect(Array.from(data.subarray(3 * cols, 4 * cols)).every((x) => x === 0)).toBe(true);
    // Each trained decision's allowed tools, in order, are its pairs.
    const tools = Array.from({ length: J }, (_, j) => j);
    const allowed = trained.flatMap((m, r) => tools.filter((j) => buf.bias[m * A + j] === 0).map((j) => [r, m, j] as const));
    expect(packed.pairCount).toBe(allowed.length);
    allowed.forEach(([r, m, j], p) => {
      expect(packed.pairRow[p]).toBe(r);
      const want = buf.tools.subarray((m * J + j) * TOOL_DIM, (m * J + j + 1) * TOOL_DIM);
      expect(Array.from(packed.pairs.subarray(p * TOOL_DIM, (p + 1) * TOOL_DIM))).toEqual(Array.from(want));
    });
  });
});

describe('off WebGPU', () => {
  it('the kernels do not run: the network takes tfjs\'s ops', () => {
    expect(webgpuKernelsReady()).toBe(false);
    const net = new PolicyNetwork({ width: 16, depth: 2, seed: 1 });
    expect(net.onKernels()).toBe(false);
    net.dispose();
  });

  it('FlatAdam gives the kernels each step\'s scalars with exact bias corrections, and one state per list of weights', () => {
    const net = new PolicyNetwork({ width: 8, depth: 1, seed: 1 });
    const opt = new FlatAdam(0.01);
    const s1 = opt.nextStep(2), s2 = opt.nextStep(2);
    expect([s1.biasCorrection1, s1.biasCorrection2]).toEqual([1 - 0.9, 1 - 0.999]);
    expect([s2.biasCorrection1, s2.biasCorrection2]).toEqual([1 - 0.9 * 0.9, 1 - 0.999 * 0.999]);
    expect([s2.maxNorm, s2.learningRate, s2.beta1, s2.beta2]).toEqual([2, 0.01, 0.9, 0.999]);
    const padded = paramLayout({ width: 8, depth: 1 }).padded;
    const a = opt.deviceState(net.vars, padded);
    expect(a.shape).toEqual([3 * padded]);
    expect(opt.deviceState(net.vars, padded)).toBe(a);
    const before = tf.memory().numTensors;
    opt.dispose();
    expect(a.isDisposed).toBe(true);
    expect(tf.memory().numTensors).toBe(before - 1);
    net.dispose();
  });
});

describe('the dispatch counter', () => {
  it('counts the kernels the engine runs on cpu, by name, and puts the engine back when stopped', () => {
    const engine = tf.engine() as unknown as Record<string, unknown>;
    const own = Object.prototype.hasOwnProperty.call(engine, 'runKernel');
    const a = tf.tensor2d([[1, 2], [3, 4]]), b = tf.tensor2d([[5], [6]]);
    const count = countDispatches();
    const out = tf.tidy(() => tf.relu(tf.add(tf.matMul(a, b), 1)));
    count.stop();
    expect(count.byName.get('BatchMatMul')).toBe(1);
    expect(count.byName.get('Add')).toBe(1);
    expect(count.byName.get('Relu')).toBe(1);
    expect(count.total).toBe([...count.byName.values()].reduce((x, y) => x + y, 0));
    expect(count.copies).toBe(0);
    expect(Object.prototype.hasOwnProperty.call(engine, 'runKernel')).toBe(own);
    const total = count.total;
    tf.dispose(tf.add(a, a));
    expect(count.total).toBe(total);
    tf.dispose([a, b, out]);
  });
});
