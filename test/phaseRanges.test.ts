// The min–max table of slow motion's phase 4: min and max written with the digits that tell them
// apart, and the ranges that M̃ stretches to 0…1 although they are too small to matter.
import { describe, expect, it } from 'vitest';
import { distinct, isTinyRange } from '../src/core/lab/phaseReport';

describe('phase 4 ranges', () => {
  it('writes min and max as M is, adding digits only where they would read alike', () => {
    expect(distinct(2, 3)).toEqual(['2', '3']); // call counts
    expect(distinct(-0.0406, -0.0116)).toEqual(['-0.0406', '-0.0116']); // −cost, 4 decimals
    expect(distinct(-224.31, -37.1)).toEqual(['-224.3', '-37.1']); // −latency, 1 decimal
    // −$0.00070 and −$0.000701 both read "-7.0e-4" at the usual precision: 3 significant digits tell them apart.
    expect(distinct(-0.0007, -0.000701)).toEqual(['-0.000700', '-0.000701']);
    // −90.12 s and −90.14 s both read "-90.1": four digits do.
    expect(distinct(-90.14, -90.12)).toEqual(['-90.14', '-90.12']);
    expect(distinct(5, 5)).toEqual(['5', '5']);
  });

  it('calls a range tiny when it is under 1% of the values or invisible at 4 decimals', () => {
    expect(isTinyRange(-0.000701, -0.0007)).toBe(true); // 1e-6 against 7e-4: 0.14%
    expect(isTinyRange(-90.14, -90.12)).toBe(true); // 0.02 s of 90: 0.02%
    expect(isTinyRange(-0.0406, -0.0116)).toBe(false); // 0.029 of 0.0406: 71%
    expect(isTinyRange(0, 1)).toBe(false);
    expect(isTinyRange(3, 3)).toBe(false); // constant: zeroed, not stretched
  });
});
