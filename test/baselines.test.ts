import { describe, expect, it } from 'vitest';
import { baselineFromName } from '../src/core/eval/baselines';
import { evaluatePolicy, preferenceScore } from '../src/core/eval/evaluate';
import { runEpisodes } from '../src/core/eval/policy';
import { DEFAULT_SIM } from '../src/core/sim/callModel';
import { BatchEnv } from '../src/core/sim/env';
import { expectedCallCost } from '../src/core/sim/catalog';
import { presetCatalog } from '../src/core/sim/presets';
import { generateTasks } from '../src/core/sim/tasks';
import { parsePreference } from '../src/core/preference';
import { handCatalog } from './helpers';

const catalog = presetCatalog('toolorchestra');
const { tasks } = generateTasks(catalog, { seed: 77, count: 600, availability: 1 });
const evalOf = (name: string, on = tasks) => evaluatePolicy(baselineFromName(name, catalog, DEFAULT_SIM), on, catalog, DEFAULT_SIM, { seed: 3 });
const models = catalog.tools.filter((t) => t.kind !== 'basic').map((t) => t.id);
async function traced(name: string, on = tasks) {
  const env = new BatchEnv(catalog, DEFAULT_SIM, on.length);
  await runEpisodes(env, baselineFromName(name, catalog, DEFAULT_SIM), on, on.map((_, i) => i), { trace: true });
  return env;
}

describe('baselines', () => {
  it('always:<tool> calls only that tool, at most once per step', async () => {
    const r = await evalOf('always:gpt-5');
    for (const [id, n] of Object.entries(r.callsPerTask)) if (id !== 'gpt-5') expect(n, id).toBe(0);
    const steps = tasks.reduce((a, t) => a + t.steps.length, 0) / tasks.length;
    expect(r.callsPerTask['gpt-5']).toBeGreaterThan(0);
    expect(r.callsPerTask['gpt-5']).toBeLessThanOrEqual(steps);
  });

  it('tools+gpt-5: GPT-5 drives; one basic tool per step where one can act (its answer is committed, or its evidence lifts GPT-5’s own answer); no model calls', async () => {
    const r = await evalOf('tools+gpt-5');
    for (const id of models) expect(r.callsPerTask[id], id).toBe(0);
    expect(r.callsPerTask['web-search']).toBeGreaterThan(0);
    const env = await traced('tools+gpt-5');
    for (let i = 0; i < tasks.length; i++) {
      const perStep = new Map<number, number>();
      for (const e of env.traces?.[i] ?? []) {
        if (e.action !== 'call') continue;
        perStep.set(e.step, (perStep.get(e.step) ?? 0) + 1);
        const type = tasks[i]?.steps[e.step]?.type;
        if (type === 'retrieve') expect(e.tool).toBe('web-search');
        if (type === 'compute') expect(e.tool).toBe('code-interpreter');
        if (type === 'lookup') expect(e.tool).toBe('local-search');
        if (type === 'reason') expect(e.evidence).toBe(true); // a tool brings context; GPT-5 answers
      }
      for (const n of perStep.values()) expect(n).toBe(1);
    }
  });

  it('notools:gpt-5 calls nothing and pays one GPT-5 answer per task', async () => {
    const r = await evalOf('notools:gpt-5');
    for (const n of Object.values(r.callsPerTask)) expect(n).toBe(0);
    const g = catalog.tools.find((t) => t.id === 'gpt-5')!;
    // One generation: reads the prompt, writes its answer tokens at GPT-5's prices.
    const expected = tasks.reduce((a, t) => a + (g.pricing.inputPerM * t.promptTokens + g.pricing.outputPerM * g.outputTokens.mean) / 1e6, 0) / tasks.length;
    expect(r.meanCostUSD).toBeCloseTo(expected, 10);
  });

  it('repeat:<tool>:<k> calls the tool k times per step it can answer (best-of-k)', async () => {
    const env = await traced('repeat:gpt-5-mini:3', tasks.slice(0, 100));
    let full = 0, steps = 0;
    for (let i = 0; i < 100; i++) {
      const counts = new Map<number, number>();
      for (const e of env.traces?.[i] ?? []) if (e.action === 'call') { expect(e.tool).toBe('gpt-5-mini'); counts.set(e.step, (counts.get(e.step) ?? 0) + 1); }
      for (const n of counts.values()) { expect(n).toBeLessThanOrEqual(3); steps++; if (n === 3) full++; }
    }
    // Three calls wherever the turns allow: most steps mini can answer get all three.
    expect(full / steps).toBeGreaterThan(0.6);
    expect(() => baselineFromName('repeat:gpt-5-mini:0', catalog, DEFAULT_SIM)).toThrow(/k must be an integer in \[1, 20\]/);
    for (const bad of ['repeat:gpt-5-mini:0x3', 'repeat:gpt-5-mini:2.5', 'repeat:gpt-5-mini:1e1']) expect(() => baselineFromName(bad, catalog, DEFAULT_SIM), bad).toThrow(/k must be an integer in \[1, 20\]/);
    expect(() => baselineFromName('cascade:0x1', catalog, DEFAULT_SIM)).toThrow(/θ must be a number/);
    expect(baselineFromName('cascade:.7', catalog, DEFAULT_SIM).name).toBe('cascade:0.7');
  });

  it('prompted orchestrators route their model calls as in the paper’s Table 15 (self-enhancement bias)', async () => {
    const share = (r: Awaited<ReturnType<typeof evalOf>>, ids: string[]) => {
      const total = models.reduce((a, id) => a + (r.callsPerTask[id] ?? 0), 0);
      return ids.reduce((a, id) => a + (r.callsPerTask[id] ?? 0), 0) / total;
    };
    // GPT-5: 2.7 + 5.6 of 8.5 model calls go to GPT-5 or GPT-5-mini = 97.6%; Qwen3-8B: 6.0 of 8.4 to GPT-5 = 71.4%.
    expect(share(await evalOf('prompted:gpt-5'), ['gpt-5', 'gpt-5-mini'])).toBeGreaterThan(0.95);
    const q = share(await evalOf('prompted:qwen3-8b'), ['gpt-5']);
    expect(q).toBeGreaterThan(0.64);
    expect(q).toBeLessThan(0.79);
  });

  it('cheapest calls the cheapest able tool; cascade:0 is the same policy', async () => {
    const env = await traced('cheapest', tasks.slice(0, 100));
    for (let i = 0; i < 100; i++) {
      const task = tasks[i]!;
      for (const e of env.traces?.[i] ?? []) {
        if (e.action !== 'call') continue;
        const type = task.steps[e.step]!.type;
        const able = catalog.tools.filter((t) => t.skill[type] !== undefined);
        const min = Math.min(...able.map((t) => expectedCallCost(t, task.promptTokens)));
        expect(expectedCallCost(catalog.tools.find((t) => t.id === e.tool)!, task.promptTokens)).toBe(min);
      }
    }
    expect(await evalOf('cascade:0')).toEqual({ ...(await evalOf('cheapest')), policy: 'cascade:0' });
  });

  it('cascade escalates: a higher θ spends more and calls more per step', async () => {
    const lo = await evalOf('cascade:0.3');
    const hi = await evalOf('cascade:0.9');
    expect(hi.meanCostUSD).toBeGreaterThan(lo.meanCostUSD);
    expect(hi.meanTurns).toBeGreaterThan(lo.meanTurns);
    expect(hi.accuracy).toBeGreaterThan((await evalOf('cheapest')).accuracy);
  });

  it('the oracle is an upper bound and random is poor; on an unfiltered suite even the oracle fails; evaluation is deterministic', async () => {
    const oracle = await evalOf('oracle');
    for (const name of ['random', 'cheapest', 'tools+gpt-5', 'tools+claude-opus-4.1', 'prompted:gpt-5', 'notools:gpt-5', 'cascade:0.7', 'cascade:0.99', 'always:gpt-5', 'repeat:gpt-5:3']) {
      const r = await evalOf(name);
      expect(oracle.accuracy, name).toBeGreaterThan(r.accuracy);
    }
    expect((await evalOf('random')).accuracy).toBeLessThan(0.3);
    const hle = generateTasks(catalog, { seed: 5, count: 400, suite: 'hle', availability: 1 }).tasks;
    const hleOracle = await evalOf('oracle', hle);
    expect(hleOracle.accuracy).toBeLessThan(0.95);
    expect(hleOracle.accuracy).toBeGreaterThan((await evalOf('tools+gpt-5', hle)).accuracy);
    expect(await evalOf('cascade:0.7')).toEqual(await evalOf('cascade:0.7'));
  });

  it('the oracle plans on the env’s own draws: every step on which it calls a tool is committed right', async () => {
    for (const on of [tasks.slice(0, 300), generateTasks(catalog, { seed: 6, count: 300, suite: 'hle', availability: 1 }).tasks]) {
      const env = await traced('oracle', on);
      for (let i = 0; i < on.length; i++) {
        const tr = env.traces?.[i] ?? [];
        for (const e of tr) if (e.action === 'submit' && tr.some((c) => c.action === 'call' && c.step === e.step && !c.evidence)) expect(e.committedCorrect).toBe(true);
      }
    }
  });

  it('rejects unknown names and tools with a clear message', () => {
    expect(() => baselineFromName('always:gpt-9', catalog, DEFAULT_SIM)).toThrow(/no tool "gpt-9"/);
    expect(() => baselineFromName('cascade:x', catalog, DEFAULT_SIM)).toThrow(/θ must be a number/);
    expect(() => baselineFromName('notools:web-search', catalog, DEFAULT_SIM)).toThrow(/a basic tool, not a model/);
    expect(() => baselineFromName('prompted:qwen3-32b', catalog, DEFAULT_SIM)).toThrow(/no routing rule/);
    expect(() => baselineFromName('greedy', catalog, DEFAULT_SIM)).toThrow(/unknown policy "greedy"/);
  });
});

describe('preference-weighted score', () => {
  const cat = handCatalog();
  const pref = (o: object) => {
    const p = parsePreference(o, cat);
    if (!p.ok) throw new Error(p.error);
    return p.value;
  };
  it('is outcome-gated and weighs the terms as P says (worked by hand)', () => {
    const ref = { cost: 0.2, latencyMs: 40_000 };
    const ep = { outcome: 1, cost: 0.05, latencyMs: 10_000, calls: [3, 1] };
    // outcome 1, cost term 1 − 0.05/0.2 = 0.75, latency term 1 − 10/40 = 0.75, alpha's share 3/4.
    // P = {outcome 1, cost 0.5, latency 0, alpha 1}: (1 + 0.5·0.75 + 0 + 1·0.75)/2.5 = 2.125/2.5 = 0.85.
    expect(preferenceScore(pref({ outcome: 1, cost: 0.5, latency: 0, alpha: 1 }), cat, ep, ref)).toBeCloseTo(0.85, 12);
    expect(preferenceScore(pref({ outcome: 1, cost: 0.5 }), cat, { ...ep, outcome: 0 }, ref)).toBe(0);
    // Cost above the reference clips the cost term at 0: (1 + 0)/2.
    expect(preferenceScore(pref({ outcome: 1, cost: 1 }), cat, { ...ep, cost: 0.5 }, ref)).toBeCloseTo(0.5, 12);
  });
  it('rejects out-of-range weights and unknown keys', () => {
    expect(parsePreference({ cost: 2 }, cat)).toMatchObject({ ok: false, error: expect.stringMatching(/"cost" must be a number in \[0, 1\]/) });
    expect(parsePreference({ gamma: 1 }, cat)).toMatchObject({ ok: false, error: expect.stringMatching(/"gamma" is neither/) });
  });
});
