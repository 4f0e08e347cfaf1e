// Cost–quality trade-off: the non-decreasing convex hull of (cost, accuracy) points — mixing
// two policies at random reaches any point between them — and RouterBench's AIQ, the average
// height of that hull over a cost range: AIQ = (1/(c_max − c_min))·∫ hull(c) dc, the hull held
// flat after its dearest point and 0 below its cheapest (no mix of the policies costs less); and
// RouteLLM's APGR and CPT(x), the gap between a weak and a strong reference that a router recovers.

export interface TradeoffPoint {
  cost: number;
  accuracy: number;
  label?: string;
}

/** Vertices of the non-decreasing upper convex hull, by increasing cost. */
export function nonDecreasingHull(points: readonly TradeoffPoint[]): TradeoffPoint[] {
  const sorted = [...points].sort((a, b) => a.cost - b.cost || b.accuracy - a.accuracy);
  // Keep only points that improve accuracy over every cheaper point (the Pareto staircase).
  const pareto: TradeoffPoint[] = [];
  for (const p of sorted) if (pareto.length === 0 || p.accuracy > (pareto[pareto.length - 1] as TradeoffPoint).accuracy) pareto.push(p);
  // Upper hull (Andrew's monotone chain) over the staircase.
  const hull: TradeoffPoint[] = [];
  for (const p of pareto) {
    while (hull.length >= 2) {
      const a = hull[hull.length - 2] as TradeoffPoint, b = hull[hull.length - 1] as TradeoffPoint;
      const cross = (b.cost - a.cost) * (p.accuracy - a.accuracy) - (b.accuracy - a.accuracy) * (p.cost - a.cost);
      if (cross >= 0) hull.pop();
      else break;
    }
    hull.push(p);
  }
  return hull;
}

/** The hull's height at cost c (0 below its cheapest vertex, flat after its dearest). */
export function hullAt(hull: readonly TradeoffPoint[], c: number): number {
  if (hull.length === 0 || c < (hull[0] as TradeoffPoint).cost) return 0;
  for (let k = 1; k < hull.length; k++) {
    const a = hull[k - 1] as TradeoffPoint, b = hull[k] as TradeoffPoint;
    if (c <= b.cost) return a.accuracy + ((b.accuracy - a.accuracy) * (c - a.cost)) / (b.cost - a.cost);
  }
  return (hull[hull.length - 1] as TradeoffPoint).accuracy;
}

/** AIQ of a point set over [cMin, cMax] (exact integral of the piecewise-linear hull). */
export function aiq(points: readonly TradeoffPoint[], cMin: number, cMax: number): number {
  const hull = nonDecreasingHull(points);
  if (hull.length === 0) return 0;
  if (!(cMax > cMin)) return hullAt(hull, cMin);
  const xs = [cMin, ...hull.map((p) => p.cost).filter((c) => c > cMin && c < cMax), cMax];
  const first = (hull[0] as TradeoffPoint).cost;
  if (first > cMin && first < cMax) xs.push(first - 1e-12 * (cMax - cMin)); // the step up at the cheapest vertex
  xs.sort((a, b) => a - b);
  let area = 0;
  for (let k = 1; k < xs.length; k++) {
    const a = xs[k - 1] as number, b = xs[k] as number;
    area += ((hullAt(hull, a) + hullAt(hull, b)) / 2) * (b - a);
  }
  return area / (cMax - cMin);
}

/** The non-decreasing hull of labelled points along any x (cost, latency, a share of calls): the vertices, as the points themselves. */
export function frontierAlong<T extends { label: string; accuracy: number }>(points: readonly T[], x: (p: T) => number): T[] {
  const byLabel = new Map(points.map((p) => [p.label, p]));
  return nonDecreasingHull(points.map((p) => ({ cost: x(p), accuracy: p.accuracy, label: p.label }))).map((h) => byLabel.get(h.label ?? '') as T);
}

/**
 * RouteLLM's routing metrics (Ong et al., 2024, §5.1), for a family of points routed between a weak and a strong
 * reference. The x-axis is the share of the way from the weak one's cost to the strong one's, c = (cost − c_weak) /
 * (c_strong − c_weak): for a router between two models, its share of calls to the strong one. PGR(c) = (hull(c) −
 * acc_weak) / (acc_strong − acc_weak), the performance gap recovered, on the non-decreasing hull of the family's
 * points and the two references (a router can always send everything to either, or mix the two at random: so,
 * unlike RouteLLM's raw curve, APGR here is at least 0.5 and CPT(x) at most x). APGR = ∫₀¹ PGR(c) dc; CPT(x) = the
 * least c at which PGR reaches x. Null for a family with no points, or references that leave no gap.
 */
export interface RoutingMetrics { apgr: number | null; cpt50: number | null; cpt80: number | null }

export function routingMetrics(points: readonly TradeoffPoint[], weak: TradeoffPoint, strong: TradeoffPoint): RoutingMetrics {
  const gap = strong.accuracy - weak.accuracy, span = strong.cost - weak.cost;
  if (points.length === 0 || !(gap > 0 && span > 0)) return { apgr: null, cpt50: null, cpt80: null };
  const all = [...points, weak, strong];
  const hull = nonDecreasingHull(all);
  const apgr = (aiq(all, weak.cost, strong.cost) - weak.accuracy) / gap;
  /** The least share c in [0, 1] where the hull reaches weak + x·gap (the strong reference does, at 1). */
  const cpt = (x: number): number => {
    const target = weak.accuracy + x * gap;
    if (hullAt(hull, weak.cost) >= target) return 0;
    for (let k = 1; k < hull.length; k++) {
      const a = hull[k - 1] as TradeoffPoint, b = hull[k] as TradeoffPoint;
      if (b.accuracy >= target && b.cost > weak.cost) {
        const from = Math.max(a.cost, weak.cost), at = hullAt(hull, from);
        const c = from + ((target - at) * (b.cost - from)) / (b.accuracy - at);
        return Math.min(1, Math.max(0, (c - weak.cost) / span));
      }
    }
    return 1;
  };
  return { apgr, cpt50: cpt(0.5), cpt80: cpt(0.8) };
}
