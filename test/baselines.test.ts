import { describe, expect, it } from 'vitest';
import { baselineFromName } from '../src/core/eval/baselines';
import { evaluatePolicy, evalKey, preferenceScore } from '../src/core/eval/evaluate';
import { findsSought, PROMPTED_ROUTING } from '../src/core/eval/modelDriven';
import { runEpisodes } from '../src/core/eval/policy';
import { DEFAULT_SIM, type SimConfig } from '../src/core/sim/callModel';
import type { Catalog, ToolSpec } from '../src/core/sim/catalog';
import type { DrawFn } from '../src/core/sim/episode';
import { BatchEnv } from '../src/core/sim/env';
import { presetCatalog } from '../src/core/sim/presets';
import { generateTasks, taskUnits, type Task } from '../src/core/sim/tasks';
import { parsePreference } from '../src/core/preference';
import { CH_HIT, CH_SUCCESS } from '../src/core/sim/episode';
import { drawKey, handCatalog, handTask, NO_LATENT, outcomeDraws, U_NO, U_YES, who } from './helpers';

// Hand situations: a = 2, write ease 1, latents 0 (helpers.ts's catalog: slots code:self@beta, search:alpha@gamma,
// search:self@gamma, answer:alpha; the orchestrator orc writes programs only).
const SIM: SimConfig = { ...DEFAULT_SIM, discrimination: 2, writeEase: 1, maxTurns: 12 };

/** The hand catalog with a search whose signal tells a find from a miss (AUROC 1, as the code runner's): what it
 * found is then known, as the rows' hand-worked turns assume; at gamma's own AUROC 0.5 the signal says nothing. */
function sharpCatalog(): Catalog {
  const cat = handCatalog();
  cat.tools[2]!.calibration = 1;
  return cat;
}

/** Runs a baseline on hand tasks with scripted draws; returns the env (traced) and each episode's slot ids, 'submit' for a submit. */
async function play(name: string, tasks: Task[], draws: DrawFn = outcomeDraws(U_YES), cat: Catalog = handCatalog(), sim: SimConfig = SIM) {
  const env = new BatchEnv(cat, sim, tasks.length, draws, NO_LATENT);
  await runEpisodes(env, baselineFromName(name, cat, sim), tasks, tasks.map((_, i) => i + 1), { trace: true });
  const actions = (env.traces ?? []).map((tr) => tr.map((e) => e.slot ?? 'submit'));
  return { env, actions };
}
/** The hand catalog with delta, a cheap weak answerer (0.1 / 0.2 $/M, 300 tokens), added last. */
function withDelta(): Catalog {
  const c = handCatalog();
  const { writes: _w, ...alpha } = c.tools[0] as ToolSpec;
  c.tools.push({ ...alpha, id: 'delta', pricing: { inputPerM: 0.1, outputPerM: 0.2, perCall: 0, perSecond: 0 }, outputTokens: { mean: 300, spread: 0.5 }, skill: { reason: -1, compute: -1 } });
  return c;
}
const retrieveUnit = (): Task => handTask({ steps: [{ ...handTask().steps[0]!, type: 'retrieve' }] });

describe('routing baselines on hand-built situations', () => {
  it('always:<model> answers every unit at once with that model, and submits a unit it cannot answer', async () => {
    const { actions } = await play('always:alpha', [handTask(), handTask({ commits: 'step' }), handTask({ commits: 'step', steps: [handTask().steps[0]!, { ...handTask().steps[0]!, type: 'retrieve' }] })]);
    expect(actions).toEqual([['answer:alpha'], ['answer:alpha', 'answer:alpha'], ['answer:alpha', 'submit']]);
  });

  it('cheapest answers once with the cheapest able model (no evidence), else submits', async () => {
    // delta: (0.1·2000 + 0.2·300)/1e6 = $0.00026 a call against alpha's (10·2000 + 20·500)/1e6 = $0.03.
    const all = ['alpha', 'beta', 'gamma', 'delta'];
    const { actions } = await play('cheapest', [handTask({ available: all }), { ...retrieveUnit(), available: all }, handTask()], outcomeDraws(U_YES), withDelta());
    // Where delta is not available to the task, alpha is the cheapest able one.
    expect(actions).toEqual([['answer:delta'], ['submit'], ['answer:alpha']]);
  });

  it('cheapest counts a model’s per-call fee: a $1 fee makes an otherwise cheap model the dearest', async () => {
    // delta with a $1 fee: (0.1·2000 + 0.2·300)/1e6 + 1 = $1.00026 a call; alpha: (10·2000 + 20·500)/1e6 + its $0.001 fee = $0.031.
    const cat = withDelta();
    (cat.tools.find((t) => t.id === 'delta') as ToolSpec).pricing.perCall = 1;
    const { actions } = await play('cheapest', [handTask({ available: ['alpha', 'beta', 'gamma', 'delta'] })], outcomeDraws(U_YES), cat);
    expect(actions).toEqual([['answer:alpha']]);
  });

  it('repeat:<model>:<k> has the model write k times (the slot whose find lifts most each time, turns permitting), then answer', async () => {
    const cat = handCatalog();
    cat.tools[0]!.writes = { query: 1, code: 1 };
    // Slots now: code:alpha@beta, code:self@beta, search:alpha@gamma, search:self@gamma, answer:alpha. Next lifts: code → step 1 by 2,
    // search → step 0 by 1.5; after the code find, code lifts 2·0.5 = 1 < 1.5; after the search find, search 0.75 < 1.
    cat.tools[2]!.calibration = 1; // each find known as a find (a sharp signal), so each next lift halves
    const { actions } = await play('repeat:alpha:3', [handTask()], outcomeDraws(U_YES), cat);
    expect(actions).toEqual([['code:alpha@beta', 'search:alpha@gamma', 'code:alpha@beta', 'answer:alpha']]);
    // Where search's signal says nothing (AUROC 0.5), its find is believed only at its prior p̂ < 1: its next lift
    // 1.5·0.5^p̂ stays above code's 2·0.5^1 = 1, so it searches again.
    cat.tools[2]!.calibration = 0.5;
    expect((await play('repeat:alpha:3', [handTask()], outcomeDraws(U_YES), cat)).actions)
      .toEqual([['code:alpha@beta', 'search:alpha@gamma', 'search:alpha@gamma', 'answer:alpha']]);
    // A budget of 3 leaves room for two writes: the third turn is the answer's.
    const short = await play('repeat:alpha:3', [handTask({ maxTurns: 3 })]);
    expect(short.actions).toEqual([['search:alpha@gamma', 'search:alpha@gamma', 'answer:alpha']]);
    // Failed writes count too: k calls, found or not.
    expect((await play('repeat:alpha:2', [handTask()], outcomeDraws(U_NO))).actions).toEqual([['search:alpha@gamma', 'search:alpha@gamma', 'answer:alpha']]);
  });

  it('cascade:θ climbs the ladder of evidence slots by cost while the best signal is below θ (three calls at most), then answers', async () => {
    // Ladder: code:self@beta ($0.0103) before search:alpha@gamma ($0.002 + (10·2000 + 20·200)/1e6 = $0.026).
    // θ = 1: no signal reaches it: code, search, search (the last rung again), then the likeliest answerer:
    // alpha p̂ = σ(2.25/√(1 + π·4.3²/8))·σ(0/…) ≈ 0.69·0.5 against orc's ≈ 0.52·0.5 (evidence 2.25 on step 0, 2 on step 1).
    expect((await play('cascade:1', [handTask()])).actions).toEqual([['code:self@beta', 'search:alpha@gamma', 'search:alpha@gamma', 'answer:alpha']]);
    // θ = 0: one call (the cheapest), then the cheapest answerer whose p̂ ≥ 0.
    expect((await play('cascade:0', [handTask()])).actions).toEqual([['code:self@beta', 'answer:alpha']]);
  });

  it('random takes allowed actions only, spread over all of them, the same on every run', async () => {
    const tasks = Array.from({ length: 400 }, () => handTask());
    const first = (await play('random', tasks)).actions.map((a) => a[0]);
    const again = (await play('random', tasks)).actions.map((a) => a[0]);
    expect(again).toEqual(first);
    // Allowed at turn 0: code:self@beta, search:alpha@gamma, answer:alpha, submit (search:self@gamma is not: orc writes no queries).
    const counts = new Map<string | undefined, number>();
    for (const a of first) counts.set(a, (counts.get(a) ?? 0) + 1);
    expect([...counts.keys()].sort()).toEqual(['answer:alpha', 'code:self@beta', 'search:alpha@gamma', 'submit']);
    for (const n of counts.values()) expect(n / 400).toBeGreaterThan(0.15);
  });
});

describe('model-driven baselines (the paper’s rows) on hand-built situations', () => {
  it('notools:<model> answers the whole question in one generation at its own prices, calling nothing', async () => {
    // alpha drives (a catalog model): one answer of 500 tokens reading the 2000-token prompt: (10·2000 + 20·500)/1e6 = $0.03,
    // 1000 + 1000·500/50 = 11 000 ms; the second unit comes in the same generation.
    const { env, actions } = await play('notools:alpha', [handTask({ commits: 'step' })]);
    expect(actions).toEqual([['submit', 'submit']]);
    expect(env.cost[0]).toBeCloseTo(0.03, 12);
    expect(env.latencyMs[0]).toBeCloseTo(11000, 9);
    expect(Array.from(env.calls.subarray(0, 3))).toEqual([0, 0, 0]);
    // GPT-5 is not in the hand catalog: the library's. (1.25·2000 + 10·2500)/1e6 = $0.0275; 4000 + 1000·2500/60 ms.
    const lib = await play('notools:gpt-5', [handTask()]);
    expect(lib.env.cost[0]).toBeCloseTo(0.0275, 12);
    expect(lib.env.latencyMs[0]).toBeCloseTo(4000 + 2500000 / 60, 6);
    expect(lib.env.traces?.[0]?.[0]?.model).toBe('gpt-5');
  });

  it('tools+<model>: the model writes its own queries and programs, one find per step it can reach (largest lift first), then answers itself', async () => {
    // GPT-5 (library) writes both: code:self@beta lifts step 1 by 2, search:self@gamma step 0 by 1.5. It drives with
    // round(2500·0.75) = 1875 tokens a writing turn and answers with 2500, at 1.25 / 10 $/M:
    //  turn 0: reads 2000: (2500 + 18 750)/1e6 = 0.02125, + beta 0.0103; context 2000 + 1875 + 200 = 4075;
    //  turn 1: reads 4075: (5093.75 + 18 750)/1e6 = 0.02384375, + gamma 0.002; context 4075 + 1875 + 100 = 6050;
    //  turn 2: submit, reads 6050: (7562.5 + 25 000)/1e6 = 0.0325625. Total $0.08995625.
    const { env, actions } = await play('tools+gpt-5', [handTask()], outcomeDraws(U_YES), sharpCatalog());
    expect(actions).toEqual([['code:self@beta', 'search:self@gamma', 'submit']]);
    expect(env.traces?.[0]?.map((e) => e.model)).toEqual(['gpt-5', 'gpt-5', 'gpt-5']);
    expect(env.cost[0]).toBeCloseTo(0.08995625, 12);
    expect(Array.from(env.calls.subarray(0, 3))).toEqual([0, 1, 1]); // no model resource: its own writing
    // A step that needs a tool goes first, whatever the lifts.
    // A model that cannot tell from the result whether its search found anything (AUROC 0.5) tries the step
    // again (a find is believed at its prior p̂ < ½), at most twice.
    expect((await play('tools+gpt-5', [handTask()])).actions).toEqual([['code:self@beta', 'search:self@gamma', 'search:self@gamma', 'submit']]);
    // A step of a type that often needs a tool goes first, whatever the lifts (its rate, not its own draw, which is hidden).
    const often = sharpCatalog();
    const needs = await play('tools+gpt-5', [handTask({ steps: [{ ...handTask().steps[0]!, needsTool: true }, handTask().steps[1]!] })],
      outcomeDraws(U_YES), often);
    expect(needs.actions).toEqual([['code:self@beta', 'search:self@gamma', 'submit']]); // the draw alone changes nothing
    // alpha writes queries only: its tools+ row has no program slot.
    expect((await play('tools+alpha', [handTask()], outcomeDraws(U_YES), sharpCatalog())).actions).toEqual([['search:self@gamma', 'submit']]);
  });

  it('tools+<model> seeks two finds per step when the budget is 20 turns or more', async () => {
    expect([findsSought(12), findsSought(19), findsSought(20), findsSought(100)]).toEqual([1, 1, 2, 2]);
    // The compute step, which needs a tool in half of the maths tasks (its rate: whether this one does is hidden),
    // gets its two finds first (+100·0.5 on its lift); then the reason step its two.
    const { actions } = await play('tools+gpt-5', [handTask({ maxTurns: 20 })], outcomeDraws(U_YES), sharpCatalog());
    expect(actions).toEqual([['code:self@beta', 'code:self@beta', 'search:self@gamma', 'search:self@gamma', 'submit']]);
  });

  it('tools+<model> tries each step at most twice per find sought, so a step that keeps failing does not starve the others', async () => {
    // Every write and hit fails: gpt-5 writes programs (step 1, the larger lift) twice, then queries (step 0) twice, then answers.
    const failing = outcomeDraws(U_NO);
    expect((await play('tools+gpt-5', [handTask()], failing)).actions).toEqual([['code:self@beta', 'code:self@beta', 'search:self@gamma', 'search:self@gamma', 'submit']]);
    // alpha writes queries only: two tries of step 0, then its answer.
    expect((await play('tools+alpha', [handTask()], failing)).actions).toEqual([['search:self@gamma', 'search:self@gamma', 'submit']]);
  });

  it('prompted:<model> delegates: writers and the answerer drawn by its routing weights (the strongest models where its Table 15 row names none)', async () => {
    // None of GPT-5's Table 15 models is in the hand catalog: the strength fallback weighs alpha (its only model) > 0.
    // GPT-5 drives: a delegating turn writes round(2500·0.25) = 625 tokens at 1.25 / 10 $/M.
    //  turn 0: reads 2000: (2500 + 6250)/1e6 = 0.00875; alpha writes the query: (10·2000 + 20·200)/1e6 + 0.001 = 0.025; gamma 0.002;
    //          context 2000 + 625 + 100 = 2725;
    //  turn 1: reads 2725: (3406.25 + 6250)/1e6 = 0.00965625; alpha answers reading 3350: (33 500 + 10 000)/1e6 + 0.001 = 0.0445.
    //  Total $0.08990625. No model writes programs and its own slots are not used: step 1 gets no evidence.
    const { env, actions } = await play('prompted:gpt-5', [handTask()], outcomeDraws(U_YES), sharpCatalog());
    expect(actions).toEqual([['search:alpha@gamma', 'answer:alpha']]);
    expect(env.cost[0]).toBeCloseTo(0.08990625, 12);
    expect(() => baselineFromName('prompted:qwen3-8b', handCatalog(), SIM)).toThrow(/no model "qwen3-8b" in catalog "hand" or in the model library/);
  });
});

describe('the hindsight baseline on hand-built situations (it sees the draws)', () => {
  it('is called hindsight: the old name "oracle" says why it changed (it is not an upper bound)', () => {
    expect(() => baselineFromName('oracle', handCatalog(), SIM)).toThrow(/"oracle" is called "hindsight" now: .*not an upper bound/);
    expect(baselineFromName('hindsight', handCatalog(), SIM).name).toBe('hindsight');
  });

  const orcWrong = { [drawKey(0, who.model('orc'), 0, CH_SUCCESS)]: U_NO, [drawKey(1, who.model('orc'), 0, CH_SUCCESS)]: U_NO };

  it('submits when the driver itself would be right: the cheapest commit', async () => {
    expect((await play('hindsight', [handTask()])).actions).toEqual([['submit']]);
  });

  it('buys exactly the find that makes an answer right, then commits it', async () => {
    // orc is wrong on both steps whatever it gathers. alpha: step 0 σ(0) = 0.5 > u 0.3 (right as it is); step 1 σ(−2) ≈ 0.12 < u 0.4,
    // but σ(−2 + 2) = 0.5 > 0.4 after beta's find: the plan is code:self@beta, then answer:alpha.
    const draws = outcomeDraws(U_YES, { ...orcWrong, [drawKey(0, who.model('alpha'), 0, CH_SUCCESS)]: 0.3, [drawKey(1, who.model('alpha'), 0, CH_SUCCESS)]: 0.4 });
    const { env, actions } = await play('hindsight', [handTask()], draws);
    expect(actions).toEqual([['code:self@beta', 'answer:alpha']]);
    expect(env.outcome[0]).toBe(1);
    // The same, but the program would not be found (its hit draw fails): no right plan; the likeliest answer now is alpha's
    // (p̂ = 0.5·σ(−2/√(1 + π·4.3²/8)) ≈ 0.17 against orc's ≈ 0.11).
    const miss = await play('hindsight', [handTask()], outcomeDraws(U_YES, { ...orcWrong, [drawKey(0, who.model('alpha'), 0, CH_SUCCESS)]: 0.3, [drawKey(1, who.model('alpha'), 0, CH_SUCCESS)]: 0.4, [drawKey(1, who.slot('code:self@beta'), 0, CH_HIT)]: U_NO }));
    expect(miss.actions).toEqual([['answer:alpha']]);
    expect(miss.env.outcome[0]).toBe(0);
  });
});

describe('baselines on a small toolorchestra evaluation', () => {
  const catalog = presetCatalog('toolorchestra');
  const { tasks } = generateTasks(catalog, { seed: 77, count: 200, availability: 1 });
  const evalOf = (name: string, on: readonly Task[] = tasks) => evaluatePolicy(baselineFromName(name, catalog, DEFAULT_SIM), on, catalog, DEFAULT_SIM, { seed: 3 });
  const models = catalog.tools.filter((t) => t.kind !== 'basic').map((t) => t.id);
  const units = tasks.reduce((a, t) => a + taskUnits(t).length, 0) / tasks.length;
  async function traced(name: string, on: readonly Task[] = tasks) {
    const env = new BatchEnv(catalog, DEFAULT_SIM, on.length);
    await runEpisodes(env, baselineFromName(name, catalog, DEFAULT_SIM), on, on.map((_, i) => evalKey(3, i)), { trace: true });
    return env;
  }

  it('always:gpt-5 calls GPT-5 alone, once per unit', async () => {
    const r = await evalOf('always:gpt-5');
    for (const [id, n] of Object.entries(r.callsPerTask)) if (id !== 'gpt-5') expect(n, id).toBe(0);
    expect(r.callsPerTask['gpt-5']).toBeCloseTo(units, 12);
  });

  it('notools:gpt-5 calls nothing and pays one GPT-5 generation per task', async () => {
    const r = await evalOf('notools:gpt-5');
    for (const n of Object.values(r.callsPerTask)) expect(n).toBe(0);
    // One generation: reads the prompt at 1.25 $/M, writes 2500 tokens at 10 $/M, in 4 s + 2500/60 s.
    expect(r.meanCostUSD).toBeCloseTo(tasks.reduce((a, t) => a + (1.25 * t.promptTokens + 10 * 2500) / 1e6, 0) / tasks.length, 12);
    expect(r.meanLatencyS).toBeCloseTo(4 + 2500 / 60, 9);
  });

  it('tools+gpt-5 writes every query and program itself: basic tools only, each step tried at most twice (one find sought, as it reads the signals)', async () => {
    const r = await evalOf('tools+gpt-5');
    for (const id of models) expect(r.callsPerTask[id], id).toBe(0);
    expect(r.callsPerTask['web-search']).toBeGreaterThan(0);
    expect(r.callsPerTask['code-interpreter']).toBeGreaterThan(0);
    const env = await traced('tools+gpt-5');
    tasks.forEach((t, i) => {
      const tr = env.traces?.[i] ?? [];
      for (const e of tr) if (e.action === 'search' || e.action === 'code') expect(e.slot).toMatch(/^(search|code):self@/);
      for (let k = 0; k < t.steps.length; k++) expect(tr.filter((e) => e.step === k && (e.action === 'search' || e.action === 'code')).length).toBeLessThanOrEqual(2);
      expect(tr.filter((e) => e.action === 'submit')).toHaveLength(taskUnits(t).length);
    });
  });

  it('prompted orchestrators keep to their Table 15 row: GPT-5 calls GPT-5, GPT-5-mini and the coder only; Qwen3-8B sends 6/7.9 of its answers to GPT-5', async () => {
    const g = await evalOf('prompted:gpt-5');
    const row = Object.keys(PROMPTED_ROUTING['gpt-5']!);
    for (const id of models) if (!row.includes(id)) expect(g.callsPerTask[id], id).toBe(0);
    // Record-store tasks (τ²-like) commit two or three units each: many answers to count.
    const env = await traced('prompted:qwen3-8b', generateTasks(catalog, { seed: 2, count: 300, suite: 'tau2', availability: 1 }).tasks);
    const answers = (env.traces ?? []).flat().filter((e) => e.action === 'answer');
    expect(answers.length).toBeGreaterThan(600);
    // Every answerer of its row can answer every step type: GPT-5 6.0, GPT-5-mini 0.5, Qwen3-32B 1.4 (the coder does not answer).
    const share = answers.filter((e) => e.model === 'gpt-5').length / answers.length;
    expect(Math.abs(share - 6 / 7.9)).toBeLessThan(0.06);
    expect(answers.every((e) => ['gpt-5', 'gpt-5-mini', 'qwen3-32b'].includes(e.model ?? ''))).toBe(true);
  });

  it('cascade escalates: a higher θ spends more and calls more', async () => {
    const [lo, hi] = [await evalOf('cascade:0.3'), await evalOf('cascade:0.95')];
    expect(hi.meanCostUSD).toBeGreaterThan(lo.meanCostUSD);
    expect(hi.meanTurns).toBeGreaterThan(lo.meanTurns);
  });

  it('hindsight is more accurate than the rules and the models\' rows, random is poor; evaluation is deterministic', async () => {
    const hindsight = await evalOf('hindsight');
    for (const name of ['random', 'cheapest', 'tools+gpt-5', 'tools+claude-opus-4.1', 'prompted:gpt-5', 'notools:gpt-5', 'cascade:0.7', 'always:gpt-5', 'repeat:gpt-5-mini:2']) {
      expect(hindsight.accuracy, name).toBeGreaterThan((await evalOf(name)).accuracy);
    }
    expect((await evalOf('random')).accuracy).toBeLessThan(0.3);
    expect(await evalOf('cascade:0.7')).toEqual(await evalOf('cascade:0.7'));
  });

  it('hindsight plans on the env’s own draws: every unit it gathers evidence for is committed right', async () => {
    const hle = generateTasks(catalog, { seed: 6, count: 150, suite: 'hle', availability: 1 }).tasks;
    for (const on of [tasks, hle]) {
      const env = await traced('hindsight', on);
      let gathered = 0;
      for (const tr of env.traces ?? []) {
        for (const e of tr) {
          if ((e.action === 'answer' || e.action === 'submit') && tr.some((c) => c.unit === e.unit && (c.action === 'search' || c.action === 'code'))) {
            gathered++;
            expect(e.committedCorrect).toBe(true);
          }
        }
      }
      expect(gathered).toBeGreaterThan(10);
    }
  });

  it('rejects unknown names, models and malformed parameters with a clear message', () => {
    const bad: [string, RegExp][] = [
      ['always:gpt-9', /no tool "gpt-9"/],
      ['always:web-search', /"web-search" is a basic tool, not a model/],
      ['notools:web-search', /a basic tool, not a model/],
      ['tools+gpt-9', /no model "gpt-9"/],
      ['prompted:qwen3-32b', /no routing rule/],
      ['greedy', /unknown policy "greedy"/],
      ['cascade:x', /θ must be a number/],
      ['cascade:0x1', /θ must be a number/],
      ['cascade:1.5', /θ must be in \[0, 1\]/],
      ['repeat:gpt-5-mini', /write repeat:<model>:<k>|k must be an integer/],
      ['repeat:gpt-5-mini:0', /k must be an integer in \[1, 20\]/],
      ['repeat:gpt-5-mini:21', /k must be an integer in \[1, 20\]/],
      ['repeat:gpt-5-mini:0x3', /k must be an integer in \[1, 20\]/],
      ['repeat:gpt-5-mini:2.5', /k must be an integer in \[1, 20\]/],
      ['repeat:gpt-5-mini:1e1', /k must be an integer in \[1, 20\]/],
    ];
    for (const [name, re] of bad) expect(() => baselineFromName(name, catalog, DEFAULT_SIM), name).toThrow(re);
    expect(baselineFromName('cascade:.7', catalog, DEFAULT_SIM).name).toBe('cascade:0.7');
    expect(baselineFromName('tools+claude-opus-4.1', catalog, DEFAULT_SIM).driver?.id).toBe('claude-opus-4.1');
    expect(baselineFromName('prompted:qwen3-8b', catalog, DEFAULT_SIM).driver?.id).toBe('qwen3-8b');
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
    const ep = { outcome: 1, cost: 0.05, latencyMs: 10_000, calls: [3, 1, 0] };
    // outcome 1, cost term 1 − 0.05/0.2 = 0.75, latency term 1 − 10/40 = 0.75, alpha's share 3/4.
    // P = {outcome 1, cost 0.5, latency 0, alpha 1}: (1 + 0.5·0.75 + 0 + 1·0.75)/2.5 = 2.125/2.5 = 0.85.
    expect(preferenceScore(pref({ outcome: 1, cost: 0.5, latency: 0, alpha: 1 }), cat, ep, ref)).toBeCloseTo(0.85, 12);
    expect(preferenceScore(pref({ outcome: 1, cost: 0.5 }), cat, { ...ep, outcome: 0 }, ref)).toBe(0);
    // Cost above the reference clips the cost term at 0: (1 + 0)/2.
    expect(preferenceScore(pref({ outcome: 1, cost: 1 }), cat, { ...ep, cost: 0.5 }, ref)).toBeCloseTo(0.5, 12);
  });
  it('rejects out-of-range weights and unknown keys', () => {
    expect(parsePreference({ cost: 2 }, cat)).toMatchObject({ ok: false, error: expect.stringMatching(/"cost" must be a number in \[0, 1\]/) });
    expect(parsePreference({ gamma2: 1 }, cat)).toMatchObject({ ok: false, error: expect.stringMatching(/"gamma2" is neither/) });
  });
});
