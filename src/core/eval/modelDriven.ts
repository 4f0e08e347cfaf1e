// The paper's baseline rows in which a model is the orchestrator (ToolOrchestra Table 1, Table 15):
//  - tools+<model>: "<model> with basic tools": on each step it calls the basic tool that can act
//    (search, code) and answers with the result in its context;
//  - notools:<model>: the model answers every step alone;
//  - prompted:<model>: the model prompted as an orchestrator over all tools, with the
//    self-enhancement bias the paper measured: it routes to models as its Table 15 row does.
// In all three the model drives: every turn is written (and paid) at its prices and speed, and a
// step it answers itself uses its own skill and latent (env.ts, Driver).

import { modelDriver, orchestratorDriver, toolIndex, type Catalog, type Driver } from '../sim/catalog';
import type { SimConfig } from '../sim/callModel';
import type { BatchEnv } from '../sim/env';
import { counterUniform } from '../sim/rng';
import { policy, type BatchPolicy } from './policy';

/** The driver for a model id: a catalog model, or the catalog's own orchestrator (e.g. prompted:qwen3-8b). */
function driverFor(catalog: Catalog, model: string, sim: SimConfig, form: string): Driver {
  if (model === catalog.orchestrator.id) return orchestratorDriver(catalog.orchestrator);
  const j = toolIndex(catalog, model);
  const t = catalog.tools[j];
  if (!t) throw new Error(`${form}${model}: no tool "${model}" in catalog "${catalog.name}"`);
  if (t.kind === 'basic') throw new Error(`${form}${model}: "${model}" is a basic tool, not a model that can drive`);
  return modelDriver(t, sim.driverTurnShare);
}

/**
 * The basic tool to call on this step before answering: the most skilled one that can answer the
 * step, else the one whose result lifts it most; −1 when none can act or one was already called.
 */
function basicToolFor(env: BatchEnv, i: number): number {
  const J = env.nTools, type = env.currentType(i);
  for (let j = 0; j < J; j++) if (env.catalog.tools[j].kind === 'basic' && env.stepCalls[i * J + j] > 0) return -1;
  let best = -1, bestScore = -Infinity;
  for (let j = 0; j < J; j++) {
    const t = env.catalog.tools[j];
    if (t.kind !== 'basic' || !env.allowed(i, j)) continue;
    const score = env.answers(i, j) ? 100 + (t.skill[type] ?? 0) : (t.context?.[type] ?? 0);
    if (score > bestScore) { best = j; bestScore = score; }
  }
  return best;
}

/** "<model> with basic tools": the basic tool that can act on each step, then the model answers with its result in context. */
export function toolsPlusPolicy(catalog: Catalog, model: string, sim: SimConfig): BatchPolicy {
  const driver = driverFor(catalog, model, sim, 'tools+');
  return policy(`tools+${model}`, (env, i) => {
    const b = basicToolFor(env, i);
    return b >= 0 ? b : env.submitAction;
  }, { driver });
}

/** "<model>, no tools": the model answers the whole question itself, in one generation. */
export function notoolsPolicy(catalog: Catalog, model: string, sim: SimConfig): BatchPolicy {
  const driver: Driver = { ...driverFor(catalog, model, sim, 'notools:'), answersAtOnce: true };
  return policy(`notools:${model}`, (env) => env.submitAction, { driver });
}

/**
 * How a prompted orchestrator shares its model calls out: ToolOrchestra Table 15 (mean calls per
 * task over HLE, FRAMES and τ²), model columns only. Prompted GPT-5 sends 98% of them to GPT-5
 * or GPT-5-mini; prompted Qwen3-8B sends 71% to GPT-5 (the paper's App. A: 73% of hard questions).
 */
export const PROMPTED_ROUTING: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  'gpt-5': { 'gpt-5': 2.7, 'gpt-5-mini': 5.6, 'qwen2.5-coder-32b': 0.2 },
  'claude-opus-4.1': { 'gpt-5': 6.2, 'gpt-5-mini': 0.2, 'qwen3-32b': 0.3, 'qwen2.5-coder-32b': 0.3, 'qwen2.5-math-72b': 0.1, 'llama-3.3-70b': 0.1 },
  'qwen3-8b': { 'gpt-5': 6.0, 'gpt-5-mini': 0.5, 'qwen3-32b': 1.4, 'qwen2.5-coder-32b': 0.5 },
  'llama-3.3-70b': { 'gpt-5': 1.8, 'qwen3-32b': 0.1, 'qwen2.5-math-72b': 1.4, 'qwen2.5-math-7b': 0.3, 'llama-3.3-70b': 4.8 },
};

/**
 * "<model> as a prompted orchestrator over all tools": on each step the basic tool that can act,
 * then ONE model drawn from its Table 15 routing weights among those that can answer the step
 * (a fixed rule, seeded per episode and step), then it commits the most confident answer.
 */
export function promptedPolicy(catalog: Catalog, model: string, sim: SimConfig): BatchPolicy {
  const routing = PROMPTED_ROUTING[model];
  if (!routing) throw new Error(`prompted:${model}: no routing rule for "${model}" (known: ${Object.keys(PROMPTED_ROUTING).join(', ')})`);
  const driver = driverFor(catalog, model, sim, 'prompted:');
  const weights = catalog.tools.map((t) => routing[t.id] ?? 0);
  return policy(`prompted:${model}`, (env, i) => {
    const b = basicToolFor(env, i);
    if (b >= 0) return b;
    if (env.stepAttempts[i] > 0 && env.catalog.tools.some((t, j) => t.kind !== 'basic' && env.stepCalls[i * env.nTools + j] > 0)) return env.submitAction;
    let total = 0;
    for (let j = 0; j < env.nTools; j++) if (weights[j] && env.allowed(i, j) && env.answers(i, j)) total += weights[j] as number;
    if (total === 0) return env.submitAction;
    let u = counterUniform(env.keys[i], env.stepIdx[i], 0xb1a5, 0, 9) * total;
    for (let j = 0; j < env.nTools; j++) {
      if (!weights[j] || !env.allowed(i, j) || !env.answers(i, j)) continue;
      u -= weights[j] as number;
      if (u <= 0) return j;
    }
    return env.submitAction;
  }, { driver });
}
