// The model of one tool call, in one place: its chance of success (a logistic IRT curve), the
// confidence signal it returns, its output tokens, latency and cost. The env and the task
// generator both use these; docs/SIMULATION.md writes the same formulas out.

import { baseLatencyMs, callCost, type ToolSpec } from './catalog';
import { unitLogistic } from './rng';

/** Settings of the simulated world shared by the generator and the env. */
export interface SimConfig {
  /** IRT discrimination a in p = σ(a·(skill − difficulty)). */
  discrimination: number;
  /** Maximum orchestrator turns per episode (every call and every submit is a turn). */
  maxTurns: number;
  /** Context tokens added per turn: a call at turn t sends promptTokens + t·contextTokensPerTurn. */
  contextTokensPerTurn: number;
}

export const DEFAULT_SIM: Readonly<SimConfig> = { discrimination: 1.6, maxTurns: 12, contextTokensPerTurn: 400 };

export function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

/** p = σ(a·(skill − difficulty)); 0 when the tool has no skill for the step type. */
export function successProbability(skill: number | undefined, difficulty: number, a: number): number {
  return skill === undefined ? 0 : sigmoid(a * (skill - difficulty));
}

/** Confidence strength at calibration 1: correct answers sit near σ(+3), wrong ones near σ(−3). */
export const CONFIDENCE_SEPARATION = 3;

/** The confidence a call reports: σ(±3·calibration + z), z unit-variance logistic noise from u. */
export function confidence(correct: boolean, calibration: number, u: number): number {
  return sigmoid((correct ? 1 : -1) * CONFIDENCE_SEPARATION * calibration + unitLogistic(u));
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

/** Context tokens the orchestrator sends at turn t (0-based). */
export function contextTokens(promptTokens: number, turn: number, sim: SimConfig): number {
  return promptTokens + turn * sim.contextTokensPerTurn;
}
