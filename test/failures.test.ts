import { describe, expect, it } from 'vitest';
import { baselineFromName } from '../src/core/eval/baselines';
import { evaluatePolicy, evaluateReplicas, evalKey } from '../src/core/eval/evaluate';
import { failureKind, FailureTally, type FailureKind } from '../src/core/eval/failures';
import { runEpisodes } from '../src/core/eval/policy';
import { DEFAULT_SIM, type SimConfig } from '../src/core/sim/callModel';
import { BatchEnv } from '../src/core/sim/env';
import { CH_SUCCESS } from '../src/core/sim/episode';
import type { TraceEntry } from '../src/core/sim/episode';
import { presetCatalog } from '../src/core/sim/presets';
import { generateTasks, taskUnits, type Task } from '../src/core/sim/tasks';
import { drawsOf, handCatalog, handTask, NO_LATENT, scriptedDraws, U_NO, U_YES, who } from './helpers';

const found = (step: number, success: boolean): TraceEntry => ({ turn: 0, unit: 0, step, action: 'search', slot: 'search:x@y', inTokens: 0, cost: 0, latencyMs: 0, success });
const commit = (unit: number, committedCorrect: boolean, missingEvidence: boolean, action: 'answer' | 'submit' = 'answer'): TraceEntry => ({ turn: 0, unit, step: unit, action, inTokens: 0, cost: 0, latencyMs: 0, committedCorrect, stepsRight: [committedCorrect], missingEvidence });

describe('why an episode failed, from hand-made traces', () => {
  it('a solved episode is solved whatever its trace; an unanswered one ran out of turns, even after a wrong commit', () => {
    expect(failureKind(1, 1, [commit(0, false, true), commit(1, true, false)])).toBe('solved');
    expect(failureKind(0, 0, [found(0, false), found(0, false)])).toBe('out-of-turns');
    expect(failureKind(0, 0, [commit(0, false, true)])).toBe('out-of-turns');
  });

  it('the first wrong commit decides: missing evidence if a step of it needed a tool with no find, else a wrong answer', () => {
    expect(failureKind(0, 1, [commit(0, false, true)])).toBe('missing-evidence');
    expect(failureKind(0, 1, [found(0, true), commit(0, false, false)])).toBe('wrong-answer');
    expect(failureKind(0, 1, [commit(0, false, false, 'submit')])).toBe('wrong-answer');
    expect(failureKind(0, 1, [commit(0, false, true, 'submit')])).toBe('missing-evidence');
    // A lucky right commit without evidence does not count; the later wrong one (with its evidence) does.
    expect(failureKind(0, 1, [commit(0, true, true), found(1, true), commit(1, false, false)])).toBe('wrong-answer');
    // A wrong commit with evidence comes first; a later one without evidence does not change the verdict.
    expect(failureKind(0, 1, [commit(0, false, false), commit(1, false, true)])).toBe('wrong-answer');
    // Evidence calls that found nothing are not commits.
    expect(failureKind(0, 1, [found(0, false), commit(0, false, true, 'submit')])).toBe('missing-evidence');
  });

  it('an answered episode judged wrong with every commit right cannot happen: it throws', () => {
    expect(() => failureKind(0, 1, [commit(0, true, false), commit(1, true, false)])).toThrow(/no wrong commit/);
  });

  it('the tally divides each kind by every episode, the solved ones included', () => {
    const tally = new FailureTally();
    expect(tally.shares()).toEqual({ outOfTurns: 0, missingEvidence: 0, wrongAnswer: 0 });
    for (const k of ['solved', 'out-of-turns', 'missing-evidence', 'missing-evidence', 'wrong-answer'] as FailureKind[]) tally.add(k);
    expect(tally.shares()).toEqual({ outOfTurns: 0.2, missingEvidence: 0.4, wrongAnswer: 0.2 });
  });
});

describe('why an episode failed, from the env’s own traces (hand catalog)', () => {
  const SIM: SimConfig = { ...DEFAULT_SIM, discrimination: 2, needsToolPenalty: 10, writeEase: 1 };
  // handTask with its compute step needing a tool: alpha answers it σ(2·(0 − 1) − 10) = σ(−12) with no find, σ(0) after beta's.
  const task = handTask({ steps: [handTask().steps[0]!, { ...handTask().steps[1]!, needsTool: true }] });
  const kindOf = (env: BatchEnv) => failureKind(env.outcome[0] as number, env.answered[0] as number, env.traces?.[0] ?? []);

  it('answering before the find a step needs is missing evidence; with it, a wrong answer is a wrong answer', () => {
    const d = drawsOf([[0, who.model('alpha'), 0, CH_SUCCESS, 0.001], [1, who.model('alpha'), 0, CH_SUCCESS, 0.7]], U_YES);
    const bare = new BatchEnv(handCatalog(), SIM, 1, d, NO_LATENT);
    bare.reset([task], [0], { trace: true });
    bare.step([3]); // answer:alpha
    expect(kindOf(bare)).toBe('missing-evidence');
    const helped = new BatchEnv(handCatalog(), SIM, 1, d, NO_LATENT);
    helped.reset([task], [0], { trace: true });
    helped.step([0]); // code:self@beta: a find (every other draw succeeds)
    helped.step([3]); // step 1 now σ(−2 + 2) = 0.5 < 0.7: still wrong
    expect(helped.traces?.[0]?.[1]).toMatchObject({ committedCorrect: false, missingEvidence: false });
    expect(kindOf(helped)).toBe('wrong-answer');
  });

  it('a budget below the units is out of turns, whatever was committed before', () => {
    const env = new BatchEnv(handCatalog(), SIM, 1, scriptedDraws({}, U_NO), NO_LATENT);
    env.reset([handTask({ commits: 'step', maxTurns: 1 })], [0], { trace: true });
    env.step([4]); // submit unit 0 (wrong), then no turn is left for unit 1
    expect([env.done[0], env.answered[0]]).toEqual([1, 0]);
    expect(kindOf(env)).toBe('out-of-turns');
  });
});

describe('failures on real small evaluations (toolorchestra)', () => {
  const catalog = presetCatalog('toolorchestra');
  const { tasks } = generateTasks(catalog, { seed: 91, count: 150, availability: 1 });
  const run = (name: string, on: readonly Task[] = tasks, sim: SimConfig = DEFAULT_SIM) => evaluatePolicy(baselineFromName(name, catalog, sim), on, catalog, sim, { seed: 5, failures: true });

  it('the kinds add up to the failures', async () => {
    for (const name of ['notools:gpt-5', 'always:gpt-5-mini', 'tools+gpt-5', 'cascade:0.7', 'random']) {
      const r = await run(name);
      const f = r.failures!;
      expect(f.outOfTurns + f.missingEvidence + f.wrongAnswer, name).toBeCloseTo(1 - r.accuracy, 12);
    }
  });

  it('without tools a wrong unit with a step that needs a tool is always missing evidence; tools cut that kind down', async () => {
    // notools never finds anything, so (by hand) the first wrong unit's kind is "missing evidence" exactly when a step of it needs a tool.
    const env = new BatchEnv(catalog, DEFAULT_SIM, tasks.length);
    await runEpisodes(env, baselineFromName('notools:gpt-5', catalog, DEFAULT_SIM), tasks, tasks.map((_, i) => evalKey(5, i)), { trace: true });
    let missing = 0;
    tasks.forEach((t, i) => {
      const commits = (env.traces?.[i] ?? []).filter((e) => e.action === 'submit');
      const units = taskUnits(t);
      expect(commits).toHaveLength(units.length); // every unit submitted, one turn each
      const firstWrong = commits.findIndex((e) => e.stepsRight?.some((r) => !r));
      const expected: FailureKind = env.outcome[i] ? 'solved' : units[firstWrong]!.some((k) => t.steps[k]!.needsTool) ? 'missing-evidence' : 'wrong-answer';
      expect(failureKind(env.outcome[i] as number, env.answered[i] as number, env.traces?.[i] ?? []), t.id).toBe(expected);
      if (expected === 'missing-evidence') missing++;
    });
    const r = await run('notools:gpt-5');
    expect(r.failures?.missingEvidence).toBeCloseTo(missing / tasks.length, 12);
    expect(r.failures?.outOfTurns).toBe(0);
    // The pool keeps tasks the orchestrator cannot solve alone: most need a tool somewhere.
    expect(r.failures!.missingEvidence).toBeGreaterThan(0.3);
    expect((await run('tools+gpt-5')).failures!.missingEvidence).toBeLessThan(r.failures!.missingEvidence / 2);
  });

  it('on record-store tasks a turn budget below the steps is out of turns: all of them at 1 turn, the 3-step ones at 2', async () => {
    const tau2 = generateTasks(catalog, { seed: 4, count: 120, suite: 'tau2', availability: 1 }).tasks;
    expect(tau2.every((t) => t.commits === 'step' && t.steps.length >= 2)).toBe(true);
    const one = await run('always:gpt-5', tau2, { ...DEFAULT_SIM, maxTurns: 1 });
    expect(one.accuracy).toBe(0);
    expect(one.failures?.outOfTurns).toBe(1);
    // always:gpt-5 commits each step at once, a turn each: at 2 turns exactly the 3-step tasks run out.
    const three = tau2.filter((t) => t.steps.length === 3).length / tau2.length;
    expect(three).toBeGreaterThan(0.2);
    expect((await run('always:gpt-5', tau2, { ...DEFAULT_SIM, maxTurns: 2 })).failures?.outOfTurns).toBeCloseTo(three, 12);
  });

  it('side by side with other copies, the first copy’s failures are the same as alone; untraced evaluations report none', async () => {
    const alone = await run('cascade:0.7');
    const [first, second] = await evaluateReplicas(baselineFromName('cascade:0.7', catalog, DEFAULT_SIM), tasks, 2, catalog, DEFAULT_SIM, 5, ['a', 'b'], { failuresOfFirst: true });
    expect(first?.failures).toEqual(alone.failures);
    expect(second?.failures).toBeUndefined();
    expect((await evaluatePolicy(baselineFromName('always:gpt-5-mini', catalog, DEFAULT_SIM), tasks, catalog, DEFAULT_SIM, { seed: 5 })).failures).toBeUndefined();
  });
});
