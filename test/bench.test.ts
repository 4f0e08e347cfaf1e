// The benchmark's arithmetic (multiply-adds worked out by hand) and the divergence guard's
// self-check, which the WebGPU browser test runs on the GPU path.

import { beforeAll, describe, expect, it } from 'vitest';
import { decisionMacs, everyToolScored, iterationMacs } from '../src/core/bench/floor';
import { allowedActions, spreadMaskBias } from '../src/core/bench/syntheticBatch';
import { divergenceCheck } from '../src/core/bench/divergenceCheck';
import { probeOrder, probeSizeKey, probeSizeOf, probeSummary, unmeasuredOrder } from '../src/core/bench/probeSize';
import { DEFAULT_TRAIN } from '../src/core/grpo/config';
import { useCpu } from './tfSetup';

beforeAll(async () => { await useCpu(); });

describe('arithmetic floor', () => {
  it('counts the multiply-adds of one decision layer by layer (width 2, depth 1, one tool)', () => {
    // scorer: state 32×2 + slot 21×2 + out 2×1; submit: 32×2 + out 2×1 = 64 + 42 + 2 + 64 + 2.
    // backward: every weight gradient (174) + input gradients of the two output layers (2 + 2).
    expect(decisionMacs({ width: 2, depth: 1 }, 1)).toEqual({ forward: 174, backward: 178 });
    // depth 2 adds a 2×2 hidden layer to each head: forward 174 + 4 + 4; backward + 2·8 (dW and dX).
    expect(decisionMacs({ width: 2, depth: 2 }, 1)).toEqual({ forward: 182, backward: 194 });
  });

  it('adds rollout forwards and μ epochs of forward + backward over the trained decisions, scoring only their allowed tools', () => {
    // Width 2, depth 1, split by hand into a part per decision and a part per scored tool:
    //   forward per decision: scorer state 32×2 + submit 32×2 + submit out 2 = 130; per slot: 21×2 + out 2 = 44 (130 + 44 = 174 above);
    //   backward per decision: weight gradients 130 + the submit out's input gradient 2 = 132; per slot: 44 + 2 = 46 (178 above).
    // 10 rollout decisions scoring 25 slots: 10·130 + 25·44 = 2400. 4 trained decisions scoring 9 slots:
    // forward 4·130 + 9·44 = 916, backward 4·132 + 9·46 = 942; two epochs: 2·(916 + 942) = 3716.
    const counts = { rollout: 10, rolloutPairs: 25, trained: 4, trainedPairs: 9 };
    expect(iterationMacs({ width: 2, depth: 1 }, counts, 2)).toBe(2400 + 3716);
    expect(iterationMacs({ width: 2, depth: 1 }, counts, 2, true)).toBe(2400 + 3716 + 916); // + the reference's forward
    // Every slot scored (K = 1 per decision) is decisionMacs' count.
    expect(iterationMacs({ width: 2, depth: 1 }, { rollout: 10, rolloutPairs: 10, trained: 4, trainedPairs: 4 }, 2)).toBe(10 * 174 + 2 * 4 * (174 + 178));
  });
});

describe('synthetic batches', () => {
  it('allow the asked share of the tools, spread evenly, submit always; take only allowed actions', () => {
    // 3 decisions × 4 tools at share 0.5: pairs k = 0…11 allowed where ⌊(k + 1)/2⌋ > ⌊k/2⌋, i.e. odd k.
    const bias = spreadMaskBias(3, 4, 0.5);
    const allowedPairs = (m: number) => [0, 1, 2, 3].filter((j) => bias[m * 5 + j] === 0);
    expect([0, 1, 2].map(allowedPairs)).toEqual([[1, 3], [1, 3], [1, 3]]);
    expect([0, 1, 2].map((m) => bias[m * 5 + 4])).toEqual([0, 0, 0]);
    // Row m takes the (m mod 3)-th of its allowed actions [1, 3, submit 4].
    expect(Array.from(allowedActions(bias, 3, 5))).toEqual([1, 3, 4]);
    // At 0.56 of 12 tools over 128 decisions, 860 of 1536 pairs (⌊1536·0.56⌋).
    expect(Array.from(spreadMaskBias(128, 12, 0.56)).filter((b, i) => i % 13 !== 12 && b === 0).length).toBe(860);
  });

  it('counts every tool of a decision as scored for the floor as first defined', () => {
    expect(everyToolScored({ rollout: 10, rolloutPairs: 25, trained: 4, trainedPairs: 9 }, 12)).toEqual({ rollout: 10, rolloutPairs: 120, trained: 4, trainedPairs: 48 });
  });
});

describe('speed probe bookkeeping', () => {
  it('keys the cache by episodes, tools, shape and epochs, and words the badge line', () => {
    expect(probeSizeKey(probeSizeOf(DEFAULT_TRAIN, 12))).toBe('N128·J12·64×2·μ2');
    expect(probeSummary([
      { label: 'wasm', status: 'measured', itPerS: 7.14 },
      { label: 'webgpu (software adapter)', status: 'bound', itPerS: 0.2 },
      { label: 'webgl', status: 'timed out' },
      { label: 'cpu', status: 'measured', itPerS: 12.4 },
    ])).toBe('wasm: 7.1 it/s · webgpu (software adapter): ≤ 0.2 it/s · webgl: timed out · cpu: 12 it/s');
  });

  it('measures WebGPU first only on a hardware adapter, and falls to it only there when nothing finishes', () => {
    expect(probeOrder({ software: false })).toEqual(['webgpu', 'wasm', 'cpu', 'webgl']);
    expect(probeOrder({ software: true })).toEqual(['wasm', 'webgpu', 'cpu', 'webgl']);
    expect(probeOrder(null)).toEqual(['wasm', 'webgpu', 'cpu', 'webgl']);
    expect(unmeasuredOrder({ software: false })).toEqual(['webgpu', 'wasm', 'cpu', 'webgl']);
    expect(unmeasuredOrder({ software: true })).toEqual(['wasm', 'cpu', 'webgpu', 'webgl']);
    expect(unmeasuredOrder(null)).toEqual(['wasm', 'cpu', 'webgpu', 'webgl']);
  });
});

describe('divergence guard', () => {
  it('an update that writes non-finite weights is caught, reported, and undone', async () => {
    const r = await divergenceCheck();
    expect(r.diverged?.nonFiniteWeights).toBeGreaterThan(0);
    expect(r.nonFiniteAfter).toBe(0);
    expect(r.maxWeightChange).toBe(0);
  });
});

describe('memory estimate (worked by hand)', () => {
  it('counts the default iteration and refuses the issue\'s B = 256, G = 64', async () => {
    const { estimateIterationBytes, checkIterationSize } = await import('../src/core/grpo/memoryEstimate');
    // The longest training budget (40 turns) × 128 episodes = 5120 rows. History, 12 slots: 32 + 12·21 + 2·13 + 4 = 314 floats a row.
    // Device: inputs 32 + 2·252 + 12·32 + 2·13 + 5 = 951; activations 12·64·(2 + 3) + 64·3 + 12·13 = 4188.
    expect(estimateIterationBytes(DEFAULT_TRAIN, 12)).toEqual({ cpu: 4 * 5120 * 314, device: 4 * 5120 * (951 + 4188) });
    expect(checkIterationSize(DEFAULT_TRAIN, 12)).toBeNull();
    // B = 256, G = 64: 655,360 rows × (314 + 5139) floats × 4 B = 13.31 GiB > 3 GiB.
    expect(checkIterationSize({ ...DEFAULT_TRAIN, batchTasks: 256, groupSize: 64 }, 12)).toMatch(/need about 13\.31 GiB .* up to 3\.00 GiB/);
  });
});

describe('speed probe', () => {
  it('measures a forward and an update on the active backend warm (first runs apart), and stops early with a bound it cannot beat', async () => {
    const { probeSpeed } = await import('../src/core/bench/speedProbe');
    const size = probeSizeOf({ ...DEFAULT_TRAIN, batchTasks: 2, groupSize: 4 }, 12);
    const full = await probeSpeed(size, { timedMs: 60_000, firstRunMs: 60_000 });
    expect(full.firstRunMs).toBeGreaterThan(0);
    expect(full.probeMs).toBeGreaterThan(full.firstRunMs);
    expect(full.bound).toBe(false);
    expect(full.forwardMs).toBeGreaterThan(0);
    expect(full.updateMs).toBeGreaterThan(0);
    // Estimated as 8 forwards + μ updates: the figure follows from the parts.
    expect(full.itPerS).toBeCloseTo(1000 / (8 * full.forwardMs + 2 * (full.updateMs as number)), 6);
    const bounded = await probeSpeed(size, { timedMs: 60_000, firstRunMs: 60_000, beat: 1e9 });
    expect(bounded.bound).toBe(true);
    expect(bounded.updateMs).toBeUndefined();
    expect(bounded.itPerS).toBeCloseTo(1000 / (8 * bounded.forwardMs), 6);
    // First runs over their allowance (the update's, after the forward's used it up), and warm work over the budget,
    // each stop the probe, saying which; with no allowance (wasm, cpu) a first run is timed work.
    await expect(probeSpeed(size, { timedMs: 60_000, firstRunMs: 1e-9 })).rejects.toMatchObject({ during: 'first run' });
    await expect(probeSpeed(size, { timedMs: -1, firstRunMs: 60_000 })).rejects.toMatchObject({ during: 'timed' });
    await expect(probeSpeed(size, { timedMs: -1, firstRunMs: 0 })).rejects.toMatchObject({ during: 'timed', firstRunMs: 0 });
  });
});
