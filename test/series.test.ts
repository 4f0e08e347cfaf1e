import { describe, expect, it } from 'vitest';
import { trailingMean } from '../src/store/series';

describe('the smoothed line of the training charts', () => {
  it('is the mean of each value and the window − 1 before it, worked by hand; non-finite values are skipped', () => {
    expect(trailingMean([1, 2, 3, 4, 5], 2)).toEqual([1, 1.5, 2.5, 3.5, 4.5]);
    expect(trailingMean([2, 4, 6, 8], 3)).toEqual([2, 3, 4, 6]);
    expect(trailingMean([1, Number.NaN, 3], 2)).toEqual([1, 1, 3]);
    expect(trailingMean([Number.NaN], 5)).toEqual([Number.NaN]);
    expect(trailingMean([], 10)).toEqual([]);
  });
});
