// The greedy rule: its decisions against a second, plain implementation written from its definition
// (answer with argmax p̂ − λc; buy the evidence with the best p_find·(V⁺ − V) − λc while that is > 0 and
// turns allow), what λ does (nothing without a cost or latency weight; cost falls as λ rises), its
// tuning (the best score of the grid on the tasks given) and its name's parsing.
import { describe, expect, it } from 'vitest';
import { baselineFromName } from '../src/core/eval/baselines';
import { evaluatePolicy } from '../src/core/eval/evaluate';
import { greedyPolicy, LAMBDA_GRID, ruleLambdas, tuneGreedy } from '../src/core/eval/greedyRule';
import { allowedSlots, slotCost, slotLatencyMs, turnsLeft, unitsLeft } from '../src/core/eval/policy';
import { ACCURACY_FIRST, DEFAULT_PREFERENCE, DEFAULT_PREFERENCE_LABEL, type Preference } from '../src/core/preference';
import { INSTRUCTION_PRESETS } from '../src/core/instructionPresets';
import { DEFAULT_SIM } from '../src/core/sim/callModel';
import { expectedCallCost, expectedLatencyMs, type Catalog } from '../src/core/sim/catalog';
import { BatchEnv } from '../src/core/sim/env';
import { evidenceEstimate, nextLift, unitEstimate } from '../src/core/sim/estimates';
import { presetCatalog } from '../src/core/sim/presets';
import { SELF } from '../src/core/sim/slots';
import { generateTasks } from '../src/core/sim/tasks';

const catalog = presetCatalog('toolorchestra');
const tasks = (seed: number, count: number, suite = 'hle') =>
  generateTasks(catalog, { seed, count, suite, availability: 1, sim: DEFAULT_SIM }).tasks;

/** The rule written out plainly from its definition, for one episode. */
function plainChoice(env: BatchEnv, i: number, cat: Catalog, lambda: number, p: Preference): number {
  const on = cat.tools.filter((t) => t.enabled);
  const costUnit = on.reduce((a, t) => a + expectedCallCost(t, 1000), 0) / on.length;
  const latencyUnit = on.reduce((a, t) => a + expectedLatencyMs(t), 0) / on.length;
  const w = p.cost + p.latency;
  const c = (s: number) => (w === 0 ? 0 : lambda * ((p.cost / w) * slotCost(env, i, s) / costUnit + (p.latency / w) * slotLatencyMs(env, s) / latencyUnit));
  const likes = Object.values(p.tools).some((x) => x > 0);
  const ok = (id: string | undefined) => id === undefined || (p.tools[id] ?? 0) > 0;
  const pick = (answer: boolean) => {
    const all = allowedSlots(env, i, (s) => (s.role === 'answer') === answer);
    const mine = all.filter((s) => { const slot = env.slots[s]!;
      return ok(slot.model === SELF ? undefined : cat.tools[slot.model]!.id) && ok(slot.tool < 0 ? undefined : cat.tools[slot.tool]!.id); });
    return likes && mine.length ? mine : all;
  };
  const answerers = pick(true);
  const bestAnswer = (k: number, lift: number) => {
    const options = [{ s: env.submitAction, v: unitEstimate(env, i, SELF, k, lift) },
      ...answerers.map((s) => ({ s, v: unitEstimate(env, i, env.slots[s]!.model, k, lift) - c(s) }))];
    return options.reduce((b, o) => (o.v > b.v ? o : b));
  };
  const now = bestAnswer(-1, 0);
  if (turnsLeft(env, i) > unitsLeft(env, i)) {
    const gains = pick(false).filter((s) => env.target(i, s) >= 0).map((s) => {
      const k = env.target(i, s);
      return { s, g: evidenceEstimate(env, i, s, k) * (bestAnswer(k, nextLift(env, i, s)).v - now.v) - c(s) };
    });
    const best = gains.reduce<{ s: number; g: number } | null>((b, x) => (x.g > (b?.g ?? 0) ? x : b), null);
    if (best) return best.s;
  }
  return now.s;
}

describe('the greedy rule', () => {
  it('takes, at every turn of 200 episodes and at four λ, the action its definition gives', async () => {
    const ts = tasks(31, 200);
    let decisions = 0, evidence = 0;
    for (const [lambda, p] of [[0.001, DEFAULT_PREFERENCE], [0.02, DEFAULT_PREFERENCE], [0.3, DEFAULT_PREFERENCE],
      [0.05, { outcome: 1, cost: 1, latency: 0, tools: {} }], [0.01, INSTRUCTION_PRESETS[3]!.preference(catalog)]] as const) {
      const rule = greedyPolicy(catalog, lambda, p);
      const env = new BatchEnv(catalog, DEFAULT_SIM, ts.length);
      env.reset(ts, ts.map((_, k) => 1000 + k));
      const mask = new Uint8Array(env.capacity * env.nActions), out = new Int32Array(env.capacity);
      while (!env.allDone()) {
        env.writeMask(mask);
        out.fill(env.submitAction);
        await rule.act(env, mask, out);
        for (let i = 0; i < env.size; i++) {
          if (env.done[i]) continue;
          expect(out[i]).toBe(plainChoice(env, i, catalog, lambda, p));
          decisions++;
          if (out[i]! < env.nSlots && env.slots[out[i]!]!.role !== 'answer') evidence++;
        }
        env.step(out);
      }
    }
    expect(decisions).toBeGreaterThan(800);
    expect(evidence).toBeGreaterThan(100); // the rule does buy evidence
  });

  it('λ does nothing when P weighs neither cost nor latency, and cost falls as λ rises when it does', async () => {
    const ts = tasks(32, 300, 'frames');
    const at = (lambda: number, p: Preference) => evaluatePolicy(greedyPolicy(catalog, lambda, p), ts, catalog, DEFAULT_SIM, { seed: 5 });
    const [a, b] = [await at(0.001, ACCURACY_FIRST), await at(1, ACCURACY_FIRST)];
    expect(b.accuracy).toBe(a.accuracy);
    expect(b.meanCostUSD).toBe(a.meanCostUSD);
    const costs: number[] = [];
    for (const lambda of [0.001, 0.01, 0.1, 1]) costs.push((await at(lambda, DEFAULT_PREFERENCE)).meanCostUSD);
    for (let k = 1; k < costs.length; k++) expect(costs[k]).toBeLessThan(costs[k - 1]!);
  });

  it('tuning takes the λ of the grid with the best score on the tasks it is given (ties: the larger λ)', async () => {
    const ts = generateTasks(catalog, { seed: 33, count: 150, availability: 0.8, sim: DEFAULT_SIM }).tasks;
    const t = await tuneGreedy(catalog, DEFAULT_SIM, ts, DEFAULT_PREFERENCE, 9);
    expect(t.tried.map((x) => x.lambda)).toEqual([...LAMBDA_GRID]);
    const best = Math.max(...t.tried.map((x) => x.score));
    expect(t.score).toBe(best);
    expect(t.lambda).toBe(Math.max(...t.tried.filter((x) => x.score === best).map((x) => x.lambda)));
    // The score it reports is the evaluation's own at that λ.
    const again = await evaluatePolicy(greedyPolicy(catalog, t.lambda), ts, catalog, DEFAULT_SIM, { seed: 9, preference: DEFAULT_PREFERENCE });
    expect(again.score).toBe(t.score);
  });

  it('λ by preset: each preset finds its own λ, a P of no preset the default\'s', () => {
    const byPreset = [{ preset: DEFAULT_PREFERENCE_LABEL, lambda: 0.01, score: 0 },
      ...INSTRUCTION_PRESETS.map((x, k) => ({ preset: x.name, lambda: 0.1 * (k + 1), score: 0 }))];
    const r = ruleLambdas(catalog, byPreset);
    expect(r.of(DEFAULT_PREFERENCE)).toBe(0.01);
    INSTRUCTION_PRESETS.forEach((x, k) => expect(r.of(x.preference(catalog))).toBeCloseTo(0.1 * (k + 1), 12));
    expect(r.of({ outcome: 0.3, cost: 0.2, latency: 0.1, tools: {} })).toBe(0.01);
  });

  it('greedy:<λ> is a baseline by name; a λ that is not a number ≥ 0 is refused in words', () => {
    expect(baselineFromName('greedy:0.02', catalog, DEFAULT_SIM).name).toBe('greedy:0.02');
    for (const bad of ['greedy:', 'greedy:-1', 'greedy:abc', 'greedy:0x1']) {
      expect(() => baselineFromName(bad, catalog, DEFAULT_SIM)).toThrow(/λ must be a number ≥ 0, e\.g\. greedy:0\.1/);
    }
  });
});
