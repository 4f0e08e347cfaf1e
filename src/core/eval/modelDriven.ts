// The paper's baseline rows in which a model is the orchestrator (ToolOrchestra Table 1, Table 15):
// tools+<model> (writes its own queries and programs, then answers), notools:<model> (answers alone in
// one generation) and prompted:<model> (prompted as an orchestrator over all tools, with the paper's
// self-enhancement bias). The model drives: every turn is paid at its prices and speed and its own
// answers use its skill and latent (env.ts, Driver); a model outside the catalog comes from the library.

import { modelDriver, orchestratorDriver, toolIndex, type Catalog, type Driver } from '../sim/catalog';
import type { SimConfig } from '../sim/callModel';
import type { BatchEnv } from '../sim/env';
import type { PublicView } from '../sim/observation';
import { MAX_STEPS } from '../sim/episode';
import { nextLift } from '../sim/estimates';
import { libraryTool } from '../sim/modelLibrary';
import { counterUniform } from '../sim/rng';
import { SELF, type Slot } from '../sim/slots';
import { allowedSlots, policy, turnsLeft, unitsLeft, type BatchPolicy } from './policy';

/** The driver for a model id: a catalog model, a library model, or the catalog's own orchestrator (e.g. prompted:qwen3-8b). */
function driverFor(catalog: Catalog, model: string, sim: SimConfig, form: string): Driver {
  if (model === catalog.orchestrator.id) return orchestratorDriver(catalog.orchestrator);
  // The model library's prices are in USD: a catalog in other units takes only its own models.
  const t = catalog.tools[toolIndex(catalog, model)] ?? (catalog.currency === 'USD' ? libraryTool(model) : undefined);
  if (!t) throw new Error(`${form}${model}: no model "${model}" in catalog "${catalog.name}"${catalog.currency === 'USD' ? ' or in the model library' : ''}`);
  if (t.kind === 'basic') throw new Error(`${form}${model}: "${model}" is a basic tool, not a model that can drive`);
  return modelDriver(t, sim.driverTurnShare, sim.delegateTurnShare);
}

/**
 * How many finds a model with tools seeks per step: one, and one more per 20 turns of budget (a larger
 * budget lets it keep searching, as the paper's GPT-5 does in its Figure 6, at about 4× the cost for 10×
 * the turns).
 */
export const findsSought = (budget: number): number => (budget >= 20 ? 2 : 1);

/**
 * Evidence the way a model with tools gathers it: among `candidates` (allowed evidence slots), one
 * whose target step has fewer than findsSought finds, the largest lift first; each step tried at most
 * twice per find sought, keeping a turn for every commit still owed. −1: time to answer.
 */
function nextEvidence(env: PublicView, i: number, candidates: readonly number[]): number {
  const sought = findsSought(env.budget[i] as number);
  if (turnsLeft(env, i) <= unitsLeft(env, i)) return -1;
  let best = -1, bestLift = 0;
  for (const s of candidates) {
    const k = env.target(i, s), idx = i * MAX_STEPS + k;
    // A find is what it judged one from the returned confidence (its belief), not what the world knows.
    if (k < 0 || Math.round(env.beliefFinds[idx] as number) >= sought || (env.tries[idx] as number) >= 2 * sought) continue;
    const lift = nextLift(env, i, s) + 100 * (env.needsPrior[idx] as number);
    if (lift > bestLift) { best = s; bestLift = lift; }
  }
  return best;
}

/** "<model> with basic tools": it writes its own queries and programs (self slots), then answers the unit itself. */
export function toolsPlusPolicy(catalog: Catalog, model: string, sim: SimConfig): BatchPolicy {
  const driver = driverFor(catalog, model, sim, 'tools+');
  return policy(`tools+${model}`, (env, i) => {
    const s = nextEvidence(env, i, allowedSlots(env, i, (x) => x.role !== 'answer' && x.model === SELF));
    return s >= 0 ? s : env.submitAction;
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

/** One of `slots` drawn by the routing weight of its model (a fixed rule seeded per episode, unit and call); −1 when none weighs. */
function drawByWeight(env: BatchEnv, i: number, slots: readonly number[], weights: readonly number[], salt: number): number {
  let total = 0;
  for (const s of slots) total += weights[(env.slots[s] as Slot).model] ?? 0;
  if (total === 0) return -1;
  let u = counterUniform(env.keys[i] as number, (env.unitIdx[i] as number) * 64 + (env.unitCalls[i] as number), 0xb1a5, salt, 9) * total;
  for (const s of slots) {
    u -= weights[(env.slots[s] as Slot).model] ?? 0;
    if (u <= 0 && (weights[(env.slots[s] as Slot).model] ?? 0) > 0) return s;
  }
  return slots.filter((s) => (weights[(env.slots[s] as Slot).model] ?? 0) > 0).at(-1) ?? -1;
}

/**
 * A prompted orchestrator's weights over a catalog its Table 15 row does not cover (the paper's Table 2
 * pool): it defers to the strongest models regardless of cost, as prompted orchestrators do (App. A:
 * Qwen3-8B sent 73% of hard questions to GPT-5) — each model weighted by e^(2·its mean skill).
 */
function strengthWeights(catalog: Catalog): number[] {
  return catalog.tools.map((t) => {
    if (t.kind === 'basic') return 0;
    const skills = [...Object.values(t.skill), ...Object.values(t.writes ?? {})].filter((x): x is number => x !== undefined);
    return skills.length ? Math.exp((2 * skills.reduce((a, x) => a + x, 0)) / skills.length) : 0;
  });
}

/**
 * "<model> as a prompted orchestrator over all tools": evidence as a model with tools gathers it, each
 * query or program written by a model drawn from its Table 15 routing weights; then ONE model drawn the
 * same way answers the unit (the driver itself when none of its weighted models can). Over a catalog
 * its row does not cover, it defers to the strongest models (strengthWeights).
 */
export function promptedPolicy(catalog: Catalog, model: string, sim: SimConfig): BatchPolicy {
  const routing = PROMPTED_ROUTING[model];
  if (!routing) throw new Error(`prompted:${model}: no routing rule for "${model}" (known: ${Object.keys(PROMPTED_ROUTING).join(', ')})`);
  const driver = driverFor(catalog, model, sim, 'prompted:');
  const fromRow = catalog.tools.map((t) => (Object.hasOwn(routing, t.id) ? (routing[t.id] as number) : 0));
  const weights = fromRow.some((w) => w > 0) ? fromRow : strengthWeights(catalog);
  return policy(`prompted:${model}`, (env, i) => {
    const writers = allowedSlots(env, i, (x) => x.role !== 'answer' && x.model !== SELF && (weights[x.model] ?? 0) > 0);
    const pick = nextEvidence(env, i, writers);
    if (pick >= 0) {
      // The writer is drawn by weight; its slot is the one whose find would lift most.
      const writer = drawByWeight(env, i, writers.filter((s) => env.target(i, s) === env.target(i, pick)), weights, 1);
      return writer >= 0 ? writer : pick;
    }
    const answer = drawByWeight(env, i, allowedSlots(env, i, (x) => x.role === 'answer'), weights, 2);
    return answer >= 0 ? answer : env.submitAction;
  }, { driver });
}
