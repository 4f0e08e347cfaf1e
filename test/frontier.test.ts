import { describe, expect, it } from 'vitest';
import { aiq, hullAt, nonDecreasingHull } from '../src/core/eval/frontier';

// Hand-made points: A(1, .5) B(2, .6) C(3, .9) D(4, .85) E(2.5, .55).
// Pareto staircase: A, B, C (E is below B, D below C). B lies under the chord A–C
// (0.5 + 0.4·(2 − 1)/(3 − 1) = 0.7 > 0.6), so the hull is A–C, flat at 0.9 after C.
const pts = [
  { cost: 1, accuracy: 0.5, label: 'A' },
  { cost: 2, accuracy: 0.6, label: 'B' },
  { cost: 3, accuracy: 0.9, label: 'C' },
  { cost: 4, accuracy: 0.85, label: 'D' },
  { cost: 2.5, accuracy: 0.55, label: 'E' },
];

describe('non-decreasing convex hull and AIQ (RouterBench)', () => {
  it('keeps only the hull vertices', () => {
    expect(nonDecreasingHull(pts).map((p) => p.label)).toEqual(['A', 'C']);
    expect(hullAt(nonDecreasingHull(pts), 2)).toBeCloseTo(0.7, 12);
    expect(hullAt(nonDecreasingHull(pts), 10)).toBe(0.9);
    expect(hullAt(nonDecreasingHull(pts), 0.5)).toBe(0);
  });

  it('integrates the hull by hand: over [0, 5] = (0 + 2·0.7 + 2·0.9)/5 = 0.64; over [1, 3] = 0.7', () => {
    expect(aiq(pts, 0, 5)).toBeCloseTo(0.64, 9);
    expect(aiq(pts, 1, 3)).toBeCloseTo(0.7, 9);
  });

  it('a point above the chord stays on the hull', () => {
    const q = [...pts, { cost: 2, accuracy: 0.8, label: 'F' }];
    expect(nonDecreasingHull(q).map((p) => p.label)).toEqual(['A', 'F', 'C']);
    // [1, 3]: trapezoids (0.5 + 0.8)/2 + (0.8 + 0.9)/2 = 0.65 + 0.85 = 1.5, over width 2 → 0.75.
    expect(aiq(q, 1, 3)).toBeCloseTo(0.75, 9);
  });
});
