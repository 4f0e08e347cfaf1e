// The run's verdict from its accuracy per iteration, on series built by hand.
import { describe, expect, it } from 'vitest';
import { runHealth, runHealthLongest, runHealthText } from '../src/core/lab/runHealth';

/** A series that alternates a − d and a + d (sd ≈ d), `n` iterations. */
const flat = (n: number, a: number, d = 0.05) => Array.from({ length: n }, (_, i) => a + (i % 2 ? d : -d));

describe('runHealth', () => {
  it('says nothing before two windows', () => {
    expect(runHealth(flat(399, 0.5))).toBeNull();
  });
  it('a flat run is a plateau: noise 2·√2·sd/√200 = 0.01 for sd 0.05', () => {
    const h = runHealth(flat(1000, 0.5))!;
    expect(h.verdict).toBe('plateau');
    // sd of ±0.05 alternating over 400 points (n − 1 in the denominator): 0.05·√(400/399).
    expect(h.noise).toBeCloseTo(2 * Math.SQRT2 * 0.05 * Math.sqrt(400 / 399) / Math.sqrt(200), 10);
    expect(h.last).toBeCloseTo(0.5, 10);
    expect(runHealthText(h, { entropy: 0.17, lrConstant: true, weighsCost: true })).toBe('Plateau: training accuracy '
      + '50.0% → 50.0% over the last two 200-iteration windows, within the noise (±1.0 points): the reward at this P also pays '
      + 'for cost and latency, so accuracy is not all it climbs; with a constant learning rate and a policy that still '
      + 'samples (entropy 0.17), it wanders around what it has learned; a schedule that takes the rate to 0 (Settings) settles it.');
  });
  it('a run 5 points below its best 200 is worse, with the best window named', () => {
    // Iterations 1–400 at 0.55, then 600 at 0.50.
    const h = runHealth([...flat(400, 0.55), ...flat(600, 0.5)])!;
    expect(h.verdict).toBe('worse');
    expect(h.best).toEqual({ mean: expect.closeTo(0.55, 10), from: 1, to: 200 });
    expect(runHealthText(h, { entropy: 0.1, lrConstant: true, weighsCost: false })).toContain(
      'is 50.0%, 5.0 points below its best 200 (55.0% at iterations 1–200)');
  });
  it('a fall of 1.5 points is not called worse even where the noise is smaller (2 points at least)', () => {
    const h = runHealth([...flat(400, 0.515, 0.01), ...flat(400, 0.5, 0.01)])!;
    expect(h.noise).toBeLessThan(0.01);
    expect(h.verdict).not.toBe('worse');
  });
  it('a run climbing by more than the noise is rising', () => {
    const h = runHealth([...flat(200, 0.4), ...flat(200, 0.45)])!;
    expect(h.verdict).toBe('rising');
  });
  it('the room the page keeps is at least as long as anything the line says under the same settings, verdict by verdict', () => {
    // Runs of three shapes (climbing, flat, and climbing then falling back), 400 to 3400 iterations, noisy, in every context.
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const button = (i: number) => ` Restore best (iteration ${i})`; // the page's button after a "worse" verdict
    const seen = { rising: 0, plateau: 0, worse: 0 };
    for (const lrConstant of [false, true]) {
      for (const weighsCost of [false, true]) {
        const room = runHealthLongest({ lrConstant, weighsCost });
        for (let k = 0; k < 60; k++) {
          const n = 400 + Math.floor(rand() * 3000), shape = k % 3, noise = 0.3 * rand();
          const mean = (i: number) => (shape === 0 ? 0.2 + 0.6 * i / n : shape === 1 ? 0.5 : i < n / 2 ? 0.2 + 1.2 * i / n : 1.4 - 1.2 * i / n);
          const acc = Array.from({ length: n }, (_, i) => Math.min(1, Math.max(0, mean(i) + (rand() - 0.5) * noise)));
          const h = runHealth(acc)!;
          seen[h.verdict]++;
          const text = runHealthText(h, { entropy: rand() * 3, lrConstant, weighsCost });
          if (h.verdict === 'worse') expect((text + button(h.best.to)).length, text).toBeLessThanOrEqual((room.worse + button(88888)).length);
          else expect(text.length, text).toBeLessThanOrEqual(h.verdict === 'plateau' ? room.plateau.length : Math.max(room.plateau.length, room.worse.length));
        }
      }
    }
    // Every verdict was met, so each bound above was tried.
    expect(Math.min(seen.rising, seen.plateau, seen.worse)).toBeGreaterThan(10);
  });
});
