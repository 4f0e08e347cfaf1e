import { describe, expect, it } from 'vitest';
import { decimalsFor, logTicks, niceStep, niceTicks } from '../src/ui/charts/niceTicks';

describe('nice axis ticks (worked by hand)', () => {
  it('steps are 1, 2, 2.5 or 5 × 10^k, the smallest at least the raw step', () => {
    expect(niceStep(0.3)).toBeCloseTo(0.5);
    expect(niceStep(1)).toBe(1);
    expect(niceStep(1.2)).toBe(2);
    expect(niceStep(2.2)).toBe(2.5);
    expect(niceStep(42)).toBe(50);
    expect(niceStep(0.0013)).toBeCloseTo(0.002);
  });
  it('a reward axis from -0.37 to 0.81 widens to the outer ticks', () => {
    // range 1.18 / 5 = 0.236 → step 0.25; floor(-0.37/0.25) = -2 → -0.5; ceil(0.81/0.25) = 4 → 1.0
    expect(niceTicks(-0.37, 0.81)).toEqual({ values: [-0.5, -0.25, 0, 0.25, 0.5, 0.75, 1], domain: [-0.5, 1], decimals: 2 });
  });
  it('a cost axis in thousandths of a dollar prints three decimals', () => {
    // range 0.0068 / 4 = 0.0017 → step 0.002; 0.004 … 0.012
    const t = niceTicks(0.0052, 0.012, { target: 4 });
    expect(t.values).toEqual([0.004, 0.006, 0.008, 0.01, 0.012]);
    expect(t.decimals).toBe(3);
  });
  it('a tight integer iteration axis keeps the data extent and only the ticks inside it', () => {
    // 3 … 47: 44 / 5 = 8.8 → step 10; ticks 10 … 40 inside [3, 47]
    expect(niceTicks(3, 47, { tight: true, integer: true })).toEqual({ values: [10, 20, 30, 40], domain: [3, 47], decimals: 0 });
    // a single iteration: one tick, a padded domain
    expect(niceTicks(1, 1, { tight: true, integer: true })).toEqual({ values: [1], domain: [0, 2], decimals: 0 });
    // 1 … 3 must not produce fractional steps
    expect(niceTicks(1, 3, { tight: true, integer: true }).values).toEqual([1, 2, 3]);
  });
  it('degenerate input stays drawable', () => {
    expect(niceTicks(Number.NaN, 1).domain).toEqual([0, 1]);
    expect(niceTicks(0, 0).domain).toEqual([-1, 1]);
    expect(niceTicks(5, 2).domain).toEqual([2, 5]);
  });
  it('decimals print multiples of the step exactly', () => {
    expect(decimalsFor(1)).toBe(0);
    expect(decimalsFor(0.25)).toBe(2);
    expect(decimalsFor(0.5)).toBe(1);
    expect(decimalsFor(0.00005)).toBe(5);
  });
  it('a log cost axis runs between 1-2-5 values around the data and labels 1, 2, 5 × 10^k', () => {
    // 0.0031 … 0.042: below 0.0031 the nearest is 0.002, above 0.042 it is 0.05;
    // inside: 0.002 0.005 0.01 0.02 0.05 (5 ≤ 7 ticks, all kept)
    expect(logTicks(0.0031, 0.042)).toEqual({ values: [0.002, 0.005, 0.01, 0.02, 0.05], domain: [0.002, 0.05], decimals: 3 });
    // exactly on a candidate: the domain ends there
    expect(logTicks(0.01, 1).domain).toEqual([0.01, 1]);
  });
  it('a log axis over many decades keeps only the powers of ten, its ends unlabelled', () => {
    // 0.0007 … 0.36 → domain [0.0005, 0.5]: 0.0005 0.001 0.002 0.005 … 0.5 are 10 candidates > 7,
    // so the ticks are the powers of ten inside: 0.001 0.01 0.1
    expect(logTicks(0.0007, 0.36)).toEqual({ values: [0.001, 0.01, 0.1], domain: [0.0005, 0.5], decimals: 3 });
  });
  it('a log axis refuses non-positive input with a drawable default', () => {
    expect(logTicks(0, 1).domain).toEqual([1, 10]);
    expect(logTicks(-1, 5).values).toEqual([1, 10]);
  });
});
