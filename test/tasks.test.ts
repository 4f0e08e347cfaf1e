import { describe, expect, it } from 'vitest';
import { DEFAULT_SIM, successProbability } from '../src/core/sim/callModel';
import { expectedCallCost } from '../src/core/sim/catalog';
import { presetCatalog } from '../src/core/sim/presets';
import { tasksToJsonl } from '../src/core/sim/render';
import { generateTasks } from '../src/core/sim/tasks';
import { DOMAINS, STEP_TYPES } from '../src/core/sim/stepTypes';

const catalog = presetCatalog('toolorchestra');
const a = DEFAULT_SIM.discrimination;

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

  it('keeps only tasks a tool path solves with p ≥ 0.5 and that the orchestrator cannot solve alone, and counts the drops', () => {
    const { tasks, stats } = generateTasks(catalog, { seed: 4, count: 500 });
    expect(stats.kept).toBe(500);
    expect(stats.generated).toBe(stats.kept + stats.droppedUnsolvable + stats.droppedNoTool);
    expect(stats.droppedUnsolvable).toBeGreaterThan(0);
    for (const t of tasks) {
      // Recompute independently: the best available tool per step, and the no-tool chance.
      let best = 1, alone = 1;
      for (const s of t.steps) {
        const ps = catalog.tools.filter((x) => t.available.includes(x.id)).map((x) => successProbability(x.skill[s.type], s.difficulty, a));
        best *= Math.max(0, ...ps);
        alone *= successProbability(catalog.orchestrator.skill[s.type], s.difficulty, a);
      }
      expect(best).toBeGreaterThanOrEqual(0.5);
      expect(alone).toBeLessThan(0.3);
    }
  });

  it('builds the golden path from the cheapest available tool with p ≥ 0.8 per step', () => {
    const { tasks } = generateTasks(catalog, { seed: 5, count: 300 });
    for (const t of tasks) {
      t.steps.forEach((s, k) => {
        const g = t.golden.path[k];
        const options = catalog.tools.filter((x) => t.available.includes(x.id) && x.skill[s.type] !== undefined);
        const good = options.filter((x) => successProbability(x.skill[s.type], s.difficulty, a) >= 0.8);
        if (good.length > 0) {
          const cheapest = Math.min(...good.map((x) => expectedCallCost(x, t.promptTokens)));
          const chosen = catalog.tools.find((x) => x.id === g?.tool);
          expect(chosen && expectedCallCost(chosen, t.promptTokens)).toBe(cheapest);
        }
      });
      expect(t.golden.successProbability).toBeCloseTo(t.golden.path.reduce((x, g) => x * g.p, 1), 3);
    }
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
