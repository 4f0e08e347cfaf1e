// The benchmark's arithmetic (multiply-adds worked out by hand) and the divergence guard's
// self-check, which the WebGPU browser test runs on the GPU path.

import { beforeAll, describe, expect, it } from 'vitest';
import { decisionMacs, iterationMacs } from '../src/core/bench/floor';
import { divergenceCheck } from '../src/core/bench/divergenceCheck';
import { probeSizeKey, probeSizeOf, probeSummary } from '../src/core/bench/probeSize';
import { DEFAULT_TRAIN } from '../src/core/grpo/config';
import { useCpu } from './tfSetup';

beforeAll(async () => { await useCpu(); });

describe('arithmetic floor', () => {
  it('counts the multiply-adds of one decision layer by layer (width 2, depth 1, one tool)', () => {
    // scorer: state 28×2 + tool 16×2 + out 2×1; submit: 28×2 + out 2×1 = 56 + 32 + 2 + 56 + 2.
    // backward: every weight gradient (148) + input gradients of the two output layers (2 + 2).
    expect(decisionMacs({ width: 2, depth: 1 }, 1)).toEqual({ forward: 148, backward: 152 });
    // depth 2 adds a 2×2 hidden layer to each head: forward 148 + 4 + 4; backward + 2·8 (dW and dX).
    expect(decisionMacs({ width: 2, depth: 2 }, 1)).toEqual({ forward: 156, backward: 168 });
  });

  it('adds rollout forwards and μ epochs of forward + backward over the trained decisions', () => {
    const d = decisionMacs({ width: 2, depth: 1 }, 1);
    expect(iterationMacs({ width: 2, depth: 1 }, 1, { rollout: 10, trained: 4 }, 2)).toBe(10 * d.forward + 2 * 4 * (d.forward + d.backward));
    expect(iterationMacs({ width: 2, depth: 1 }, 1, { rollout: 10, trained: 4 }, 2, true)).toBe(10 * 148 + 8 * 300 + 4 * 148);
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
});

describe('divergence guard', () => {
  it('an update that writes non-finite weights is caught, reported, and undone', async () => {
    const r = await divergenceCheck();
    expect(r.diverged).toMatch(/non-finite weights/);
    expect(r.nonFiniteAfter).toBe(0);
    expect(r.maxWeightChange).toBe(0);
  });
});
