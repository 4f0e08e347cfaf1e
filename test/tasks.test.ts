import { describe, expect, it } from 'vitest';
import { DEFAULT_SIM, latentKey, stepLatent } from '../src/core/sim/callModel';
import { expectedCallCost } from '../src/core/sim/catalog';
import { presetCatalog } from '../src/core/sim/presets';
import { tasksToJsonl } from '../src/core/sim/render';
import { generateTasks, type Task } from '../src/core/sim/tasks';
import { DOMAINS, STEP_TYPES } from '../src/core/sim/stepTypes';

const catalog = presetCatalog('toolorchestra');
const a = DEFAULT_SIM.discrimination;
const sig = (x: number) => 1 / (1 + Math.exp(-x));
/** The chance of one first call, recomputed from the formula of docs/SIMULATION.md. */
function pFirst(t: Task, k: number, who: { id: string; kind: string; skill: Partial<Record<string, number>>; offline?: string[] }): number {
  const s = t.steps[k]!;
  const skill = who.skill[s.type];
  if (skill === undefined) return 0;
  const spread = who.kind === 'basic' ? DEFAULT_SIM.basicSpread : DEFAULT_SIM.spread[s.type];
  const v = stepLatent(t.key, k, latentKey(who.id), DEFAULT_SIM.sharedFactor);
  const ownKnowledge = who.kind !== 'basic' || (who.offline ?? []).includes(s.type);
  const penalty = ownKnowledge && s.needsTool ? DEFAULT_SIM.needsToolPenalty : 0;
  return sig(a * (skill - s.difficulty) + spread * v - penalty);
}

describe('ToolScale-lite generator', () => {
  it('is deterministic: the same seed and catalog give byte-identical JSONL; another seed does not', () => {
    const one = tasksToJsonl(generateTasks(catalog, { seed: 9, count: 200 }).tasks, catalog);
    const two = tasksToJsonl(generateTasks(presetCatalog('toolorchestra'), { seed: 9, count: 200 }).tasks, catalog);
    const other = tasksToJsonl(generateTasks(catalog, { seed: 10, count: 200 }).tasks, catalog);
    expect(one).toBe(two);
    expect(one).not.toBe(other);
    expect(one.split('\n').filter(Boolean)).toHaveLength(200);
  });

  it('covers every domain and step type, with noisy hints and random tool subsets', () => {
    const { tasks } = generateTasks(catalog, { seed: 3, count: 600 });
    expect(new Set(tasks.map((t) => t.domain))).toEqual(new Set(DOMAINS));
    expect(new Set(tasks.flatMap((t) => t.steps.map((s) => s.type)))).toEqual(new Set(STEP_TYPES));
    const steps = tasks.flatMap((t) => t.steps);
    const noise = steps.map((s) => s.hint - s.difficulty);
    const sd = Math.sqrt(noise.reduce((x, n) => x + n * n, 0) / noise.length);
    expect(sd).toBeGreaterThan(0.2);
    expect(sd).toBeLessThan(0.4);
    const sizes = new Set(tasks.map((t) => t.available.length));
    expect(sizes.size).toBeGreaterThan(3);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(catalog.tools.length);
  });

  it('keeps only tasks the best available tools solve at pass@8 with p ≥ 0.5 and the orchestrator cannot solve alone, and counts the drops', () => {
    const { tasks, stats } = generateTasks(catalog, { seed: 4, count: 500 });
    expect(stats.kept).toBe(500);
    expect(stats.generated).toBe(stats.kept + stats.droppedUnsolvable + stats.droppedNoTool);
    expect(stats.droppedUnsolvable).toBeGreaterThan(0);
    for (const t of tasks) {
      let pass8 = 1, alone = 1;
      t.steps.forEach((_s, k) => {
        const best = Math.max(0, ...catalog.tools.filter((x) => t.available.includes(x.id)).map((x) => pFirst(t, k, x)));
        pass8 *= 1 - (1 - best) ** 8;
        alone *= pFirst(t, k, { ...catalog.orchestrator, kind: 'driver' });
      });
      expect(pass8).toBeGreaterThanOrEqual(0.5);
      expect(alone).toBeLessThan(0.3);
    }
  });

  it('builds the golden path from the cheapest available tool with p ≥ 0.8 per step (the same success model)', () => {
    const { tasks } = generateTasks(catalog, { seed: 5, count: 300 });
    for (const t of tasks) {
      t.steps.forEach((s, k) => {
        const g = t.golden.path[k];
        const good = catalog.tools.filter((x) => t.available.includes(x.id) && x.skill[s.type] !== undefined && pFirst(t, k, x) >= 0.8);
        if (good.length > 0) {
          const cheapest = Math.min(...good.map((x) => expectedCallCost(x, t.promptTokens)));
          const chosen = catalog.tools.find((x) => x.id === g?.tool);
          expect(chosen && expectedCallCost(chosen, t.promptTokens)).toBe(cheapest);
          expect(Math.abs((g?.p ?? -1) - pFirst(t, k, chosen!))).toBeLessThanOrEqual(0.0005 + 1e-12); // stored to 3 decimals
        }
      });
      expect(Math.abs(t.golden.successProbability - t.golden.path.reduce((x, g) => x * g.p, 1))).toBeLessThanOrEqual(0.0005 + 1e-9); // stored to 3 decimals
    }
  });

  it('draws the benchmark suites unfiltered: every draw is kept, and some tasks no available tool solves', () => {
    for (const suite of ['hle', 'frames', 'tau2']) {
      const { tasks, stats } = generateTasks(catalog, { seed: 8, count: 400, suite, availability: 1 });
      expect(stats).toMatchObject({ generated: 400, kept: 400, droppedUnsolvable: 0, droppedNoTool: 0 });
      expect(tasks.every((t) => t.suite === suite && t.id.startsWith(suite))).toBe(true);
      const unsolvable = tasks.filter((t) => t.steps.some((_s, k) => Math.max(...catalog.tools.map((x) => pFirst(t, k, x))) < 0.05));
      if (suite === 'hle') expect(unsolvable.length).toBeGreaterThan(20);
    }
    expect(new Set(generateTasks(catalog, { seed: 8, count: 300, suite: 'hle' }).tasks.map((t) => t.domain))).toEqual(new Set(['science', 'math', 'code']));
    expect(generateTasks(catalog, { seed: 8, count: 100, suite: 'frames' }).tasks.flatMap((t) => t.steps).some((s) => s.type === 'lookup')).toBe(false);
    expect(() => generateTasks(catalog, { seed: 8, count: 10, suite: 'mmlu' })).toThrow(/unknown suite "mmlu" \(known: hle, frames, tau2\)/);
  });

  it('renders tool calls as OpenAI function calls and agentic tasks with their stores', () => {
    const { tasks } = generateTasks(catalog, { seed: 6, count: 60 });
    const line = JSON.parse(tasksToJsonl(tasks.filter((t) => t.domain === 'agentic').slice(0, 1), catalog));
    expect(line.store.length).toBeGreaterThanOrEqual(3);
    expect(line.golden.store).toBeDefined();
    const call = line.messages.find((m: { tool_calls?: unknown[] }) => m.tool_calls)?.tool_calls[0];
    expect(call.type).toBe('function');
    expect(call.function.name).toMatch(/^[a-zA-Z0-9_-]+$/);
    expect(typeof JSON.parse(call.function.arguments)).toBe('object');
  });

  it('reports a catalog that cannot solve enough tasks instead of looping', () => {
    const weak = presetCatalog('seed-004');
    expect(() => generateTasks(weak, { seed: 1, count: 100, domains: ['science'] })).toThrow(/pass the filters/);
  });
});
