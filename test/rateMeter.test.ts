// The top bar's training speed: iterations per second over a window of recent samples, reset by a
// backend switch (worked by hand).

import { describe, expect, it } from 'vitest';
import { RateMeter } from '../src/worker/rateMeter';

describe('the training speed over the last seconds', () => {
  it('reads the rate over the window, not since Start, and starts afresh after a reset', () => {
    const r = new RateMeter(3000);
    r.reset(0, 0);
    expect(r.sample(0, 0)).toBe(0);
    // 50 it/s for 4 s: iterations 0 → 200.
    for (let t = 100; t <= 4000; t += 100) r.sample(t, t / 20);
    // The window's anchor is the newest sample at least 3 s old: t = 1000 (iteration 50): (200 − 50) / 3 s.
    expect(r.sample(4000, 200)).toBeCloseTo(50, 10);
    // Then 1 it/s for 3 s (a slow backend): the window holds only the slow part, no average since Start.
    let rate = 0;
    for (let t = 5000; t <= 7000; t += 1000) rate = r.sample(t, 200 + (t - 4000) / 1000);
    expect(rate).toBeCloseTo((203 - 200) / 3, 10); // anchor t = 4000, iteration 200
    // After a reset (a backend switch), the rate is that of the iterations since it.
    r.reset(10_000, 203);
    expect(r.sample(10_500, 213)).toBeCloseTo(20, 10);
  });
});
