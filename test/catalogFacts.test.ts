// The qualitative facts that the calibrated skills of the `toolorchestra` preset and the model library
// must satisfy (docs/DESIGN.md §2), checked on generated tasks with the success model written out again
// here: an answer σ(a·(skill − d) + s·v + evidence − penalty), a written query or program σ(a·(w − (d − ease)) + s_w·v_w),
// a tool's find σ(a·(skill − d) + s_b·v_b) (its latent with ρ = 0; an offline index cannot find a fresh fact).
import { describe, expect, it } from 'vitest';
import { DEFAULT_SIM as SIM, latentKey, stepLatent, writerKey } from '../src/core/sim/callModel';
import type { ToolSpec, WriterRole } from '../src/core/sim/catalog';
import { BatchEnv } from '../src/core/sim/env';
import { LIBRARY_IDS, libraryTool, libraryTools } from '../src/core/sim/modelLibrary';
import { presetCatalog, TOOLORCHESTRA_TOOLS } from '../src/core/sim/presets';
import { slotsOf } from '../src/core/sim/slots';
import { expectedWriteCost, generateTasks, type Task } from '../src/core/sim/tasks';
import { sig } from './helpers';

const catalog = presetCatalog('toolorchestra');
const pool = generateTasks(catalog, { seed: 42, count: 1000, availability: 1 }).tasks;
const hle = generateTasks(catalog, { seed: 42, count: 1000, availability: 1, suite: 'hle' }).tasks;
const frames = generateTasks(catalog, { seed: 42, count: 600, availability: 1, suite: 'frames' }).tasks;
const tool = (id: string): ToolSpec => {
  const t = catalog.tools.find((x) => x.id === id);
  if (!t) throw new Error(id);
  return t;
};
const models = catalog.tools.filter((t) => t.kind !== 'basic');
const answerers = models.filter((t) => Object.keys(t.skill).length > 0);
const a = SIM.discrimination;

const pAnswer = (t: Task, k: number, m: ToolSpec, evidence = 0): number => {
  const s = t.steps[k]!, skill = m.skill[s.type];
  if (skill === undefined) return 0;
  const v = stepLatent(t.key, k, latentKey(m.id), SIM.sharedFactor);
  return sig(a * (skill - s.difficulty) + SIM.spread[s.type] * v + evidence - (s.needsTool && evidence === 0 ? SIM.needsToolPenalty : 0));
};
const pWrite = (t: Task, k: number, m: ToolSpec, role: WriterRole): number => {
  const s = t.steps[k]!, w = m.writes?.[role];
  if (w === undefined) return 0;
  return sig(a * (w - (s.difficulty - SIM.writeEase)) + SIM.writerSpread * stepLatent(t.key, k, writerKey(m.id, role), SIM.sharedFactor));
};
const pFind = (t: Task, k: number, b: ToolSpec): number => {
  const s = t.steps[k]!, skill = b.skill[s.type];
  if (skill === undefined || (s.needsTool && b.offline?.includes(s.type))) return 0;
  return sig(a * (skill - s.difficulty) + SIM.basicSpread * stepLatent(t.key, k, latentKey(b.id), 0));
};
type StepPick = (t: Task, k: number) => boolean;
/** The mean of f over the steps `pick` takes (at least 100 of them). */
function mean(from: Task[], pick: StepPick, f: (t: Task, k: number) => number): number {
  let s = 0, n = 0;
  for (const t of from) t.steps.forEach((_, k) => { if (pick(t, k)) { s += f(t, k); n++; } });
  expect(n).toBeGreaterThan(100);
  return s / n;
}
const fresh: StepPick = (t, k) => t.steps[k]!.type === 'retrieve' && t.steps[k]!.needsTool;
const encyclopaedic: StepPick = (t, k) => t.steps[k]!.type === 'retrieve' && !t.steps[k]!.needsTool;

describe('toolorchestra: the qualitative facts hold on generated tasks', () => {
  it('models alone are (almost) never right on a fresh fact; with a web-search find the strong ones nearly always are', () => {
    for (const m of answerers.filter((x) => x.skill.retrieve !== undefined)) {
      expect(mean(pool, fresh, (t, k) => pAnswer(t, k, m)), m.id).toBeLessThan(0.02);
    }
    // A find lifts by web search's context (4) and lifts the needs-a-tool penalty.
    expect(mean(pool, fresh, (t, k) => pAnswer(t, k, tool('gpt-5'), tool('web-search').context!.retrieve!))).toBeGreaterThan(0.95);
  });

  it('web search reaches fresh facts; local search (an offline index) does not, but finds encyclopaedic ones', () => {
    expect(mean(pool, fresh, (t, k) => pFind(t, k, tool('web-search')))).toBeGreaterThan(0.8);
    expect(tool('local-search').offline).toEqual(['retrieve']);
    expect(mean(pool, encyclopaedic, (t, k) => pFind(t, k, tool('local-search')))).toBeGreaterThan(0.65);
    // In the env: on a unit that is one fresh fact both searches are open (whether this fact is fresh is hidden;
    // how often such a step is, public), and local search finds nothing, however good its draws.
    const task = pool.find((t) => t.commits === 'task' && t.steps.length === 1 && fresh(t, 0)) as Task;
    expect(task).toBeDefined();
    const env = new BatchEnv(catalog, SIM, 1, () => 1e-9);
    env.reset([task], [1]);
    const slotsOf = (toolId: string, self: boolean) => env.slots.map((s, i) => [s, i] as const)
      .filter(([s]) => s.tool >= 0 && catalog.tools[s.tool]?.id === toolId && (s.model < 0) === self).map(([, i]) => i);
    const open = (toolId: string, self: boolean) => slotsOf(toolId, self).map((i) => env.allowed(0, i));
    expect(open('local-search', false)).toEqual([true, true, true]);
    expect(open('web-search', false)).toEqual([true, true, true]);
    env.step([slotsOf('local-search', false)[0] as number]);
    expect(env.hits[0]).toBe(0);
    // The orchestrator writes nothing itself: its own slots stay shut everywhere.
    expect([...open('web-search', true), ...open('local-search', true), ...open('code-interpreter', true)]).toEqual([false, false, false]);
  });

  it('code is (nearly) exact on computation, where every model alone is far from it', () => {
    const compute: StepPick = (t, k) => t.steps[k]!.type === 'compute';
    const code = mean(pool, compute, (t, k) => pFind(t, k, tool('code-interpreter')));
    expect(code).toBeGreaterThan(0.98);
    for (const m of answerers.filter((x) => x.skill.compute !== undefined)) expect(mean(pool, compute, (t, k) => pAnswer(t, k, m)), m.id).toBeLessThan(code - 0.3);
  });

  it('GPT-5 is the best answerer on hard reasoning, still below one in two there, and the dearest per output token', () => {
    const hard: StepPick = (t, k) => t.domain === 'science' && t.steps[k]!.type === 'reason';
    const ranked = answerers.map((m) => ({ id: m.id, p: mean(hle, hard, (t, k) => pAnswer(t, k, m)) })).sort((x, y) => y.p - x.p);
    expect(ranked[0]?.id).toBe('gpt-5');
    expect(ranked[0]?.p).toBeLessThan(0.5);
    expect(ranked[0]!.p - ranked[1]!.p).toBeGreaterThan(0.03);
    const dearest = [...catalog.tools].sort((x, y) => y.pricing.outputPerM - x.pricing.outputPerM);
    expect(dearest[0]?.id).toBe('gpt-5');
    expect(dearest[1]!.pricing.outputPerM).toBeLessThan(10);
  });

  it('writing is easier than answering: a cheap writer’s query succeeds nearly as often as GPT-5’s on a FRAMES-level step, at a sliver of the cost', () => {
    const all: StepPick = () => true;
    const cheap = tool('qwen3-32b'), gpt5 = tool('gpt-5');
    const [pCheap, pGpt5] = [mean(frames, all, (t, k) => pWrite(t, k, cheap, 'query')), mean(frames, all, (t, k) => pWrite(t, k, gpt5, 'query'))];
    expect(pCheap).toBeGreaterThan(0.9);
    expect(pGpt5 - pCheap).toBeLessThan(0.03);
    // The same model answers those steps far less often than it writes a query for them.
    expect(mean(frames, all, (t, k) => pAnswer(t, k, cheap))).toBeLessThan(pCheap - 0.25);
    // A query on a 400-token FRAMES prompt: Qwen3-32B writes round(900·0.4) = 360 tokens, (0.8·400 + 0.8·360)/1e6 = $0.000608;
    // GPT-5 writes round(2500·0.4) = 1000, (1.25·400 + 10·1000)/1e6 = $0.0105: about 17× dearer.
    expect(expectedWriteCost(cheap, 400, SIM)).toBeCloseTo(0.000608, 12);
    expect(expectedWriteCost(gpt5, 400, SIM)).toBeCloseTo(0.0105, 12);
  });
});

describe('the paper’s tool set and published prices', () => {
  it('uses the published prices per million tokens, per call and per second', () => {
    const price = (id: string) => (libraryTool(id) as ToolSpec).pricing;
    expect(price('gpt-5')).toMatchObject({ inputPerM: 1.25, outputPerM: 10 });
    expect(price('gpt-5-mini')).toMatchObject({ inputPerM: 0.25, outputPerM: 2 });
    expect(price('qwen3-32b')).toMatchObject({ inputPerM: 0.8, outputPerM: 0.8 });
    expect(price('llama-3.3-70b')).toMatchObject({ inputPerM: 0.9, outputPerM: 0.9 });
    expect(price('qwen2.5-coder-32b')).toMatchObject({ inputPerM: 0.8, outputPerM: 0.8 });
    expect(price('qwen2.5-math-72b')).toMatchObject({ inputPerM: 0.9, outputPerM: 0.9 });
    expect(price('qwen2.5-math-7b')).toMatchObject({ inputPerM: 0.2, outputPerM: 0.2 });
    expect(price('claude-opus-4.1')).toMatchObject({ inputPerM: 15, outputPerM: 75 });
    expect(price('web-search')).toEqual({ inputPerM: 0, outputPerM: 0, perCall: 0.01, perSecond: 0 });
    expect(price('code-interpreter')).toEqual({ inputPerM: 0, outputPerM: 0, perCall: 0, perSecond: 0.0000083 });
    // The preset's copies carry the same prices.
    for (const t of catalog.tools) expect(t.pricing, t.id).toEqual(price(t.id));
  });

  it('the toolorchestra preset: the paper’s ten resources, no Claude, no calculator; Qwen3-8B orchestrates and writes nothing itself', () => {
    expect(catalog.tools.map((t) => t.id)).toEqual([...TOOLORCHESTRA_TOOLS]);
    expect(catalog.tools.map((t) => t.id)).toEqual(['gpt-5', 'gpt-5-mini', 'qwen3-32b', 'llama-3.3-70b', 'qwen2.5-math-72b', 'qwen2.5-math-7b', 'qwen2.5-coder-32b', 'web-search', 'local-search', 'code-interpreter']);
    expect(catalog.tools.some((t) => t.id.startsWith('claude') || t.id === 'calculator')).toBe(false);
    expect(catalog.orchestrator).toMatchObject({ id: 'qwen3-8b', pricing: { inputPerM: 0.2, outputPerM: 0.2 } });
    expect(catalog.orchestrator.writes).toBeUndefined();
    const slots = slotsOf(catalog);
    // Every basic tool has a self slot (a model driving with tools writes there); with Qwen3-8B driving they are masked (env tests).
    expect(slots.filter((s) => s.id.includes(':self@')).map((s) => s.id)).toEqual(['search:self@web-search', 'search:self@local-search', 'code:self@code-interpreter']);
    // Writers: queries by GPT-5, GPT-5-mini, Qwen3-32B (on either search tool); programs by GPT-5, GPT-5-mini and the coder.
    const written = (role: string) => slots.filter((s) => s.role === role && s.model >= 0).map((s) => s.id);
    expect(written('search')).toEqual(['search:gpt-5@web-search', 'search:gpt-5-mini@web-search', 'search:qwen3-32b@web-search', 'search:gpt-5@local-search', 'search:gpt-5-mini@local-search', 'search:qwen3-32b@local-search']);
    expect(written('code')).toEqual(['code:gpt-5@code-interpreter', 'code:gpt-5-mini@code-interpreter', 'code:qwen2.5-coder-32b@code-interpreter']);
    // The coder writes only: no answer slot.
    expect(slots.filter((s) => s.role === 'answer').map((s) => s.id)).toEqual(['answer:gpt-5', 'answer:gpt-5-mini', 'answer:qwen3-32b', 'answer:llama-3.3-70b', 'answer:qwen2.5-math-72b', 'answer:qwen2.5-math-7b']);
  });

  it('the library holds the baselines’ and Table 2’s models, and hands out copies', () => {
    for (const id of ['claude-opus-4.1', 'claude-sonnet-4.1', 'o3-mini', 'gpt-4o', 'codestral-22b', 'openmath-llama-2-70b', 'deepseek-math-7b', 'gemma-3-27b', ...TOOLORCHESTRA_TOOLS]) expect(LIBRARY_IDS, id).toContain(id);
    const copy = libraryTool('gpt-5') as ToolSpec;
    copy.pricing.outputPerM = 999;
    expect(libraryTool('gpt-5')?.pricing.outputPerM).toBe(10);
    expect(libraryTool('no-such-model')).toBeUndefined();
    expect(() => libraryTools(['gpt-5', 'no-such-model'])).toThrow(/no "no-such-model"/);
    // Claude Opus 4.1 is the dearest model the library holds.
    const dearest = libraryTools(LIBRARY_IDS).sort((x, y) => y.pricing.outputPerM - x.pricing.outputPerM)[0];
    expect(dearest?.id).toBe('claude-opus-4.1');
  });

  it('seed-004: the toy table, in cost units, whose orchestrator writes its own queries and programs', () => {
    const toy = presetCatalog('seed-004');
    expect(toy.currency).toBe('units');
    expect(toy.tools.map((t) => [t.id, t.kind, t.runs, t.pricing.perCall])).toEqual([['calculator', 'basic', 'code', 0.1], ['search', 'basic', 'query', 1], ['code-executor', 'basic', 'code', 0.5]]);
    expect(slotsOf(toy).map((s) => s.id)).toEqual(['code:self@calculator', 'search:self@search', 'code:self@code-executor']);
  });
});
