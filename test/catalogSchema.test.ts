import { describe, expect, it } from 'vitest';
import { parseCatalog, parseCatalogJson } from '../src/core/sim/catalogSchema';
import { PRESET_NAMES, presetCatalog } from '../src/core/sim/presets';

// Tests poke arbitrary JSON into the catalog, as a hand-edited file would.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type LooseJson = any;
const bad = (edit: (c: LooseJson) => void): string => {
  const c = presetCatalog('toolorchestra') as LooseJson;
  edit(c);
  const r = parseCatalog(c);
  if (r.ok) throw new Error('expected the catalog to be rejected');
  return r.error;
};

describe('catalog validation', () => {
  it('accepts every preset as it ships', () => {
    for (const name of PRESET_NAMES) expect(parseCatalog(presetCatalog(name)).ok).toBe(true);
  });

  it('rejects a negative price, naming the field', () => {
    expect(bad((c) => { c.tools[2].pricing.inputPerM = -1; })).toMatch(/tools\[2\]\.pricing\.inputPerM: must be ≥ 0/);
  });

  it('rejects values past the documented physical bounds (1e308 once gave null costs), naming field and bound', () => {
    expect(bad((c) => { c.tools[0].outputTokens.mean = 1e308; })).toMatch(/tools\[0\]\.outputTokens\.mean: must be at most 1,000,000 tokens/);
    expect(bad((c) => { c.tools[1].latency.fixedMs = 1e308; })).toMatch(/tools\[1\]\.latency\.fixedMs: must be at most 3,600,000 ms/);
    expect(bad((c) => { c.tools[2].pricing.perCall = 1e308; })).toMatch(/tools\[2\]\.pricing\.perCall: must be at most 1,000 \$ per call/);
    expect(bad((c) => { c.orchestrator.outputTokensPerTurn = 2e6; })).toMatch(/orchestrator\.outputTokensPerTurn: must be at most 1,000,000 tokens/);
    // A bound says which bound (not "must be a number" for a number out of range).
    expect(bad((c) => { (c.tools[0].skill as Record<string, unknown>).reason = 11; })).toMatch(/tools\[0\]\.skill\.reason: must be in \[−10, 10\]/);
    expect(bad((c) => { (c.tools[0].skill as Record<string, unknown>).reason = 'x'; })).toMatch(/tools\[0\]\.skill\.reason: must be a number/);
    expect(bad((c) => { c.tools[0].outputTokens.spread = 3.5; })).toMatch(/tools\[0\]\.outputTokens\.spread: must be at most 3/);
    expect(bad((c) => { c.tools[0].latency.jitter = 4; })).toMatch(/tools\[0\]\.latency\.jitter: must be at most 3/);
    expect(bad((c) => { c.name = ''; })).toMatch(/name: must not be empty/);
  });

  it('rejects an unknown step type, naming the tool', () => {
    expect(bad((c) => { c.tools[0].skill.dance = 1; })).toMatch(/tools\[0\]\.skill: unknown step type "dance"/);
  });

  it('rejects a missing field, naming it', () => {
    expect(bad((c) => { delete c.tools[4].latency.fixedMs; })).toMatch(/tools\[4\]\.latency\.fixedMs/);
    expect(bad((c) => { delete c.orchestrator; })).toMatch(/^invalid catalog: orchestrator:/);
  });

  it('rejects a duplicate id, naming both places', () => {
    expect(bad((c) => { c.tools[3].id = c.tools[0].id; })).toMatch(/tools\[3\]\.id: duplicate tool id "gpt-5" \(also tools\[0\]\)/);
  });

  it('rejects a calibration (an AUROC) outside [0.5, 1], unknown fields and non-JSON text', () => {
    expect(bad((c) => { c.tools[1].calibration = 1.5; })).toMatch(/tools\[1\]\.calibration: is an AUROC and must be in \[0\.5, 1\]/);
    expect(bad((c) => { c.tools[1].calibration = 0.3; })).toMatch(/tools\[1\]\.calibration: is an AUROC and must be in \[0\.5, 1\]/);
    expect(bad((c) => { c.tools[1].context = { reason: -1 }; })).toMatch(/tools\[1\]\.context\.reason: must be in \[0, 6\]/);
    expect(bad((c) => { c.tools[1].colour = 'red'; })).toMatch(/tools\[1\]: unknown field "colour"/);
    const r = parseCatalogJson('{ not json');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/not JSON/);
  });
});
