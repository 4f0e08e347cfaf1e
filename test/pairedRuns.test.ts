import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TRAIN, type TrainConfig } from '../src/core/grpo/config';
import { COMPARE_PRESETS, comparePreset, presetConfigs } from '../src/core/lab/comparePresets';
import { runPaired, unpairedReason, type MetricPair } from '../src/core/lab/pairedRuns';
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
    const { pairs, stopped } = await runPaired(catalog, configs, ITERATIONS, { onPair: (_, i) => { seen.push(i); } });
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
    const { pairs } = await runPaired(catalog, [small, { ...small }], ITERATIONS);
    expect(curve(pairs, 1)).toEqual(curve(pairs, 0));
    expect(tf.memory().numTensors).toBe(before);
  });

  it('stops when asked, and refuses pairs that do not share policy, batch, simulation or pool', async () => {
    let n = 0;
    const r = await runPaired(catalog, [small, small], ITERATIONS, { onPair: () => { n++; }, shouldStop: () => n >= 2 });
    expect(r).toMatchObject({ stopped: true });
    expect(r.pairs).toHaveLength(2);
    expect(unpairedReason(small, { ...small, learningRate: 1e-4 })).toBeNull();
    // Each of the seven shared settings, changed alone, is named.
    const changed = { seed: 6, batchTasks: 3, groupSize: 3, policy: { ...small.policy, width: 16 }, sim: { ...small.sim, maxTurns: 5 }, poolSize: 50, availability: 0.5 } as const;
    for (const [key, value] of Object.entries(changed)) expect(unpairedReason(small, { ...small, [key]: value })).toContain(key);
    await expect(runPaired(catalog, [small, { ...small, seed: 6 }], 1)).rejects.toThrow(/seed/);
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
