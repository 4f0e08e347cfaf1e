// The spread over seeds of a comparison (core/lab/seedSpread.ts), with every expected number worked
// out by hand in the comments: the per-seed finals, the paired differences, their mean, sd, the
// t-test's margin and the verdict, and the band's mean, lowest and highest seed.

import { describe, expect, it } from 'vitest';
import { seedBand, summarisePaired, tailMean, tCritical, trailing } from '../src/core/lab/seedSpread';

describe('seed spread', () => {
  it('a gap beyond the noise: three seeds that all favour A', () => {
    const a = [[0.5, 0.6, 0.7, 0.8], [0.4, 0.4, 0.6, 0.6], [0.9, 0.7, 0.5, 0.5]];
    const b = [[0.5, 0.5, 0.6, 0.7], [0.3, 0.5, 0.5, 0.5], [0.9, 0.7, 0.6, 0.3]];
    const s = summarisePaired(a, b, 2);
    // Finals (mean of the last 2): A (0.7+0.8)/2 = 0.75, 0.6, 0.5; B 0.65, 0.5, 0.45.
    expect(s).toMatchObject({ seeds: 3, iterations: 4, window: 2 });
    s.a.forEach((v, k) => expect(v).toBeCloseTo([0.75, 0.6, 0.5][k] as number, 12));
    s.b.forEach((v, k) => expect(v).toBeCloseTo([0.65, 0.5, 0.45][k] as number, 12));
    expect(s.meanA).toBeCloseTo(1.85 / 3, 12);
    expect(s.meanB).toBeCloseTo(1.6 / 3, 12);
    // Differences 0.1, 0.1, 0.05: mean 0.25/3 = 0.08333; deviations 1/60, 1/60, −1/30, so
    // sd = √((1/3600 + 1/3600 + 4/3600)/2) = √(1/1200) = 0.028868.
    s.diffs.forEach((v, k) => expect(v).toBeCloseTo([0.1, 0.1, 0.05][k] as number, 12));
    expect(s.meanDiff).toBeCloseTo(0.083333, 6);
    expect(s.sdDiff).toBeCloseTo(0.028868, 6);
    // t for 2 degrees of freedom is 4.303; margin = 4.303 × 0.028868/√3 = 4.303 × 1/60 = 0.071717 < 0.0833.
    expect(s.t).toBe(4.303);
    expect(s.margin).toBeCloseTo(0.071717, 6);
    expect(s.withinNoise).toBe(false);
  });

  it('a gap within the noise; iterations past what every seed reached are left out', () => {
    // Seed 0 of A has a third iteration the others lack: it is ignored (0.9 would change its final).
    const a = [[0.2, 0.4, 0.9], [0.3, 0.3], [0.6, 0.6]];
    const b = [[0.1, 0.3], [0.3, 0.35], [0.5, 0.5]];
    const s = summarisePaired(a, b, 1);
    expect(s).toMatchObject({ seeds: 3, iterations: 2, window: 1 });
    // Finals (the last value): A 0.4, 0.3, 0.6; B 0.3, 0.35, 0.5; differences 0.1, −0.05, 0.1.
    s.diffs.forEach((v, k) => expect(v).toBeCloseTo([0.1, -0.05, 0.1][k] as number, 12));
    // Mean 0.05; deviations 0.05, −0.1, 0.05: sd = √(0.015/2) = 0.086603;
    // margin = 4.303 × 0.086603/√3 = 4.303 × 0.05 = 0.21515 ≥ 0.05.
    expect(s.meanDiff).toBeCloseTo(0.05, 12);
    expect(s.sdDiff).toBeCloseTo(0.086603, 6);
    expect(s.margin).toBeCloseTo(0.21515, 6);
    expect(s.withinNoise).toBe(true);
  });

  it('identical sides are within the noise; one seed has no spread and no verdict', () => {
    const same = summarisePaired([[1, 2], [3, 4], [5, 6]], [[1, 2], [3, 4], [5, 6]], 10);
    expect(same).toMatchObject({ meanDiff: 0, sdDiff: 0, margin: 0, withinNoise: true, window: 2 });
    const one = summarisePaired([[0.5]], [[0.25]], 10);
    expect(one.meanDiff).toBe(0.25);
    expect(one.sdDiff).toBeNaN();
    expect(one.withinNoise).toBeNull();
    expect(summarisePaired([], [], 10).withinNoise).toBeNull();
  });

  it('t, tail means and trailing means', () => {
    expect([tCritical(1), tCritical(2), tCritical(9), tCritical(40)]).toEqual([12.706, 4.303, 2.262, 1.96]);
    expect(tCritical(0)).toBeNaN();
    // Last 3 of 1..5: (3+4+5)/3 = 4; a NaN is skipped: (1+3)/2 = 2.
    expect(tailMean([1, 2, 3, 4, 5], 3)).toBe(4);
    expect(tailMean([1, Number.NaN, 3], 3)).toBe(2);
    expect(tailMean([], 3)).toBeNaN();
    // Window 2 over 1, 3, 5, 7: 1, (1+3)/2, (3+5)/2, (5+7)/2.
    expect(trailing([1, 3, 5, 7], 2)).toEqual([1, 2, 4, 6]);
  });

  it('the band: per iteration the mean, lowest and highest seed’s trailing mean, up to the shortest seed', () => {
    // Window 2. Seed 0: 0, 1, 2 → 0, 0.5, 1.5; seed 1: 2, 3, 4 → 2, 2.5, 3.5;
    // seed 2: 4, 0 → 4, 2 (the shortest: 2 iterations).
    const band = seedBand([[0, 1, 2], [2, 3, 4], [4, 0]], 2);
    // Iteration 1: 0, 2, 4 → mean 2, lowest 0, highest 4.
    // Iteration 2: 0.5, 2.5, 2 → mean 5/3, lowest 0.5, highest 2.5.
    expect(band.mean[0]).toBe(2);
    expect(band.mean[1]).toBeCloseTo(5 / 3, 12);
    expect(band.lo).toEqual([0, 0.5]);
    expect(band.hi).toEqual([4, 2.5]);
    expect(seedBand([], 2)).toEqual({ mean: [], lo: [], hi: [] });
  });
});
