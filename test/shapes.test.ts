// What the charts add to d3-shape and d3-scale, worked by hand: gaps where a value cannot be placed, stacked bands
// that count negative or missing usage as 0, range bands, coordinates to a tenth of a pixel, the scales' "no place"
// for what they cannot map, and the pointer's nearest point.
import { describe, expect, it } from 'vitest';
import { scaleLinear, scaleLog } from 'd3-scale';
import { linePath, rangeBand, stackedBands } from '../src/ui/charts/shapes';
import { placing } from '../src/ui/charts/axisTicks';
import { nearestIndex, nearestPoint } from '../src/ui/charts/nearest';

// Scales worked by hand: x → 10·x, y → 100 − 10·y (SVG y grows downwards); non-finite input has no place.
const sx = placing((x) => 10 * x);
const sy = placing((y) => 100 - 10 * y);

describe('paths of the live charts', () => {
  it('a line visits every point in order, to a tenth of a pixel', () => {
    // (1, 2) → (10, 80); (2, 5) → (20, 50); (3, 3.25) → (30, 67.5)
    expect(linePath([1, 2, 3], [2, 5, 3.25], sx, sy)).toBe('M10,80L20,50L30,67.5');
    expect(linePath([0.123], [0.456], sx, sy)).toBe('M1.2,95.4Z'); // one point: d3 closes it
  });
  it('a non-finite value breaks the line into pieces (a visible gap)', () => {
    expect(linePath([1, 2, 3, 4], [1, Number.NaN, 2, 3], sx, sy)).toBe('M10,90ZM30,80L40,70');
    expect(linePath([1, 2], [Infinity, 1], sx, sy)).toBe('M20,90Z');
    expect(linePath([], [], sx, sy)).toBe('');
  });
  it('a range band: along the highs, back along the lows; a point without both bounds is a gap', () => {
    // x 1, 3; lo = [1, 2], hi = [3, 5]: highs (10,70) (30,50), lows back (30,80) (10,90)
    expect(rangeBand([1, 3], [1, 2], [3, 5], sx, sy)).toBe('M10,70L30,50L30,80L10,90Z');
    expect(rangeBand([1, 2, 3], [1, Number.NaN, 2], [3, 4, 5], sx, sy)).toBe('M10,70L10,90ZM30,50L30,80Z');
    expect(rangeBand([1], [Number.NaN], [1], sx, sy)).toBe('');
  });
  it('stacked bands: each band sits on the running total of the ones before it', () => {
    // x 1, 2; a = [1, 2], b = [3, 1]: a spans 0..1 and 0..2; b spans 1..4 and 2..3
    expect(stackedBands([1, 2], [[1, 2], [3, 1]], sx, sy)).toEqual([
      'M10,90L20,80L20,100L10,100Z',
      'M10,60L20,70L20,80L10,90Z',
    ]);
  });
  it('negative or non-finite counts add nothing to the stack', () => {
    // a = [−1, NaN] counts as 0 → a flat band on 0; b = [2, 2] then spans 0..2
    expect(stackedBands([1, 2], [[-1, Number.NaN], [2, 2]], sx, sy)).toEqual([
      'M10,100L20,100L20,100L10,100Z',
      'M10,80L20,80L20,100L10,100Z',
    ]);
    expect(stackedBands([], [[]], sx, sy)).toEqual(['']);
  });
});

describe('scales and the pointer', () => {
  it('a d3 scale places finite pixels only: NaN has no place, nor 0 on a log axis', () => {
    const y = placing(scaleLinear([0, 1], [100, 0])); // an upward y axis 100 px tall
    expect(y(0.25)).toBe(75);
    expect(y(Number.NaN)).toBeUndefined();
    const x = placing(scaleLog([0.001, 1], [0, 300])); // three decades, 100 px each
    expect(x(0.01)).toBeCloseTo(100);
    expect(x(0)).toBeUndefined();
    expect(x(-1)).toBeUndefined();
  });
  it('the nearest point to a hovered x', () => {
    const xs = [1, 4, 10, 20];
    expect(nearestIndex(xs, 0)).toBe(0);
    expect(nearestIndex(xs, 2.4)).toBe(0); // |2.4−1| = 1.4 < |4−2.4| = 1.6
    expect(nearestIndex(xs, 2.6)).toBe(1);
    expect(nearestIndex(xs, 16)).toBe(3); // |20−16| = 4 < |16−10| = 6
    expect(nearestIndex([7], 1)).toBe(0);
    expect(nearestIndex([], 1)).toBe(-1);
  });
  it('the nearest point within reach, in two dimensions', () => {
    // (0,0) (10,0) (10,10); pointer at (8, 3): distances² 73, 13, 53 → index 1
    expect(nearestPoint([0, 10, 10], [0, 0, 10], 8, 3, 14)).toBe(1);
    // pointer at (30, 30): the closest, (10, 10), is √800 ≈ 28 px away > 14 → none
    expect(nearestPoint([0, 10, 10], [0, 0, 10], 30, 30, 14)).toBe(-1);
  });
});
