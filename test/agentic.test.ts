import { describe, expect, it } from 'vitest';
import { failureKind } from '../src/core/eval/failures';
import { DEFAULT_SIM } from '../src/core/sim/callModel';
import { BatchEnv } from '../src/core/sim/env';
import { CH_SUCCESS } from '../src/core/sim/episode';
import { presetCatalog } from '../src/core/sim/presets';
import { applyWrites, storesEqual } from '../src/core/sim/recordStore';
import { goldenStore, taskUnits, type Task } from '../src/core/sim/tasks';
import { drawsOf, NO_LATENT, U_NO, who } from './helpers';

const catalog = presetCatalog('toolorchestra');

/** Cancel and refund ord-1: a lookup that only the store holds (needs a tool), then two writes that use it. */
function refundTask(lookupNeedsTool = true): Task {
  const store = [
    { id: 'ord-1', fields: { customer: 'Ana', status: 'shipped', refund: 0 } },
    { id: 'ord-2', fields: { customer: 'Bruno', status: 'shipped', refund: 0 } },
  ];
  const t: Task = {
    id: 'agentic-1', key: 7, suite: 'toolscale', domain: 'agentic', question: 'cancel and refund ord-1', promptTokens: 900,
    steps: [
      { type: 'lookup', difficulty: 0, hint: 0, needsTool: lookupNeedsTool, text: 'read', argument: 'get_order', answer: 'amount 40', wrong: 'amount 55' },
      { type: 'act', difficulty: 0, hint: 0, needsTool: false, text: 'cancel', argument: 'update', answer: 'cancelled', wrong: 'returned', write: { record: 'ord-1', field: 'status', value: 'cancelled', wrong: 'returned' }, uses: [0] },
      { type: 'act', difficulty: 0, hint: 0, needsTool: false, text: 'refund', argument: 'refund', answer: '40', wrong: '55', write: { record: 'ord-1', field: 'refund', value: 40, wrong: 55 }, uses: [0] },
    ],
    commits: 'step',
    available: catalog.tools.map((x) => x.id),
    store,
    golden: { path: [], successProbability: 1 },
  };
  t.golden.store = goldenStore(t);
  return t;
}

const SEARCH = 'search:gpt-5-mini@local-search', ANSWER = 'answer:gpt-5';
/**
 * Latents at 0, a = 1.6, d = 0. GPT-5-mini writes the query: σ(1.6·(2.5 + 2)) = σ(7.2); local search finds the record: σ(1.6·4) = σ(6.4)
 * (both > 0.5, the default draw). GPT-5 answers the lookup σ(1.6·1.2 + 4) = σ(5.92) ≈ 0.997 with the find, σ(1.92 − 30) ≈ 6e-13
 * without it; each act σ(1.6·3.1) = σ(4.96) ≈ 0.993. `wrong` lists the steps whose answer draw is u ≈ 1 (wrong whatever the chance).
 */
function run(path: string[], wrong: number[] = [], task = refundTask(), maxTurns = DEFAULT_SIM.maxTurns): BatchEnv {
  const env = new BatchEnv(catalog, { ...DEFAULT_SIM, maxTurns }, 1, drawsOf(wrong.map((k) => [k, who.model('gpt-5'), 0, CH_SUCCESS, U_NO] as const)), NO_LATENT);
  env.reset([task], [0], { trace: true });
  const ids = env.slots.map((s) => s.id);
  for (const id of path) env.step([id === 'submit' ? env.submitAction : ids.indexOf(id)]);
  return env;
}
const kindOf = (env: BatchEnv) => failureKind(env.outcome[0] as number, env.answered[0] as number, env.traces?.[0] ?? []);
const FULL = [SEARCH, ANSWER, ANSWER, ANSWER];

describe('agentic tasks are judged by the final record store', () => {
  it('golden store = the initial store with every correct write; each step is its own unit', () => {
    expect(refundTask().golden.store).toEqual([
      { id: 'ord-1', fields: { customer: 'Ana', status: 'cancelled', refund: 40 } },
      { id: 'ord-2', fields: { customer: 'Bruno', status: 'shipped', refund: 0 } },
    ]);
    expect(taskUnits(refundTask())).toEqual([[0], [1], [2]]);
    expect(storesEqual(refundTask().store!, applyWrites(refundTask().store!, [{ record: 'ord-2', field: 'refund', value: 1 }]))).toBe(false);
  });

  it('a find for the lookup, then every step right → the store matches → outcome 1', () => {
    const env = run(FULL);
    expect([env.answered[0], env.outcome[0], env.turn[0]]).toEqual([1, 1, 4]);
    expect(env.finalStore(0)).toEqual(refundTask().golden.store);
    expect(env.traces?.[0]?.map((e) => [e.action, e.unit, e.step, e.success ?? e.committedCorrect])).toEqual([['search', 0, 0, true], ['answer', 0, 0, true], ['answer', 1, 1, true], ['answer', 2, 2, true]]);
    // Calls per resource: the writer and the tool of the search, three GPT-5 answers.
    const calls = Object.fromEntries(catalog.tools.map((t, j) => [t.id, env.calls[j]]));
    expect(calls).toMatchObject({ 'gpt-5-mini': 1, 'local-search': 1, 'gpt-5': 3, 'web-search': 0 });
  });

  it('one wrong write fails the task even though every other step was right', () => {
    const env = run(FULL, [2]);
    expect(Array.from(env.stepCorrect.subarray(0, 3))).toEqual([1, 1, 0]);
    expect(env.outcome[0]).toBe(0);
    expect(env.finalStore(0)?.[0]?.fields).toEqual({ customer: 'Ana', status: 'cancelled', refund: 55 });
    expect(kindOf(env)).toBe('wrong-answer');
  });

  it('a wrong lookup makes every write that uses it wrong, though the acts themselves were right', () => {
    const env = run(FULL, [0]);
    expect(Array.from(env.stepCorrect.subarray(0, 3))).toEqual([0, 1, 1]);
    expect(env.outcome[0]).toBe(0);
    expect(env.finalStore(0)?.[0]?.fields).toEqual({ customer: 'Ana', status: 'returned', refund: 55 });
  });

  it('a lookup answered without a find for the record is out of reach: missing evidence, and wrong writes', () => {
    const env = run([ANSWER, ANSWER, ANSWER]);
    expect(env.traces?.[0]?.[0]).toMatchObject({ action: 'answer', committedCorrect: false, missingEvidence: true });
    expect(env.finalStore(0)?.[0]?.fields).toEqual({ customer: 'Ana', status: 'returned', refund: 55 });
    expect(kindOf(env)).toBe('missing-evidence');
  });

  it('evidence goes to the current unit’s step; a search tool that cannot reach it is masked', () => {
    const env = run([SEARCH, ANSWER]);
    const ids = env.slots.map((s) => s.id);
    // Unit 1 is the first act: local search reaches it (act skill 3, lift 1), web search does not (no act skill).
    expect(env.target(0, ids.indexOf(SEARCH))).toBe(1);
    expect(env.allowed(0, ids.indexOf(SEARCH))).toBe(true);
    expect(env.allowed(0, ids.indexOf('search:gpt-5-mini@web-search'))).toBe(false);
    env.step([ids.indexOf(SEARCH)]);
    expect(env.traces?.[0]?.[2]).toMatchObject({ action: 'search', unit: 1, step: 1, success: true, evidence: 1 });
    expect(env.evidence[1]).toBe(1);
  });

  it('running out of turns mid-task leaves the later writes undone: the partial store, out of turns', () => {
    // The lookup needs no tool here (σ(1.92) ≈ 0.87 > 0.5: right); two turns commit the lookup and the cancel, none is left for the refund.
    const env = run([ANSWER, ANSWER], [], refundTask(false), 2);
    expect([env.done[0], env.answered[0], env.outcome[0]]).toEqual([1, 0, 0]);
    expect(env.finalStore(0)?.[0]?.fields).toEqual({ customer: 'Ana', status: 'cancelled', refund: 0 });
    expect(kindOf(env)).toBe('out-of-turns');
  });

  it('the orchestrator may commit a unit itself (submit): Qwen3-8B’s own skill', () => {
    // Qwen3-8B: lookup −0.8 → σ(−1.28 + 4) ≈ 0.94 with the find; act 0.3 → σ(0.48) ≈ 0.62: all right at u = 0.5.
    const env = run([SEARCH, 'submit', 'submit', 'submit']);
    expect(env.traces?.[0]?.filter((e) => e.action === 'submit').map((e) => [e.model, e.committedCorrect])).toEqual([['qwen3-8b', true], ['qwen3-8b', true], ['qwen3-8b', true]]);
    expect(env.outcome[0]).toBe(1);
  });
});
