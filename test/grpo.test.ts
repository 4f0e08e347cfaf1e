import { beforeAll, describe, expect, it } from 'vitest';
import { slotsOf } from '../src/core/sim/slots';
import type * as TF from '@tensorflow/tfjs-core';
import { DEFAULT_TRAIN, type TrainConfig } from '../src/core/grpo/config';
import { disposeBatch, grpoLoss, type LossConfig } from '../src/core/grpo/loss';
import { collectRollouts, RolloutBuffer, toDecisionBatch } from '../src/core/grpo/rollout';
import { GrpoTrainer } from '../src/core/grpo/trainer';
import { scalarMetrics } from '../src/cli/commands/train';
import { fillGumbel, sampleRow } from '../src/core/policy/act';
import { catalogScales } from '../src/core/policy/features';
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
/** P = outcome 1, cost 0.5 for every slot, in M's order (tools…, outcome, cost, latency). */
const prefRows = (n: number): Float32Array => {
  const P = catalog.tools.length + 3;
  const rows = new Float32Array(n * P);
  for (let i = 0; i < n; i++) { rows[i * P + P - 3] = 1; rows[i * P + P - 2] = 0.5; }
  return rows;
};
const pool = generateTasks(catalog, { seed: 21, count: 200 }).tasks;
const small: TrainConfig = { ...DEFAULT_TRAIN, batchTasks: 4, groupSize: 4, policy: { width: 8, depth: 2, seed: 3 }, sim: { ...DEFAULT_SIM, maxTurns: 8 } };

describe('GRPO surrogate gradient', () => {
  it('autodiff matches central finite differences on a tiny policy (clip, KL and entropy terms on)', async () => {
    const net = new PolicyNetwork({ width: 4, depth: 2, seed: 5 });
    const sim = { ...DEFAULT_SIM, maxTurns: 4 };
    const env = new BatchEnv(catalog, sim, 6);
    const buf = new RolloutBuffer(sim.maxTurns, 6, env.nSlots);
    await collectRollouts(net, env, catalogScales(catalog, env.slots), pool.slice(0, 6), [1, 2, 3, 4, 5, 6], prefRows(6), buf, new SeqRng(9), 0);
    // Move π_old away from π so ratios spread over and beyond the clip range.
    const rng = new SeqRng(4);
    for (let i = 0; i < buf.logp.length; i++) buf.logp[i] += (rng.next() - 0.5) * 0.8;
    const M = buf.turns * buf.slots;
    const adv = Float32Array.from({ length: M }, () => rng.next() * 2 - 1);
    const valid = Array.from(buf.valid).reduce((a, v) => a + v, 0);
    const weight = Float32Array.from(buf.valid, (v) => v / valid);
    const batch = toDecisionBatch(buf, adv, weight);
    batch.refLogp = tf.tensor1d(Array.from(buf.logp, (x) => x - 0.1));
    const cfg: LossConfig = { epsLow: 0.2, epsHigh: 0.28, beta: 0.1, entropyCoef: 0.05, dualClip: 3 };
    const lossNow = async (): Promise<number> => {
      const l = tf.tidy(() => grpoLoss(net, batch, cfg).total);
      const v = (await l.data())[0] as number;
      l.dispose();
      return v;
    };
    const { grads, value } = tf.variableGrads(() => grpoLoss(net, batch, cfg).total, net.vars);
    value.dispose();
    let checked = 0;
    for (const [k, v] of net.vars.entries()) {
      const g = await (grads[v.name] as TF.Tensor).data();
      const w = await v.data();
      for (const idx of [0, Math.floor(w.length / 2), w.length - 1]) {
        const h = 1e-2;
        const orig = w[idx] as number;
        const set = (x: number) => { const c = Float32Array.from(w); c[idx] = x; v.assign(tf.tensor(c, v.shape)); };
        set(orig + h); const up = await lossNow();
        set(orig - h); const down = await lossNow();
        set(orig);
        const fd = (up - down) / (2 * h);
        expect(Math.abs(fd - (g[idx] as number)), `${net.names[k]}[${idx}] fd ${fd} ad ${g[idx]}`).toBeLessThan(2e-3 + 0.05 * Math.abs(fd));
        checked++;
      }
    }
    expect(checked).toBe(net.vars.length * 3);
    tf.dispose(Object.values(grads));
    disposeBatch(batch);
    net.dispose();
  });

  it('with one on-policy epoch the ratio is 1, so nothing is clipped; with many epochs it is', async () => {
    const tr = new GrpoTrainer(catalog, { ...small, epochs: 1 }, pool);
    const m = await tr.step();
    expect(m.clipFrac).toBe(0);
    expect(Number.isFinite(m.loss)).toBe(true);
    tr.dispose();
    // Later epochs move π away from π_old, so the clip range is reached (a clip fraction stuck at 0 fails here).
    const many = new GrpoTrainer(catalog, { ...small, epochs: 8, learningRate: 0.05 }, pool);
    let clipped = 0, trained = 0;
    // Iterations whose groups are all homogeneous train nothing (and clip nothing): go on until some trained.
    for (let i = 0; i < 12 && trained < 3; i++) {
      const m = await many.step();
      if (m.decisions.trained > 0) trained++;
      clipped = Math.max(clipped, m.clipFrac);
    }
    expect(trained).toBeGreaterThan(0);
    expect(clipped).toBeGreaterThan(0);
    many.dispose();
  });
});

describe('GRPO trainer', () => {
  it('keeps the tensor count flat: the same after iteration 5 and after iteration 50', async () => {
    const tr = new GrpoTrainer(catalog, { ...small, beta: 0.05 }, pool);
    for (let i = 0; i < 5; i++) await tr.step();
    const at5 = tf.memory().numTensors;
    for (let i = 5; i < 50; i++) await tr.step();
    expect(tf.memory().numTensors).toBe(at5);
    tr.dispose();
  }, 120_000);

  it('is deterministic: same seed, same backend → identical metrics', async () => {
    const run = async () => {
      const tr = new GrpoTrainer(catalog, small, pool);
      const out = [];
      for (let i = 0; i < 3; i++) { const { wallMs: _w, timings: _t, ...m } = scalarMetrics(await tr.step()); out.push(m); }
      tr.dispose();
      return out;
    };
    const [a, b] = [await run(), await run()];
    expect(a).toEqual(b);
    const other = new GrpoTrainer(catalog, { ...small, seed: 99, policy: { ...small.policy, seed: 99 } }, pool);
    const { wallMs: _w, timings: _t, ...m } = scalarMetrics(await other.step());
    other.dispose();
    expect(m).not.toEqual(a[0]);
  });

  it('counts the allowed (decision, tool) pairs of the rollouts and of the trained decisions (counted again from the buffer)', async () => {
    const tr = new GrpoTrainer(catalog, small, pool);
    const m = await tr.step();
    const buf = (tr as unknown as { buf: RolloutBuffer }).buf;
    const J = slotsOf(catalog).length, A = J + 1, N = buf.slots;
    // Group g trains unless all its rollouts scored alike (filtered): trained decisions are the valid rows of trained slots.
    let rolloutPairs = 0, decisions = 0;
    const perSlot = new Array<number>(N).fill(0), pairsPerSlot = new Array<number>(N).fill(0);
    for (let t = 0; t < buf.turns; t++) for (let n = 0; n < N; n++) {
      const row = t * N + n;
      if (!buf.valid[row]) continue;
      let k = 0;
      for (let j = 0; j < J; j++) if (buf.bias[row * A + j] === 0) k++;
      rolloutPairs += k; decisions++; perSlot[n]++; pairsPerSlot[n] += k;
    }
    expect(m.decisions.rollout).toBe(decisions);
    expect(m.decisions.rolloutPairs).toBe(rolloutPairs);
    expect(m.decisions.rolloutPairs).toBeLessThan(J * decisions); // some tools are masked
    // The trained pairs are those of some set of whole slots: per-slot sums must add up to both trained counts.
    const G = small.groupSize;
    const groups = Array.from({ length: N / G }, (_, b) => Array.from({ length: G }, (_, g) => b * G + g));
    const trainedGroups = groups.filter((slots) => slots.reduce((a, n) => a + (perSlot[n] as number), 0) > 0);
    const sums = (which: number[][]) => which.flat().reduce((acc, n) => [acc[0] + (perSlot[n] as number), acc[1] + (pairsPerSlot[n] as number)], [0, 0]);
    const match = [...Array(1 << trainedGroups.length).keys()].some((mask) => {
      const [d, p] = sums(trainedGroups.filter((_, i) => mask & (1 << i)));
      return d === m.decisions.trained && p === m.decisions.trainedPairs;
    });
    expect(match).toBe(true);
    tr.dispose();
  });

  it('reports everything the lab charts, and one full group for the inspector', async () => {
    const tr = new GrpoTrainer(catalog, { ...small, preferenceMode: 'random' }, pool);
    const m = await tr.step();
    for (const k of ['meanReward', 'accuracy', 'meanCostUSD', 'meanLatencyS', 'rewardStd', 'meanAbsAdvantage', 'kl', 'entropy', 'clipFrac', 'filteredFrac'] as const) expect(Number.isFinite(m[k]), k).toBe(true);
    expect(m.advantageHistogram.counts.reduce((a, c) => a + c, 0)).toBe(16);
    expect(m.group.trajectories).toHaveLength(4);
    expect(m.group.dims).toHaveLength(catalog.tools.length + 3);
    for (const t of m.group.trajectories) {
      expect(t.mRaw).toHaveLength(catalog.tools.length + 3);
      expect(t.trace.length).toBeGreaterThan(0);
      expect(t.reward === 0 || t.outcome === 1).toBe(true);
    }
    tr.dispose();
  });

  it('reconfigure applies a new P and options in place, and refuses changes of shape', async () => {
    const tr = new GrpoTrainer(catalog, small, pool);
    await tr.step();
    const net = tr.net;
    expect(tr.reconfigure({ ...small, preference: { outcome: 0.3, cost: 1, latency: 0.2, tools: { 'gpt-5': 0.7 } }, beta: 0.1, epochs: 1 })).toBe(true);
    const m = await tr.step();
    expect(tr.net).toBe(net);
    const P = m.group.preference;
    expect(P.slice(-3)).toEqual([0.3, 1, 0.2]);
    expect(P[catalog.tools.findIndex((t) => t.id === 'gpt-5')]).toBe(0.7);
    expect(m.clipFrac).toBe(0); // μ = 1 now
    expect(tr.reconfigure({ ...small, batchTasks: 8 })).toBe(false);
    expect(tr.reconfigure({ ...small, policy: { ...small.policy, width: 16 } })).toBe(false);
    tr.dispose();
  });

  it('G = 1 trains, with veRL’s advantage r/(1 + 1e-6) for a group of one', async () => {
    const tr = new GrpoTrainer(catalog, { ...small, groupSize: 1 }, pool);
    const m = await tr.step();
    const t = m.group.trajectories[0]!;
    expect(m.group.trajectories).toHaveLength(1);
    expect(t.advantage).toBeCloseTo(t.reward / (1 + 1e-6), 6);
    expect(Number.isFinite(m.entropy)).toBe(true);
    tr.dispose();
  });

  it('a diverging update (NaN) restores the last finite weights and says so', async () => {
    // No homogeneity filter, so the update runs even when every group of this tiny batch is homogeneous.
    const tr = new GrpoTrainer(catalog, { ...small, learningRate: Number.NaN, advantage: { ...small.advantage, filterStd: null } }, pool);
    const before = await Promise.all(tr.net.vars.map((v) => v.data()));
    const m = await tr.step();
    expect(m.diverged?.iteration).toBe(1);
    const after = await Promise.all(tr.net.vars.map((v) => v.data()));
    expect(after).toEqual(before);
    tr.dispose();
  });

  it('the same past 262 144 weights, where an iteration counts non-finite weights in place instead of reading them back', async () => {
    const wide = { ...small, policy: { ...small.policy, width: 512 }, learningRate: Number.NaN, advantage: { ...small.advantage, filterStd: null } };
    const tr = new GrpoTrainer(catalog, wide, pool);
    expect(tr.net.vars.reduce((a, v) => a + v.size, 0)).toBeGreaterThan(262_144);
    const before = await Promise.all(tr.net.vars.map((v) => v.data()));
    const m = await tr.step();
    expect(m.diverged?.nonFiniteWeights).toBeGreaterThan(0);
    expect(tr.lastGood).toBeNull(); // iteration 1 is not one whose weights are read back
    expect(await Promise.all(tr.net.vars.map((v) => v.data()))).toEqual(before);
    tr.dispose();
  });
});

describe('sampling a decision from its logits (Gumbel-max on the CPU)', () => {
  it('takes the largest logit + noise, the first on a tie, and its log-probability (worked by hand)', () => {
    // Logits [1, 2, masked]: greedy picks 1; ln π(1) = 2 − ln(e¹ + e²) = −ln(1 + e⁻¹) = −0.3132617.
    const logits = new Float32Array([9, 9, 1, 2, -1e9]); // the row starts at 2
    const greedy = sampleRow(logits, 2, 3, null, 0);
    expect(greedy.action).toBe(1);
    expect(greedy.logp).toBeCloseTo(-0.3132617, 6);
    // Noise [3, 0, 100] (at offset 1): scores 4, 2, −1e9 + 100 → action 0, ln π(0) = 1 − ln(e¹ + e²) = −1.3132617.
    const noisy = sampleRow(logits, 2, 3, new Float32Array([7, 3, 0, 100]), 1);
    expect(noisy.action).toBe(0);
    expect(noisy.logp).toBeCloseTo(-1.3132617, 6);
    expect(sampleRow(new Float32Array([0.5, 0.5]), 0, 2, null, 0)).toEqual({ action: 0, logp: Math.log(0.5) });
    expect(Number.isNaN(sampleRow(new Float32Array([0, NaN, 1]), 0, 3, null, 0).logp)).toBe(true);
  });

  it('draws noise only for live rows, and a masked action takes its uniform without the logarithms', () => {
    // Two rows of width 3, row 1 finished; row 0 allows actions 0 and 2. The same seed gives u₀, u₁, u₂.
    const us = (() => { const r = new SeqRng(41); return [r.next(), r.next(), r.next(), r.next()]; })();
    const g = (u: number) => -Math.log(-Math.log(u));
    const rng = new SeqRng(41);
    const out = new Float32Array(6).fill(7);
    fillGumbel(rng, out, { valid: new Uint8Array([1, 0]), width: 3, mask: new Uint8Array([1, 0, 1, 1, 1, 1]) });
    expect(out[0]).toBeCloseTo(g(us[0] as number), 5);
    expect(out[1]).toBe(0); // masked: u₁ taken, no noise
    expect(out[2]).toBeCloseTo(g(us[2] as number), 5);
    expect(Array.from(out.subarray(3))).toEqual([7, 7, 7]); // finished row untouched
    expect(rng.next()).toBe(us[3]); // exactly three uniforms were taken
  });
});
