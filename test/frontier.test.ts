import { describe, expect, it } from 'vitest';
import { aiq, frontierAlong, hullAt, nonDecreasingHull, routingMetrics } from '../src/core/eval/frontier';

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

describe('RouteLLM\'s routing metrics: APGR and CPT(50%), CPT(80%), worked by hand', () => {
  const weak = { cost: 1, accuracy: 0.2 }, strong = { cost: 5, accuracy: 0.6 };

  it('a random mix of the two references recovers half the gap on average, and x of it at a share x', () => {
    // A router on the chord between the references (at a quarter of the way): the hull is the chord, PGR(c) = c, so
    // APGR = ∫c dc = 0.5, CPT(x) = x — the least any family scores, since the references are on its hull.
    const m = routingMetrics([{ cost: 2, accuracy: 0.3 }], weak, strong);
    expect(m.apgr).toBeCloseTo(0.5, 12);
    expect(m.cpt50).toBeCloseTo(0.5, 12);
    expect(m.cpt80).toBeCloseTo(0.8, 12);
  });

  it('a router at (2, 0.5): APGR 0.75, CPT(50%) 1/6, CPT(80%) 0.40', () => {
    // Hull (1, 0.2) → (2, 0.5) → (5, 0.6); in shares c = (cost − 1)/4: PGR 0 at 0, 0.75 at 0.25, 1 at 1.
    // APGR = (0 + 0.75)/2·0.25 + (0.75 + 1)/2·0.75 = 0.09375 + 0.65625 = 0.75.
    // CPT(50%): on [0, 0.25] PGR = 3c = 0.5 at c = 1/6. CPT(80%): on [0.25, 1] PGR = 0.75 + (c − 0.25)/3 = 0.8 at c = 0.40.
    const m = routingMetrics([{ cost: 2, accuracy: 0.5 }], weak, strong);
    expect(m.apgr).toBeCloseTo(0.75, 12);
    expect(m.cpt50).toBeCloseTo(1 / 6, 12);
    expect(m.cpt80).toBeCloseTo(0.4, 12);
  });

  it('a router cheaper than the weak reference and as good as the strong one recovers it all at once', () => {
    // (0.5, 0.6): the hull is flat at 0.6 from cost 0.5 on, so PGR = 1 over the whole range.
    expect(routingMetrics([{ cost: 0.5, accuracy: 0.6 }], weak, strong)).toEqual({ apgr: 1, cpt50: 0, cpt80: 0 });
  });

  it('references with no gap between them, or a family with no points, give no metrics (null, not a division by zero)', () => {
    expect(routingMetrics([], weak, strong)).toEqual({ apgr: null, cpt50: null, cpt80: null });
    expect(routingMetrics([{ cost: 2, accuracy: 0.5 }], weak, { cost: 5, accuracy: 0.2 })).toEqual({ apgr: null, cpt50: null, cpt80: null });
    expect(routingMetrics([], weak, { cost: 1, accuracy: 0.9 })).toEqual({ apgr: null, cpt50: null, cpt80: null });
  });
});
