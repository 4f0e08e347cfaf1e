// Cells over seeds and samples, with intervals worked by hand; the rows matched by name across runs;
// the seed nearest the median; the claims on a hand-made spread.
import { describe, expect, it } from 'vitest';
import { checkClaims } from '../src/core/eval/claims';
import { cellOver, overSeeds, showCell, type SeedRun, type Spread } from '../src/core/eval/overSeeds';
import type { Reproduction, Row } from '../src/core/eval/reproduce';
import { nearestMedian, SEEN_SAMPLES, TEST_SAMPLES, VALIDATION_SAMPLE } from '../src/core/eval/samples';

describe('a cell over seeds and samples', () => {
  it('adds the spread of the seed means and of the sample means (worked by hand)', () => {
    // v(seed, sample): (1,a) 1, (1,b) 3, (2,a) 2, (2,b) 4. Seed means 2, 3 → var 0.5, /2 = 0.25; sample means
    // 1.5, 3.5 → var 2, /2 = 1. se² = 1.25; df = 1.25² / (0.25²/1 + 1²/1) = 1.4706 → t(1) = 12.706.
    const c = cellOver([{ seed: 1, sample: 10, v: 1 }, { seed: 1, sample: 20, v: 3 }, { seed: 2, sample: 10, v: 2 }, { seed: 2, sample: 20, v: 4 }]);
    expect(c.mean).toBe(2.5);
    expect(c.half).toBeCloseTo(12.706 * Math.sqrt(1.25), 9);
    expect(c.n).toBe(4);
  });

  it('a row no seed moves (a baseline) gets the samples\' spread alone', () => {
    // Samples 1, 2, 6 (the same for both seeds): mean 3, var 7, se² = 7/3, df 2 → t 4.303.
    const values = [1, 2, 6].flatMap((v, k) => [1, 2].map((seed) => ({ seed, sample: k, v })));
    const c = cellOver(values);
    expect(c.mean).toBe(3);
    expect(c.half).toBeCloseTo(4.303 * Math.sqrt(7 / 3), 9);
    // Five seeds on one sample: the seeds' spread alone. 1…5: var 2.5, se² 0.5, df 4 → t 2.776.
    expect(cellOver([1, 2, 3, 4, 5].map((v) => ({ seed: v, sample: 0, v }))).half).toBeCloseTo(2.776 * Math.sqrt(0.5), 9);
    // One run, or all alike: no interval.
    expect(cellOver([{ seed: 1, sample: 0, v: 7 }])).toEqual({ mean: 7, half: 0, n: 1 });
    expect(showCell({ mean: 7, half: 0, n: 1 })).toBe('7.00');
    expect(showCell({ mean: 64.61, half: 1.234, n: 15 })).toBe('64.6 ± 1.2');
    // Small values keep three significant figures (a λ of 0.001, an APGR, a cost in dollars), at most four decimals.
    expect(showCell({ mean: 0.903, half: 0.0412, n: 15 })).toBe('0.903 ± 0.041');
    expect(showCell({ mean: 0.001, half: 0, n: 15 })).toBe('0.0010');
    expect(showCell({ mean: 0.0123, half: 0.0021, n: 15 })).toBe('0.0123 ± 0.0021');
    expect(showCell({ mean: 0, half: 0, n: 15 })).toBe('0.00');
    expect(showCell(null)).toBe('—');
  });

  it('matches rows by name across runs, skips cells that are not numbers, and keeps the paper\'s numbers', () => {
    const row = (name: string, lab: Row['lab']): Row => ({ name, paper: { hle: 37.1 }, lab });
    const rep = (rows: Row[]): Reproduction => ({ table1: rows, table2: [], copy: [], table3: [], table3Systems: [], table4: [],
      table15: [], figure6: [], rule: [], ruleFrontier: [], routing: [] });
    const runs: SeedRun[] = [
      { seed: 1, sample: 1, r: rep([row('a', { hle: 10, x: null }), row('b', { hle: 1 })]) },
      { seed: 2, sample: 1, r: rep([row('b', { hle: 3 }), row('a', { hle: 20, x: null })]) },
      { seed: 3, sample: 1, r: rep([row('a', { hle: 30, x: null })]) },
    ];
    const t = overSeeds(runs).table1;
    expect(t.map((r) => r.name)).toEqual(['a', 'b']);
    expect(t[0]?.lab.hle?.mean).toBe(20);
    expect(t[0]?.lab.x).toBeNull();
    expect(t[1]?.lab.hle).toMatchObject({ mean: 2, n: 2 });
    expect(t[0]?.paper).toEqual({ hle: 37.1 });
  });
});

describe('samples', () => {
  it('the reported samples are none that anything was chosen or checked on, nor the validation sample', () => {
    for (const s of TEST_SAMPLES) {
      expect(SEEN_SAMPLES).not.toContain(s);
      expect(s).not.toBe(VALIDATION_SAMPLE);
    }
    expect(SEEN_SAMPLES).not.toContain(VALIDATION_SAMPLE);
    expect(new Set(TEST_SAMPLES).size).toBe(TEST_SAMPLES.length);
  });

  it('the seed nearest the median: odd and even counts, ties to the first', () => {
    expect(nearestMedian([3, 1, 2])).toBe(2);
    expect(nearestMedian([1, 2, 3, 10])).toBe(1); // median 2.5: 2 and 3 tie, the first wins
    expect(nearestMedian([64.6, 61.8, 62.0, 60.0, 60.9])).toBe(1); // median 61.8, itself
  });
});

describe('the claims', () => {
  const c = (mean: number) => ({ mean, half: 0, n: 1 });
  const spread = (orchMean: number, orchCost: number): Spread => ({
    table1: [{ name: 'orchestrator', paper: {}, lab: { hle: c(40), mean: c(orchMean), costCents: c(orchCost), latencyMin: c(2) } },
      { name: 'tools+gpt-5', paper: {}, lab: { hle: c(35), mean: c(63), costCents: c(11), latencyMin: c(3) } }],
    ruleFrontier: [{ name: 'greedy:0.01', paper: {}, lab: { mean: c(70), costCents: c(5) } },
      { name: 'greedy:0.1', paper: {}, lab: { mean: c(50), costCents: c(1) } }],
    table2: [], copy: [], table3: [], table3Systems: [], table4: [], table15: [], figure6: [], rule: [], routing: [],
  });
  const runs = (mean: number, cost: number): SeedRun[] => [{ seed: 1, sample: 1, r: { table1: [{ name: 'orchestrator', paper: {},
    lab: { mean, costCents: cost } }], table2: [], copy: [], table3: [], table3Systems: [], table4: [], table15: [], figure6: [], rule: [], ruleFrontier: [],
    routing: [] } }];

  it('learning beats the rule only by 3 points over the rule\'s best λ at no more cost', () => {
    // At 4¢ only λ = 0.1 (50% at 1¢) costs no more: 53 ≥ 50 + 3 holds, 52.9 does not.
    expect(checkClaims(spread(53, 4), runs(53, 4))[0]?.holds).toBe(true);
    expect(checkClaims(spread(52.9, 4), runs(52.9, 4))[0]?.holds).toBe(false);
    // At 5¢ λ = 0.01 (70% at 5¢) is within the cost: 72 falls short of 73.
    const at5 = checkClaims(spread(72, 5), runs(72, 5));
    expect(at5[0]).toMatchObject({ holds: false });
    expect(at5[0]?.measured).toContain('greedy:0.01');
    // Above the frontier: 72% at 5¢ is above λ = 0.01's 70% at 5¢ and λ = 0.1's 50%; 69% is not.
    expect(at5[1]?.holds).toBe(true);
    expect(checkClaims(spread(69, 5), runs(69, 5))[1]).toMatchObject({ holds: false, measured: '0 of 1 seeds (not seed 1)' });
  });
});
