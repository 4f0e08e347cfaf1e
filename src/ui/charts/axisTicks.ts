// The live charts' axes from d3-scale: ticks computed once per data change (its "nice" domains and round ticks,
// 1, 2 or 5 × 10^k, and the decimals that print them) and its scales as pixel maps. The charts draw their axes
// from these (AxesFrame), so nothing computes ticks or measures tick labels in the DOM on every update.

import { scaleLinear, scaleLog } from 'd3-scale';

/** Maps a data value to a pixel coordinate; `undefined` where it has no place (NaN, ±∞, ≤ 0 on a log axis). */
export type Scale = (v: number) => number | undefined;

/** A d3 scale as a Scale: what it maps to a non-finite pixel has no place. */
export const placing = (scale: (v: number) => number): Scale => (v) => {
  const at = scale(v);
  return Number.isFinite(at) ? at : undefined;
};

export interface Ticks {
  /** Tick values, ascending. */
  values: number[];
  /** Axis range: the outer ticks, or the data's extent on the iteration axis. */
  domain: [number, number];
  /** Decimals that print every tick distinctly. */
  decimals: number;
}

/** The fewest decimals that write `v` exactly (to 1e-9 of itself): 0.25 → 2, 1e-7 → 7 (its String is "1e-7"). */
const decimalsOfValue = (v: number): number => {
  for (let d = 0; d < 20; d++) if (Math.abs(Number(v.toFixed(d)) - v) <= 1e-9 * Math.abs(v)) return d;
  return 20;
};
/** Decimals that print every tick (d3 computes its ticks as exact decimals: 0.3, not 0.30000000000000004). */
const decimalsOf = (values: readonly number[]): number => Math.max(0, ...values.map(decimalsOfValue));

/**
 * About `count` ticks over [min, max], the domain widened to the outer ones (d3's nice); `integer` keeps whole
 * numbers only. A single value is widened by a tenth of itself (1 at 0); a non-finite range is drawn as 0 to 1.
 */
export function linearTicks(min: number, max: number, count = 5, integer = false): Ticks {
  if (!Number.isFinite(min) || !Number.isFinite(max)) [min, max] = [0, 1];
  const pad = min === max ? Math.abs(min) * 0.1 || 1 : 0;
  const scale = scaleLinear().domain([Math.min(min, max) - pad, Math.max(min, max) + pad]).nice(count);
  const values = scale.ticks(count).filter((v) => !integer || Number.isInteger(v));
  const [lo = 0, hi = 1] = scale.domain();
  return { values, domain: [lo, hi], decimals: decimalsOf(values) };
}

/**
 * Whole-number ticks over the iterations. The axis starts at the first iteration and ends at the last one
 * rounded up to d3's nice end for about five ticks, so the curve fills most of the width and the axis (the
 * frame's part of the chart) moves only when that end does, not on every update.
 */
export function iterationTicks(xs: readonly number[]): Ticks {
  const first = xs[0] ?? 0, last = xs[xs.length - 1] ?? 1;
  if (first === last) return { values: [first], domain: [first - 1, first + 1], decimals: 0 };
  const end = Math.max(first, scaleLinear().domain([0, last]).nice(5).domain()[1] ?? last);
  const values = scaleLinear().domain([first, end]).ticks(Math.min(5, end - first)).filter(Number.isInteger);
  return { values, domain: [first, end], decimals: 0 };
}

const isOneTwoFive = (v: number): boolean => /^[125]e/.test(v.toExponential());
const isPowerOfTen = (v: number): boolean => /^1e/.test(v.toExponential());

/**
 * Ticks for a log axis over [min, max] (both > 0): d3's 1, 2 and 5 × 10^k, the domain widened to the nearest of
 * them outside the data; only the powers of ten when that gives more than `maxTicks` (the ends then go unlabelled,
 * as on printed log paper).
 */
export function logTicks(min: number, max: number, maxTicks = 7): Ticks {
  if (!(min > 0 && max > 0 && Number.isFinite(min) && Number.isFinite(max))) {
    return { values: [1, 10], domain: [1, 10], decimals: 0 };
  }
  if (max < min) [min, max] = [max, min];
  const candidates = scaleLog().domain([min, max]).nice().ticks().filter(isOneTwoFive);
  const lo = candidates.filter((c) => c <= min).pop() ?? min;
  const hi = candidates.find((c) => c >= max) ?? max;
  const inside = candidates.filter((c) => c >= lo && c <= hi);
  const values = inside.length > maxTicks ? inside.filter(isPowerOfTen) : inside;
  return { values, domain: [lo, hi], decimals: decimalsOf(values) };
}
