// The strongest simple rule on the information the learned policy reads: a one-step greedy lookahead
// with one knob λ, the price of a unit of cost. It reads the same estimates (sim/estimates.ts) as the
// policy's features and nothing else. Each turn it values what it could do next as "chance of the
// answer it would then give, minus λ times what it costs":
//   answer now with model j:     p̂_j − λ·c_j          (the driver itself answering: c = 0)
//   one more piece of evidence:  p_find·(V⁺ − V) − λ·c_e, V = max_j (p̂_j − λ·c_j), V⁺ the same with the find's lift
// and gathers while some evidence is worth more than nothing and turns allow, then answers with the
// best. c is the P-weighted mix of the call's expected cost and latency, each over the catalog's mean
// call (so λ is unit-free); with no weight on cost or latency, λ does nothing (its tuning then says
// λ = 0). A P that weighs tools ("Avoid API calls") is read as a person would: evidence and answers each
// come only from slots whose model and tool it weighs, whenever one such slot is allowed. λ is tuned per preference on training tasks only (`tuneGreedy`); `greedy:<λ>` names the rule
// at a fixed λ.

import { INSTRUCTION_PRESETS } from '../instructionPresets';
import { DEFAULT_PREFERENCE, DEFAULT_PREFERENCE_LABEL, type Preference } from '../preference';
import { expectedCallCost, expectedLatencyMs, type Catalog } from '../sim/catalog';
import type { SimConfig } from '../sim/callModel';
import type { PublicView } from '../sim/observation';
import { evidenceEstimate, nextLift, unitEstimate } from '../sim/estimates';
import { SELF, type Slot } from '../sim/slots';
import type { Task } from '../sim/tasks';
import { evaluatePolicy } from './evaluate';
import { allowedSlots, policy, slotCost, slotLatencyMs, turnsLeft, unitsLeft, type BatchPolicy } from './policy';

/**
 * The λ the tuning tries: 0.001 to 1, about three to a factor of ten. Not 0: with cost free the rule buys
 * evidence until its turns run out (12 GPT-5 calls a task), which is `repeat`, not a rule that weighs cost.
 */
export const LAMBDA_GRID: readonly number[] = [0.001, 0.002, 0.003, 0.005, 0.007, 0.01, 0.015, 0.02, 0.03, 0.05, 0.07, 0.1, 0.2, 0.5, 1];

/** The rule's name at λ (as `baselineFromName` reads it). */
export const greedyName = (lambda: number): string => `greedy:${lambda}`;

/** The catalog's mean enabled call: the units of the rule's cost and latency. */
function scales(catalog: Catalog): { cost: number; latencyMs: number } {
  const on = catalog.tools.filter((t) => t.enabled);
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, x) => a + x, 0) / xs.length : 0);
  return { cost: Math.max(mean(on.map((t) => expectedCallCost(t, 1000))), 1e-12),
    latencyMs: Math.max(mean(on.map((t) => expectedLatencyMs(t))), 1) };
}

/** The greedy rule at price λ for preference P (its cost and latency weights mix c). */
export function greedyPolicy(catalog: Catalog, lambda: number, preference: Preference = DEFAULT_PREFERENCE,
  name = greedyName(lambda)): BatchPolicy {
  if (!(lambda >= 0 && Number.isFinite(lambda))) throw new Error(`${name}: λ must be a number ≥ 0`);
  const scale = scales(catalog), wSum = preference.cost + preference.latency;
  const wCost = wSum > 0 ? preference.cost / wSum : 0, wLatency = wSum > 0 ? preference.latency / wSum : 0;
  const price = (env: PublicView, i: number, s: number): number => (wSum === 0 ? 0
    : lambda * (wCost * slotCost(env, i, s) / scale.cost + wLatency * slotLatencyMs(env, s) / scale.latencyMs));
  const weighs = Object.values(preference.tools).some((w) => w > 0);
  const liked = (slot: Slot): boolean => !weighs || ((slot.model === SELF || (preference.tools[catalog.tools[slot.model]?.id ?? ''] ?? 0) > 0)
    && (slot.tool < 0 || (preference.tools[catalog.tools[slot.tool]?.id ?? ''] ?? 0) > 0));
  /** The allowed slots of a kind, the liked ones only where there is one. */
  const options = (env: PublicView, i: number, answer: boolean): number[] => {
    const all = allowedSlots(env, i, (x) => (x.role === 'answer') === answer);
    const mine = all.filter((s) => liked(env.slots[s] as Slot));
    return mine.length ? mine : all;
  };
  return policy(name, (env, i) => {
    const answers = options(env, i, true);
    const answerCost = answers.map((s) => price(env, i, s));
    /** The best answer's value, with `lift` more evidence on step k (k = −1: as things are). */
    const value = (k: number, lift: number): { v: number; s: number } => {
      let best = { v: unitEstimate(env, i, SELF, k, lift), s: env.submitAction };
      answers.forEach((s, n) => {
        const v = unitEstimate(env, i, (env.slots[s] as Slot).model, k, lift) - (answerCost[n] as number);
        if (v > best.v) best = { v, s };
      });
      return best;
    };
    const now = value(-1, 0);
    if (turnsLeft(env, i) > unitsLeft(env, i)) {
      let pick = -1, bestGain = 0;
      for (const s of options(env, i, false)) {
        const k = env.target(i, s);
        if (k < 0) continue;
        const gain = evidenceEstimate(env, i, s, k) * (value(k, nextLift(env, i, s)).v - now.v) - price(env, i, s);
        if (gain > bestGain) { bestGain = gain; pick = s; }
      }
      if (pick >= 0) return pick;
    }
    return now.s;
  });
}

export interface TunedRule {
  lambda: number;
  /** Its mean preference-weighted score on the training tasks (evaluate.ts, preferenceScore). */
  score: number;
  /** Every λ tried, with its score. */
  tried: { lambda: number; score: number }[];
}

/**
 * The λ of LAMBDA_GRID with the best mean preference-weighted score (outcome-gated, cost and latency on
 * fixed scales) for P on `tasks`, which must be training tasks: the rule is chosen where the policy
 * learns, never on the samples reported. Ties go to the larger λ (the cheaper rule).
 */
export async function tuneGreedy(catalog: Catalog, sim: SimConfig, tasks: readonly Task[], preference: Preference,
  seed: number): Promise<TunedRule> {
  const tried: TunedRule['tried'] = [];
  // P weighs neither cost nor latency: λ changes nothing, so there is nothing to tune (said as λ = 0).
  for (const lambda of preference.cost + preference.latency > 0 ? LAMBDA_GRID : [0]) {
    const r = await evaluatePolicy(greedyPolicy(catalog, lambda, preference), tasks, catalog, sim, { seed, preference });
    tried.push({ lambda, score: r.score ?? 0 });
  }
  const best = tried.reduce((b, x) => (x.score >= b.score ? x : b));
  return { lambda: best.lambda, score: best.score, tried };
}

/** The rule's λ for each preference `reproduce` reads the tables at (the default P and every instruction preset). */
export interface RuleLambdas {
  byPreset: { preset: string; lambda: number; score: number }[];
  /** λ for P (the default's for a P no preset has). */
  of(p: Preference): number;
}

/** The default P and every instruction preset, by name. */
const presetsOf = (catalog: Catalog): { name: string; preference: Preference }[] => [
  { name: DEFAULT_PREFERENCE_LABEL, preference: DEFAULT_PREFERENCE },
  ...INSTRUCTION_PRESETS.map((x) => ({ name: x.name, preference: x.preference(catalog) }))];

/** The names of the preferences the rule is tuned for: the default P and every instruction preset. */
export const presetNames = (catalog: Catalog): string[] => presetsOf(catalog).map((p) => p.name);

/** The lookup of λ by P from λs by preset name (as tuned, or as a run over seeds wrote them down); a P of no preset gets the default P's. */
export function ruleLambdas(catalog: Catalog, byPreset: RuleLambdas['byPreset']): RuleLambdas {
  const found = new Map<string, number>();
  for (const p of presetsOf(catalog)) {
    const x = byPreset.find((b) => b.preset === p.name);
    if (x) found.set(JSON.stringify(p.preference), x.lambda);
  }
  const fallback = byPreset.find((b) => b.preset === DEFAULT_PREFERENCE_LABEL)?.lambda ?? LAMBDA_GRID[0] as number;
  return { byPreset, of: (p) => found.get(JSON.stringify(p)) ?? fallback };
}

/** Tunes λ for the default P and each instruction preset on `training` tasks (the recipe's pool). */
export async function tuneForPresets(catalog: Catalog, sim: SimConfig, training: readonly Task[], seed: number): Promise<RuleLambdas> {
  const byPreset: RuleLambdas['byPreset'] = [];
  for (const p of presetsOf(catalog)) {
    const t = await tuneGreedy(catalog, sim, training, p.preference, seed);
    byPreset.push({ preset: p.name, lambda: t.lambda, score: t.score });
  }
  return ruleLambdas(catalog, byPreset);
}
