// What slow motion and the lessons say in words holds for the numbers: the official code's reward is
// the formula phase 5 writes beside it (computed here from that formula alone), and the filtered groups'
// sentence reads true for none, some and the filter off.
import { describe, expect, it } from 'vitest';
import { officialRewards, type TrajectoryStats } from '../src/core/grpo/reward';
import { filteredInWords } from '../src/core/lab/filteredInWords';

/** Phase 5's written formula: Σ_j P_j·(n_j − min_j)/(max_j − min_j) + P_o + P_c·(2c_max + c)/(c_max − c_min) + P_l·(2l_max + l)/(l_max − l_min). */
function asWritten(group: TrajectoryStats[], pref: number[]): number[] {
  const J = pref.length - 3, [pO, pC, pL] = [pref[J]!, pref[J + 1]!, pref[J + 2]!];
  const span = (xs: number[]) => Math.max(...xs) - Math.min(...xs);
  const costs = group.map((t) => t.costUSD), lats = group.map((t) => t.latencyS);
  return group.map((t) => {
    if (!t.outcome) return 0;
    let r = 0;
    for (let j = 0; j < J; j++) {
      const callers = group.map((x) => x.calls[j]!).filter((n) => n > 0);
      if (callers.length && span(callers) > 0) r += pref[j]! * (t.calls[j]! - Math.min(...callers)) / span(callers);
    }
    if (span(group.map((x) => x.outcome)) > 0) r += pO;
    if (span(costs) > 0) r += pC * (2 * Math.max(...costs) + t.costUSD) / span(costs);
    if (span(lats) > 0) r += pL * (2 * Math.max(...lats) + t.latencyS) / span(lats);
    return r;
  });
}

describe('the words beside the numbers', () => {
  it('phase 5\'s formula for the official code\'s reward gives its numbers', () => {
    const t = (calls: number[], outcome: number, costUSD: number, latencyS: number): TrajectoryStats => ({ calls, outcome, costUSD, latencyS, tokens: 0 });
    const groups = [
      [t([1, 0], 1, 0.1, 10), t([3, 2], 1, 0.3, 4), t([0, 1], 0, 0.02, 3), t([2, 0], 1, 0.05, 7)],
      [t([1, 1], 1, 0.2, 5), t([1, 4], 1, 0.2, 9)], // equal costs: the cost term drops; every try succeeds: P_o drops
    ];
    for (const g of groups) {
      for (const pref of [[0.5, 1, 1, 0.5, 0.25], [0, 0, 1, 1, 1]]) {
        const want = asWritten(g, pref);
        officialRewards(g, pref).forEach((r, k) => expect(r).toBeCloseTo(want[k]!, 12));
      }
    }
  });

  it('the filtered groups in a sentence: none, some, and the filter off', () => {
    expect(filteredInWords(0, 16, 0.01)).toMatch(/^None of the 16 groups in the batch was filtered \(a group is, when/);
    expect(filteredInWords(3, 16, 0.01)).toMatch(/^In the whole batch 3 of 16 groups were filtered: all their G rewards/);
    expect(filteredInWords(0, 16, null)).toBe('The filter is off: none of the 16 groups is dropped, however alike its rewards.');
  });
});
