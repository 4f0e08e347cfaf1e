// What a policy is to the evaluator and the trainer: something that, given the batched env and
// its action mask, writes one action per live slot. Baselines act synchronously; the learned
// policy acts through tfjs and is async. `runEpisodes` drives any of them to the end.

import { expectedCallCost, type Driver } from '../sim/catalog';
import type { BatchEnv } from '../sim/env';
import type { Task } from '../sim/tasks';

export interface BatchPolicy {
  readonly name: string;
  /** Who drives its episodes (writes the turns, answers steps itself); default the catalog's orchestrator. */
  readonly driver?: Driver;
  /** Writes an action for every live slot of `env` into `out` ([slot] = tool index or env.submitAction). */
  act(env: BatchEnv, mask: Uint8Array, out: Int32Array): void | Promise<void>;
}

/** Runs one episode per task to completion (at most maxTurns turns). */
export async function runEpisodes(env: BatchEnv, policy: BatchPolicy, tasks: readonly Task[], keys: ArrayLike<number>, opts: { trace?: boolean | number } = {}): Promise<void> {
  env.reset(tasks, keys, { ...opts, ...(policy.driver ? { driver: policy.driver } : {}) });
  const mask = new Uint8Array(env.capacity * env.nActions);
  const actions = new Int32Array(env.capacity);
  for (let t = 0; t < env.sim.maxTurns && !env.allDone(); t++) {
    env.writeMask(mask);
    actions.fill(env.submitAction);
    await policy.act(env, mask, actions);
    env.step(actions);
  }
}

// Helpers for rule-based policies.

export type Decide = (env: BatchEnv, slot: number) => number;

/** A policy from a per-slot rule. */
export function policy(name: string, decide: Decide, extra: Pick<BatchPolicy, 'driver'> = {}): BatchPolicy {
  return {
    name,
    ...extra,
    act(env, _mask, out) {
      for (let i = 0; i < env.size; i++) if (!env.done[i]) out[i] = decide(env, i);
    },
  };
}

/** Tools that can answer the slot's current step now, cheapest expected call first. */
export function answerersByCost(env: BatchEnv, slot: number): number[] {
  const ctx = env.promptTokens[slot];
  const js: number[] = [];
  for (let j = 0; j < env.nTools; j++) if (env.allowed(slot, j) && env.answers(slot, j)) js.push(j);
  return js.sort((a, b) => expectedCallCost(env.catalog.tools[a], ctx) - expectedCallCost(env.catalog.tools[b], ctx) || a - b);
}

export const skillNow = (env: BatchEnv, slot: number, j: number): number => env.catalog.tools[j].skill[env.currentType(slot)] ?? -Infinity;

/** Turns this slot may still spend on its current step and keep one call + one submit for every later step. */
export function turnsForStep(env: BatchEnv, slot: number): number {
  return env.sim.maxTurns - env.turn[slot] - 2 * (env.nSteps[slot] - env.stepIdx[slot] - 1);
}

