// Axis ticks computed once per data change: "nice" round numbers (1, 2, 2.5 or 5 × 10^k) and the
// decimals to print them with. The live charts draw their axes from these (AxesFrame), so nothing
// computes ticks or measures tick labels in the DOM on every update while training.

export interface Ticks {
  /** Tick values, ascending. */
  values: number[];
  /** Axis range: the outer ticks, or the data's extent where `tight`. */
  domain: [number, number];
  /** Decimals that print every tick distinctly. */
  decimals: number;
}

const MANTISSAS = [1, 2, 2.5, 5, 10];

/** Smallest nice step (1, 2, 2.5, 5 × 10^k) at least `raw`. */
export function niceStep(raw: number): number {
  const power = Math.pow(10, Math.floor(Math.log10(raw)));
  const m = MANTISSAS.find((c) => c * power >= raw * (1 - 1e-9)) ?? 10;
  return m * power;
}

/**
 * About `target` nice ticks covering [min, max]. `tight` keeps the domain at the data's extent
 * (for an iteration axis the curve should reach both edges) and keeps only the ticks inside it;
 * otherwise the domain is widened to the outer ticks. `integer` forbids fractional steps.
 */
export function niceTicks(min: number, max: number, { target = 5, tight = false, integer = false } = {}): Ticks {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return { values: [0, 1], domain: [0, 1], decimals: 0 };
  if (max < min) [min, max] = [max, min];
  if (max === min) {
    const pad = integer ? 1 : Math.abs(min) > 0 ? Math.abs(min) * 0.1 : 1;
    if (!tight) [min, max] = [min - pad, max + pad];
    else return { values: [min], domain: [min - pad, max + pad], decimals: decimalsFor(pad) };
  }
  let step = niceStep((max - min) / Math.max(1, target));
  if (integer) step = Math.max(1, Math.round(step));
  const lo = Math.floor(min / step + 1e-9) * step;
  const hi = Math.ceil(max / step - 1e-9) * step;
  const values: number[] = [];
  for (let k = 0; lo + k * step <= hi + step * 1e-9; k++) values.push(roundTo(lo + k * step, step));
  if (!tight) return { values, domain: [values[0] as number, values[values.length - 1] as number], decimals: decimalsFor(step) };
  return { values: values.filter((v) => v >= min - step * 1e-9 && v <= max + step * 1e-9), domain: [min, max], decimals: decimalsFor(step) };
}

/** Decimals needed to print multiples of `step` exactly (2.5 × 10^k needs one more). */
export function decimalsFor(step: number): number {
  let d = 0;
  while (d < 12 && Math.abs(Math.round(step * 10 ** d) - step * 10 ** d) > 1e-9 * 10 ** d) d++;
  return d;
}

function roundTo(v: number, step: number): number {
  const d = decimalsFor(step);
  const r = Number(v.toFixed(d));
  return r === 0 ? 0 : r;
}

const LOG_MANTISSAS = [1, 2, 5];

/**
 * Ticks for a log axis over [min, max] (both > 0): the values 1, 2, 5 × 10^k, the domain
 * widened to the nearest of them outside the data; only the powers of ten inside the domain
 * when that would give more than `maxTicks` (the ends then go unlabelled, as on printed log paper).
 */
export function logTicks(min: number, max: number, maxTicks = 7): Ticks {
  if (!(min > 0) || !(max > 0) || !Number.isFinite(min) || !Number.isFinite(max)) return { values: [1, 10], domain: [1, 10], decimals: 0 };
  if (max < min) [min, max] = [max, min];
  const candidates: number[] = [];
  for (let e = Math.floor(Math.log10(min)) - 1; e <= Math.ceil(Math.log10(max)); e++) {
    for (const m of LOG_MANTISSAS) candidates.push(Number((m * 10 ** e).toPrecision(1)));
  }
  const lo = candidates.filter((c) => c <= min * (1 + 1e-9)).pop() as number;
  const hi = candidates.find((c) => c >= max * (1 - 1e-9)) as number;
  let values = candidates.filter((c) => c >= lo && c <= hi);
  const powerOfTen = (c: number) => Math.abs(Math.log10(c) - Math.round(Math.log10(c))) < 1e-9;
  if (values.length > maxTicks) values = values.filter(powerOfTen);
  return { values, domain: [lo, hi], decimals: Math.max(0, ...values.map((v) => decimalsFor(v))) };
}
