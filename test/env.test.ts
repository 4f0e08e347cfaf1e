import { describe, expect, it } from 'vitest';
import { BatchEnv } from '../src/core/sim/env';
import { CH_CONFIDENCE, CH_LATENCY, CH_SUCCESS, CH_TOKENS } from '../src/core/sim/episode';
import { DEFAULT_SIM, type SimConfig } from '../src/core/sim/callModel';
import { modelDriver } from '../src/core/sim/catalog';
import { handCatalog, handTask, NO_LATENT, scriptedDraws, U_N1, U_Z1 } from './helpers';

const SIM: SimConfig = { ...DEFAULT_SIM, discrimination: 2, maxTurns: 6, contextTokensPerTurn: 1000, needsToolPenalty: 10 };
const A = 0, B = 1, SUBMIT = 2;
const sig = (x: number) => 1 / (1 + Math.exp(-x));

describe('BatchEnv, a two-step task worked by hand (latents at 0)', () => {
  // Step 0 (reason, d = 1): alpha has p = σ(2·(1 − 1)) = 0.5. Step 1 (compute, d = 1): beta has p = σ(4) ≈ 0.982.
  // alpha's calibration is AUROC 0.5: its confidence is σ(2 + 1.5·Φ⁻¹(u)), the same for right and wrong.
  // The orchestrator drives: each turn reads the whole transcript (prompt 2000 + every earlier output) at
  // 1 $/M and writes 100 tokens at 2 $/M in 200 + 1000 ms. A call carries the brief 2000 + turn·1000 tokens.
  // Turn 0: driver reads 2000: 0.0022. alpha, brief 2000, u = 0.7 ≥ 0.5 → wrong; confidence σ(2) ≈ 0.8808;
  //         500 tokens; latency 1000 + 1000·500/50 = 11 000 ms; cost (10·2000 + 20·500)/1e6 + 0.001 = 0.031.
  // Turn 1: driver reads 2000 + 100 + 500 = 2600: 0.0028. alpha, brief 3000, u = 0.2 → right; u_conf = Φ(1):
  //         confidence σ(3.5) ≈ 0.9707; tokens round(500·e^0.5) = 824; latency (1000 + 16 480)·e^0.2 = 21 350.120 ms;
  //         cost (10·3000 + 20·824)/1e6 + 0.001 = 0.04748.
  // Turn 2: driver reads 2600 + 100 + 824 = 3524: 0.003724; submit commits the most confident attempt (turn 1): right.
  // Turn 3: driver reads 3624: 0.003824. beta, u = 0.3 → right; 200 tokens; 300 ms; cost 0.01 + 0.001·0.3 = 0.0103.
  // Turn 4: driver reads 3624 + 100 + 200 = 3924: 0.004124; submit → step 1 right → outcome 1.
  // Total cost 0.016672 (driver) + 0.08878 (calls) = 0.105452; latency 5·1200 + 11 000 + 21 350.120 + 300 = 38 650.120 ms.
  const draws = scriptedDraws({
    [`0/${A}/0/${CH_SUCCESS}`]: 0.7,
    [`0/${A}/1/${CH_SUCCESS}`]: 0.2,
    [`0/${A}/1/${CH_CONFIDENCE}`]: U_N1,
    [`0/${A}/1/${CH_TOKENS}`]: U_Z1,
    [`0/${A}/1/${CH_LATENCY}`]: U_Z1,
    [`1/${B}/0/${CH_SUCCESS}`]: 0.3,
  });

  it('agrees with the hand computation to the cent and the millisecond', () => {
    const env = new BatchEnv(handCatalog(), SIM, 1, draws, NO_LATENT);
    env.reset([handTask()], [0], { trace: true });
    for (const a of [A, A, SUBMIT, B, SUBMIT]) env.step([a]);
    expect(env.done[0]).toBe(1);
    expect(env.answered[0]).toBe(1);
    expect(env.outcome[0]).toBe(1);
    expect(env.turn[0]).toBe(5);
    expect(env.cost[0]).toBeCloseTo(0.105452, 9);
    expect(env.latencyMs[0]).toBeCloseTo(38650.12, 2);
    expect(Array.from(env.calls.subarray(0, 2))).toEqual([2, 1]);
    const trace = env.traces?.[0] ?? [];
    expect(trace.map((t) => t.action)).toEqual(['call', 'call', 'submit', 'call', 'submit']);
    expect(trace[0]?.confidence).toBeCloseTo(sig(2), 6);
    expect(trace[1]?.confidence).toBeCloseTo(sig(3.5), 6);
    expect(trace[1]?.inTokens).toBe(3000);
    expect(trace[1]?.outTokens).toBe(824);
    expect(trace[1]?.latencyMs).toBeCloseTo(21350.12 + 1200, 2);
    expect(trace[0]?.cost).toBeCloseTo(0.031 + 0.0022, 9);
  });

  it('commits the highest-confidence attempt, even when a lower-confidence one was right', () => {
    // Turn 0 wrong but confident (u_conf high), turn 1 right but unsure (u_conf low).
    const d = scriptedDraws({
      [`0/${A}/0/${CH_SUCCESS}`]: 0.9, [`0/${A}/0/${CH_CONFIDENCE}`]: 0.999,
      [`0/${A}/1/${CH_SUCCESS}`]: 0.1, [`0/${A}/1/${CH_CONFIDENCE}`]: 0.001,
      [`1/${B}/0/${CH_SUCCESS}`]: 0.1,
    });
    const env = new BatchEnv(handCatalog(), SIM, 1, d, NO_LATENT);
    env.reset([handTask()], [0], { trace: true });
    for (const a of [A, A, SUBMIT, B, SUBMIT]) env.step([a]);
    expect(env.answered[0]).toBe(1);
    expect(env.outcome[0]).toBe(0);
    expect(env.traces?.[0]?.[2]?.committedCorrect).toBe(false);
  });

  it('solves a step submitted with no attempt with the driver’s own skill', () => {
    // p_self = σ(2·(0 − 1)) = σ(−2) ≈ 0.119: u = 0.05 solves it, u = 0.2 does not. Tool index 2 = the driver.
    for (const [u, want] of [[0.05, 1], [0.2, 0]] as const) {
      const env = new BatchEnv(handCatalog(), SIM, 1, scriptedDraws({ [`0/2/0/${CH_SUCCESS}`]: u, [`1/${B}/0/${CH_SUCCESS}`]: 0.1 }), NO_LATENT);
      env.reset([handTask()], [0]);
      for (const a of [SUBMIT, B, SUBMIT]) env.step([a]);
      expect(env.outcome[0]).toBe(want);
      // Driver turns read 2000, 2100, 2400 tokens (+ 200 for its 100 output tokens each) plus one beta call.
      expect(env.cost[0]).toBeCloseTo((2200 + 2300 + 2600) / 1e6 + 0.0103, 9);
    }
  });

  it('a tool result in the context lifts a model’s chance, and a step that needs a tool is out of reach without one', () => {
    // beta brings context 1.5 to reasoning steps (evidence only: it cannot answer them). Step 0 needs a tool.
    const cat = handCatalog();
    cat.tools[1]!.context = { reason: 1.5 };
    const task = handTask();
    task.steps[0]!.needsTool = true;
    // Without context alpha's chance is σ(0 − 10) ≈ 4.5e-5; after beta's evidence σ(0 + 1.5) ≈ 0.8176.
    const u = 0.5;
    const d = scriptedDraws({ [`0/${A}/0/${CH_SUCCESS}`]: u, [`1/${B}/0/${CH_SUCCESS}`]: 0.1 });
    const bare = new BatchEnv(cat, SIM, 1, d, NO_LATENT);
    bare.reset([task], [0]);
    expect(bare.callProbability(0, A)).toBeCloseTo(sig(-10), 12);
    for (const a of [A, SUBMIT, B, SUBMIT]) bare.step([a]);
    expect(bare.outcome[0]).toBe(0);
    const helped = new BatchEnv(cat, SIM, 1, d, NO_LATENT);
    helped.reset([task], [0], { trace: true });
    helped.step([B]);
    expect(helped.boost[0]).toBe(1.5);
    expect(helped.stepAttempts[0]).toBe(0); // evidence is not an answer
    expect(helped.callProbability(0, A)).toBeCloseTo(sig(1.5), 12);
    for (const a of [A, SUBMIT, B, SUBMIT]) helped.step([a]);
    expect(helped.outcome[0]).toBe(1);
    expect(helped.traces?.[0]?.[0]).toMatchObject({ action: 'call', tool: 'beta', evidence: true, boost: 1.5 });
  });

  it('a model that drives pays its own prices on every turn; without tools it answers in one generation', () => {
    // alpha drives with turnShare 0.5: routing turns write 250 tokens, answers 500, at 10 / 20 $/M, in 1000 + tokens/50 s.
    const cat = handCatalog();
    const driver = modelDriver(cat.tools[0]!, 0.5);
    expect(driver).toMatchObject({ turnTokens: 250, answerTokens: 500 });
    // Tool index 2 = the driver: u = 0.3 < 0.5 = alpha's σ(2·(1 − 1)) on step 0, where the orchestrator's own σ(2·(0 − 1)) ≈ 0.12 would fail.
    const env = new BatchEnv(cat, SIM, 1, scriptedDraws({ [`0/2/0/${CH_SUCCESS}`]: 0.3 }), NO_LATENT);
    env.reset([handTask()], [0], { driver: { ...driver, answersAtOnce: true } });
    env.step([SUBMIT]); // answers step 0 itself: reads 2000, writes 500 → (10·2000 + 20·500)/1e6 = 0.03; 1000 + 10 000 ms
    env.step([SUBMIT]); // step 1 comes in the same generation: no cost, no time
    expect(env.cost[0]).toBeCloseTo(0.03, 12);
    expect(env.latencyMs[0]).toBeCloseTo(11000, 9);
    // Its self-solve uses its own skill: right on step 0; no compute skill → wrong on step 1.
    expect(env.stepCorrect[0]).toBe(1);
    expect(env.stepCorrect[1]).toBe(0);
    expect(env.outcome[0]).toBe(0);
  });

  it('a calibrated tool states more confidence when it is right (the ± of the confidence logit)', () => {
    // beta has calibration (AUROC) 1 → clamped to 0.9999: k = 1.5·Φ⁻¹(0.9999)/√2 = 1.5·3.7190/√2 ≈ 3.9445.
    // Right with u_conf = 0.5: σ(2 + 3.9445) ≈ 0.99739; wrong: σ(2 − 3.9445) ≈ 0.12514.
    for (const [u, conf] of [[0.1, 1 / (1 + Math.exp(-5.9445))], [0.99, 1 / (1 + Math.exp(1.9445))]] as const) {
      const env = new BatchEnv(handCatalog(), SIM, 1, scriptedDraws({ [`0/2/0/${CH_SUCCESS}`]: 0.01, [`1/${B}/0/${CH_SUCCESS}`]: u }), NO_LATENT);
      env.reset([handTask()], [0], { trace: true });
      for (const a of [SUBMIT, B, SUBMIT]) env.step([a]);
      expect(env.traces?.[0]?.[1]?.confidence).toBeCloseTo(conf, 3);
    }
  });

  it('ends an episode without an answer at max turns (outcome 0)', () => {
    const env = new BatchEnv(handCatalog(), { ...SIM, maxTurns: 3 }, 1, scriptedDraws({}), NO_LATENT);
    env.reset([handTask()], [0]);
    env.step([A]);
    env.step([A]);
    expect(env.done[0]).toBe(0);
    env.step([A]);
    expect(env.done[0]).toBe(1);
    expect(env.answered[0]).toBe(0);
    expect(env.outcome[0]).toBe(0);
    expect(env.calls[0]).toBe(3);
  });

  it('masks unavailable tools, tools unable to do the step, and finished episodes', () => {
    const env = new BatchEnv(handCatalog(), SIM, 3, scriptedDraws({}), NO_LATENT);
    env.reset([handTask(), handTask({ available: ['beta'] })], [0, 1]);
    const mask = new Uint8Array(3 * env.nActions);
    env.writeMask(mask);
    // Slot 0, reason step: alpha yes, beta cannot reason, submit yes. Slot 1: alpha unavailable. Slot 2: unused.
    expect(Array.from(mask)).toEqual([1, 0, 1, 0, 0, 1, 0, 0, 0]);
    expect(() => env.step([B, SUBMIT])).toThrow(/not allowed/);
  });

  it('advances many episodes in lockstep with the same results as one at a time', () => {
    const env1 = new BatchEnv(handCatalog(), SIM, 1, draws, NO_LATENT);
    env1.reset([handTask()], [0]);
    for (const a of [A, A, SUBMIT, B, SUBMIT]) env1.step([a]);
    const env = new BatchEnv(handCatalog(), SIM, 4, draws, NO_LATENT);
    env.reset([handTask(), handTask(), handTask(), handTask()], [0, 0, 0, 0]);
    // Slot 3 takes a different route (submit first) and finishes later.
    const script = [[A, A, A, SUBMIT], [A, A, A, B], [SUBMIT, SUBMIT, SUBMIT, SUBMIT], [B, B, B, SUBMIT], [SUBMIT, SUBMIT, SUBMIT, SUBMIT]];
    for (const row of script) env.step(row);
    for (let i = 0; i < 3; i++) {
      expect(env.cost[i]).toBeCloseTo(env1.cost[0] ?? NaN, 12);
      expect(env.latencyMs[i]).toBeCloseTo(env1.latencyMs[0] ?? NaN, 9);
    }
    expect(env.done[3]).toBe(1);
  });
});

describe('BatchEnv.reset with a group of rollouts of one task', () => {
  it('gives every slot the same draws whether the slots hold one task object or separate copies of it', async () => {
    const { presetCatalog } = await import('../src/core/sim/presets');
    const { generateTasks } = await import('../src/core/sim/tasks');
    const { baselineFromName } = await import('../src/core/eval/baselines');
    const { runEpisodes } = await import('../src/core/eval/policy');
    const catalog = presetCatalog('toolorchestra');
    const pool = generateTasks(catalog, { seed: 12, count: 40, availability: 0.75 }).tasks;
    // 40 tasks × 4 rollouts: adjacent slots share the task object (as the trainer's groups do), or hold deep copies.
    const shared = pool.flatMap((t) => [t, t, t, t]);
    const copies = shared.map((t) => structuredClone(t));
    const keys = shared.map((_, i) => i * 7919 + 3);
    const run = async (tasks: typeof shared) => {
      const env = new BatchEnv(catalog, DEFAULT_SIM, tasks.length);
      await runEpisodes(env, baselineFromName('cascade:0.7', catalog, DEFAULT_SIM), tasks, keys);
      return env;
    };
    // Right after reset, every task row is the same: what features.ts and the success draws read.
    const fresh = (tasks: typeof shared) => { const env = new BatchEnv(catalog, DEFAULT_SIM, tasks.length); env.reset(tasks, keys); return env; };
    const [r1, r2] = [fresh(shared), fresh(copies)];
    for (const k of ['stepType', 'difficulty', 'hint', 'needsTool', 'logitSelf', 'logitTool', 'available', 'nSteps', 'domain'] as const) {
      expect(Array.from(r1[k]).map(String), k).toEqual(Array.from(r2[k]).map(String)); // String: NaN equals NaN
    }
    const [a, b] = [await run(shared), await run(copies)];
    expect(Array.from(a.outcome)).toEqual(Array.from(b.outcome));
    expect(Array.from(a.cost)).toEqual(Array.from(b.cost));
    expect(Array.from(a.calls)).toEqual(Array.from(b.calls));
    expect(Array.from(a.available)).toEqual(Array.from(b.available));
    // The shared-object path must still see each task's own steps: the group of task 1 differs from that of task 0.
    expect(a.outcome.slice(0, 4).join() + a.cost[0]).not.toBe(a.outcome.slice(4, 8).join() + a.cost[4]);
  });
});
