import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TRAIN, type TrainConfig } from '../src/core/grpo/config';
import { COMPARE_PRESETS, comparePreset, presetConfigs } from '../src/core/lab/comparePresets';
import { runPaired, unpairedReason, type MetricPair } from '../src/core/lab/pairedRuns';
import { comparisonSeeds, shiftSeed } from '../src/core/lab/seedSpread';
import { DEFAULT_SIM } from '../src/core/sim/callModel';
import { presetCatalog } from '../src/core/sim/presets';
import { useCpu } from './tfSetup';

let tf: Awaited<ReturnType<typeof useCpu>>;
beforeAll(async () => { tf = await useCpu(); });

const catalog = presetCatalog('toolorchestra');
const small: TrainConfig = { ...DEFAULT_TRAIN, seed: 5, batchTasks: 4, groupSize: 4, poolSize: 150, policy: { width: 8, depth: 2, seed: 3 }, sim: { ...DEFAULT_SIM, maxTurns: 8 } };
const ITERATIONS = 4;
const curve = (pairs: readonly MetricPair[], k: 0 | 1) => pairs.map((p) => {
  const m = p[k];
  return [m.meanReward, m.accuracy, m.meanCostUSD, m.entropy, m.kl, m.gradNorm];
});

describe('paired runs', () => {
  it('the reward preset: both runs see the same task at every iteration, and their curves differ', async () => {
    const preset = comparePreset('reward');
    if (!preset) throw new Error('no reward preset');
    const configs = presetConfigs(preset, small);
    expect(configs.map((c) => c.reward)).toEqual(['toolorchestra', 'weighted']);
    const seen: number[] = [];
    const onPair = (_: MetricPair, i: number) => { seen.push(i); };
    const { pairs: [pairs = []], stopped } = await runPaired(catalog, configs, ITERATIONS, { onPair });
    expect(stopped).toBe(false);
    expect(seen).toEqual([0, 1, 2, 3]);
    expect(pairs).toHaveLength(ITERATIONS);
    for (const [a, b] of pairs) {
      expect(a.iteration).toBe(b.iteration);
      expect(b.group.task.id).toBe(a.group.task.id);
    }
    // Over the iterations the first task differs (the tasks are drawn, not fixed).
    expect(new Set(pairs.map(([a]) => a.group.task.id)).size).toBeGreaterThan(1);
    // Same rollouts at iteration 1 (same weights, same seed), scored by two different rewards.
    expect(pairs[0]?.[1].accuracy).toBe(pairs[0]?.[0].accuracy);
    expect(curve(pairs, 1)).not.toEqual(curve(pairs, 0));
  });

  it('identical configurations give identical curves, and nothing is left on the backend', async () => {
    const before = tf.memory().numTensors;
    const { pairs: [pairs = []] } = await runPaired(catalog, [small, { ...small }], ITERATIONS);
    expect(curve(pairs, 1)).toEqual(curve(pairs, 0));
    expect(tf.memory().numTensors).toBe(before);
  });

  it('stops when asked, and refuses pairs that do not share policy, batch, simulation or pool', async () => {
    let n = 0;
    const r = await runPaired(catalog, [small, small], ITERATIONS, { onPair: () => { n++; }, shouldStop: () => n >= 2 });
    expect(r).toMatchObject({ stopped: true });
    expect(r.pairs[0]).toHaveLength(2);
    expect(unpairedReason(small, { ...small, learningRate: 1e-4 })).toBeNull();
    // Each of the seven shared settings, changed alone, is named.
    const changed = { seed: 6, batchTasks: 3, groupSize: 3, policy: { ...small.policy, width: 16 }, sim: { ...small.sim, maxTurns: 5 }, poolSize: 50, availability: 0.5 } as const;
    for (const [key, value] of Object.entries(changed)) expect(unpairedReason(small, { ...small, [key]: value })).toContain(key);
    await expect(runPaired(catalog, [small, { ...small, seed: 6 }], 1)).rejects.toThrow(/seed/);
  });

  it('three seeds take turns; each pairs its own tasks and weights on both sides; seed 0 is the single run', async () => {
    const before = tf.memory().numTensors;
    const configs = presetConfigs(comparePreset('lr') as NonNullable<ReturnType<typeof comparePreset>>, small);
    const order: string[] = [];
    const onPair = (_: MetricPair, i: number, k: number) => { order.push(`${i}:${k}`); };
    const { pairs, stopped } = await runPaired(catalog, configs, 2, { onPair }, 3);
    expect(stopped).toBe(false);
    expect(order).toEqual(['0:0', '0:1', '0:2', '1:0', '1:1', '1:2']);
    expect(pairs.map((p) => p.length)).toEqual([2, 2, 2]);
    for (const seed of pairs) for (const [a, b] of seed) expect(b.group.task.id).toBe(a.group.task.id);
    // Another seed draws other tasks (and starts from other weights).
    expect(new Set(pairs.map((p) => p[0]?.[0].group.task.id)).size).toBeGreaterThan(1);
    const single = await runPaired(catalog, configs, 2);
    const both = (ps: readonly MetricPair[] = []) => [curve(ps, 0), curve(ps, 1)];
    expect(both(single.pairs[0])).toEqual(both(pairs[0]));
    expect(tf.memory().numTensors).toBe(before);
    // A stop between seeds leaves them at most one iteration apart.
    let n = 0;
    const cut = await runPaired(catalog, configs, 3, { onPair: () => { n++; }, shouldStop: () => n >= 4 }, 3);
    expect(cut.stopped).toBe(true);
    expect(cut.pairs.map((p) => p.length)).toEqual([2, 1, 1]);
    expect(shiftSeed(small, 2)).toMatchObject({ seed: 7, policy: { ...small.policy, seed: 5 } });
    expect(comparisonSeeds(small, 3)).toEqual([5, 6, 7]);
  });

  it('every preset patches training knobs only, nested options merged', () => {
    for (const p of COMPARE_PRESETS) {
      const [a, b] = presetConfigs(p, small);
      expect(unpairedReason(a, b)).toBeNull();
      expect(a).not.toEqual(b);
    }
    const [on, off] = presetConfigs(comparePreset('std') as NonNullable<ReturnType<typeof comparePreset>>, small);
    expect(on.advantage).toEqual({ ...small.advantage, normalizeStd: true });
    expect(off.advantage).toEqual({ ...small.advantage, normalizeStd: false });
    expect(COMPARE_PRESETS.map((p) => p.id)).toEqual(['reward', 'std', 'official', 'lr']);
  });
});
