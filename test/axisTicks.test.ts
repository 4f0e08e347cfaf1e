// What the charts' axis code adds to d3-scale's ticks, worked by hand: the decimals that print them, whole numbers
// only where asked, an iteration axis that grows in steps, a log axis on 1-2-5 values around the data, the value
// axis of IterationChart over curves, stacks and baselines, and drawable defaults for degenerate input.
import { describe, expect, it } from 'vitest';
import { iterationTicks, linearTicks, logTicks } from '../src/ui/charts/axisTicks';
import { valueTicks } from '../src/ui/charts/IterationChart';

describe('linear axes (d3 nice domains, our decimals)', () => {
  it('a reward axis from -0.37 to 0.81 widens to the outer ticks', () => {
    // 1.18 / 4 = 0.295 → d3's step 0.5 (1, 2 or 5 × 10^k) → −0.5 … 1, one decimal
    expect(linearTicks(-0.37, 0.81, 4)).toEqual({ values: [-0.5, 0, 0.5, 1], domain: [-0.5, 1], decimals: 1 });
  });
  it('a cost axis in thousandths of a dollar prints three decimals', () => {
    // 0.0068 / 4 = 0.0017 → step 0.002: 0.004 … 0.012
    expect(linearTicks(0.0052, 0.012, 4)).toEqual({ values: [0.004, 0.006, 0.008, 0.01, 0.012], domain: [0.004, 0.012],
      decimals: 3 });
  });
  it('an axis in millionths of a dollar prints seven decimals (JavaScript writes 1e-7 without a point)', () => {
    // 0.00000043 / 4 ≈ 1.1e-7 → step 1e-7: 0 … 5e-7, whose labels need seven decimals ("0.0000001")
    const t = linearTicks(0, 4.3e-7, 4);
    expect(t.domain).toEqual([0, 5e-7]);
    expect(t.values.map((v) => v.toFixed(t.decimals))).toEqual(['0.0000000', '0.0000001', '0.0000002', '0.0000003',
      '0.0000004', '0.0000005']);
  });
  it('a count axis keeps whole numbers only', () => {
    // 0 … 1 in about 3 ticks is 0, 0.5, 1; the 0.5 goes
    expect(linearTicks(0, 1, 3, true)).toEqual({ values: [0, 1], domain: [0, 1], decimals: 0 });
    expect(linearTicks(0, 7, 3, true).values).toEqual([0, 2, 4, 6, 8]);
  });
  it('degenerate input stays drawable', () => {
    expect(linearTicks(Number.NaN, 1).domain).toEqual([0, 1]);
    expect(linearTicks(0, 0).domain).toEqual([-1, 1]); // one value at 0: ±1
    // one value at 5: 4.5 … 5.5, whose step for 5 ticks is 0.2, so the domain widens to 4.4 … 5.6
    expect(linearTicks(5, 5)).toEqual({ values: [4.4, 4.6, 4.8, 5, 5.2, 5.4, 5.6], domain: [4.4, 5.6], decimals: 1 });
    expect(linearTicks(5, 2).domain).toEqual([2, 5]);
  });
});

describe('the iteration axis grows in steps', () => {
  const upTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
  it('ends at the last iteration rounded up to d3\'s nice end for about five ticks', () => {
    // 37 / 5 = 7.4 → step 10 → ends at 40; ticks over 1 … 40: 10 20 30 40
    expect(iterationTicks(upTo(37))).toEqual({ values: [10, 20, 30, 40], domain: [1, 40], decimals: 0 });
    // 38 … 40 keep the same axis (the frame is not re-rendered); 41 moves it to 50
    expect(iterationTicks(upTo(40)).domain).toEqual([1, 40]);
    expect(iterationTicks(upTo(41)).domain).toEqual([1, 50]);
    // 101 / 5 = 20.2 → step 20 → 120
    expect(iterationTicks(upTo(101)).domain).toEqual([1, 120]);
  });
  it('never has fractional iterations, and one iteration is a padded axis around it', () => {
    expect(iterationTicks(upTo(3)).values).toEqual([1, 2, 3]);
    expect(iterationTicks([1])).toEqual({ values: [1], domain: [0, 2], decimals: 0 });
    expect(iterationTicks([])).toEqual({ values: [0, 1], domain: [0, 1], decimals: 0 });
  });
});

describe('log axes (the trade-off view)', () => {
  it('run between 1-2-5 values around the data and label 1, 2, 5 × 10^k', () => {
    // 0.0031 … 0.042: below 0.0031 the nearest is 0.002, above 0.042 it is 0.05
    expect(logTicks(0.0031, 0.042)).toEqual({ values: [0.002, 0.005, 0.01, 0.02, 0.05], domain: [0.002, 0.05],
      decimals: 3 });
    expect(logTicks(0.01, 1).domain).toEqual([0.01, 1]); // exactly on a 1-2-5 value: the domain ends there
  });
  it('over many decades keep only the powers of ten, the ends unlabelled', () => {
    // 0.0007 … 0.36 → [0.0005, 0.5]: 10 values of 1-2-5 > 7, so the powers of ten inside: 0.001 0.01 0.1
    expect(logTicks(0.0007, 0.36)).toEqual({ values: [0.001, 0.01, 0.1], domain: [0.0005, 0.5], decimals: 3 });
  });
  it('refuse non-positive input with a drawable default', () => {
    expect(logTicks(0, 1).domain).toEqual([1, 10]);
    expect(logTicks(-1, 5).values).toEqual([1, 10]);
  });
});

describe('the value axis of IterationChart', () => {
  const curve = (values: number[]) => ({ name: 'c', colour: '#000', values });
  it('lines: covers every curve; stacked: from 0 to the largest total; a fixed domain wins', () => {
    expect(valueTicks([curve([0.2, -0.37]), curve([0.81, Number.NaN])], false).values).toEqual([-0.5, 0, 0.5, 1]);
    // stacked totals 1 + 3 = 4 and 2 + 1 = 3 → 0 … 4 in steps of 1
    expect(valueTicks([curve([1, 2]), curve([3, 1])], true).values).toEqual([0, 1, 2, 3, 4]);
    expect(valueTicks([curve([0.5])], false, [0, 1])).toEqual({ values: [0, 0.2, 0.4, 0.6, 0.8, 1], domain: [0, 1],
      decimals: 1 });
  });
  it('keeps 0 and the baselines inside, and with nothing drawn but 0 runs 0 to 1', () => {
    // values 0.4 … 0.6 with a baseline at 0.9 and 0 included → 0 … 1
    expect(valueTicks([curve([0.4, 0.6])], false, undefined, [0, 0.9]).domain).toEqual([0, 1]);
    expect(valueTicks([curve([Number.NaN])], false, undefined, [0]).domain).toEqual([0, 1]);
    expect(valueTicks([], false).domain).toEqual([0, 1]);
  });
});
