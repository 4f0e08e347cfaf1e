// Policies that need no learning — the landscape a trained orchestrator must beat. Routing baselines
// driven by the catalog's own orchestrator: random, always:<model>, cheapest, repeat:<model>:<k> (k
// queries or programs, then answer) and cascade:<θ> (FrugalGPT-style escalation while the signal is
// below θ). The paper's model-driven rows live in modelDriven.ts, the hindsight baseline in hindsight.ts;
// `baselineFromName` builds any of them.

import { toolIndex, type Catalog } from '../sim/catalog';
import type { SimConfig } from '../sim/callModel';
import type { BatchEnv } from '../sim/env';
import { nextLift, unitEstimate } from '../sim/estimates';
import { counterUniform } from '../sim/rng';
import { SELF } from '../sim/slots';
import { notoolsPolicy, promptedPolicy, toolsPlusPolicy } from './modelDriven';
import { hindsightPolicy } from './hindsight';
import { greedyPolicy } from './greedyRule';
import { allowedSlots, byCost, policy, turnsLeft, unitsLeft, type BatchPolicy } from './policy';
import { parseDecimal } from '../decimal';

/** Uniform over the allowed actions, submit included. */
export function randomPolicy(): BatchPolicy {
  return policy('random', (env, i) => {
    const options = [...allowedSlots(env, i, () => true), env.submitAction];
    const u = counterUniform(env.keys[i] as number, env.turn[i] as number, 0, 0, 7);
    return options[Math.floor(u * options.length)] as number;
  });
}

function modelIndex(catalog: Catalog, id: string, form: string): number {
  const j = toolIndex(catalog, id);
  if (j < 0) throw new Error(`${form}: no tool "${id}" in catalog "${catalog.name}"`);
  if (catalog.tools[j]?.kind === 'basic') throw new Error(`${form}: "${id}" is a basic tool, not a model`);
  return j;
}

/** The answer slot of model j if episode i may use it now, else submit. */
const answerOr = (env: BatchEnv, i: number, j: number): number =>
  allowedSlots(env, i, (s) => s.role === 'answer' && s.model === j)[0] ?? env.submitAction;

/** `model` answers every unit, with no evidence gathered (the orchestrator itself where it cannot). */
export function alwaysPolicy(catalog: Catalog, model: string): BatchPolicy {
  const j = modelIndex(catalog, model, `always:${model}`);
  return policy(`always:${model}`, (env, i) => answerOr(env, i, j));
}

/** `model` writes k queries or programs for each unit (the one whose find lifts most each time, turns permitting), then answers it. */
export function repeatPolicy(catalog: Catalog, model: string, k: number): BatchPolicy {
  const form = `repeat:${model}:${k}`;
  const j = modelIndex(catalog, model, form);
  if (!(Number.isInteger(k) && k >= 1 && k <= 20)) throw new Error(`${form}: k must be an integer in [1, 20]`);
  return policy(form, (env, i) => {
    if ((env.unitCalls[i] as number) < k && turnsLeft(env, i) > unitsLeft(env, i)) {
      const writes = allowedSlots(env, i, (s) => s.role !== 'answer' && s.model === j).sort((a, b) => nextLift(env, i, b) - nextLift(env, i, a) || a - b);
      if (writes[0] !== undefined) return writes[0];
    }
    return answerOr(env, i, j);
  });
}

/** The cheapest model able to answer the unit, once, with no evidence. */
export function cheapestPolicy(): BatchPolicy {
  return policy('cheapest', (env, i) => byCost(env, i, allowedSlots(env, i, (s) => s.role === 'answer'))[0] ?? env.submitAction);
}

/**
 * FrugalGPT-style: evidence from the cheapest writer slot first, then the next dearer one, while the
 * best signal on the unit is below θ (at most three calls, turns permitting); then the cheapest model
 * whose estimated chance on the unit clears θ, else the likeliest one.
 */
export function cascadePolicy(theta: number): BatchPolicy {
  if (!(theta >= 0 && theta <= 1)) throw new Error(`cascade:${theta}: θ must be in [0, 1]`);
  return policy(`cascade:${theta}`, (env, i) => {
    const n = env.unitCalls[i] as number;
    if ((n === 0 || (env.bestSignal[i] as number) < theta) && n < 3 && turnsLeft(env, i) > unitsLeft(env, i)) {
      const ladder = byCost(env, i, allowedSlots(env, i, (s) => s.role !== 'answer'));
      const next = ladder[Math.min(n, ladder.length - 1)];
      if (next !== undefined) return next;
    }
    const answers = byCost(env, i, allowedSlots(env, i, (s) => s.role === 'answer'));
    const good = answers.find((s) => unitEstimate(env, i, env.slots[s]?.model ?? SELF) >= theta);
    if (good !== undefined) return good;
    let best = env.submitAction, bestP = unitEstimate(env, i, SELF);
    for (const s of answers) {
      const p = unitEstimate(env, i, env.slots[s]?.model ?? SELF);
      if (p > bestP) { best = s; bestP = p; }
    }
    return best;
  });
}

export const BASELINE_FORMS = ['random', 'always:<model>', 'repeat:<model>:<k>', 'tools+<model>', 'notools:<model>',
  'prompted:<model>', 'cheapest', 'cascade:<θ>', 'greedy:<λ>', 'hindsight'];

/** Builds a baseline from its name, e.g. "cascade:0.7", "tools+gpt-5" or "repeat:gpt-5-mini:3". */
export function baselineFromName(name: string, catalog: Catalog, sim: SimConfig): BatchPolicy {
  if (name === 'random') return randomPolicy();
  if (name === 'cheapest') return cheapestPolicy();
  if (name === 'hindsight') return hindsightPolicy();
  if (name === 'oracle') throw new Error('"oracle" is called "hindsight" now: it sees the draws and takes the cheapest right plan with '
    + 'one find a step, which is not an upper bound (a policy that gathers more evidence can be more accurate); write hindsight');
  if (name.startsWith('always:')) return alwaysPolicy(catalog, name.slice(7));
  if (name.startsWith('tools+')) return toolsPlusPolicy(catalog, name.slice(6), sim);
  if (name.startsWith('notools:')) return notoolsPolicy(catalog, name.slice(8), sim);
  if (name.startsWith('prompted:')) return promptedPolicy(catalog, name.slice(9), sim);
  if (name.startsWith('repeat:')) {
    const m = /^repeat:(.+):([^:]+)$/.exec(name);
    if (!m) throw new Error(`${name}: write repeat:<model>:<k>, e.g. repeat:gpt-5-mini:3`);
    if (!/^\d+$/.test(m[2] as string)) throw new Error(`${name}: k must be an integer in [1, 20]`); // decimal digits (not 0x3, 2.5 or 1e1)
    return repeatPolicy(catalog, m[1] as string, Number(m[2]));
  }
  if (name.startsWith('cascade:')) {
    const theta = parseDecimal(name.slice(8)); // a decimal number (not 0x1)
    if (name.length === 8 || !Number.isFinite(theta)) throw new Error(`${name}: θ must be a number, e.g. cascade:0.7`);
    return cascadePolicy(theta);
  }
  if (name.startsWith('greedy:')) {
    const lambda = parseDecimal(name.slice(7));
    if (name.length === 7 || !Number.isFinite(lambda) || lambda < 0) throw new Error(`${name}: λ must be a number ≥ 0, e.g. greedy:0.1`);
    return greedyPolicy(catalog, lambda);
  }
  throw new Error(`unknown policy "${name}" (baselines: ${BASELINE_FORMS.join(', ')}; or a trained orchestrator.json)`);
}
