// The collapse guard on hand-worked reward sequences (EMA with α = 0.1, fall of max(0.2, ½·best)).

import { describe, expect, it } from 'vitest';
import { CollapseGuard } from '../src/core/lab/collapseGuard';

describe('collapse guard', () => {
  it('fires when a deterministic policy\'s smoothed reward falls far below its best (worked by hand)', () => {
    const g = new CollapseGuard();
    for (let i = 1; i <= 10; i++) expect(g.observe(i, 0.8, 0.9).collapsed).toBeUndefined();
    // Reward 0 from iteration 11: EMA 0.72, 0.648, 0.5832, 0.52488, 0.472392, 0.4251528, 0.38263752 < 0.8 − 0.4.
    const fired: number[] = [];
    for (let i = 11; i <= 20; i++) {
      const c = g.observe(i, 0, 0.001).collapsed;
      if (c && !fired.length) {
        expect(c).toMatchObject({ iteration: 17, entropy: 0.001, bestReward: 0.8, bestIteration: 1 });
        expect(c.smoothedReward).toBeCloseTo(0.38263752, 10);
      }
      if (c) fired.push(i);
    }
    expect(fired[0]).toBe(17);
    expect(g.bestIteration).toBe(1); // the EMA never rose above its first value
    expect(new CollapseGuard().observe(1, 0, 0).best).toBe(true);
  });

  it('does not fire while the policy still explores, nor on a dip that stays within the allowed fall', () => {
    const explore = new CollapseGuard();
    for (let i = 1; i <= 10; i++) explore.observe(i, 0.8, 0.9);
    for (let i = 11; i <= 60; i++) expect(explore.observe(i, 0, 0.5).collapsed).toBeUndefined();
    const dip = new CollapseGuard();
    for (let i = 1; i <= 10; i++) dip.observe(i, 0.8, 0.9);
    // Reward 0.65 with no entropy: the EMA tends to 0.65 > 0.8 − 0.4 and never fires.
    for (let i = 11; i <= 80; i++) expect(dip.observe(i, 0.65, 0.001).collapsed).toBeUndefined();
  });

  it('keeps the iteration of the best smoothed reward, and forgets it on reset', () => {
    const g = new CollapseGuard();
    [0.1, 0.5, 0.9, 0.2].forEach((r, i) => g.observe(i + 1, r, 1));
    // EMA: 0.1, 0.14, 0.216, 0.2144 → best at iteration 3.
    expect(g.bestIteration).toBe(3);
    expect(g.bestEma).toBeCloseTo(0.216, 12);
    g.reset();
    expect(g.bestIteration).toBe(0);
    expect(g.observe(1, 0.3, 1).best).toBe(true);
  });
});
