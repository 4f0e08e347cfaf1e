import { describe, expect, it } from 'vitest';
import { BatchEnv } from '../src/core/sim/env';
import { CH_HIT, CH_LATENCY, CH_SUCCESS, CH_TOKENS, CH_WRITE, MAX_STEPS } from '../src/core/sim/episode';
import { DEFAULT_SIM, latentKey, writerKey, type SimConfig } from '../src/core/sim/callModel';
import { modelDriver, type Catalog } from '../src/core/sim/catalog';
import { hashString } from '../src/core/sim/rng';
import { slotsOf } from '../src/core/sim/slots';
import type { Task } from '../src/core/sim/tasks';
import { drawsOf, handCatalog, handTask, NO_LATENT, outcomeDraws, scriptedDraws, sig, U_YES, U_Z1, who } from './helpers';

// a = 2, write ease 1 (d_write = d − 1), the k-th find lifts by lift·0.5^(k−1), a step that needs a tool
// and has no find loses 10 logits; a call's brief is the prompt + 1000 tokens per turn so far.
const SIM: SimConfig = { ...DEFAULT_SIM, discrimination: 2, maxTurns: 6, contextTokensPerTurn: 1000, needsToolPenalty: 10, writeEase: 1, writerTokenShare: 0.4, evidenceDecay: 0.5 };
// The hand catalog's slots (helpers.ts), in slotsOf's order.
const CODE_SELF_BETA = 0, SEARCH_ALPHA = 1, SEARCH_SELF = 2, ANSWER_ALPHA = 3, SUBMIT = 4;

const envOf = (draws = scriptedDraws({}), cat: Catalog = handCatalog(), sim: SimConfig = SIM, capacity = 1) => new BatchEnv(cat, sim, capacity, draws, NO_LATENT);
const maskOf = (env: BatchEnv): number[][] => {
  const m = new Uint8Array(env.capacity * env.nActions);
  env.writeMask(m);
  return Array.from({ length: env.capacity }, (_, i) => Array.from(m.subarray(i * env.nActions, (i + 1) * env.nActions)));
};

describe('draw keys', () => {
  it('hash ids with 32-bit FNV-1a (a tool’s draws follow its id, not its position)', () => {
    // FNV-1a by hand: h = 0x811c9dc5; h = (h ^ byte)·0x01000193 mod 2³² per byte. "a" → 0xe40c292c, "" → the offset basis.
    expect(hashString('')).toBe(0x811c9dc5);
    expect(hashString('a')).toBe(0xe40c292c);
    expect(latentKey('alpha')).toBe(hashString('alpha'));
    expect(writerKey('alpha', 'query')).toBe(hashString('alpha#query'));
  });

  it('the hand catalog has the slots a model × tool pairing gives, in a fixed order', () => {
    const env = envOf();
    expect(env.slots.map((s) => s.id)).toEqual(['code:self@beta', 'search:alpha@gamma', 'search:self@gamma', 'answer:alpha']);
    expect([env.nSlots, env.nActions, env.submitAction]).toEqual([4, 5, SUBMIT]);
    expect(slotsOf(handCatalog()).map((s) => [s.role, s.model, s.tool])).toEqual([['code', -1, 1], ['search', 0, 2], ['search', -1, 2], ['answer', 0, -1]]);
  });
});

describe('BatchEnv, a one-unit task worked by hand (latents at 0)', () => {
  // handTask: step 0 reason (d = 1), step 1 compute (d = 1), one final answer; prompt 2000 tokens.
  // The orchestrator drives: each turn reads the whole context at 1 $/M and writes 100 tokens at 2 $/M in 200 + 1000·100/100 = 1200 ms.
  // Turn 0 search:alpha@gamma — target: gamma reaches step 0 only (no compute skill), lift 1.5.
  //   Driver reads 2000: (2000 + 2·100)/1e6 = 0.0022; context 2100.
  //   alpha writes the query: brief 2000 + 0·1000 = 2000 in; out round(500·0.4) = 200 median, u = U_Z1 → round(200·e^0.5) = 330;
  //   latency (1000 + 1000·330/50)·e^0 = 7600 ms; cost (10·2000 + 20·330)/1e6 + 0.001 = 0.0276. Its tokens do not join the context.
  //   gamma runs it: 100 tokens, 500 ms, $0.002; context 2200.
  //   Write chance σ(2·(1 − (1 − 1))) = σ(2) ≈ 0.881 > u 0.3; find chance σ(2·(1 − 1)) = 0.5 > u 0.4: a find, evidence[0] = 1.5.
  //   Turn: 0.0022 + 0.0276 + 0.002 = 0.0318; 1200 + 7600 + 500 = 9300 ms; tokens 2000 + 330 + 100 = 2430.
  // Turn 1 code:self@beta — target step 1 (compute), lift 2. Driver reads 2200: 0.0024; context 2300. It writes the program itself:
  //   σ(2·(1 − 0)) = σ(2) > 0.5 (u); beta finds: σ(2·(3 − 1)) = σ(4) > 0.5: evidence[1] = 2. beta: 200 tokens, 300 ms,
  //   0.01 + 0.001·0.3 = 0.0103; context 2500. Turn: 0.0127, 1500 ms.
  // Turn 2 code:self@beta again (attempt 1): driver reads 2500: 0.0027; a second find lifts 2·0.5 = 1: evidence[1] = 3. Turn 0.013, 1500 ms; context 2800.
  // Turn 3 answer:alpha — driver reads 2800: 0.003, 1200 ms; context 2900. alpha reads 2900; u_tokens = U_Z1 → round(500·e^0.5) = 824;
  //   latency (1000 + 1000·824/50)·e^0.2 = 17 480·1.221403 = 21 350.120 ms; cost (10·2900 + 20·824)/1e6 + 0.001 = 0.04648.
  //   Step 0: σ(2·(1 − 1) + 1.5) = σ(1.5) ≈ 0.818 > u 0.7 → right (with no find σ(0) = 0.5 would miss).
  //   Step 1: σ(2·(0 − 1) + 3) = σ(1) ≈ 0.731 > u 0.6 → right (with one find σ(0) = 0.5 would miss). Outcome 1.
  // Total cost 0.0318 + 0.0127 + 0.013 + 0.04948 = 0.10698; latency 9300 + 1500 + 1500 + 1200 + 21 350.120 = 34 850.120 ms;
  // tokens 2430 + 200 + 200 + 2900 + 824 = 6554; calls alpha 2 (a writer and an answerer), beta 2, gamma 1.
  const draws = drawsOf([
    [0, who.slot('search:alpha@gamma'), 0, CH_WRITE, 0.3],
    [0, who.slot('search:alpha@gamma'), 0, CH_HIT, 0.4],
    [0, who.writer('alpha', 'query'), 0, CH_TOKENS, U_Z1],
    [0, who.model('alpha'), 0, CH_TOKENS, U_Z1],
    [0, who.model('alpha'), 0, CH_LATENCY, U_Z1],
    [0, who.model('alpha'), 0, CH_SUCCESS, 0.7],
    [1, who.model('alpha'), 0, CH_SUCCESS, 0.6],
  ]);
  const PATH = [SEARCH_ALPHA, CODE_SELF_BETA, CODE_SELF_BETA, ANSWER_ALPHA];

  it('agrees with the hand computation to the cent, the token and the millisecond', () => {
    const env = envOf(draws);
    env.reset([handTask()], [0], { trace: true });
    for (const a of PATH) env.step([a]);
    expect([env.done[0], env.answered[0], env.outcome[0], env.turn[0]]).toEqual([1, 1, 1, 4]);
    expect(env.cost[0]).toBeCloseTo(0.10698, 12);
    expect(env.latencyMs[0]).toBeCloseTo(34850.1202126, 6);
    expect(env.tokens[0]).toBe(6554);
    expect(Array.from(env.calls.subarray(0, 3))).toEqual([2, 2, 1]);
    expect(env.evidence[0]).toBe(1.5);
    expect(env.evidence[1]).toBe(3);
    expect(Array.from(env.stepCorrect.subarray(0, 2))).toEqual([1, 1]);
    const tr = env.traces?.[0] ?? [];
    expect(tr.map((e) => [e.action, e.slot, e.model, e.tool, e.step])).toEqual([
      ['search', 'search:alpha@gamma', 'alpha', 'gamma', 0],
      ['code', 'code:self@beta', 'orc', 'beta', 1],
      ['code', 'code:self@beta', 'orc', 'beta', 1],
      ['answer', 'answer:alpha', 'alpha', undefined, 0],
    ]);
    expect(tr[0]).toMatchObject({ inTokens: 2000, outTokens: 100, success: true, evidence: 1.5 });
    expect(tr[0]?.cost).toBeCloseTo(0.0318, 12);
    expect(tr[0]?.latencyMs).toBeCloseTo(9300, 9);
    // gamma's AUROC 0.5: no separation, the signal is σ(2 + 1.5·Φ⁻¹(0.5)) = σ(2) whatever the result.
    expect(tr[0]?.signal).toBeCloseTo(sig(2), 12);
    // beta's AUROC 1 is clamped to 0.9999: k = 1.5·Φ⁻¹(0.9999)/√2 = 1.5·3.719016/√2 = 3.944613; a find shows σ(2 + k).
    expect(tr[1]?.signal).toBeCloseTo(sig(5.944613), 5);
    expect(tr[1]).toMatchObject({ inTokens: 0, outTokens: 200, success: true, evidence: 2 });
    expect(tr[1]?.cost).toBeCloseTo(0.0127, 12);
    expect(tr[2]?.evidence).toBe(3);
    expect(tr[2]?.cost).toBeCloseTo(0.013, 12);
    expect(tr[3]).toMatchObject({ inTokens: 2900, outTokens: 824, committedCorrect: true, stepsRight: [true, true], missingEvidence: false });
    expect(tr[3]?.cost).toBeCloseTo(0.04948, 12);
    expect(tr[3]?.latencyMs).toBeCloseTo(1200 + 21350.1202126, 6);
  });

  it('without the evidence the same draws miss: an answer straight away is wrong on both steps', () => {
    const env = envOf(draws);
    env.reset([handTask()], [0], { trace: true });
    env.step([ANSWER_ALPHA]);
    // Step 0: σ(0) = 0.5 < 0.7; step 1: σ(−2) ≈ 0.119 < 0.6. Cost: driver 0.0022; alpha reads 2100: (21 000 + 16 480)/1e6 + 0.001 = 0.03848.
    expect(env.traces?.[0]?.[0]).toMatchObject({ committedCorrect: false, stepsRight: [false, false], missingEvidence: false, inTokens: 2100 });
    expect(env.outcome[0]).toBe(0);
    expect(env.cost[0]).toBeCloseTo(0.0022 + 0.03848, 12);
    expect(env.turn[0]).toBe(1);
  });

  it('a failed write or a miss of the tool is no find, and still costs the call', () => {
    // Write u 0.9 > σ(2) ≈ 0.881 (bad query); hit u 0.6 > 0.5 (nothing found): each alone fails the call.
    for (const [w, h] of [[0.9, 0.1], [0.1, 0.6]] as const) {
      const env = envOf(drawsOf([[0, who.slot('search:alpha@gamma'), 0, CH_WRITE, w], [0, who.slot('search:alpha@gamma'), 0, CH_HIT, h]]));
      env.reset([handTask()], [0], { trace: true });
      env.step([SEARCH_ALPHA]);
      expect(env.traces?.[0]?.[0]).toMatchObject({ success: false, evidence: 0 });
      expect(env.hits[0]).toBe(0);
      expect(env.unitCalls[0]).toBe(1);
      // Writer (10·2000 + 20·200)/1e6 + 0.001 = 0.025 at the median 200 tokens, + 0.0022 + 0.002.
      expect(env.cost[0]).toBeCloseTo(0.0292, 12);
      expect(Array.from(env.calls.subarray(0, 3))).toEqual([1, 0, 1]);
    }
  });

  it('submit: the driver answers the unit itself with its own skill and latent key', () => {
    // orc's skill 0 on both types: σ(2·(0 − 1)) = σ(−2) ≈ 0.119 per step. Its turn reads 2000, writes 100: 0.0022, 1200 ms.
    for (const [u1, want] of [[0.1, 1], [0.2, 0]] as const) {
      const env = envOf(drawsOf([[0, who.model('orc'), 0, CH_SUCCESS, 0.1], [1, who.model('orc'), 0, CH_SUCCESS, u1]]));
      env.reset([handTask()], [0], { trace: true });
      env.step([SUBMIT]);
      expect(env.outcome[0]).toBe(want);
      expect(env.cost[0]).toBeCloseTo(0.0022, 12);
      expect(env.latencyMs[0]).toBeCloseTo(1200, 9);
      expect(Array.from(env.calls.subarray(0, 3))).toEqual([0, 0, 0]);
      expect(env.traces?.[0]?.[0]).toMatchObject({ action: 'submit', model: 'orc', inTokens: 2000, stepsRight: [true, want === 1] });
      expect(env.traces?.[0]?.[0]?.slot).toBeUndefined();
    }
  });

  it('a step that needs a tool is out of reach until a find for it, and is flagged when committed without one', () => {
    const task = handTask();
    task.steps[1]!.needsTool = true;
    const d = drawsOf([[0, who.model('alpha'), 0, CH_SUCCESS, 0.001], [1, who.model('alpha'), 0, CH_SUCCESS, 0.001]]);
    // No find: step 1 is σ(−2 − 10) = σ(−12) ≈ 6.1e-6 < 0.001 → wrong, and missing evidence.
    const bare = envOf(d);
    bare.reset([task], [0], { trace: true });
    bare.step([ANSWER_ALPHA]);
    expect(bare.traces?.[0]?.[0]).toMatchObject({ stepsRight: [true, false], missingEvidence: true });
    // One find by beta (u 0.5 < σ(2) and < σ(4)): σ(−2 + 2) = 0.5 > 0.001 → right.
    const helped = envOf(d);
    helped.reset([task], [0], { trace: true });
    helped.step([CODE_SELF_BETA]);
    helped.step([ANSWER_ALPHA]);
    expect(helped.traces?.[0]?.[1]).toMatchObject({ stepsRight: [true, true], missingEvidence: false });
    expect(helped.outcome[0]).toBe(1);
  });

  it('a model that drives pays its own prices, writes its own queries, and without tools answers in one generation', () => {
    const cat = handCatalog();
    // alpha as the driver: writing turns round(500·0.5) = 250 tokens, delegating turns round(500·0.25) = 125, answers 500.
    const driver = modelDriver(cat.tools[0]!, 0.5, 0.25);
    expect(driver).toMatchObject({ id: 'alpha', turnTokens: 250, delegateTokens: 125, answerTokens: 500, writes: { query: 1 } });
    const env = envOf(drawsOf([[0, who.slot('search:self@gamma'), 0, CH_WRITE, 0.5], [0, who.slot('search:self@gamma'), 0, CH_HIT, 0.4], [0, who.model('alpha'), 0, CH_SUCCESS, 0.8], [1, who.model('alpha'), 0, CH_SUCCESS, 0.1]]), cat);
    env.reset([handTask()], [0], { driver, trace: true });
    // It writes queries (search:self@gamma open) but no programs (code:self@beta masked); the orchestrator is not driving.
    expect(maskOf(env)[0]).toEqual([0, 1, 1, 1, 1]);
    // search:self@gamma: its turn reads 2000, writes 250: (10·2000 + 20·250)/1e6 = 0.025, 1000 + 5000 ms; gamma $0.002, 500 ms.
    // Its write chance σ(2·(1 − 0)) = σ(2) > 0.5; gamma finds (0.4 < 0.5): evidence 1.5.
    env.step([SEARCH_SELF]);
    expect(env.cost[0]).toBeCloseTo(0.027, 12);
    expect(env.latencyMs[0]).toBeCloseTo(6500, 9);
    expect(env.traces?.[0]?.[0]).toMatchObject({ model: 'alpha', success: true, evidence: 1.5 });
    expect(Array.from(env.calls.subarray(0, 3))).toEqual([0, 0, 1]); // its own writing is no call of the alpha resource
    // Submit: reads 2000 + 250 + 100 = 2350, writes 500: (23 500 + 10 000)/1e6 = 0.0335, 1000 + 10 000 ms.
    // Its own skill and latent: step 0 σ(0 + 1.5) ≈ 0.818 > 0.8 → right; step 1 σ(2·(0 − 1)) ≈ 0.119 > 0.1 → right.
    env.step([SUBMIT]);
    expect(env.cost[0]).toBeCloseTo(0.027 + 0.0335, 12);
    expect(env.latencyMs[0]).toBeCloseTo(6500 + 11000, 9);
    expect(env.outcome[0]).toBe(1);

    // Without tools, on a record-by-record task (two units): the first submit costs a whole answer, the second comes in the same generation.
    const once = envOf(drawsOf([[0, who.model('alpha'), 0, CH_SUCCESS, 0.3]]), cat);
    once.reset([handTask({ commits: 'step' })], [0], { driver: { ...driver, answersAtOnce: true } });
    once.step([SUBMIT]); // reads 2000, writes 500: (20 000 + 10 000)/1e6 = 0.03; 1000 + 10 000 ms
    once.step([SUBMIT]);
    expect(once.cost[0]).toBeCloseTo(0.03, 12);
    expect(once.latencyMs[0]).toBeCloseTo(11000, 9);
    // Step 0: σ(0) = 0.5 > 0.3 → right; step 1: σ(−2) ≈ 0.119 < 0.5 (u) → wrong.
    expect(Array.from(once.stepCorrect.subarray(0, 2))).toEqual([1, 0]);
    expect(once.outcome[0]).toBe(0);
  });
});

describe('units, turn budgets and the end-of-budget rule', () => {
  it('a record-by-record task commits one step per unit, and evidence goes to the current unit only', () => {
    const env = envOf(scriptedDraws({}, U_YES));
    env.reset([handTask({ commits: 'step' })], [0], { trace: true });
    expect([env.nUnits[0], ...env.unitRange(0)]).toEqual([2, 0, 1]);
    // Unit 0 is the reason step: beta reaches no step of it (code masked); gamma does.
    expect(maskOf(env)[0]).toEqual([0, 1, 0, 1, 1]);
    expect(env.target(0, CODE_SELF_BETA)).toBe(-1);
    env.step([SEARCH_ALPHA]);
    env.step([ANSWER_ALPHA]); // commits step 0 only
    expect([env.unitIdx[0], ...env.unitRange(0)]).toEqual([1, 1, 1]);
    expect(env.done[0]).toBe(0);
    // Unit 1 is the compute step: gamma reaches no step of it now; beta does.
    expect(maskOf(env)[0]).toEqual([1, 0, 0, 1, 1]);
    expect(env.slotCalls[SEARCH_ALPHA]).toBe(0); // the unit's per-slot counts start again
    env.step([SUBMIT]);
    expect([env.answered[0], env.outcome[0], env.turn[0]]).toEqual([1, 1, 3]);
    expect(env.traces?.[0]?.map((e) => [e.action, e.unit, e.step])).toEqual([['search', 0, 0], ['answer', 0, 0], ['submit', 1, 1]]);
  });

  it('evidence is masked once the turns left only cover the commits still owed (the task’s own budget)', () => {
    // Budget 3 (the task's; the world's is 6), two units. Turn 0: 3 left > 2 owed → evidence open.
    const env = envOf(scriptedDraws({}, U_YES));
    env.reset([handTask({ commits: 'step', maxTurns: 3 })], [0]);
    expect(env.budget[0]).toBe(3);
    expect(maskOf(env)[0]).toEqual([0, 1, 0, 1, 1]);
    env.step([SEARCH_ALPHA]);
    // Turn 1: 2 left ≤ 2 owed → only commits.
    expect(maskOf(env)[0]).toEqual([0, 0, 0, 1, 1]);
    expect(() => env.step([SEARCH_ALPHA])).toThrow(/not allowed/);
    env.step([ANSWER_ALPHA]);
    // Turn 2: 1 left ≤ 1 owed: beta would reach unit 1's step, but only commits are open.
    expect(env.target(0, CODE_SELF_BETA)).toBe(1);
    expect(maskOf(env)[0]).toEqual([0, 0, 0, 1, 1]);
    env.step([SUBMIT]);
    expect([env.done[0], env.answered[0], env.outcome[0], env.turn[0]]).toEqual([1, 1, 1, 3]);
  });

  it('a budget below the units runs out of turns before the last commit (outcome 0 even with every step right)', () => {
    const env = envOf(scriptedDraws({}, U_YES));
    env.reset([handTask({ commits: 'step', maxTurns: 1 })], [0]);
    expect(maskOf(env)[0]).toEqual([0, 0, 0, 1, 1]); // 1 left ≤ 2 owed
    env.step([ANSWER_ALPHA]);
    expect([env.done[0], env.answered[0], env.outcome[0], env.turn[0], env.stepCorrect[0]]).toEqual([1, 0, 0, 1, 1]);
    // A budget of 0 is over at reset; the world's maxTurns applies when the task has none.
    const zero = envOf(scriptedDraws({}), handCatalog(), SIM, 2);
    zero.reset([handTask({ maxTurns: 0 }), handTask()], [0, 0]);
    expect([zero.done[0], zero.done[1], zero.budget[1]]).toEqual([1, 0, 6]);
  });

  it('a one-unit task keeps its last turn for the answer: at most budget − 1 evidence calls', () => {
    const env = envOf(scriptedDraws({}, U_YES), handCatalog(), { ...SIM, maxTurns: 4 });
    env.reset([handTask()], [0]);
    for (let t = 0; t < 3; t++) { expect(env.allowed(0, CODE_SELF_BETA), `turn ${t}`).toBe(true); env.step([CODE_SELF_BETA]); }
    expect(maskOf(env)[0]).toEqual([0, 0, 0, 1, 1]);
    env.step([SUBMIT]);
    expect([env.answered[0], env.turn[0]]).toEqual([1, 4]);
  });
});

describe('masking', () => {
  it('masks unavailable tools and models, tools that reach no step of the unit, self slots of a driver that does not write, and finished or unused episodes', () => {
    const env = envOf(scriptedDraws({}), handCatalog(), SIM, 5);
    const reasonOnly = handTask({ steps: [handTask().steps[0]!] });
    env.reset([handTask(), handTask({ available: ['beta'] }), reasonOnly, handTask({ available: ['gamma'] })], [0, 1, 2, 3]);
    expect(maskOf(env)).toEqual([
      // code:self@beta (orc writes programs), search:alpha@gamma, search:self@gamma (orc writes no queries), answer:alpha, submit
      [1, 1, 0, 1, 1],
      [1, 0, 0, 0, 1], // gamma and alpha unavailable
      [0, 1, 0, 1, 1], // beta reaches no step of a reason-only unit
      [0, 0, 0, 0, 1], // only gamma: its writer alpha is unavailable and orc does not write queries
      [0, 0, 0, 0, 0], // unused
    ]);
    expect(() => env.step([SEARCH_SELF, SUBMIT, SUBMIT, SUBMIT])).toThrow(/not allowed/);
    env.step([SUBMIT, SUBMIT, SUBMIT, SUBMIT]);
    expect(maskOf(env).every((row) => row.every((x) => x === 0))).toBe(true);
  });

  it('a disabled model’s slots stay in place and are masked; so is an answerer that cannot answer a step of the unit', () => {
    const cat = handCatalog();
    cat.tools[0]!.enabled = false;
    const env = envOf(scriptedDraws({}), cat);
    expect(env.nSlots).toBe(4);
    env.reset([handTask()], [0]);
    expect(maskOf(env)[0]).toEqual([1, 0, 0, 0, 1]);
    // alpha cannot answer retrieve: its answer slot is closed on a unit with a retrieve step.
    const on = envOf();
    on.reset([handTask({ steps: [{ ...handTask().steps[0]!, type: 'retrieve' }] })], [0]);
    expect(maskOf(on)[0]).toEqual([0, 1, 0, 0, 1]);
  });

  it('a driver without writing abilities opens no self slot; an offline tool may be asked about a fresh fact, and finds nothing', () => {
    const cat = handCatalog();
    delete cat.orchestrator.writes;
    cat.tools[2]!.offline = ['retrieve'];
    const env = envOf(scriptedDraws({}, U_YES), cat, SIM, 2);
    const retrieve = (needsTool: boolean): Task => handTask({ steps: [{ ...handTask().steps[0]!, type: 'retrieve', needsTool }] });
    env.reset([handTask(), retrieve(true)], [0, 0]);
    // Whether the fact is fresh is the world's secret: the search is open on both (alpha answers no retrieve step).
    expect(maskOf(env)).toEqual([[0, 1, 0, 1, 1], [0, 1, 0, 0, 1]]);
    expect(env.target(1, SEARCH_ALPHA)).toBe(0);
    env.step([SUBMIT, SEARCH_ALPHA]);
    expect(env.hits[MAX_STEPS]).toBe(0); // every draw a sure success, and still nothing: the index is offline
    env.reset([retrieve(false)], [0]);
    env.step([SEARCH_ALPHA]);
    expect(env.hits[0]).toBe(1); // an encyclopaedic fact is in the offline index
  });
});

describe('the target of an evidence call', () => {
  it('what it believes least found first, then the step likeliest to need a tool, then the largest lift, then the earliest', () => {
    // Four steps gamma reaches: 0 reason (lift 1.5), 1 retrieve (4), 2 reason (1.5), 3 retrieve (4).
    const s0 = handTask().steps[0]!;
    const task = handTask({ steps: [s0, { ...s0, type: 'retrieve' }, s0, { ...s0, type: 'retrieve' }] });
    const env = envOf(scriptedDraws({}, U_YES), handCatalog(), { ...SIM, maxTurns: 8 });
    env.reset([task], [0]);
    env.needsPrior.set([0, 0, 0.5, 0]); // step 2 is of a kind that needs a tool half the time
    const targets: number[] = [];
    const believe = (k: number, finds: number) => { env.beliefFinds[k] = finds; targets.push(env.target(0, SEARCH_ALPHA)); };
    targets.push(env.target(0, SEARCH_ALPHA)); // 2: the likeliest to need a tool
    believe(2, 1); // 1: the largest lift, the earlier of 1 and 3
    believe(1, 0.2); // 3: step 1 counts as a quarter find (finds in quarters: round(4·0.2) = 1 > 0)
    believe(3, 1); // 0: none believed at step 0
    believe(0, 1); // 1: a quarter against whole finds
    expect(targets).toEqual([2, 1, 3, 0, 1]);
  });

  it('a call\'s signal updates the belief by Bayes: an uninformative one by its prior p̂, a sharp one to what happened', () => {
    const env = envOf(outcomeDraws(U_YES), handCatalog(), { ...SIM, maxTurns: 8 }); // every call finds; signals at their median
    env.reset([handTask()], [0]);
    // Prior that alpha writes a good query for step 0 (hint 1) and gamma finds it, by expectedSigmoid σ(x/√(1 + πs²/8)),
    // from alpha's described query writing w (its descriptor, not its skill): writer x = a·(w − (1 − ease)), s_w = 2.5;
    // gamma (a basic tool, described as it is) x = a·(1 − 1) = 0 → ½.
    const w = env.describedWrites[0] as number;
    expect(w).not.toBe(1); // a description, not the skill
    const es = (x: number, s: number) => sig(x / Math.sqrt(1 + (Math.PI * s * s) / 8));
    const prior = es(SIM.discrimination * (w - (1 - SIM.writeEase)), SIM.writerSpread) * es(0, SIM.basicSpread);
    env.step([SEARCH_ALPHA]); // gamma's AUROC is 0.5: its signal says nothing
    expect(env.beliefFinds[0]).toBeCloseTo(prior, 6);
    expect(env.beliefEvidence[0]).toBeCloseTo(prior * 1.5, 6);
    expect(env.noFind[0]).toBeCloseTo(1 - prior, 6);
    env.step([CODE_SELF_BETA]); // beta's AUROC is 1: a find it reports is a find
    expect(env.beliefFinds[1]).toBeGreaterThan(0.999);
    expect(env.hits[1]).toBe(1);
  });

  it('the k-th find lifts by lift·decay^(k−1), counted over every tool that found for the step', () => {
    const cat = handCatalog();
    // beta now runs programs for the reason step only (lift 1), beside gamma's search (lift 1.5).
    cat.tools[1]!.skill = { reason: 3 };
    cat.tools[1]!.context = { reason: 1 };
    const env = envOf(scriptedDraws({}, U_YES), cat, { ...SIM, maxTurns: 8 });
    env.reset([handTask()], [0]);
    env.step([CODE_SELF_BETA]);
    env.step([CODE_SELF_BETA]);
    expect(env.evidence[0]).toBe(1.5); // 1, then 1·0.5
    env.step([SEARCH_ALPHA]); // gamma on the same step, its third find: 1.5·0.25
    expect(env.evidence[0]).toBeCloseTo(1.5 + 0.375, 12);
    // With decay 1 every find lifts in full.
    const flat = envOf(scriptedDraws({}, U_YES), handCatalog(), { ...SIM, evidenceDecay: 1 });
    flat.reset([handTask()], [0]);
    for (let t = 0; t < 3; t++) flat.step([CODE_SELF_BETA]);
    expect(flat.evidence[1]).toBe(6);
  });
});

describe('prices at the task’s provider', () => {
  it('scale the delegated writer’s and the tool’s cost and the answerer’s, never the driver’s turn', () => {
    const env = envOf(drawsOf([[0, who.writer('alpha', 'query'), 0, CH_TOKENS, U_Z1]], U_YES));
    env.reset([handTask({ priceScale: { alpha: 2, beta: 3, gamma: 0.5 } })], [0], { trace: true });
    env.step([SEARCH_ALPHA]); // driver 0.0022 + 2·0.0276 + 0.5·0.002 = 0.0584
    env.step([CODE_SELF_BETA]); // driver 0.0024 + 3·0.0103 = 0.0333
    const tr = env.traces?.[0] ?? [];
    expect(tr[0]?.cost).toBeCloseTo(0.0584, 12);
    expect(tr[1]?.cost).toBeCloseTo(0.0333, 12);
    // Answer: the driver reads 2000 + 100 + 100 + 100 + 200 = 2500: 0.0027; alpha reads 2600, writes round(500·e^(0.5·z)) at
    // u = U_YES (z = ln(1e-9)·√3/π ≈ −11.42: e^(−5.71)·500 ≈ 1.65 → 2 tokens); 2·((10·2600 + 20·2)/1e6 + 0.001) = 0.05408.
    env.step([ANSWER_ALPHA]);
    expect(tr[2]?.outTokens).toBe(2);
    expect(tr[2]?.cost).toBeCloseTo(0.0027 + 0.05408, 12);
  });
});

describe('batching', () => {
  const draws = drawsOf([
    [0, who.slot('search:alpha@gamma'), 0, CH_WRITE, 0.3], [0, who.slot('search:alpha@gamma'), 0, CH_HIT, 0.4],
    [0, who.writer('alpha', 'query'), 0, CH_TOKENS, U_Z1], [0, who.model('alpha'), 0, CH_TOKENS, U_Z1],
    [0, who.model('alpha'), 0, CH_SUCCESS, 0.7], [1, who.model('alpha'), 0, CH_SUCCESS, 0.6],
  ]);

  it('advances many episodes in lockstep with the same results as one at a time', () => {
    const PATH = [SEARCH_ALPHA, CODE_SELF_BETA, CODE_SELF_BETA, ANSWER_ALPHA];
    const one = envOf(draws);
    one.reset([handTask()], [0]);
    for (const a of PATH) one.step([a]);
    const other = envOf(draws);
    other.reset([handTask()], [0]);
    for (const a of [CODE_SELF_BETA, SUBMIT]) other.step([a]);
    const env = envOf(draws, handCatalog(), SIM, 4);
    env.reset([handTask(), handTask(), handTask(), handTask()], [0, 0, 0, 0]);
    // Slot 3 takes a different route and finishes first; its later actions are ignored.
    const route3 = [CODE_SELF_BETA, SUBMIT];
    PATH.forEach((a, t) => env.step([a, a, a, route3[t] ?? 99]));
    for (let i = 0; i < 3; i++) {
      expect([env.cost[i], env.latencyMs[i], env.tokens[i], env.outcome[i], env.turn[i]]).toEqual([one.cost[0], one.latencyMs[0], one.tokens[0], one.outcome[0], one.turn[0]]);
      expect(Array.from(env.calls.subarray(i * 3, i * 3 + 3))).toEqual(Array.from(one.calls.subarray(0, 3)));
    }
    expect([env.cost[3], env.outcome[3], env.turn[3]]).toEqual([other.cost[0], other.outcome[0], other.turn[0]]);
    expect(one.outcome[0]).toBe(1);
  });

  it('gives every slot the same draws whether the slots hold one task object or separate copies of it', async () => {
    const { presetCatalog } = await import('../src/core/sim/presets');
    const { generateTasks } = await import('../src/core/sim/tasks');
    const { baselineFromName } = await import('../src/core/eval/baselines');
    const { runEpisodes } = await import('../src/core/eval/policy');
    const catalog = presetCatalog('toolorchestra');
    const pool = generateTasks(catalog, { seed: 12, count: 30, priceSpread: 3, turnBudgets: [3, 20] }).tasks;
    // 30 tasks × 4 rollouts: adjacent slots share the task object (as the trainer's groups do), or hold deep copies.
    const shared = pool.flatMap((t) => [t, t, t, t]);
    const copies = shared.map((t) => structuredClone(t));
    const keys = shared.map((_, i) => i * 7919 + 3);
    const fresh = (tasks: typeof shared) => { const env = new BatchEnv(catalog, DEFAULT_SIM, tasks.length); env.reset(tasks, keys); return env; };
    const [r1, r2] = [fresh(shared), fresh(copies)];
    for (const k of ['stepType', 'difficulty', 'hint', 'needsTool', 'selfItem', 'answerItem', 'hitItem', 'writeItem', 'selfWriteItem', 'available', 'priceScale', 'nSteps', 'nUnits', 'unitStart', 'unitLen', 'budget', 'domain'] as const) {
      expect(Array.from(r1[k]).map(String), k).toEqual(Array.from(r2[k]).map(String)); // String: NaN equals NaN
    }
    const run = async (tasks: typeof shared) => {
      const env = new BatchEnv(catalog, DEFAULT_SIM, tasks.length);
      await runEpisodes(env, baselineFromName('cascade:0.7', catalog, DEFAULT_SIM), tasks, keys);
      return env;
    };
    const [a, b] = [await run(shared), await run(copies)];
    for (const k of ['outcome', 'cost', 'latencyMs', 'calls', 'turn'] as const) expect(Array.from(a[k]), k).toEqual(Array.from(b[k]));
    // The shared-object path still sees each task's own steps: task 1's rows differ from task 0's.
    expect(Array.from(r1.difficulty.subarray(0, 5))).not.toEqual(Array.from(r1.difficulty.subarray(20, 25)));
  });
});
