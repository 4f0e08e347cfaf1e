// The model of one tool call, in one place: its chance of success (a logistic IRT curve with a
// per-item latent that every attempt of the tool on that step shares), the confidence signal it
// returns (its AUROC is the tool's `calibration`), its output tokens, latency and cost. The env,
// the task generator and the oracle all use these; docs/SIMULATION.md writes the same formulas
// out with the published numbers each parameter comes from.

import { baseLatencyMs, callCost, type ToolSpec } from './catalog';
import { counterUniform, hashString, normalQuantile, unitLogistic } from './rng';
import type { StepType } from './stepTypes';

/** Settings of the simulated world shared by the generator, the env and the oracle. */
export interface SimConfig {
  /** IRT discrimination a in p = σ(a·(skill − difficulty) + s·v). */
  discrimination: number;
  /** Maximum orchestrator turns per episode (every call and every submit is a turn). */
  maxTurns: number;
  /**
   * A call carries a brief, not the transcript: the task's prompt plus this many tokens per turn
   * so far (what the orchestrator passes on). The driver itself re-reads the whole transcript.
   */
  contextTokensPerTurn: number;
  /** Per-item spread s of a model's success logit, per step type (v ~ N(0, 1) per step and tool). */
  spread: Record<StepType, number>;
  /** The same spread for basic tools (search, execution): their misses are less item-bound. */
  basicSpread: number;
  /** Share ρ of the latent that every tool has in common on a step: v = √ρ·z_step + √(1−ρ)·e_tool. */
  sharedFactor: number;
  /** Logit penalty of a model on a step that needs a tool until a tool's result is in its context. */
  needsToolPenalty: number;
  /** A model that drives the episode (tools+X, notools:X) writes this share of its answer tokens on every routing turn. */
  driverTurnShare: number;
}

export const DEFAULT_SIM: Readonly<SimConfig> = {
  discrimination: 1.6,
  maxTurns: 12,
  contextTokensPerTurn: 400,
  spread: { retrieve: 7.4, compute: 4.3, reason: 4.3, code: 4.3, lookup: 3, act: 3 },
  basicSpread: 1,
  sharedFactor: 0.55,
  needsToolPenalty: 30,
  driverTurnShare: 0.75,
};

export function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

/** The part of a call's success logit fixed by the item: a·(skill − difficulty) + s·v. */
export function itemLogit(skill: number, difficulty: number, spread: number, latent: number, a: number): number {
  return a * (skill - difficulty) + spread * latent;
}

/** Draw channel of the per-item latents (episode draws use channels 0–3). */
export const CH_LATENT = 5;
const SHARED_LATENT = 0x5ea7ed;

/** The key of a tool's (or driver's) latents: its id hashed, so they follow the tool, not its catalog position. */
export const latentKey = (id: string): number => hashString(id);

/**
 * The latent v of one tool on one step of one task, drawn once and shared by every attempt:
 * v = √ρ·z + √(1−ρ)·e, z common to all tools on the step (models fail together), e the tool's own.
 * It depends on the task (its key), never on the episode: every rollout of a group meets the same item.
 */
export function stepLatent(taskKey: number, step: number, toolKey: number, rho: number): number {
  const z = normalQuantile(counterUniform(taskKey, step, SHARED_LATENT, 0, CH_LATENT));
  const e = normalQuantile(counterUniform(taskKey, step, toolKey, 1, CH_LATENT));
  return Math.sqrt(rho) * z + Math.sqrt(1 - rho) * e;
}

/** The spread of a tool's per-item latent on a step type. */
export function spreadOf(kind: ToolSpec['kind'] | 'driver', type: StepType, sim: SimConfig): number {
  return kind === 'basic' ? sim.basicSpread : sim.spread[type];
}

/**
 * Whether a call answers from its own knowledge on a step of this type: a model (or the driver),
 * or a basic tool that is `offline` for the type (a local index is not the live web). Such a call
 * is lifted by tool results in the context, and a step that needs a tool is out of its reach.
 */
export function knowledgeBound(who: Pick<ToolSpec, 'kind' | 'offline'> | 'driver', type: StepType): boolean {
  return who === 'driver' || who.kind !== 'basic' || who.offline?.includes(type) === true;
}

/**
 * The success logit of a call at the time it is made: the item logit, plus the boost of tool
 * results already in the context of this step, minus the penalty of a step that needs a tool
 * when no tool result is there yet — both only for knowledge-bound calls.
 */
export function callLogit(item: number, bound: boolean, needsTool: boolean, boost: number, sim: SimConfig): number {
  if (!bound) return item;
  return item + boost - (needsTool && boost <= 0 ? sim.needsToolPenalty : 0);
}

/** Stated confidence is overconfident: its logit is centred on this bias (mean stated confidence ≈ 0.8). */
export const CONFIDENCE_BIAS = 2;
/** Standard deviation of the confidence logit's noise (Xiong et al. 2024: a wide, weak signal). */
export const CONFIDENCE_NOISE = 1.5;

/**
 * Separation k of right from wrong answers on the confidence logit so that its AUROC is `auroc`:
 * logits N(bias ± k, σ²) give AUROC = Φ(√2·k/σ), so k = σ·Φ⁻¹(auroc)/√2.
 */
export function confidenceSeparation(auroc: number): number {
  const a = Math.min(0.9999, Math.max(0.5, auroc));
  return (CONFIDENCE_NOISE * normalQuantile(a)) / Math.SQRT2;
}

/** The confidence a call reports: σ(bias ± k(auroc) + σ·Φ⁻¹(u)), + for a right answer, − for a wrong one. */
export function confidence(correct: boolean, auroc: number, u: number): number {
  return sigmoid(CONFIDENCE_BIAS + (correct ? 1 : -1) * confidenceSeparation(auroc) + CONFIDENCE_NOISE * normalQuantile(u));
}

/** Input tokens of a call made at turn t (0-based): promptTokens + t·contextTokensPerTurn. */
export function briefTokens(promptTokens: number, turn: number, sim: SimConfig): number {
  return promptTokens + turn * sim.contextTokensPerTurn;
}

export interface CallDraw {
  outTokens: number;
  latencyMs: number;
  cost: number;
}

/**
 * Samples the tokens, latency and cost of one call with `inTokens` of context.
 * outTokens = round(mean·exp(spread·z₁)); latency = (fixedMs + 1000·outTokens/tps)·exp(jitter·z₂).
 */
export function sampleCall(tool: ToolSpec, inTokens: number, uTokens: number, uLatency: number): CallDraw {
  const outTokens = Math.round(tool.outputTokens.mean * Math.exp(tool.outputTokens.spread * unitLogistic(uTokens)));
  const latencyMs = baseLatencyMs(tool.latency, outTokens) * Math.exp(tool.latency.jitter * unitLogistic(uLatency));
  return { outTokens, latencyMs, cost: callCost(tool.pricing, inTokens, outTokens, latencyMs) };
}
