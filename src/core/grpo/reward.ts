// The multi-objective reward's arithmetic (ToolOrchestra §3.2 and the second seed note): M(τ) per
// trajectory, min-max normalised over its group, then gated and weighted into R under one of the modes
// that rewardModes.ts describes (its labels, formulas and explanations live there, not here).

import { measuresShares, PREFERENCE_PART, type RewardMode } from './rewardModes';

/** What the reward needs to know of one trajectory. */
export interface TrajectoryStats {
  /** Calls per tool, in catalog order. */
  calls: ArrayLike<number>;
  outcome: number;
  costUSD: number;
  latencyS: number;
  /** Tokens sent to and returned by tools (weighted mode). */
  tokens: number;
}

export interface WeightedCoefficients {
  wOutcome: number;
  wEfficiency: number;
  wPreference: number;
  perCall: number;
  perToken: number;
  latencyTargetS: number;
  fastBonus: number;
  slowBonus: number;
}

/** The seed note's numbers: −0.01 per call, −0.0001 per token, 0.5 if solved quickly else 0.1. */
export const DEFAULT_WEIGHTED: Readonly<WeightedCoefficients> = {
  wOutcome: 1, wEfficiency: 1, wPreference: 1, perCall: 0.01, perToken: 0.0001, latencyTargetS: 30, fastBonus: 0.5, slowBonus: 0.1,
};

/** The names of M's dimensions, in its order: the tools, then outcome, −cost, −latency. */
export function measureDims(toolIds: readonly string[]): string[] {
  return [...toolIds, 'outcome', '−cost', '−latency'];
}

/** M(τ) = [calls…, outcome, −cost, −latency]; with `shares`, each tool's share of the calls (all 0 without a call). */
export function measureVector(t: TrajectoryStats, nTools: number, shares = false): number[] {
  let total = 0;
  if (shares) for (let j = 0; j < nTools; j++) total += t.calls[j] ?? 0;
  const m: number[] = [];
  for (let j = 0; j < nTools; j++) m.push(shares ? (total > 0 ? (t.calls[j] ?? 0) / total : 0) : t.calls[j] ?? 0);
  m.push(t.outcome, -t.costUSD, -t.latencyS);
  return m;
}

/** Per-dimension min-max over the group; a constant dimension becomes 0. */
export function normaliseGroup(ms: readonly number[][]): number[][] {
  if (ms.length === 0) return [];
  const k = (ms[0] as number[]).length;
  const lo = new Array<number>(k).fill(Infinity), hi = new Array<number>(k).fill(-Infinity);
  for (const m of ms) m.forEach((x, d) => { lo[d] = Math.min(lo[d] as number, x); hi[d] = Math.max(hi[d] as number, x); });
  return ms.map((m) => m.map((x, d) => {
    const span = (hi[d] as number) - (lo[d] as number);
    return span > 0 ? (x - (lo[d] as number)) / span : 0;
  }));
}

export interface GroupReward {
  rewards: number[];
  mRaw: number[][];
  mNorm: number[][];
}

/** ToolOrchestra reward of a group; `pref` = P in M's order (tools…, outcome, cost, latency). */
export function toolorchestraRewards(group: readonly TrajectoryStats[], pref: readonly number[]): GroupReward {
  return groupRewards('toolorchestra', group, pref);
}

/**
 * The reward as the official training code computes it (checked against outputs of that code in
 * test/fixtures/verl-reference.json, rewardGroups). Per group it keeps a min and max per key:
 * each tool over the rollouts that called it only, the outcome over all, and −cost, −latency over
 * all. A failed rollout gets 0; a successful one gets
 *  1. for every key with max > min — the tools AND the outcome, cost and latency keys — the term
 *     P_k·(v − min_k)/(max_k − min_k), where v is its calls of the tool (0 if it never called it,
 *     which can go negative) and 0 for the outcome, cost and latency keys: the outcome key adds 0,
 *     cost and latency each add the constant P_k·(0 − min_k)/(max_k − min_k), i.e. P_c·max cost /
 *     (max cost − min cost) — the double counting, the same for every success of the group;
 *  2. again, for outcome, latency and cost with max > min: P_o·1 + P_l·(±latency − min)/(span) +
 *     P_c·(±cost − min)/(span), with +latency and +cost in the numerators — the sign bug, which
 *     rewards spending and slowness — or −latency and −cost when `fixSign`.
 */
export function officialRewards(group: readonly TrajectoryStats[], pref: readonly number[], opts: { fixSign: boolean } = { fixSign: false }): number[] {
  const nTools = pref.length - 3;
  const range = (xs: readonly number[]) => ({ lo: Math.min(...xs), hi: Math.max(...xs) });
  const tools = Array.from({ length: nTools }, (_, j) => {
    const callers = group.map((t) => t.calls[j] ?? 0).filter((c) => c > 0);
    return callers.length ? range(callers) : null;
  });
  const outcome = range(group.map((t) => t.outcome));
  const negCost = range(group.map((t) => -t.costUSD));
  const negLatency = range(group.map((t) => -t.latencyS));
  const [pOutcome, pCost, pLatency] = [pref[nTools] as number, pref[nTools + 1] as number, pref[nTools + 2] as number];
  const term = (w: number, v: number, r: { lo: number; hi: number } | null) => (r && r.hi > r.lo ? (w * (v - r.lo)) / (r.hi - r.lo) : 0);
  return group.map((t) => {
    if (!t.outcome) return 0;
    let reward = 0;
    tools.forEach((r, j) => { reward += term(pref[j] as number, t.calls[j] ?? 0, r); });
    reward += term(pOutcome, 0, outcome) + term(pCost, 0, negCost) + term(pLatency, 0, negLatency);
    const sign = opts.fixSign ? -1 : 1;
    reward += term(pOutcome, t.outcome, outcome) + term(pLatency, sign * t.latencyS, negLatency) + term(pCost, sign * t.costUSD, negCost);
    return reward;
  });
}

export function weightedReward(t: TrajectoryStats, c: WeightedCoefficients): number {
  let nCalls = 0;
  for (let j = 0; j < t.calls.length; j++) nCalls += t.calls[j] as number;
  const efficiency = -c.perCall * nCalls - c.perToken * t.tokens;
  const preference = t.outcome && t.latencyS <= c.latencyTargetS ? c.fastBonus : c.slowBonus;
  return c.wOutcome * t.outcome + c.wEfficiency * efficiency + c.wPreference * preference;
}

/**
 * Gate and weight: the rewards of one group from its stats and its normalised M, under any mode
 * (the slow-motion phase "Gate and weight: R"; the trainer runs the same function). The paper's
 * modes put −cost and −latency in the numerator, so the cheapest success scores highest; the
 * official code takes min/max over −cost but puts +cost in the numerator (officialRewards).
 */
export function gateAndWeight(mode: RewardMode, group: readonly TrajectoryStats[], mNorm: readonly number[][],
  pref: readonly number[], weighted: WeightedCoefficients = DEFAULT_WEIGHTED): number[] {
  const weighedSum = (i: number) => (mNorm[i] as number[]).reduce((a, x, d) => a + x * (pref[d] as number), 0);
  switch (mode) {
    case 'toolorchestra': return group.map((t, i) => (t.outcome ? weighedSum(i) : 0));
    case 'success-first': {
      const total = pref.reduce((a, x) => a + x, 0);
      return group.map((t, i) => (t.outcome ? 1 + (total > 0 ? (PREFERENCE_PART * weighedSum(i)) / total : 0) : 0));
    }
    case 'toolorchestra-official': return officialRewards(group, pref);
    case 'weighted': return group.map((t) => weightedReward(t, weighted));
    case 'outcome': return group.map((t) => t.outcome);
  }
}

/** Rewards of one group under any mode (M is still reported for the inspector): measure, normalise, gate and weight. */
export function groupRewards(mode: RewardMode, group: readonly TrajectoryStats[], pref: readonly number[],
  weighted: WeightedCoefficients = DEFAULT_WEIGHTED): GroupReward {
  const mRaw = group.map((t) => measureVector(t, pref.length - 3, measuresShares(mode)));
  const mNorm = normaliseGroup(mRaw);
  return { rewards: gateAndWeight(mode, group, mNorm, pref, weighted), mRaw, mNorm };
}
