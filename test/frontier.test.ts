import { describe, expect, it } from 'vitest';
import { aiq, frontierAlong, hullAt, nonDecreasingHull } from '../src/core/eval/frontier';

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

describe('the frontier along another x-axis (latency, share of API calls)', () => {
  it('takes the hull of (x, accuracy) and returns the points themselves', () => {
    // By latency: fast (10 s, 0.5), slow (100 s, 0.9), wasteful (120 s, 0.6), middle (40 s, 0.6).
    // Staircase by latency: fast 0.5 → middle 0.6 → slow 0.9; middle lies under the chord fast–slow
    // (0.5 + 0.4·30/90 = 0.633 > 0.6), so the hull is fast → slow.
    const pts = [
      { label: 'fast', accuracy: 0.5, latencyS: 10, apiShare: 0.9 },
      { label: 'slow', accuracy: 0.9, latencyS: 100, apiShare: 0.2 },
      { label: 'wasteful', accuracy: 0.6, latencyS: 120, apiShare: 0.1 },
      { label: 'middle', accuracy: 0.6, latencyS: 40, apiShare: 0.5 },
    ];
    expect(frontierAlong(pts, (p) => p.latencyS).map((p) => p.label)).toEqual(['fast', 'slow']);
    // By API share: wasteful (0.1, 0.6) → slow (0.2, 0.9); the others are dominated.
    expect(frontierAlong(pts, (p) => p.apiShare)).toEqual([pts[2], pts[1]]);
  });
});
