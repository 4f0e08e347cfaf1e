// Shared fixtures: a tiny hand-made catalog and a scripted draw source, so tests can work
// outcomes, costs and latencies out by hand.

import type { Catalog } from '../src/core/sim/catalog';
import type { DrawFn } from '../src/core/sim/episode';
import type { Task } from '../src/core/sim/tasks';

/** The u that gives unit-logistic z = 1: σ(π/√3). */
export const U_Z1 = 1 / (1 + Math.exp(-Math.PI / Math.sqrt(3)));

/** alpha: a reasoning model; beta: a basic compute tool. All numbers chosen to be worked by hand. */
export function handCatalog(): Catalog {
  return {
    name: 'hand',
    currency: 'USD',
    orchestrator: {
      id: 'orc',
      description: 'hand orchestrator',
      pricing: { inputPerM: 1, outputPerM: 2 },
      outputTokensPerTurn: 100,
      latency: { fixedMs: 200, tokensPerSecond: 100 },
      skill: { reason: 0, compute: 0 },
    },
    tools: [
      {
        id: 'alpha', kind: 'generalist', description: 'reasoner', enabled: true,
        pricing: { inputPerM: 10, outputPerM: 20, perCall: 0.001, perSecond: 0 },
        outputTokens: { mean: 500, spread: 0.5 },
        latency: { fixedMs: 1000, tokensPerSecond: 50, jitter: 0.2 },
        skill: { reason: 1 }, calibration: 0.5, argument: { name: 'prompt', description: 'p' },
      },
      {
        id: 'beta', kind: 'basic', description: 'calculator-like', enabled: true,
        pricing: { inputPerM: 0, outputPerM: 0, perCall: 0.01, perSecond: 0.001 },
        outputTokens: { mean: 200, spread: 0 },
        latency: { fixedMs: 300, tokensPerSecond: 0, jitter: 0 },
        skill: { compute: 3 }, calibration: 1, argument: { name: 'expression', description: 'e' },
      },
    ],
  };
}

export function handTask(overrides: Partial<Task> = {}): Task {
  return {
    id: 'hand-1', key: 1, suite: 'toolscale', domain: 'math', question: 'q', promptTokens: 2000,
    steps: [
      { type: 'reason', difficulty: 1, hint: 1, needsTool: false, text: 'r', argument: 'a', answer: 'A', wrong: 'W' },
      { type: 'compute', difficulty: 1, hint: 1, needsTool: false, text: 'c', argument: 'b', answer: 'B', wrong: 'X' },
    ],
    available: ['alpha', 'beta'],
    golden: { path: [], successProbability: 1 },
    ...overrides,
  };
}

/** The u whose standard-normal quantile is 1: Φ(1). */
export const U_N1 = 0.8413447460685429;

/** A world with every per-item latent at 0, so a call's chance is σ(a·(skill − d)) ± context, as worked by hand. */
export const NO_LATENT = (): number => 0;

/** Draws from a table keyed "step/tool/attempt/channel"; anything missing is 0.5. */
export function scriptedDraws(table: Record<string, number>): DrawFn {
  return (_key, step, tool, attempt, channel) => table[`${step}/${tool}/${attempt}/${channel}`] ?? 0.5;
}
