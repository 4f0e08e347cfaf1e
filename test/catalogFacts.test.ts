// The qualitative facts of DESIGN.md §2 that the illustrative skills of the `toolorchestra`
// preset must satisfy, checked on generated tasks (mean success probability per step type).
import { describe, expect, it } from 'vitest';
import { DEFAULT_SIM, successProbability } from '../src/core/sim/callModel';
import { expectedCallCost } from '../src/core/sim/catalog';
import { presetCatalog } from '../src/core/sim/presets';
import { generateTasks, type Task } from '../src/core/sim/tasks';
import type { Domain, StepType } from '../src/core/sim/stepTypes';

const catalog = presetCatalog('toolorchestra');
const { tasks } = generateTasks(catalog, { seed: 42, count: 3000, availability: 1 });
const tool = (id: string) => {
  const t = catalog.tools.find((x) => x.id === id);
  if (!t) throw new Error(id);
  return t;
};

/** Mean p of a tool over every step of the type (optionally in given domains) of the generated tasks. */
function meanP(id: string, type: StepType, domains?: Domain[]): number {
  const steps = tasks.filter((t: Task) => !domains || domains.includes(t.domain)).flatMap((t) => t.steps.filter((s) => s.type === type));
  expect(steps.length).toBeGreaterThan(100);
  return steps.reduce((a, s) => a + successProbability(tool(id).skill[type], s.difficulty, DEFAULT_SIM.discrimination), 0) / steps.length;
}

const llms = catalog.tools.filter((t) => t.kind !== 'basic').map((t) => t.id);
const generalists = catalog.tools.filter((t) => t.kind === 'generalist');

describe('toolorchestra preset: the qualitative facts hold on generated tasks', () => {
  it('LLMs alone are weak on fresh-fact retrieval; web search is strong', () => {
    const search = meanP('web-search', 'retrieve');
    expect(search).toBeGreaterThan(0.8);
    for (const id of llms) {
      const p = meanP(id, 'retrieve');
      expect(p, id).toBeLessThan(0.35);
      expect(p, id).toBeLessThan(search - 0.4);
    }
  });

  it('calculators and code are (nearly) exact on computation', () => {
    expect(meanP('calculator', 'compute')).toBeGreaterThan(0.97);
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
    const ranked = catalog.tools.filter((t) => t.skill.reason !== undefined).map((t) => ({ id: t.id, p: meanP(t.id, 'reason', ['science']) })).sort((a, b) => b.p - a.p);
    expect(ranked.slice(0, 2).map((r) => r.id).sort()).toEqual(['claude-opus-4.1', 'gpt-5']);
    const dearest = [...catalog.tools].sort((a, b) => expectedCallCost(b, 1000) - expectedCallCost(a, 1000));
    expect(dearest.slice(0, 2).map((t) => t.id).sort()).toEqual(['claude-opus-4.1', 'gpt-5']);
    // On hard reasoning even the best is far from certain, so retries and escalation matter.
    expect(ranked[0]?.p).toBeLessThan(0.9);
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
