// The qualitative facts of docs/DESIGN.md §2 that the calibrated skills of the `toolorchestra` preset
// must satisfy, checked on generated tasks: the mean chance of a first call per step type, with
// every item's latent and the penalty of a step that needs a tool (the env's success model).
import { describe, expect, it } from 'vitest';
import { DEFAULT_SIM } from '../src/core/sim/callModel';
import { expectedCallCost } from '../src/core/sim/catalog';
import { presetCatalog } from '../src/core/sim/presets';
import { firstCallProbability, generateTasks, type Task } from '../src/core/sim/tasks';
import type { Domain, StepType } from '../src/core/sim/stepTypes';

const catalog = presetCatalog('toolorchestra');
const { tasks } = generateTasks(catalog, { seed: 42, count: 3000, availability: 1 });
const hle = generateTasks(catalog, { seed: 42, count: 2000, availability: 1, suite: 'hle' }).tasks;
const tool = (id: string) => {
  const t = catalog.tools.find((x) => x.id === id);
  if (!t) throw new Error(id);
  return t;
};

/** Mean chance of one call of a tool over the steps of a type (optionally in given domains, or only those that need a tool). */
function meanP(id: string, type: StepType, domains?: Domain[], opts: { needsTool?: boolean; from?: Task[] } = {}): number {
  const picked = (opts.from ?? tasks).filter((t: Task) => !domains || domains.includes(t.domain)).flatMap((t) => t.steps.map((s, k) => ({ t, s, k })).filter(({ s }) => s.type === type && (opts.needsTool === undefined || s.needsTool === opts.needsTool)));
  expect(picked.length).toBeGreaterThan(100);
  return picked.reduce((a, { t, k }) => a + firstCallProbability(t, k, tool(id), DEFAULT_SIM), 0) / picked.length;
}

const llms = catalog.tools.filter((t) => t.kind !== 'basic').map((t) => t.id);
const generalists = catalog.tools.filter((t) => t.kind === 'generalist');

describe('toolorchestra preset: the qualitative facts hold on generated tasks', () => {
  it('LLMs alone are (almost) never right on fresh-fact retrieval; web search is strong', () => {
    const search = meanP('web-search', 'retrieve', undefined, { needsTool: true });
    expect(search).toBeGreaterThan(0.8);
    for (const id of llms.filter((x) => tool(x).skill.retrieve !== undefined)) {
      expect(meanP(id, 'retrieve', undefined, { needsTool: true }), id).toBeLessThan(0.02);
    }
    // The local index holds encyclopaedic facts, not fresh ones.
    expect(meanP('local-search', 'retrieve', undefined, { needsTool: true })).toBeLessThan(0.02);
    expect(meanP('local-search', 'retrieve', undefined, { needsTool: false })).toBeGreaterThan(0.7);
  });

  it('calculators and code are (nearly) exact on computation', () => {
    expect(meanP('calculator', 'compute')).toBeGreaterThan(0.95);
    expect(meanP('code-interpreter', 'compute')).toBeGreaterThan(0.99);
    for (const id of llms) expect(meanP(id, 'compute'), id).toBeLessThan(meanP('calculator', 'compute'));
  });

  it('specialists beat generalists of their price (≤ 4× the output price) in their niche', () => {
    const niches: Record<string, { types: StepType[]; domains: Domain[] }> = {
      'qwen2.5-math-72b': { types: ['compute', 'reason'], domains: ['math'] },
      'qwen2.5-math-7b': { types: ['compute', 'reason'], domains: ['math'] },
      'qwen2.5-coder-32b': { types: ['code'], domains: ['code'] },
    };
    for (const [id, niche] of Object.entries(niches)) {
      const rivals = generalists.filter((g) => g.pricing.outputPerM <= 4 * tool(id).pricing.outputPerM);
      expect(rivals.length, id).toBeGreaterThan(0);
      for (const type of niche.types) {
        for (const g of rivals) expect(meanP(id, type, niche.domains), `${id} vs ${g.id} on ${type}`).toBeGreaterThan(meanP(g.id, type, niche.domains));
      }
    }
  });

  it('the biggest generalists are best at hard reasoning and the most expensive', () => {
    const ranked = catalog.tools.filter((t) => t.skill.reason !== undefined).map((t) => ({ id: t.id, p: meanP(t.id, 'reason', ['science'], { from: hle }) })).sort((a, b) => b.p - a.p);
    expect(ranked.slice(0, 2).map((r) => r.id).sort()).toEqual(['claude-opus-4.1', 'gpt-5']);
    const dearest = [...catalog.tools].sort((a, b) => expectedCallCost(b, 1000) - expectedCallCost(a, 1000));
    expect(dearest.slice(0, 2).map((t) => t.id).sort()).toEqual(['claude-opus-4.1', 'gpt-5']);
    // On HLE-like reasoning even the best is right less than half the time on one call.
    expect(ranked[0]?.p).toBeLessThan(0.5);
  });

  it('uses the paper’s published prices', () => {
    expect(tool('gpt-5').pricing).toMatchObject({ inputPerM: 1.25, outputPerM: 10 });
    expect(tool('gpt-5-mini').pricing).toMatchObject({ inputPerM: 0.25, outputPerM: 2 });
    expect(tool('claude-opus-4.1').pricing).toMatchObject({ inputPerM: 15, outputPerM: 75 });
    expect(tool('qwen2.5-math-7b').pricing).toMatchObject({ inputPerM: 0.2, outputPerM: 0.2 });
    expect(tool('web-search').pricing.perCall).toBe(0.01);
    expect(tool('code-interpreter').pricing.perSecond).toBe(0.0000083);
    expect(catalog.orchestrator).toMatchObject({ id: 'qwen3-8b', pricing: { inputPerM: 0.2, outputPerM: 0.2 } });
  });
});
