import { describe, expect, it } from 'vitest';
import { linePath, rangeBand, stackedBands, starPath } from '../src/ui/charts/seriesPaths';
import { linearScale, logScale, nearestIndex, nearestPoint } from '../src/ui/charts/scales';

// Scales worked by hand: x → 10·x, y → 100 − 10·y (SVG y grows downwards).
const sx = (x: number) => 10 * x;
const sy = (y: number) => 100 - 10 * y;

describe('paths of the live charts (worked by hand)', () => {
  it('a line visits every point in order', () => {
    // (1, 2) → (10, 80); (2, 5) → (20, 50); (3, 3.25) → (30, 67.5)
    expect(linePath([1, 2, 3], [2, 5, 3.25], sx, sy)).toBe('M10,80L20,50L30,67.5');
  });
  it('a non-finite value breaks the line into two pieces (a visible gap)', () => {
    expect(linePath([1, 2, 3, 4], [1, Number.NaN, 2, 3], sx, sy)).toBe('M10,90M30,80L40,70');
    expect(linePath([1, 2], [Infinity, 1], sx, sy)).toBe('M20,90');
  });
  it('a point the scale cannot place is skipped like a gap', () => {
    const partial = (x: number) => (x === 2 ? undefined : 10 * x);
    expect(linePath([1, 2, 3], [1, 1, 1], partial, sy)).toBe('M10,90M30,90');
  });
  it('coordinates are rounded to a tenth of a pixel', () => {
    expect(linePath([0.123], [0.456], sx, sy)).toBe('M1.2,95.4');
  });
  it('a range band: along the highs, back along the lows; a point without both bounds is skipped', () => {
    // x 1, 2, 3; lo = [1, NaN, 2], hi = [3, 4, 5]: (1: 1..3) → top (10,70), bottom (10,90);
    // (2) skipped; (3: 2..5) → top (30,50), bottom (30,80); the bottom runs back from x 3 to x 1.
    expect(rangeBand([1, 2, 3], [1, Number.NaN, 2], [3, 4, 5], sx, sy)).toBe('M10,70L30,50L30,80L10,90Z');
    expect(rangeBand([1], [Number.NaN], [1], sx, sy)).toBe('');
  });
  it('stacked bands: each band sits on the running total of the ones before it', () => {
    // x 1, 2; series a = [1, 2], b = [3, 1]
    // a spans 0..1 and 0..2 → top (10,90) (20,80), bottom back (20,100) (10,100)
    // b spans 1..4 and 2..3 → top (10,60) (20,70), bottom back (20,80) (10,90)
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
  it('the nearest point to a hovered x', () => {
    const xs = [1, 4, 10, 20];
    expect(nearestIndex(xs, 0)).toBe(0);
    expect(nearestIndex(xs, 2.4)).toBe(0); // |2.4−1| = 1.4 < |4−2.4| = 1.6
    expect(nearestIndex(xs, 2.6)).toBe(1);
    expect(nearestIndex(xs, 16)).toBe(3); // |20−16| = 4 < |16−10| = 6
    expect(nearestIndex(xs, 99)).toBe(3);
    expect(nearestIndex([7], 1)).toBe(0);
    expect(nearestIndex([], 1)).toBe(-1);
  });
  it('the nearest point within reach, in two dimensions', () => {
    // (0,0) (10,0) (10,10); pointer at (8, 3): distances² 73, 13, 53 → index 1
    expect(nearestPoint([0, 10, 10], [0, 0, 10], 8, 3, 14)).toBe(1);
    // pointer at (30, 30): the closest, (10, 10), is √800 ≈ 28 px away > 14 → none
    expect(nearestPoint([0, 10, 10], [0, 0, 10], 30, 30, 14)).toBe(-1);
  });
  it('linear and log scales map the domain ends onto the range ends', () => {
    const y = linearScale([0, 1], [100, 0]); // an upward y axis 100 px tall
    expect(y(0)).toBe(100);
    expect(y(0.25)).toBe(75);
    expect(y(Number.NaN)).toBeUndefined();
    expect(linearScale([3, 3], [0, 50])(3)).toBe(25);
    const x = logScale([0.001, 1], [0, 300]); // three decades, 100 px each
    expect(x(0.001)).toBeCloseTo(0);
    expect(x(0.01)).toBeCloseTo(100);
    expect(x(0.1)).toBeCloseTo(200);
    expect(x(0)).toBeUndefined();
  });
  it('the operating-point star has its tip straight up and ten corners', () => {
    const d = starPath(50, 50, 10, 4);
    expect(d.startsWith('M50,40')).toBe(true); // outer point at angle −90°
    expect(d.match(/[ML]/g)).toHaveLength(10);
    // the second corner is an inner one at −54°: (50 + 4·cos 54°, 50 − 4·sin 54°) = (52.4, 46.8)
    expect(d).toContain('L52.4,46.8');
    expect(d.endsWith('Z')).toBe(true);
  });
});

describe('value axes of the live charts (worked by hand)', () => {
  it('lines: the axis covers every curve; stacked: from 0 to the largest total', async () => {
    const { valueTicks } = await import('../src/ui/charts/IterationChart');
    const curve = (values: number[]) => ({ name: 'c', colour: '#000', values });
    // lines −0.37 … 0.81: 1.18 / 4 = 0.295 → step 0.5 → −0.5 … 1
    expect(valueTicks([curve([0.2, -0.37]), curve([0.81, Number.NaN])], false).values).toEqual([-0.5, 0, 0.5, 1]);
    // stacked totals 1 + 3 = 4 and 2 + 1 = 3 → 0 … 4 in steps of 1
    expect(valueTicks([curve([1, 2]), curve([3, 1])], true).values).toEqual([0, 1, 2, 3, 4]);
    // a fixed domain wins (accuracy 0 … 1)
    expect(valueTicks([curve([0.5])], false, [0, 1]).domain).toEqual([0, 1]);
  });
});

describe('the iteration axis grows in steps (worked by hand)', () => {
  it('ends at the last iteration rounded up to a nice step near a fifth of it', async () => {
    const { iterationTicks } = await import('../src/ui/charts/IterationChart');
    const upTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
    // 37 / 5 = 7.4 → step 10 → ends at 40; ticks 39 / 5 = 7.8 → 10: 10 20 30 40
    expect(iterationTicks(upTo(37))).toEqual({ values: [10, 20, 30, 40], domain: [1, 40], decimals: 0 });
    // 38, 39, 40 keep the same axis (the frame is not re-rendered); 41 moves it to 50
    expect(iterationTicks(upTo(40)).domain).toEqual([1, 40]);
    expect(iterationTicks(upTo(41)).domain).toEqual([1, 50]);
    // 101 / 5 = 20.2 → step 25 → 125
    expect(iterationTicks(upTo(101)).domain).toEqual([1, 125]);
    // one iteration: a padded axis around it
    expect(iterationTicks([1]).domain).toEqual([0, 2]);
  });
});
