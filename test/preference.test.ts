import { describe, expect, it } from 'vitest';
import { INSTRUCTION_PRESETS, isApi } from '../src/core/instructionPresets';
import { samplePreference } from '../src/core/preference';
import { presetCatalog } from '../src/core/sim/presets';
import { SeqRng } from '../src/core/sim/rng';

const catalog = presetCatalog('toolorchestra');

describe('random preferences for training cover the instruction presets', () => {
  it('half the draws are a preset’s vector, "Avoid API calls" (outcome 0, local tools and open models) among them', () => {
    const rng = new SeqRng(3);
    const presets = INSTRUCTION_PRESETS.map((x) => x.preference);
    const n = 4000;
    const draws = Array.from({ length: n }, () => samplePreference(() => rng.next(), catalog, presets));
    const avoid = INSTRUCTION_PRESETS.find((x) => x.name === 'Avoid API calls')!.preference(catalog);
    const isAvoid = (p: typeof avoid) => JSON.stringify(p) === JSON.stringify(avoid);
    const share = draws.filter(isAvoid).length / n;
    // Expected 0.5 · 1/4 = 0.125; binomial sd ≈ 0.005.
    expect(share).toBeGreaterThan(0.105);
    expect(share).toBeLessThan(0.145);
    expect(avoid.outcome).toBe(0);
    expect(Object.keys(avoid.tools).sort()).toEqual(catalog.tools.map((t) => t.id).filter((id) => !isApi(id)).sort());
    expect(Object.keys(avoid.tools)).toContain('local-search');
    expect(Object.keys(avoid.tools)).not.toContain('web-search');
    // The other half are random vectors, each weight in [0, 1].
    for (const p of draws) for (const v of [p.outcome, p.cost, p.latency, ...Object.values(p.tools)]) expect(v >= 0 && v <= 1).toBe(true);
  });
});
