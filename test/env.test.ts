import { describe, expect, it } from 'vitest';
import { BatchEnv, CH_CONFIDENCE, CH_LATENCY, CH_SUCCESS, CH_TOKENS } from '../src/core/sim/env';
import type { SimConfig } from '../src/core/sim/callModel';
import { handCatalog, handTask, scriptedDraws, U_Z1 } from './helpers';

const SIM: SimConfig = { discrimination: 2, maxTurns: 6, contextTokensPerTurn: 1000 };
const A = 0, B = 1, SUBMIT = 2;

describe('BatchEnv, a two-step task worked by hand', () => {
  // Step 0 (reason, d = 1): alpha has p = σ(2·(1 − 1)) = 0.5. Step 1 (compute, d = 1): beta has p = σ(4) ≈ 0.982.
  // Turn 0: alpha, u = 0.7 ≥ 0.5 → wrong; confidence σ(−3·0.5 + 0) = σ(−1.5) ≈ 0.1824;
  //         500 tokens; latency 1000 + 1000·500/50 = 11 000 ms; cost (10·2000 + 20·500)/1e6 + 0.001 = 0.031.
  // Turn 1: alpha again, u = 0.2 → right; confidence σ(1.5) ≈ 0.8176; tokens round(500·e^0.5) = 824;
  //         latency (1000 + 16 480)·e^0.2 = 21 350.120 ms; cost (10·3000 + 20·824)/1e6 + 0.001 = 0.04748.
  // Turn 2: submit → the highest-confidence attempt (turn 1) is committed: right.
  // Turn 3: beta, u = 0.3 → right; 200 tokens; 300 ms; cost 0.01 + 0.001·0.3 = 0.0103.
  // Turn 4: submit → step 1 right → outcome 1.
  // Orchestrator, 5 turns at contexts 2000…6000: Σ (ctx + 2·100)/1e6 = 21 000/1e6 = 0.021; 5 × (200 + 1000) ms = 6000 ms.
  // Total cost 0.031 + 0.04748 + 0.0103 + 0.021 = 0.10978; latency 11 000 + 21 350.120 + 300 + 6000 = 38 650.120 ms.
  const draws = scriptedDraws({
    [`0/${A}/0/${CH_SUCCESS}`]: 0.7,
    [`0/${A}/1/${CH_SUCCESS}`]: 0.2,
    [`0/${A}/1/${CH_TOKENS}`]: U_Z1,
    [`0/${A}/1/${CH_LATENCY}`]: U_Z1,
    [`1/${B}/0/${CH_SUCCESS}`]: 0.3,
  });

  it('agrees with the hand computation to the cent and the millisecond', () => {
    const env = new BatchEnv(handCatalog(), SIM, 1, draws);
    env.reset([handTask()], [0], { trace: true });
    for (const a of [A, A, SUBMIT, B, SUBMIT]) env.step([a]);
    expect(env.done[0]).toBe(1);
    expect(env.answered[0]).toBe(1);
    expect(env.outcome[0]).toBe(1);
    expect(env.turn[0]).toBe(5);
    expect(env.cost[0]).toBeCloseTo(0.10978, 9);
    expect(env.latencyMs[0]).toBeCloseTo(38650.12, 2);
    expect(Array.from(env.calls.subarray(0, 2))).toEqual([2, 1]);
    const trace = env.traces?.[0] ?? [];
    expect(trace.map((t) => t.action)).toEqual(['call', 'call', 'submit', 'call', 'submit']);
    expect(trace[0]?.confidence).toBeCloseTo(1 / (1 + Math.exp(1.5)), 6);
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
    const env = new BatchEnv(handCatalog(), SIM, 1, d);
    env.reset([handTask()], [0], { trace: true });
    for (const a of [A, A, SUBMIT, B, SUBMIT]) env.step([a]);
    expect(env.answered[0]).toBe(1);
    expect(env.outcome[0]).toBe(0);
    expect(env.traces?.[0]?.[2]?.committedCorrect).toBe(false);
  });

  it('solves a step submitted with no attempt with the orchestrator’s own skill', () => {
    // p_self = σ(2·(0 − 1)) = σ(−2) ≈ 0.119: u = 0.05 solves it, u = 0.2 does not. Tool index 2 = the orchestrator.
    for (const [u, want] of [[0.05, 1], [0.2, 0]] as const) {
      const env = new BatchEnv(handCatalog(), SIM, 1, scriptedDraws({ [`0/2/0/${CH_SUCCESS}`]: u, [`1/${B}/0/${CH_SUCCESS}`]: 0.1 }));
      env.reset([handTask()], [0]);
      for (const a of [SUBMIT, B, SUBMIT]) env.step([a]);
      expect(env.outcome[0]).toBe(want);
      // Three orchestrator turns at 2000, 3000, 4000 tokens plus one beta call: (2200 + 3200 + 4200)/1e6 + 0.0103.
      expect(env.cost[0]).toBeCloseTo(0.0096 + 0.0103, 9);
    }
  });

  it('ends an episode without an answer at max turns (outcome 0)', () => {
    const env = new BatchEnv(handCatalog(), { ...SIM, maxTurns: 3 }, 1, scriptedDraws({}));
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
    const env = new BatchEnv(handCatalog(), SIM, 3, scriptedDraws({}));
    env.reset([handTask(), handTask({ available: ['beta'] })], [0, 1]);
    const mask = new Uint8Array(3 * env.nActions);
    env.writeMask(mask);
    // Slot 0, reason step: alpha yes, beta cannot reason, submit yes. Slot 1: alpha unavailable. Slot 2: unused.
    expect(Array.from(mask)).toEqual([1, 0, 1, 0, 0, 1, 0, 0, 0]);
    expect(() => env.step([B, SUBMIT])).toThrow(/not allowed/);
  });

  it('advances many episodes in lockstep with the same results as one at a time', () => {
    const env1 = new BatchEnv(handCatalog(), SIM, 1, draws);
    env1.reset([handTask()], [0]);
    for (const a of [A, A, SUBMIT, B, SUBMIT]) env1.step([a]);
    const env = new BatchEnv(handCatalog(), SIM, 4, draws);
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
