import { describe, expect, it } from 'vitest';
import { DEFAULT_SIM as SIM, latentKey, stepLatent, writerKey } from '../src/core/sim/callModel';
import type { Catalog, OrchestratorSpec, ToolSpec, WriterRole } from '../src/core/sim/catalog';
import { libraryTool } from '../src/core/sim/modelLibrary';
import { presetCatalog } from '../src/core/sim/presets';
import { harnessSchemas, tasksToJsonl } from '../src/core/sim/render';
import { generateTasks, taskUnits, type GoldenCall, type Task } from '../src/core/sim/tasks';
import { DOMAINS, STEP_TYPES } from '../src/core/sim/stepTypes';
import { sig } from './helpers';

const catalog = presetCatalog('toolorchestra');
const a = SIM.discrimination;

// The success model written out again (docs/SIMULATION.md): latents v(task, step, key) with ρ = sharedFactor, ρ = 0 for a tool's hit.
type Answerer = { id: string; skill: Partial<Record<string, number>> };
/** The chance that `who` answers step k right with evidence E gathered for it. */
function pAnswer(t: Task, k: number, who: Answerer, E: number): number {
  const s = t.steps[k]!, skill = who.skill[s.type];
  if (skill === undefined) return 0;
  const v = stepLatent(t.key, k, latentKey(who.id), SIM.sharedFactor);
  return sig(a * (skill - s.difficulty) + SIM.spread[s.type] * v + E - (s.needsTool && E === 0 ? SIM.needsToolPenalty : 0));
}
const reaches = (b: ToolSpec, t: Task, k: number) => b.skill[t.steps[k]!.type] !== undefined && !(t.steps[k]!.needsTool && b.offline?.includes(t.steps[k]!.type));
const lift = (b: ToolSpec, t: Task, k: number) => b.context?.[t.steps[k]!.type] ?? 0;
const usable = (t: Task) => (x: ToolSpec) => x.enabled && t.available.includes(x.id);
const answerersOf = (cat: Catalog, t: Task) => cat.tools.filter((x) => usable(t)(x) && x.kind !== 'basic' && Object.keys(x.skill).length > 0);
/** The largest first lift an available basic tool brings to step k; `writer`: only a tool that an available model (or the orchestrator) writes for. */
function bestLift(cat: Catalog, t: Task, k: number, writer: boolean): number {
  let best = 0;
  for (const b of cat.tools) {
    if (!usable(t)(b) || b.kind !== 'basic' || !b.runs || !reaches(b, t, k)) continue;
    if (writer && cat.orchestrator.writes?.[b.runs] === undefined && !cat.tools.some((m) => usable(t)(m) && m.kind !== 'basic' && m.writes?.[b.runs as WriterRole] !== undefined)) continue;
    best = Math.max(best, lift(b, t, k));
  }
  return best;
}
/** The chance of the task's best plan: per unit the best answerer (a model or the orchestrator) with every step's best lift. */
function bestPlan(cat: Catalog, t: Task, writer: boolean): number {
  const who: Answerer[] = [...answerersOf(cat, t), cat.orchestrator];
  return taskUnits(t).reduce((acc, unit) => acc * Math.max(...who.map((m) => unit.reduce((p, k) => p * pAnswer(t, k, m, bestLift(cat, t, k, writer)), 1))), 1);
}
const alone = (cat: Catalog, t: Task) => t.steps.reduce((p, _s, k) => p * pAnswer(t, k, cat.orchestrator, 0), 1);

/**
 * The golden path, a second time: per unit, for each step some written slot reaches (a tool that finds something for it, lift > 0),
 * the cheapest slot whose write × hit chance is ≥ 0.8, else the likeliest; then the cheapest answerer with p ≥ 0.8 given those finds,
 * else the likeliest, unless the orchestrator alone is likelier still (submit). Chances rounded to 3 decimals.
 */
function golden(cat: Catalog, t: Task): GoldenCall[] {
  const out: GoldenCall[] = [];
  const orc: OrchestratorSpec = cat.orchestrator;
  const r3 = (x: number) => Math.round(x * 1000) / 1000;
  for (const unit of taskUnits(t)) {
    const E = new Map<number, number>();
    for (const k of unit) {
      const s = t.steps[k]!;
      const options: { slot: string; p: number; cost: number; lift: number }[] = [];
      for (const b of cat.tools) {
        if (!usable(t)(b) || b.kind !== 'basic' || !b.runs || !reaches(b, t, k) || lift(b, t, k) <= 0) continue;
        const role = b.runs;
        const ph = sig(a * (b.skill[s.type]! - s.difficulty) + SIM.basicSpread * stepLatent(t.key, k, latentKey(b.id), 0));
        // The tool's expected cost: per call, per second of its (token-free) latency.
        const toolCost = b.pricing.perCall + (b.pricing.perSecond * b.latency.fixedMs) / 1000;
        const writers: { id: string; w: number; cost: number }[] = [];
        for (const m of cat.tools) {
          const w = m.writes?.[role];
          if (m.kind === 'basic' || w === undefined || !usable(t)(m)) continue;
          writers.push({ id: m.id, w, cost: (m.pricing.inputPerM * t.promptTokens + m.pricing.outputPerM * Math.round(m.outputTokens.mean * SIM.writerTokenShare)) / 1e6 });
        }
        if (orc.writes?.[role] !== undefined) writers.push({ id: 'self', w: orc.writes[role], cost: 0 });
        for (const wr of writers) {
          const pw = sig(a * (wr.w - (s.difficulty - SIM.writeEase)) + SIM.writerSpread * stepLatent(t.key, k, writerKey(wr.id === 'self' ? orc.id : wr.id, role), SIM.sharedFactor));
          options.push({ slot: `${role === 'query' ? 'search' : 'code'}:${wr.id}@${b.id}`, p: pw * ph, cost: wr.cost + toolCost, lift: lift(b, t, k) });
        }
      }
      if (options.length === 0) continue;
      const good = options.filter((o) => o.p >= 0.8);
      const pick = good.length > 0 ? good.reduce((x, y) => (y.cost < x.cost ? y : x)) : options.reduce((x, y) => (y.p > x.p ? y : x));
      out.push({ slot: pick.slot, step: k, p: r3(pick.p) });
      E.set(k, pick.lift);
    }
    const unitP = (who: Answerer) => unit.reduce((p, k) => p * pAnswer(t, k, who, E.get(k) ?? 0), 1);
    const answers = answerersOf(cat, t).map((m) => ({ slot: `answer:${m.id}`, p: unitP(m), cost: (m.pricing.inputPerM * t.promptTokens + m.pricing.outputPerM * m.outputTokens.mean) / 1e6 + m.pricing.perCall }));
    const good = answers.filter((o) => o.p >= 0.8);
    const pick = good.length > 0 ? good.reduce((x, y) => (y.cost < x.cost ? y : x)) : answers.length > 0 ? answers.reduce((x, y) => (y.p > x.p ? y : x)) : undefined;
    const pSelf = unitP(orc);
    out.push(!pick || (pick.p < 0.8 && pSelf > pick.p) ? { slot: 'submit', step: unit[0]!, p: r3(pSelf) } : { slot: pick.slot, step: unit[0]!, p: r3(pick.p) });
  }
  return out;
}

describe('ToolScale-lite generator', () => {
  it('is deterministic: the same seed and catalog give byte-identical JSONL; another seed does not', () => {
    const one = tasksToJsonl(generateTasks(catalog, { seed: 9, count: 120 }).tasks, catalog);
    const two = tasksToJsonl(generateTasks(presetCatalog('toolorchestra'), { seed: 9, count: 120 }).tasks, catalog);
    const other = tasksToJsonl(generateTasks(catalog, { seed: 10, count: 120 }).tasks, catalog);
    expect(one).toBe(two);
    expect(one).not.toBe(other);
    expect(one.split('\n').filter(Boolean)).toHaveLength(120);
  });

  it('covers every domain and step type, with noisy hints and random tool subsets', () => {
    const { tasks } = generateTasks(catalog, { seed: 3, count: 360 });
    expect(new Set(tasks.map((t) => t.domain))).toEqual(new Set(DOMAINS));
    expect(new Set(tasks.flatMap((t) => t.steps.map((s) => s.type)))).toEqual(new Set(STEP_TYPES));
    const noise = tasks.flatMap((t) => t.steps).map((s) => s.hint - s.difficulty);
    const sd = Math.sqrt(noise.reduce((x, n) => x + n * n, 0) / noise.length);
    expect(sd).toBeGreaterThan(0.25); // hintNoise 0.3
    expect(sd).toBeLessThan(0.35);
    const sizes = new Set(tasks.map((t) => t.available.length));
    expect(sizes.size).toBeGreaterThan(3);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(catalog.tools.length);
    for (const t of tasks) for (const id of t.available) expect(catalog.tools.some((x) => x.id === id)).toBe(true);
  });

  it('commits record-store tasks step by step and every other task as one final answer', () => {
    const { tasks } = generateTasks(catalog, { seed: 3, count: 120 });
    for (const t of tasks) {
      expect(t.commits, t.domain).toBe(t.domain === 'agentic' ? 'step' : 'task');
      expect(taskUnits(t)).toEqual(t.commits === 'task' ? [t.steps.map((_, k) => k)] : t.steps.map((_, k) => [k]));
      expect(t.store !== undefined).toBe(t.domain === 'agentic');
    }
  });
});

describe('the training pool’s filters', () => {
  const { tasks, stats } = generateTasks(catalog, { seed: 4, count: 300 });

  it('counts what it kept and what it dropped', () => {
    expect(stats.kept).toBe(300);
    expect(stats.generated).toBe(stats.kept + stats.droppedUnsolvable + stats.droppedNoTool);
    expect(stats.droppedUnsolvable).toBeGreaterThan(0);
    expect(stats.droppedNoTool).toBeGreaterThan(0);
  });

  it('keeps no task the orchestrator solves alone with p ≥ 0.3, and every kept task passes pass@8 ≥ 0.5 with each step’s best lift', () => {
    for (const t of tasks) {
      expect(alone(catalog, t), t.id).toBeLessThan(0.3);
      // The best lift of an available tool that some available writer (or the orchestrator) writes for.
      expect(1 - (1 - bestPlan(catalog, t, true)) ** 8, t.id).toBeGreaterThanOrEqual(0.5);
    }
  });

  it('drops a task whose evidence could only come from tools no available model writes for', () => {
    // t4-86 (factual; available: llama-3.3-70b, the two maths models, web-search, code-interpreter) has a fresh fact and no query
    // writer; t4-264 and t4-318 likewise: a plan that counts those tools' finds would keep them, the env masks every such slot.
    const { tasks: many } = generateTasks(catalog, { seed: 4, count: 500 });
    for (const id of ['t4-86', 't4-264', 't4-318']) expect(many.find((t) => t.id === id), id).toBeUndefined();
    for (const t of many) expect(1 - (1 - bestPlan(catalog, t, true)) ** 8, t.id).toBeGreaterThanOrEqual(0.5);
  });

  it('reports a catalog that cannot solve enough tasks instead of looping: no search tool for fresh facts', () => {
    // Every factual task starts with a fresh fact (needs a tool, always): with both search tools off only a rare item GPT-5 happens
    // to know (a latent far above its mean, against the −30 penalty) passes; 10 such tasks are not found in 10·50 + 100 tries.
    const blind = presetCatalog('toolorchestra');
    for (const t of blind.tools) if (t.id.endsWith('search')) t.enabled = false;
    expect(() => generateTasks(blind, { seed: 1, count: 10, domains: ['factual'] })).toThrow(/only \d of 10 tasks pass the filters after 600 tries/);
  });
});

describe('the golden path', () => {
  it('is the evidence calls (the cheapest slot with p ≥ 0.8, else the likeliest) then an answerer (the cheapest with p ≥ 0.8, else the likeliest, or the orchestrator itself), as recomputed here', () => {
    const pool = generateTasks(catalog, { seed: 5, count: 150 }).tasks;
    const hle = generateTasks(catalog, { seed: 5, count: 100, suite: 'hle' }).tasks;
    const tau2 = generateTasks(catalog, { seed: 5, count: 60, suite: 'tau2' }).tasks;
    let evidence = 0, submits = 0;
    for (const t of [...pool, ...hle, ...tau2]) {
      const want = golden(catalog, t);
      expect(t.golden.path, t.id).toEqual(want);
      expect(t.golden.successProbability).toBeCloseTo(Math.round(want.reduce((x, g) => x * g.p, 1) * 1000) / 1000, 12);
      evidence += want.filter((g) => !g.slot.startsWith('answer:') && g.slot !== 'submit').length;
      submits += want.filter((g) => g.slot === 'submit').length;
      // One commit per unit, each after its unit's evidence.
      expect(t.golden.path.filter((g) => g.slot === 'submit' || g.slot.startsWith('answer:')).map((g) => g.step)).toEqual(taskUnits(t).map((u) => u[0]));
    }
    expect(evidence).toBeGreaterThan(200);
    expect(submits).toBeGreaterThan(0);
  });

  it('uses the orchestrator’s own slots where it writes (seed-004: no answerer, it submits)', () => {
    const toy = presetCatalog('seed-004');
    const tasks = generateTasks(toy, { seed: 5, count: 80, suite: 'frames' }).tasks;
    for (const t of tasks) expect(t.golden.path, t.id).toEqual(golden(toy, t));
    const slots = tasks.flatMap((t) => t.golden.path.map((g) => g.slot));
    expect(slots.some((s) => s === 'search:self@search')).toBe(true);
    expect(slots.every((s) => s === 'submit' || s.includes(':self@'))).toBe(true);
  });

  it('stores the golden record store of a record-store task', () => {
    const t = generateTasks(catalog, { seed: 5, count: 20, suite: 'tau2' }).tasks[0]!;
    const writes = t.steps.flatMap((s) => (s.write ? [s.write] : []));
    const after = t.store!.map((r) => ({ id: r.id, fields: { ...r.fields } }));
    for (const w of writes) after.find((r) => r.id === w.record)!.fields[w.field] = w.value;
    expect(t.golden.store).toEqual(after);
  });
});

describe('each task’s provider prices and turn budget', () => {
  it('draws every enabled tool’s price multiplier log-uniformly in [1/f, f]; none without a spread', () => {
    const f = 4;
    const { tasks } = generateTasks(catalog, { seed: 6, count: 300, suite: 'hle', priceSpread: f });
    const logs: number[] = [];
    for (const t of tasks) {
      expect(Object.keys(t.priceScale ?? {}).sort()).toEqual(catalog.tools.map((x) => x.id).sort());
      for (const s of Object.values(t.priceScale!)) {
        expect(s).toBeGreaterThanOrEqual(1 / f - 0.0005);
        expect(s).toBeLessThanOrEqual(f + 0.0005);
        logs.push(Math.log(s) / Math.log(f)); // uniform on [−1, 1]
      }
    }
    const mean = logs.reduce((x, y) => x + y, 0) / logs.length;
    expect(Math.abs(mean)).toBeLessThan(0.05);
    // Half within [1/2, 2] (|ln s| < ln 2 = ln f / 2), a quarter above 2.
    expect(Math.abs(logs.filter((x) => Math.abs(x) < 0.5).length / logs.length - 0.5)).toBeLessThan(0.04);
    expect(Math.abs(logs.filter((x) => x > 0.5).length / logs.length - 0.25)).toBeLessThan(0.04);
    expect(generateTasks(catalog, { seed: 6, count: 20 }).tasks.every((t) => t.priceScale === undefined)).toBe(true);
    // The training pool draws them the same way.
    expect(generateTasks(catalog, { seed: 6, count: 20, priceSpread: f }).tasks.every((t) => Object.values(t.priceScale!).every((x) => x >= 1 / f - 0.0005 && x <= f + 0.0005))).toBe(true);
  });

  it('keys prices and availability by tool id: adding a tool, even in front, changes no other tool’s draws', () => {
    const more: Catalog = { ...presetCatalog('toolorchestra'), tools: [libraryTool('claude-opus-4.1')!, ...presetCatalog('toolorchestra').tools] };
    const opts = { seed: 7, count: 60, suite: 'hle', priceSpread: 3 } as const;
    const [before, after] = [generateTasks(catalog, opts).tasks, generateTasks(more, opts).tasks];
    const ids = catalog.tools.map((x) => x.id);
    before.forEach((t, i) => {
      const u = after[i]!;
      expect(u.steps).toEqual(t.steps);
      expect(ids.map((id) => u.priceScale?.[id])).toEqual(ids.map((id) => t.priceScale?.[id]));
      expect(u.available.filter((id) => ids.includes(id))).toEqual(t.available);
    });
    expect(after.some((t) => t.available.includes('claude-opus-4.1'))).toBe(true);
  });

  it('draws turn budgets log-uniformly within the range: floor(lo·(hi/lo + 1/lo)^u), capped at hi; none without a range', () => {
    const { tasks } = generateTasks(catalog, { seed: 8, count: 600, suite: 'hle', turnBudgets: [10, 100] });
    const budgets = tasks.map((t) => t.maxTurns as number);
    for (const b of budgets) {
      expect(Number.isInteger(b)).toBe(true);
      expect(b).toBeGreaterThanOrEqual(10);
      expect(b).toBeLessThanOrEqual(100);
    }
    // P(budget < 32) = P(10·10.1^u < 32) = ln 3.2 / ln 10.1 ≈ 0.503; P(10) = ln 1.1 / ln 10.1 ≈ 0.041; P(≥ 90) = 1 − ln 9 / ln 10.1 ≈ 0.050.
    const share = (pred: (b: number) => boolean) => budgets.filter(pred).length / budgets.length;
    expect(Math.abs(share((b) => b < 32) - 0.503)).toBeLessThan(0.08);
    expect(Math.abs(share((b) => b === 10) - 0.041)).toBeLessThan(0.03);
    expect(Math.abs(share((b) => b >= 90) - 0.05)).toBeLessThan(0.03);
    expect(generateTasks(catalog, { seed: 8, count: 20, suite: 'hle' }).tasks.every((t) => t.maxTurns === undefined)).toBe(true);
  });
});

describe('benchmark suites and renderings', () => {
  it('draws the benchmark suites unfiltered: every draw is kept, and some tasks no plan solves', () => {
    for (const suite of ['hle', 'frames', 'tau2']) {
      const { tasks, stats } = generateTasks(catalog, { seed: 8, count: 200, suite, availability: 1 });
      expect(stats).toMatchObject({ generated: 200, kept: 200, droppedUnsolvable: 0, droppedNoTool: 0 });
      expect(tasks.every((t) => t.suite === suite && t.id.startsWith(suite))).toBe(true);
      expect(tasks.filter((t) => 1 - (1 - bestPlan(catalog, t, true)) ** 8 < 0.5).length, suite).toBeGreaterThan(0);
    }
    expect(new Set(generateTasks(catalog, { seed: 8, count: 200, suite: 'hle' }).tasks.map((t) => t.domain))).toEqual(new Set(['science', 'math', 'code']));
    expect(generateTasks(catalog, { seed: 8, count: 100, suite: 'frames' }).tasks.flatMap((t) => t.steps).some((s) => s.type === 'lookup')).toBe(false);
    expect(generateTasks(catalog, { seed: 8, count: 50, suite: 'tau2' }).tasks.every((t) => t.domain === 'agentic' && t.commits === 'step')).toBe(true);
    expect(() => generateTasks(catalog, { seed: 8, count: 10, suite: 'mmlu' })).toThrow(/unknown suite "mmlu" \(known: hle, frames, tau2\)/);
  });

  it('the harness schemas offer only the models that can fill each function', () => {
    type Fn = { function: { name: string; parameters: { properties: { model: { enum: string[] } } } } };
    const models = (c: Catalog) => Object.fromEntries((harnessSchemas(c) as Fn[]).map((f) => [f.function.name, f.function.parameters.properties.model.enum]));
    // toolorchestra: Qwen3-8B writes nothing itself, so it is in no writer list (the paper's harness: search-1/2/3, reasoner-1/2/3, answer-1…6).
    expect(models(catalog)).toEqual({
      search: ['gpt-5', 'gpt-5-mini', 'qwen3-32b'],
      enhance_reasoning: ['gpt-5', 'gpt-5-mini', 'qwen2.5-coder-32b'],
      answer: ['gpt-5', 'gpt-5-mini', 'qwen3-32b', 'llama-3.3-70b', 'qwen2.5-math-72b', 'qwen2.5-math-7b'],
    });
    // seed-004 has no model: its orchestrator writes its own queries and programs, and nothing answers for it.
    expect(models(presetCatalog('seed-004'))).toEqual({ search: ['orchestrator'], enhance_reasoning: ['orchestrator'] });
  });

  it('renders the golden path as the harness’s function calls (search, enhance_reasoning, answer) and agentic tasks with their stores', () => {
    const { tasks } = generateTasks(catalog, { seed: 6, count: 80, availability: 1 });
    const lines = tasksToJsonl(tasks, catalog).trim().split('\n').map((l) => JSON.parse(l));
    const calls = lines.flatMap((l) => l.messages.flatMap((m: { tool_calls?: { type: string; function: { name: string; arguments: string } }[] }) => m.tool_calls ?? []));
    expect(new Set(calls.map((c) => c.function.name))).toEqual(new Set(['search', 'enhance_reasoning', 'answer']));
    for (const c of calls) {
      expect(c.type).toBe('function');
      const args = JSON.parse(c.function.arguments);
      if (c.function.name === 'search') expect(Object.keys(args).sort()).toEqual(['model', 'query', 'tool']);
      if (c.function.name === 'enhance_reasoning') expect(Object.keys(args).sort()).toEqual(['code', 'model', 'tool']);
      if (c.function.name === 'answer') expect(Object.keys(args).sort()).toEqual(['model', 'question']);
    }
    const agentic = lines.find((l) => l.domain === 'agentic');
    expect(agentic.store.length).toBeGreaterThanOrEqual(3);
    expect(agentic.golden.store).toBeDefined();
    expect(agentic.commits).toBe('step');
  });
});
