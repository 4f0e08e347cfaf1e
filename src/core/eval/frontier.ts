// Cost–quality trade-off: the non-decreasing convex hull of (cost, accuracy) points — mixing
// two policies at random reaches any point between them — and RouterBench's AIQ, the average
// height of that hull over a cost range: AIQ = (1/(c_max − c_min))·∫ hull(c) dc, the hull held
// flat after its dearest point and 0 below its cheapest (no mix of the policies costs less).

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
