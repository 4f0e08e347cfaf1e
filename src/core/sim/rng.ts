// Seeded randomness for the whole simulation. Two kinds, both pure functions of integers:
//  - `SeqRng`: a sequential generator (mulberry32) for building tasks, where draws come in order;
//  - `counterUniform`: a counter-based draw u(key, a, b, c, channel) for episodes, so that the
//    same (episode, step, tool, attempt) gets the same number whatever else happened. That gives
//    common random numbers across policies (fair comparisons) and lets the hindsight baseline "see"
//    the hidden success of a call before making it.

/** 32-bit integer mix (the finaliser of MurmurHash3). */
export function mix32(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Combines integers into one 32-bit hash. */
export function hashInts(...xs: number[]): number {
  let h = 0x9e3779b9;
  for (const x of xs) h = mix32((h ^ (x >>> 0)) + 0x7f4a7c15);
  return h;
}

/** A uniform draw in (0, 1) from a key and up to four integer coordinates. */
export function counterUniform(key: number, a: number, b: number, c: number, channel: number): number {
  const h = hashInts(key, a, b, c, channel);
  return (h + 0.5) / 4294967296;
}

/** The standard logistic quantile scaled to unit variance: ln(u/(1−u))·√3/π. u = 0.5 gives 0. */
export function unitLogistic(u: number): number {
  const v = Math.min(1 - 1e-9, Math.max(1e-9, u));
  return (Math.log(v / (1 - v)) * Math.sqrt(3)) / Math.PI;
}

/** Sequential seeded generator (mulberry32). */
export class SeqRng {
  private state: number;
  constructor(seed: number) {
    this.state = hashInts(seed) >>> 0;
  }
  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  /** Normal draw (Box–Muller). */
  normal(mean = 0, sd = 1): number {
    const u1 = Math.max(this.next(), 1e-12);
    const u2 = this.next();
    return mean + sd * Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  }
  pick<T>(xs: readonly T[]): T {
    if (xs.length === 0) throw new Error('pick from an empty list');
    return xs[this.int(xs.length)] as T;
  }
  /** A 32-bit integer, to seed a child stream. */
  u32(): number {
    return (this.next() * 4294967296) >>> 0;
  }
}

/** Coefficients of Acklam's approximation of Φ⁻¹ (module-level: normalQuantile runs per call and per latent). */
const NQ_A = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239];
const NQ_B = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
const NQ_C = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
const NQ_D = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
function nqTail(q: number): number {
  return (((((NQ_C[0] * q + NQ_C[1]) * q + NQ_C[2]) * q + NQ_C[3]) * q + NQ_C[4]) * q + NQ_C[5])
    / ((((NQ_D[0] * q + NQ_D[1]) * q + NQ_D[2]) * q + NQ_D[3]) * q + 1);
}

/**
 * The standard normal quantile Φ⁻¹(u) (Acklam's rational approximation, relative error < 1.2e-9),
 * so one uniform gives one normal draw.
 */
export function normalQuantile(u: number): number {
  const p = Math.min(1 - 1e-12, Math.max(1e-12, u));
  if (p < 0.02425) return nqTail(Math.sqrt(-2 * Math.log(p)));
  if (p > 1 - 0.02425) return -nqTail(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5, r = q * q;
  return ((((((NQ_A[0] * r + NQ_A[1]) * r + NQ_A[2]) * r + NQ_A[3]) * r + NQ_A[4]) * r + NQ_A[5]) * q)
    / (((((NQ_B[0] * r + NQ_B[1]) * r + NQ_B[2]) * r + NQ_B[3]) * r + NQ_B[4]) * r + 1);
}

/** A 32-bit hash of a string (FNV-1a), so a tool's draws follow its id, not its position in a catalog. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
