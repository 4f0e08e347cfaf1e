import { beforeAll, describe, expect, it } from 'vitest';
import type * as TF from '@tensorflow/tfjs-core';
import { DEFAULT_TRAIN, learningRateAt, linearDecay, type TrainConfig } from '../src/core/grpo/config';
import { GrpoTrainer } from '../src/core/grpo/trainer';
import { DEFAULT_SIM } from '../src/core/sim/callModel';
import { presetCatalog } from '../src/core/sim/presets';
import { generateTasks } from '../src/core/sim/tasks';
import { useCpu } from './tfSetup';

let tf: typeof TF;
beforeAll(async () => { tf = await useCpu(); });

describe('learning-rate decay', () => {
  it('is full until its start, then falls in equal steps to 0 at its end (worked by hand)', () => {
    const cfg = { learningRate: 0.01, lrDecay: { start: 6, end: 10 } };
    expect([0, 5, 6].map((k) => learningRateAt(cfg, k))).toEqual([0.01, 0.01, 0.01]);
    // (10 − k)/(10 − 6) of 0.01: 3/4, 2/4, 1/4, then 0 from the end on.
    expect(learningRateAt(cfg, 7)).toBeCloseTo(0.0075, 12);
    expect(learningRateAt(cfg, 8)).toBeCloseTo(0.005, 12);
    expect(learningRateAt(cfg, 9)).toBeCloseTo(0.0025, 12);
    expect(learningRateAt(cfg, 10)).toBe(0);
    expect(learningRateAt(cfg, 12)).toBe(0);
    expect(learningRateAt({ learningRate: 0.01, lrDecay: null }, 1e6)).toBe(0.01);
  });

  it('over the last fraction of a run: 0.4 of 1000 iterations starts at 600; 0 is none; 1 is the whole run', () => {
    expect(linearDecay(1000, 0.4)).toEqual({ start: 600, end: 1000 });
    expect(linearDecay(1000, 0)).toBeNull();
    expect(linearDecay(10, 1)).toEqual({ start: 0, end: 10 });
    expect(() => linearDecay(10, 1.5)).toThrow(/\[0, 1\]/);
    expect(() => linearDecay(10, Number.NaN)).toThrow(/\[0, 1\]/);
  });

  it('scales the update it applies: at half the rate an Adam step moves each weight half as far, and at 0 not at all', async () => {
    const catalog = presetCatalog('toolorchestra');
    const pool = generateTasks(catalog, { seed: 21, count: 200 }).tasks;
    const small: TrainConfig = { ...DEFAULT_TRAIN, epochs: 1, batchTasks: 4, groupSize: 4, policy: { width: 8, depth: 2, seed: 3 }, sim: { ...DEFAULT_SIM, maxTurns: 8 } };
    // One epoch: a second would start from weights the two runs have already moved apart.
    const constant = new GrpoTrainer(catalog, small, pool);
    // Iterations 0–3 at the full rate (the same as `constant`), iteration 4 (the first that trains
    // with this seed) at (5 − 4)/(5 − 3) = 1/2, from 5 on 0.
    const decayed = new GrpoTrainer(catalog, { ...small, lrDecay: { start: 3, end: 5 } }, pool);
    const flat = async (t: GrpoTrainer) => Float32Array.from(await tf.concat(t.net.vars.map((v) => tf.reshape(v, [-1]))).data());
    for (let k = 0; k < 4; k++) {
      const [a, b] = [await constant.step(), await decayed.step()];
      expect(b.learningRate).toBe(small.learningRate);
      expect(a.learningRate).toBe(small.learningRate);
    }
    const before = await flat(decayed);
    expect(Array.from(await flat(constant))).toEqual(Array.from(before)); // same seed, same rate: the same weights so far
    const [a, b] = [await constant.step(), await decayed.step()];
    expect(a.decisions.trained).toBeGreaterThan(0); // this iteration does update
    expect(b.learningRate).toBeCloseTo(small.learningRate / 2, 15);
    const [wa, wb] = [await flat(constant), await flat(decayed)];
    let full = 0, off = 0;
    for (let i = 0; i < before.length; i++) {
      const da = (wa[i] as number) - (before[i] as number), db = (wb[i] as number) - (before[i] as number);
      full += Math.abs(da);
      off += Math.abs(db - da / 2);
    }
    expect(full).toBeGreaterThan(0);
    expect(off / full).toBeLessThan(1e-3); // float32 rounding of w + step only
    // Past the end the rate is 0: through iterations 5–7 (7 trains) the weights stay exactly where they are.
    const last = await flat(decayed);
    let trained = 0;
    for (let k = 5; k < 8; k++) {
      const m = await decayed.step();
      expect(m.learningRate).toBe(0);
      trained += m.decisions.trained;
    }
    expect(trained).toBeGreaterThan(0);
    expect(Array.from(await flat(decayed))).toEqual(Array.from(last));
    constant.dispose();
    decayed.dispose();
  }, 60_000);
});
