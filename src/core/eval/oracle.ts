// The oracle baseline: it sees the hidden draws (which call would succeed, what confidence it
// would state) and, on each step, takes the cheapest plan that commits a right answer within the
// turns the remaining steps leave. Plans: submit now (the driver answers), n more calls of one
// tool, or first one call of a tool that brings context and then either. It uses the env's own
// success model (callProbability / selfProbability, the same latents), so on the unfiltered
// suites it stays below 100% where no available tool can solve a step.

import { confidence } from '../sim/callModel';
import { expectedCallCost } from '../sim/catalog';
import type { BatchEnv } from '../sim/env';
import { CH_CONFIDENCE, CH_SUCCESS } from '../sim/episode';
import { policy, turnsForStep, type BatchPolicy } from './policy';

/** Whether the driver, submitting with no attempt, would be right at this boost. */
function selfRight(env: BatchEnv, i: number, boost: number): boolean {
  return env.draw(env.keys[i], env.stepIdx[i], env.nTools, 0, CH_SUCCESS) < env.selfProbability(i, boost);
}

/**
 * Fewest further calls (≤ max) of tool j, from its next attempt on, after which the committed
 * (highest-confidence) answer of the step is right; 0 when none within `max`.
 */
function callsToCommitRight(env: BatchEnv, i: number, j: number, boost: number, max: number): number {
  const s = env.stepIdx[i], key = env.keys[i];
  const p = env.callProbability(i, j, boost);
  if (p === 0) return 0;
  const tool = env.catalog.tools[j];
  let best = env.bestConf[i], bestRight = env.bestCorrect[i] === 1;
  const first = env.stepCalls[i * env.nTools + j];
  for (let k = 0; k < max; k++) {
    const right = env.draw(key, s, j, first + k, CH_SUCCESS) < p;
    const c = confidence(right, tool.calibration, env.draw(key, s, j, first + k, CH_CONFIDENCE));
    if (c > best) { best = c; bestRight = right; }
    if (bestRight) return k + 1;
  }
  return 0;
}

/** The first action of the cheapest plan that commits a right answer on the slot's current step. */
function oracleAction(env: BatchEnv, i: number): number {
  const submit = env.submitAction;
  if (env.stepAttempts[i] > 0 && env.bestCorrect[i] === 1) return submit;
  if (env.stepAttempts[i] === 0 && selfRight(env, i, env.boost[i])) return submit;
  const budget = turnsForStep(env, i) - 1; // calls on this step, keeping its submit and a call + submit per later step
  const ctx = env.promptTokens[i];
  let action = submit, cost = Infinity;
  const consider = (first: number, c: number): void => {
    if (c < cost) { cost = c; action = first; }
  };
  for (let j = 0; j < env.nTools; j++) {
    if (!env.allowed(i, j)) continue;
    const cj = expectedCallCost(env.catalog.tools[j], ctx);
    if (env.answers(i, j)) {
      const n = callsToCommitRight(env, i, j, env.boost[i], budget);
      if (n > 0) consider(j, n * cj);
    }
    // Context first: a tool that only brings evidence to this step (an answering tool's right result commits by itself).
    const lift = env.catalog.tools[j].context?.[env.currentType(i)] ?? 0;
    if (env.answers(i, j) || lift <= env.boost[i] || budget < 1) continue;
    if (env.stepAttempts[i] === 0 && selfRight(env, i, lift)) consider(j, cj);
    for (let k = 0; k < env.nTools; k++) {
      if (!env.allowed(i, k) || !env.answers(i, k)) continue;
      const n = callsToCommitRight(env, i, k, lift, budget - 1);
      if (n > 0) consider(j, cj + n * expectedCallCost(env.catalog.tools[k], ctx));
    }
  }
  return action;
}

/** Sees the hidden draws; the cheapest right plan per step. An upper bound on accuracy at low cost. */
export function oraclePolicy(): BatchPolicy {
  return policy('oracle', oracleAction);
}
