// Who does what by role, read from traces: counted by hand on made-up traces, and on real episodes each
// model's roles sum to its calls per task as the evaluation counts them.
import { describe, expect, it } from 'vitest';
import { evaluateReplicas } from '../src/core/eval/evaluate';
import { greedyPolicy } from '../src/core/eval/greedyRule';
import { roleCalls, shareOfModelCalls } from '../src/core/eval/roles';
import { DEFAULT_PREFERENCE } from '../src/core/preference';
import { DEFAULT_SIM } from '../src/core/sim/callModel';
import type { TraceEntry } from '../src/core/sim/episode';
import { presetCatalog } from '../src/core/sim/presets';
import { generateTasks } from '../src/core/sim/tasks';

const e = (action: TraceEntry['action'], model: string): TraceEntry => ({ turn: 0, unit: 0, step: 0, action, model, inTokens: 0, cost: 0, latencyMs: 0 });

describe('calls by role', () => {
  it('counts each model\'s queries, programs and answers per task; a submit is the orchestrator answering itself', () => {
    // Two tasks: (mini writes a query, gpt-5 answers) and (orc writes a program, coder writes one, orc submits).
    const r = roleCalls([[e('search', 'mini'), e('answer', 'gpt-5')], [e('code', 'orc'), e('code', 'coder'), e('submit', 'orc')]]);
    expect(r).toEqual({ mini: { search: 0.5, code: 0, answer: 0 }, 'gpt-5': { search: 0, code: 0, answer: 0.5 },
      orc: { search: 0, code: 0.5, answer: 0.5 }, coder: { search: 0, code: 0.5, answer: 0 } });
    // GPT-5: 0.5 of the 1.5 calls to models (the orchestrator's own program is not a call to a model).
    expect(shareOfModelCalls(r, 'gpt-5', 'orc')).toBeCloseTo(1 / 3, 12);
    expect(shareOfModelCalls({}, 'gpt-5', 'orc')).toBe(0);
  });

  it('on real episodes, a model\'s roles sum to its calls per task', async () => {
    const catalog = presetCatalog('toolorchestra');
    const tasks = generateTasks(catalog, { seed: 41, count: 200, suite: 'frames', availability: 1, sim: DEFAULT_SIM }).tasks;
    const [first] = await evaluateReplicas(greedyPolicy(catalog, 0.005, DEFAULT_PREFERENCE), tasks, 1, catalog, DEFAULT_SIM, 3, ['rule'],
      { failuresOfFirst: true });
    const roles = first!.roles!;
    let checked = 0;
    for (const t of catalog.tools.filter((x) => x.kind !== 'basic')) {
      const r = roles[t.id] ?? { search: 0, code: 0, answer: 0 };
      expect(r.search + r.code + r.answer, t.id).toBeCloseTo(first!.callsPerTask[t.id] ?? 0, 9);
      if ((first!.callsPerTask[t.id] ?? 0) > 0) checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(2);
  });
});
