import { describe, expect, it } from 'vitest';
import { baselineFromName } from '../src/core/eval/baselines';
import { evaluatePolicy, evaluateReplicas } from '../src/core/eval/evaluate';
import { failureKind } from '../src/core/eval/failures';
import { DEFAULT_SIM } from '../src/core/sim/callModel';
import type { TraceEntry } from '../src/core/sim/episode';
import { presetCatalog } from '../src/core/sim/presets';
import { generateTasks } from '../src/core/sim/tasks';

const call = (step: number, correct: boolean, confidence: number): TraceEntry => ({ turn: 0, step, action: 'call', tool: 't', inTokens: 0, cost: 0, latencyMs: 0, correct, confidence });
const evidence = (step: number): TraceEntry => ({ turn: 0, step, action: 'call', tool: 'search', inTokens: 0, cost: 0, latencyMs: 0, evidence: true });
const submit = (step: number, committedCorrect: boolean, selfSolved = false): TraceEntry => ({ turn: 0, step, action: 'submit', inTokens: 0, cost: 0, latencyMs: 0, committedCorrect, selfSolved });

describe('why an episode failed', () => {
  it('a right attempt beaten by a more confident wrong one is "outvoted"; a step with none is "no right attempt"', () => {
    expect(failureKind(0, 1, [call(0, true, 0.6), call(0, false, 0.9), submit(0, false)])).toBe('outvoted');
    // Step 0 had a right attempt and was committed right; step 1 had none: the right attempt of step 0 does not count for step 1.
    expect(failureKind(0, 1, [call(0, true, 0.8), submit(0, true), evidence(1), call(1, false, 0.7), submit(1, false)])).toBe('no-right-attempt');
    // Answered alone, wrong: no attempt at all.
    expect(failureKind(0, 1, [submit(0, false, true)])).toBe('no-right-attempt');
    // The first wrong step decides, even when a later one was outvoted.
    expect(failureKind(0, 1, [call(0, false, 0.5), submit(0, false), call(1, true, 0.2), call(1, false, 0.9), submit(1, false)])).toBe('no-right-attempt');
  });

  it('an unanswered episode ran out of turns; a solved one is solved whatever its trace', () => {
    expect(failureKind(0, 0, [call(0, true, 0.6), call(0, false, 0.9)])).toBe('out-of-turns');
    expect(failureKind(1, 1, [call(0, true, 0.6), call(0, false, 0.9), submit(0, false)])).toBe('solved');
  });

  it('on real evaluations the kinds add up to the failures, and one attempt per step is never outvoted', async () => {
    const catalog = presetCatalog('toolorchestra');
    const { tasks } = generateTasks(catalog, { seed: 91, count: 400, availability: 1 });
    const run = (name: string) => evaluatePolicy(baselineFromName(name, catalog, DEFAULT_SIM), tasks, catalog, DEFAULT_SIM, { seed: 5, failures: true });
    const one = await run('always:gpt-5-mini');
    const three = await run('repeat:gpt-5-mini:3');
    for (const r of [one, three]) {
      const f = r.failures as NonNullable<typeof r.failures>;
      expect(f.outOfTurns + f.outvoted + f.noRightAttempt).toBeCloseTo(1 - r.accuracy, 12);
    }
    expect(one.failures?.outvoted).toBe(0);
    // Best-of-3 with weak confidence: some steps hold a right answer that a more confident wrong one beats.
    expect(three.failures?.outvoted).toBeGreaterThan(0.01);
    // Side by side with other copies (the trade-off view's way), the first copy's failures are the same as alone.
    const [first, second] = await evaluateReplicas(baselineFromName('repeat:gpt-5-mini:3', catalog, DEFAULT_SIM), tasks, 2, catalog, DEFAULT_SIM, 5, ['a', 'b'], { failuresOfFirst: true });
    expect(first?.failures).toEqual(three.failures);
    expect(second?.failures).toBeUndefined();
    // Without the option, evaluation does not trace and reports no failure shares.
    expect((await evaluatePolicy(baselineFromName('always:gpt-5-mini', catalog, DEFAULT_SIM), tasks, catalog, DEFAULT_SIM, { seed: 5 })).failures).toBeUndefined();
  });
});
