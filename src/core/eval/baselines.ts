// Policies that need no learning — the landscape a trained orchestrator must beat. Routing
// baselines driven by the catalog's own orchestrator: random, always:<tool>, cheapest,
// repeat:<tool>:<k> (best-of-k) and cascade:<θ> (FrugalGPT-style escalation on confidence).
// The paper's model-driven rows (tools+X, notools:X, prompted:X) live in modelDriven.ts, the
// oracle in oracle.ts; `baselineFromName` builds any of them.

import { toolIndex, type Catalog } from '../sim/catalog';
import type { SimConfig } from '../sim/callModel';
import { counterUniform } from '../sim/rng';
import { notoolsPolicy, promptedPolicy, toolsPlusPolicy } from './modelDriven';
import { oraclePolicy } from './oracle';
import { answerersByCost, policy, skillNow, turnsForStep, type BatchPolicy } from './policy';
import { parseDecimal } from '../decimal';

/** Uniform over the allowed actions, submit included. */
export function randomPolicy(): BatchPolicy {
  return policy('random', (env, i) => {
    const options: number[] = [];
    for (let j = 0; j < env.nTools; j++) if (env.allowed(i, j)) options.push(j);
    options.push(env.submitAction);
    const u = counterUniform(env.keys[i], env.turn[i], 0, 0, 7);
    return options[Math.floor(u * options.length)] as number;
  });
}

/** One call of `toolId` on every step it can answer, else the orchestrator itself. */
export function alwaysPolicy(catalog: Catalog, toolId: string): BatchPolicy {
  const j = toolIndex(catalog, toolId);
  if (j < 0) throw new Error(`always:${toolId}: no tool "${toolId}" in catalog "${catalog.name}"`);
  return policy(`always:${toolId}`, (env, i) => (env.stepAttempts[i] === 0 && env.allowed(i, j) && env.answers(i, j) ? j : env.submitAction));
}

/** Best-of-k: `toolId` called k times on every step it can answer (turns permitting); the most confident answer is committed. */
export function repeatPolicy(catalog: Catalog, toolId: string, k: number): BatchPolicy {
  const j = toolIndex(catalog, toolId);
  if (j < 0) throw new Error(`repeat:${toolId}:${k}: no tool "${toolId}" in catalog "${catalog.name}"`);
  if (!(Number.isInteger(k) && k >= 1 && k <= 20)) throw new Error(`repeat:${toolId}:${k}: k must be an integer in [1, 20]`);
  return policy(`repeat:${toolId}:${k}`, (env, i) => {
    const able = env.allowed(i, j) && env.answers(i, j);
    return able && env.stepAttempts[i] < k && turnsForStep(env, i) > 1 ? j : env.submitAction;
  });
}

/** The cheapest tool able to answer the step, once. */
export function cheapestPolicy(): BatchPolicy {
  return policy('cheapest', (env, i) => (env.stepAttempts[i] === 0 ? (answerersByCost(env, i)[0] ?? env.submitAction) : env.submitAction));
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
    for (const j of answerersByCost(env, i)) {
      const last = ladder[ladder.length - 1];
      if (last === undefined || skillNow(env, i, j) > skillNow(env, i, last)) ladder.push(j);
    }
    const k = env.stepAttempts[i];
    if (k > 0 && env.bestConf[i] >= theta) return env.submitAction;
    const next = ladder[k];
    if (next === undefined || turnsForStep(env, i) < 2) return env.submitAction;
    return next;
  });
}

export const BASELINE_FORMS = ['random', 'always:<tool>', 'repeat:<tool>:<k>', 'tools+<model>', 'notools:<model>', 'prompted:<model>', 'cheapest', 'cascade:<θ>', 'oracle'];

/** Builds a baseline from its name, e.g. "cascade:0.7", "tools+gpt-5" or "repeat:gpt-5-mini:3". */
export function baselineFromName(name: string, catalog: Catalog, sim: SimConfig): BatchPolicy {
  if (name === 'random') return randomPolicy();
  if (name === 'cheapest') return cheapestPolicy();
  if (name === 'oracle') return oraclePolicy();
  if (name.startsWith('always:')) return alwaysPolicy(catalog, name.slice(7));
  if (name.startsWith('tools+')) return toolsPlusPolicy(catalog, name.slice(6), sim);
  if (name.startsWith('notools:')) return notoolsPolicy(catalog, name.slice(8), sim);
  if (name.startsWith('prompted:')) return promptedPolicy(catalog, name.slice(9), sim);
  if (name.startsWith('repeat:')) {
    const m = /^repeat:(.+):([^:]+)$/.exec(name);
    if (!m) throw new Error(`${name}: write repeat:<tool>:<k>, e.g. repeat:gpt-5-mini:3`);
    if (!/^\d+$/.test(m[2] as string)) throw new Error(`${name}: k must be an integer in [1, 20]`); // decimal digits (not 0x3, 2.5 or 1e1)
    return repeatPolicy(catalog, m[1] as string, Number(m[2]));
  }
  if (name.startsWith('cascade:')) {
    const theta = parseDecimal(name.slice(8)); // a decimal number (not 0x1)
    if (name.length === 8 || !Number.isFinite(theta)) throw new Error(`${name}: θ must be a number, e.g. cascade:0.7`);
    return cascadePolicy(theta);
  }
  throw new Error(`unknown policy "${name}" (baselines: ${BASELINE_FORMS.join(', ')}; or a trained orchestrator.json)`);
}
