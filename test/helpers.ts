// Shared fixtures: a tiny hand-made catalog and a scripted draw source, so tests can work
// outcomes, costs and latencies out by hand.

import { latentKey, writerKey } from '../src/core/sim/callModel';
import type { Catalog, WriterRole } from '../src/core/sim/catalog';
import { CH_HIT, CH_SUCCESS, CH_WRITE, type DrawFn } from '../src/core/sim/episode';
import { hashString } from '../src/core/sim/rng';
import type { Task } from '../src/core/sim/tasks';

/** The u that gives unit-logistic z = 1: σ(π/√3). */
export const U_Z1 = 1 / (1 + Math.exp(-Math.PI / Math.sqrt(3)));

/** The u whose standard-normal quantile is 1: Φ(1). */
export const U_N1 = 0.8413447460685429;

/** A u below any chance the tests meet (a sure success), and one above it (a sure failure). */
export const U_YES = 1e-9;
export const U_NO = 1 - 1e-9;

export const sig = (x: number): number => 1 / (1 + Math.exp(-x));

/**
 * A hand catalog whose numbers can be worked by hand:
 *  - orc (the orchestrator): 1 $/M in, 2 $/M out, 100 tokens a turn in 200 + 1000 ms; answers reason and
 *    compute with skill 0; writes programs itself (code 1) but no queries;
 *  - alpha, a generalist: 10 / 20 $/M + $0.001 a call, 500 tokens (spread 0.5), 1000 ms + 50 tokens/s
 *    (jitter 0.2); answers reason (1) and compute (0); writes queries (1);
 *  - beta, a basic code runner: $0.01 a call + $0.001 a second, 200 tokens, 300 ms, no jitter; finds
 *    compute (skill 3), lift 2;
 *  - gamma, a basic search engine: $0.002 a call, 100 tokens, 500 ms, no jitter; finds reason (1) with
 *    lift 1.5 and retrieve (2) with lift 4; AUROC 0.5.
 * Slots (slotsOf): beta's writers (no model writes code; then self), gamma's (alpha, then self), the answerers:
 * 0 code:self@beta, 1 search:alpha@gamma, 2 search:self@gamma, 3 answer:alpha; submit = 4.
 */
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
      writes: { code: 1 },
    },
    tools: [
      {
        id: 'alpha', kind: 'generalist', description: 'reasoner', enabled: true,
        pricing: { inputPerM: 10, outputPerM: 20, perCall: 0.001, perSecond: 0 },
        outputTokens: { mean: 500, spread: 0.5 },
        latency: { fixedMs: 1000, tokensPerSecond: 50, jitter: 0.2 },
        skill: { reason: 1, compute: 0 }, writes: { query: 1 }, calibration: 0.5, argument: { name: 'prompt', description: 'p' },
      },
      {
        id: 'beta', kind: 'basic', description: 'code runner', enabled: true, runs: 'code',
        pricing: { inputPerM: 0, outputPerM: 0, perCall: 0.01, perSecond: 0.001 },
        outputTokens: { mean: 200, spread: 0 },
        latency: { fixedMs: 300, tokensPerSecond: 0, jitter: 0 },
        skill: { compute: 3 }, context: { compute: 2 }, calibration: 1, argument: { name: 'code', description: 'c' },
      },
      {
        id: 'gamma', kind: 'basic', description: 'search engine', enabled: true, runs: 'query',
        pricing: { inputPerM: 0, outputPerM: 0, perCall: 0.002, perSecond: 0 },
        outputTokens: { mean: 100, spread: 0 },
        latency: { fixedMs: 500, tokensPerSecond: 0, jitter: 0 },
        skill: { reason: 1, retrieve: 2 }, context: { reason: 1.5, retrieve: 4 }, calibration: 0.5, argument: { name: 'query', description: 'q' },
      },
    ],
  };
}

/** A two-step maths question (reason, then compute; d = 1 each), answered as a whole (one unit). */
export function handTask(overrides: Partial<Task> = {}): Task {
  return {
    id: 'hand-1', key: 1, suite: 'toolscale', domain: 'math', question: 'q', promptTokens: 2000,
    steps: [
      { type: 'reason', difficulty: 1, hint: 1, needsTool: false, text: 'r', argument: 'a', answer: 'A', wrong: 'W' },
      { type: 'compute', difficulty: 1, hint: 1, needsTool: false, text: 'c', argument: 'b', answer: 'B', wrong: 'X' },
    ],
    commits: 'task',
    available: ['alpha', 'beta', 'gamma'],
    golden: { path: [], successProbability: 1 },
    ...overrides,
  };
}

/** A world with every per-item latent at 0, so a call's chance is σ(a·(skill − d)) (+ evidence), as worked by hand. */
export const NO_LATENT = (): number => 0;

/**
 * Who a draw belongs to, as the env keys it (episode.ts DrawFn): a slot's write / hit / signal draws by
 * the slot's hashed id, an answerer's tokens, latency and success by its latent key, a delegated
 * writer's tokens and latency by its writer key, a basic tool's tokens and latency by its latent key.
 */
export const who = {
  slot: (slotId: string): number => hashString(slotId),
  model: (id: string): number => latentKey(id),
  writer: (id: string, role: WriterRole): number => writerKey(id, role),
  tool: (id: string): number => latentKey(id),
};

/** The table key of one draw. */
export const drawKey = (step: number, whoKey: number, attempt: number, channel: number): string => `${step}/${whoKey >>> 0}/${attempt}/${channel}`;

/** Draws from a table keyed by drawKey(step, who, attempt, channel); anything missing is `rest` (0.5: z = 0, and a coin's middle). */
export function scriptedDraws(table: Record<string, number>, rest = 0.5): DrawFn {
  return (_key, step, whoKey, attempt, channel) => table[drawKey(step, whoKey, attempt, channel)] ?? rest;
}

/** The same, from a list of [step, who, attempt, channel, u]. */
export function drawsOf(entries: readonly (readonly [number, number, number, number, number])[], rest = 0.5): DrawFn {
  return scriptedDraws(Object.fromEntries(entries.map(([k, w, a, c, u]) => [drawKey(k, w, a, c), u])), rest);
}

/** Every write, hit and answer draw at `u` (U_YES: all succeed; U_NO: all fail), tokens, latency and signals at their median. */
export function outcomeDraws(u: number, table: Record<string, number> = {}): DrawFn {
  return (_key, step, whoKey, attempt, channel) => table[drawKey(step, whoKey, attempt, channel)] ?? (channel === CH_SUCCESS || channel === CH_WRITE || channel === CH_HIT ? u : 0.5);
}
