// Policies that need no learning — the landscape a trained orchestrator must beat:
// random, always:<tool>, tools+<model> (the paper's "<model> with basic tools"), cheapest,
// cascade:<θ> (FrugalGPT-style escalation on confidence) and oracle (sees hidden success).
// Each acts on the batched env through the BatchPolicy interface.

import { expectedCallCost, toolIndex, type Catalog } from '../sim/catalog';
import { confidence } from '../sim/callModel';
import { CH_CONFIDENCE, CH_SUCCESS, MAX_STEPS, type BatchEnv } from '../sim/env';
import { counterUniform } from '../sim/rng';
import type { BatchPolicy } from './policy';

type Decide = (env: BatchEnv, slot: number) => number;

function policy(name: string, decide: Decide): BatchPolicy {
  return {
    name,
    act(env, _mask, out) {
      for (let i = 0; i < env.size; i++) if (!env.done[i]) out[i] = decide(env, i);
    },
  };
}

/** Tools the slot may call now, cheapest expected call first. */
function allowedByCost(env: BatchEnv, slot: number): number[] {
  const ctx = env.promptTokens[slot];
  const js: number[] = [];
  for (let j = 0; j < env.nTools; j++) if (env.allowed(slot, j)) js.push(j);
  return js.sort((a, b) => expectedCallCost(env.catalog.tools[a], ctx) - expectedCallCost(env.catalog.tools[b], ctx) || a - b);
}

const skillNow = (env: BatchEnv, slot: number, j: number): number => env.catalog.tools[j].skill[env.currentType(slot)] ?? -Infinity;

/** Uniform over the allowed actions, submit included. */
export function randomPolicy(): BatchPolicy {
  return policy('random', (env, i) => {
    const options = [...allowedByCost(env, i), env.submitAction];
    const u = counterUniform(env.keys[i], env.turn[i], 0, 0, 7);
    return options[Math.floor(u * options.length)];
  });
}

/** One call of `toolId` on every step it can do, else the orchestrator itself. */
export function alwaysPolicy(catalog: Catalog, toolId: string): BatchPolicy {
  const j = toolIndex(catalog, toolId);
  if (j < 0) throw new Error(`always:${toolId}: no tool "${toolId}" in catalog "${catalog.name}"`);
  return policy(`always:${toolId}`, (env, i) => (env.stepAttempts[i] === 0 && env.allowed(i, j) ? j : env.submitAction));
}

/** Basic tools on the step types they can do (the strongest one), `model` on the rest. */
export function toolsPlusPolicy(catalog: Catalog, model: string): BatchPolicy {
  const m = toolIndex(catalog, model);
  if (m < 0) throw new Error(`tools+${model}: no tool "${model}" in catalog "${catalog.name}"`);
  return policy(`tools+${model}`, (env, i) => {
    if (env.stepAttempts[i] > 0) return env.submitAction;
    let best = -1;
    for (let j = 0; j < env.nTools; j++) {
      if (env.catalog.tools[j].kind !== 'basic' || !env.allowed(i, j)) continue;
      if (best < 0 || skillNow(env, i, j) > skillNow(env, i, best)) best = j;
    }
    if (best >= 0) return best;
    return env.allowed(i, m) ? m : env.submitAction;
  });
}

/** The cheapest tool able to do the step, once. */
export function cheapestPolicy(): BatchPolicy {
  return policy('cheapest', (env, i) => (env.stepAttempts[i] === 0 ? (allowedByCost(env, i)[0] ?? env.submitAction) : env.submitAction));
}

/**
 * Cheapest first; while the best confidence on the step is below θ, escalate to the next
 * stronger tool (cost order, each rung more skilled than the last), keeping enough turns to
 * finish the remaining steps.
 */
export function cascadePolicy(theta: number): BatchPolicy {
  if (!(theta >= 0 && theta <= 1)) throw new Error(`cascade:${theta}: θ must be in [0, 1]`);
  return policy(`cascade:${theta}`, (env, i) => {
    const ladder: number[] = [];
    for (const j of allowedByCost(env, i)) {
      const last = ladder[ladder.length - 1];
      if (last === undefined || skillNow(env, i, j) > skillNow(env, i, last)) ladder.push(j);
    }
    const k = env.stepAttempts[i];
    if (k > 0 && env.bestConf[i] >= theta) return env.submitAction;
    const next = ladder[k];
    const stepsAfter = env.nSteps[i] - env.stepIdx[i] - 1;
    const turnsLeftAfterCall = env.sim.maxTurns - env.turn[i] - 1;
    if (next === undefined || turnsLeftAfterCall < 1 + 2 * stepsAfter) return env.submitAction;
    return next;
  });
}

/** Fewest calls of tool j on the slot's step whose highest-confidence attempt is right (0: none within `max`). */
function callsToSucceed(env: BatchEnv, i: number, j: number, max: number): number {
  const s = env.stepIdx[i], key = env.keys[i];
  const p = env.pTool[(i * MAX_STEPS + s) * env.nTools + j];
  const cal = env.catalog.tools[j].calibration;
  let best = -1, bestRight = false;
  for (let k = 0; k < max; k++) {
    const right = env.draw(key, s, j, k, CH_SUCCESS) < p;
    const c = confidence(right, cal, env.draw(key, s, j, k, CH_CONFIDENCE));
    if (c > best) { best = c; bestRight = right; }
    if (bestRight) return k + 1;
  }
  return 0;
}

/**
 * Sees the hidden draws: on each step, solves it alone if that works, else takes the cheapest
 * plan "n calls of one tool" whose committed (highest-confidence) result is right, within the
 * turns the remaining steps leave. An upper bound for accuracy at low cost.
 */
export function oraclePolicy(): BatchPolicy {
  return policy('oracle', (env, i) => {
    const s = env.stepIdx[i];
    const k = env.stepAttempts[i];
    if (k === 0 && env.draw(env.keys[i], s, env.nTools, 0, CH_SUCCESS) < env.pSelf[i * MAX_STEPS + s]) return env.submitAction;
    const turnAtStart = env.turn[i] - k;
    const budget = env.sim.maxTurns - turnAtStart - 1 - 2 * (env.nSteps[i] - s - 1);
    let plan = -1, planCalls = 0, planCost = Infinity;
    for (const j of allowedByCost(env, i)) {
      const n = callsToSucceed(env, i, j, budget);
      const cost = n * expectedCallCost(env.catalog.tools[j], env.promptTokens[i]);
      if (n > 0 && cost < planCost) { plan = j; planCalls = n; planCost = cost; }
    }
    return plan >= 0 && k < planCalls ? plan : env.submitAction;
  });
}

export const BASELINE_FORMS = ['random', 'always:<tool>', 'tools+<model>', 'cheapest', 'cascade:<θ>', 'oracle'];

/** Builds a baseline from its name, e.g. "cascade:0.7" or "tools+gpt-5". */
export function baselineFromName(name: string, catalog: Catalog): BatchPolicy {
  if (name === 'random') return randomPolicy();
  if (name === 'cheapest') return cheapestPolicy();
  if (name === 'oracle') return oraclePolicy();
  if (name.startsWith('always:')) return alwaysPolicy(catalog, name.slice(7));
  if (name.startsWith('tools+')) return toolsPlusPolicy(catalog, name.slice(6));
  if (name.startsWith('cascade:')) {
    const theta = Number(name.slice(8));
    if (name.length === 8 || !Number.isFinite(theta)) throw new Error(`${name}: θ must be a number, e.g. cascade:0.7`);
    return cascadePolicy(theta);
  }
  throw new Error(`unknown policy "${name}" (baselines: ${BASELINE_FORMS.join(', ')}; or a trained orchestrator.json)`);
}
