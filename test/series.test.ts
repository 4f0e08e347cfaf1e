import { describe, expect, it } from 'vitest';
import { appendBounded, metricsCsv, trailingMean } from '../src/store/series';
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

describe('the metrics export (CSV)', () => {
  const point = (iteration: number, trained: number): MetricPoint => ({
    iteration, meanReward: 0.5, accuracy: 0.25, meanCostUSD: 0.01, meanLatencyS: 2, rewardStd: 0.1, meanAbsAdvantage: 0.3,
    kl: trained ? 0.002 : 0, entropy: trained ? 0.8 : 0, clipFrac: trained ? 0.05 : 0, filteredFrac: trained ? 0.5 : 1, loss: trained ? -0.01 : 0, gradNorm: trained ? 0.3 : 0,
    meanTurns: 4, wallMs: 40, callsPerTask: { a: 1.5, b: 0 }, decisions: { rollout: 100, trained, rolloutPairs: 500, trainedPairs: trained * 5 },
  }) as unknown as MetricPoint;
  it('has one row per iteration, and leaves the update\'s cells empty where no group trained (not 0)', () => {
    const [head, first, second] = metricsCsv([point(1, 40), point(2, 0)]).trim().split('\n') as [string, string, string];
    const cols = head.split(',');
    expect(cols).toContain('trainedDecisions');
    expect(cols.slice(-2)).toEqual(['calls:a', 'calls:b']);
    const row = (line: string) => Object.fromEntries(line.split(',').map((v, i) => [cols[i], v]));
    expect(row(first)).toMatchObject({ iteration: '1', entropy: '0.8', kl: '0.002', gradNorm: '0.3', trainedDecisions: '40', 'calls:a': '1.5' });
    expect(row(second)).toMatchObject({ iteration: '2', entropy: '', kl: '', clipFrac: '', loss: '', gradNorm: '', filteredFrac: '1', accuracy: '0.25', trainedDecisions: '0' });
  });
});
