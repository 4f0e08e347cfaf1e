import { describe, expect, it } from 'vitest';
import { appendBounded, trailingMean } from '../src/store/series';
import type { MetricPoint } from '../src/worker/protocol';

describe('the smoothed line of the training charts', () => {
  it('is the mean of each value and the window − 1 before it, worked by hand; non-finite values are skipped', () => {
    expect(trailingMean([1, 2, 3, 4, 5], 2)).toEqual([1, 1.5, 2.5, 3.5, 4.5]);
    expect(trailingMean([2, 4, 6, 8], 3)).toEqual([2, 3, 4, 6]);
    expect(trailingMean([1, Number.NaN, 3], 2)).toEqual([1, 1, 3]);
    expect(trailingMean([Number.NaN], 5)).toEqual([Number.NaN]);
    expect(trailingMean([], 10)).toEqual([]);
  });
});

describe('the charts\' series (appendBounded)', () => {
  const at = (...its: number[]) => its.map((iteration) => ({ iteration }) as MetricPoint);
  const its = (xs: readonly MetricPoint[]) => xs.map((p) => p.iteration);
  it('appends while the iterations go on', () => {
    expect(its(appendBounded(at(1, 2, 3), at(4, 5)))).toEqual([1, 2, 3, 4, 5]);
    expect(its(appendBounded(at(1, 2), at(7)))).toEqual([1, 2, 7]); // a gap (Undo to a later policy) is no restart
  });
  it('starts afresh where the counter restarted at 1, so the iteration axis never runs backwards', () => {
    expect(its(appendBounded(at(1, 2, 3), at(4, 1, 2)))).toEqual([1, 2]); // a new policy's points came in the same batch
    expect(its(appendBounded(at(98, 99, 100), at(1)))).toEqual([1]);
    expect(its(appendBounded(at(1, 2, 3), at(3)))).toEqual([1, 2, 3]); // the same iteration again replaces its point
  });
  it('cuts back to before a point the counter went back to, keeping the history up to there (a backend recovered from iteration 480\'s weights)', () => {
    expect(its(appendBounded(at(478, 479, 480, 481, 482), at(481, 482)))).toEqual([478, 479, 480, 481, 482]);
    expect(its(appendBounded(at(1, 2, 5, 6), at(3)))).toEqual([1, 2, 3]);
  });
  it('thins the older half to every other point past the cap, keeping the newest', () => {
    // 6 points, cap 4: the older half [1, 2, 3] keeps 1 and 3 → [1, 3, 4, 5, 6]; still over: older half [1, 3] keeps 1 → [1, 4, 5, 6].
    expect(its(appendBounded(at(1, 2, 3, 4), at(5, 6), 4))).toEqual([1, 4, 5, 6]);
  });
});
