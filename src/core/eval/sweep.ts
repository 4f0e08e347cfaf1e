// Baseline families and their trade-off points: every baseline run on one held-out set,
// grouped into families (single models, models with basic tools, the cascade swept over θ, the
// greedy rule over λ, …),
// each with its hull and AIQ over a common cost range, and RouteLLM's APGR and CPT between the
// cheapest and the most accurate model working alone.

import { expectedCallCost, type Catalog } from '../sim/catalog';
import type { SimConfig } from '../sim/callModel';
import type { Task } from '../sim/tasks';
import type { Preference } from '../preference';
import type { BatchPolicy } from './policy';
import { baselineFromName } from './baselines';
import { greedyName, LAMBDA_GRID } from './greedyRule';
import { PROMPTED_ROUTING } from './modelDriven';
import { evaluatePolicy, type EvalResult } from './evaluate';
import { aiq, routingMetrics, type RoutingMetrics, type TradeoffPoint } from './frontier';

export const CASCADE_THRESHOLDS = [0, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99];

export interface Family {
  family: string;
  results: EvalResult[];
  aiq: number;
  /** APGR, CPT(50%), CPT(80%) between the routing references (routingReferences). */
  routing: RoutingMetrics;
}

/** The families whose every point is one model working alone: the routing metrics' references come from them. */
export const SINGLE_MODEL_FAMILIES: readonly string[] = ['always', 'notools', 'tools+model'];

/**
 * The weak and the strong reference of the routing metrics (as RouteLLM's Mixtral and GPT-4): among the points of one
 * model working alone (SINGLE_MODEL_FAMILIES), the cheapest (the more accurate of equals) and the most accurate (the
 * cheaper of equals).
 */
export function routingReferences(points: readonly TradeoffPoint[]): { weak: TradeoffPoint; strong: TradeoffPoint } | null {
  if (points.length === 0) return null;
  const weak = points.reduce((a, b) => (b.cost < a.cost || (b.cost === a.cost && b.accuracy > a.accuracy) ? b : a));
  const strong = points.reduce((a, b) => (b.accuracy > a.accuracy || (b.accuracy === a.accuracy && b.cost < a.cost) ? b : a));
  return { weak, strong };
}

/** The baseline families of a catalog: names of the policies in each. */
export function baselineFamilies(catalog: Catalog): { family: string; policies: string[] }[] {
  const answering = catalog.tools.filter((t) => t.enabled && t.kind !== 'basic' && Object.keys(t.skill).length > 0);
  const models = answering.map((t) => t.id);
  const generalists = answering.filter((t) => t.kind === 'generalist').map((t) => t.id);
  const known = new Set([...catalog.tools.filter((t) => t.kind !== 'basic').map((t) => t.id), catalog.orchestrator.id]);
  const prompted = Object.keys(PROMPTED_ROUTING).filter((m) => known.has(m) && Object.keys(PROMPTED_ROUTING[m] ?? {}).some((id) => models.includes(id)));
  // repeat: models that both write and answer, the two cheapest.
  const cheapModels = answering.filter((t) => t.writes).sort((a, b) => expectedCallCost(a, 1000) - expectedCallCost(b, 1000)).slice(0, 2).map((t) => t.id);
  const fams = [
    { family: 'random', policies: ['random'] },
    { family: 'cheapest', policies: ['cheapest'] },
    { family: 'always', policies: models.map((id) => `always:${id}`) },
    { family: 'repeat', policies: cheapModels.flatMap((id) => [`repeat:${id}:3`, `repeat:${id}:5`]) },
    { family: 'notools', policies: generalists.map((id) => `notools:${id}`) },
    { family: 'tools+model', policies: models.map((id) => `tools+${id}`) },
    { family: 'prompted', policies: prompted.map((id) => `prompted:${id}`) },
    { family: 'cascade', policies: CASCADE_THRESHOLDS.map((t) => `cascade:${t}`) },
    { family: 'greedy', policies: LAMBDA_GRID.map(greedyName) },
    { family: 'hindsight', policies: ['hindsight'] },
  ];
  return fams.filter((f) => f.policies.length > 0);
}

export const toPoint = (r: EvalResult): TradeoffPoint => ({ cost: r.meanCostUSD, accuracy: r.accuracy, label: r.policy });

/** The preferences a preference-conditioned policy is swept over: accuracy first → ever more weight on cost. */
export const PREFERENCE_SWEEP: readonly Preference[] = [
  { outcome: 1, cost: 0, latency: 0, tools: {} },
  { outcome: 1, cost: 0.1, latency: 0, tools: {} },
  { outcome: 1, cost: 0.25, latency: 0, tools: {} },
  { outcome: 1, cost: 0.5, latency: 0, tools: {} },
  { outcome: 1, cost: 0.75, latency: 0, tools: {} },
  { outcome: 1, cost: 1, latency: 0, tools: {} },
  { outcome: 0.5, cost: 1, latency: 0, tools: {} },
  { outcome: 0.2, cost: 1, latency: 0, tools: {} },
];

export const preferenceLabel = (p: Preference): string => `P(outcome ${p.outcome}, cost ${p.cost}, latency ${p.latency})`;

/**
 * Evaluates every baseline (and, if given, extra families such as a trained policy swept over P);
 * AIQ range = the cost span of all baseline points but the hindsight baseline's (it sees the draws).
 */
export async function sweepBaselines(
  tasks: readonly Task[], catalog: Catalog, sim: SimConfig, seed: number,
  extra: { family: string; policies: BatchPolicy[] }[] = [],
): Promise<{ families: Family[]; cMin: number; cMax: number; references: { weak: TradeoffPoint; strong: TradeoffPoint } | null }> {
  const evaluated: { family: string; results: EvalResult[] }[] = [];
  for (const f of baselineFamilies(catalog)) {
    const results: EvalResult[] = [];
    for (const p of f.policies) results.push(await evaluatePolicy(baselineFromName(p, catalog, sim), tasks, catalog, sim, { seed }));
    evaluated.push({ family: f.family, results });
  }
  const baselineCosts = evaluated.filter((f) => f.family !== 'hindsight').flatMap((f) => f.results.map((r) => r.meanCostUSD));
  const references = routingReferences(evaluated.filter((f) => SINGLE_MODEL_FAMILIES.includes(f.family))
    .flatMap((f) => f.results.map(toPoint)));
  for (const f of extra) {
    const results: EvalResult[] = [];
    for (const p of f.policies) results.push(await evaluatePolicy(p, tasks, catalog, sim, { seed }));
    evaluated.push({ family: f.family, results });
  }
  const cMin = Math.min(...baselineCosts), cMax = Math.max(...baselineCosts);
  const noRouting: RoutingMetrics = { apgr: null, cpt50: null, cpt80: null };
  const families = evaluated.map((f) => ({ ...f, aiq: aiq(f.results.map(toPoint), cMin, cMax),
    routing: references ? routingMetrics(f.results.map(toPoint), references.weak, references.strong) : noRouting }));
  return { families, cMin, cMax, references };
}
