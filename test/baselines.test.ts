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
const evalOf = (name: string) => evaluatePolicy(baselineFromName(name, catalog), tasks, catalog, DEFAULT_SIM, { seed: 3 });
const basic = new Set(catalog.tools.filter((t) => t.kind === 'basic').map((t) => t.id));

describe('baselines', () => {
  it('always:<tool> calls only that tool, at most once per step', async () => {
    const r = await evalOf('always:gpt-5');
    for (const [id, n] of Object.entries(r.callsPerTask)) if (id !== 'gpt-5') expect(n, id).toBe(0);
    const steps = tasks.reduce((a, t) => a + t.steps.length, 0) / tasks.length;
    expect(r.callsPerTask['gpt-5']).toBeGreaterThan(0);
    expect(r.callsPerTask['gpt-5']).toBeLessThanOrEqual(steps);
  });

  it('tools+gpt-5 uses basic tools where they can act and GPT-5 only on the rest', async () => {
    const r = await evalOf('tools+gpt-5');
    for (const [id, n] of Object.entries(r.callsPerTask)) if (id !== 'gpt-5' && !basic.has(id)) expect(n, id).toBe(0);
    expect(r.callsPerTask['web-search']).toBeGreaterThan(0);
    // Every retrieve step goes to web search (the strongest basic tool for it), none to GPT-5.
    const env = new BatchEnv(catalog, DEFAULT_SIM, tasks.length);
    await runEpisodes(env, baselineFromName('tools+gpt-5', catalog), tasks, tasks.map((_, i) => i), { trace: true });
    for (let i = 0; i < tasks.length; i++) {
      for (const e of env.traces?.[i] ?? []) {
        if (e.action !== 'call') continue;
        const type = tasks[i]?.steps[e.step]?.type;
        if (type === 'retrieve') expect(e.tool).toBe('web-search');
        if (type === 'reason' || type === 'code' || type === 'act') expect(e.tool).toBe('gpt-5');
        if (type === 'compute') expect(e.tool).toBe('code-interpreter');
      }
    }
  });

  it('cheapest calls the cheapest able tool; cascade:0 is the same policy', async () => {
    const env = new BatchEnv(catalog, DEFAULT_SIM, 100);
    await runEpisodes(env, baselineFromName('cheapest', catalog), tasks.slice(0, 100), tasks.map((_, i) => i), { trace: true });
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

  it('the oracle is an upper bound and random is poor; evaluation is deterministic', async () => {
    const oracle = await evalOf('oracle');
    for (const name of ['random', 'cheapest', 'tools+gpt-5', 'tools+claude-opus-4.1', 'cascade:0.7', 'cascade:0.99', 'always:gpt-5']) {
      const r = await evalOf(name);
      expect(oracle.accuracy, name).toBeGreaterThan(r.accuracy);
    }
    expect((await evalOf('random')).accuracy).toBeLessThan(0.3);
    expect(await evalOf('cascade:0.7')).toEqual(await evalOf('cascade:0.7'));
  });

  it('rejects unknown names and tools with a clear message', () => {
    expect(() => baselineFromName('always:gpt-9', catalog)).toThrow(/no tool "gpt-9"/);
    expect(() => baselineFromName('cascade:x', catalog)).toThrow(/θ must be a number/);
    expect(() => baselineFromName('greedy', catalog)).toThrow(/unknown policy "greedy"/);
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
