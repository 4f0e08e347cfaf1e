// The model of one call, in one place: an answer's chance that a step is right (a logistic IRT curve
// with a per-item latent, lifted by evidence, out of reach on a tool step without it); a written query
// or program's chance to be good and to find what the step needs; the signal a result carries (AUROC
// = the tool's `calibration`), tokens, latency and cost. The env, the task generator and the hindsight
// all use these; docs/SIMULATION.md writes the formulas out with their published sources.

import { baseLatencyMs, callCost, type ToolSpec } from './catalog';
import { counterUniform, hashString, normalQuantile, unitLogistic } from './rng';
import type { StepType } from './stepTypes';

/** Settings of the simulated world shared by the generator, the env and the hindsight baseline. */
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
  /** A model that drives the episode (tools+X, notools:X) writes this share of its answer tokens on a turn in which it writes a query or a program itself. */
  driverTurnShare: number;
  /** … and this share on a turn that hands a call to another model (prompted:X): a short instruction. */
  delegateTurnShare: number;
  /** Writing a query or a program for a step is this many logits easier than answering it: d_write = d − writeEase. */
  writeEase: number;
  /** Per-item spread of a writer's success logit (a query that is hard to write stays hard for that writer). */
  writerSpread: number;
  /** A writer writes this share of its answer length (the reasoning behind a query or a program, and the text). */
  writerTokenShare: number;
  /** The k-th piece of evidence found for a step lifts the answer by lift·decay^(k−1): more turns buy more evidence, with diminishing returns. */
  evidenceDecay: number;
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
  delegateTurnShare: 0.25,
  writeEase: 2,
  writerSpread: 2.5,
  writerTokenShare: 0.4,
  evidenceDecay: 0.5,
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

/** The key of a tool's (or driver's) latents and draws: its id hashed, so they follow the tool, not its catalog position. */
export const latentKey = (id: string): number => hashString(id);

/** The key of a model's latents and draws as a writer for a role (a query is not the same item as the answer). */
export const writerKey = (id: string, role: string): number => hashString(`${id}#${role}`);

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
 * An answer's success logit on a step: the item logit plus the evidence gathered for the step, minus
 * the penalty of a step that needs a tool (a fresh fact, exact big arithmetic, a stored record) while no
 * tool result for it is in the context.
 */
export function answerLogit(item: number, evidence: number, needsTool: boolean, hasEvidence: boolean, sim: SimConfig): number {
  return item + evidence - (needsTool && !hasEvidence ? sim.needsToolPenalty : 0);
}

/** A writer's item logit on a step: a·(write skill − (d − ease)) + s_w·v. */
export function writerLogit(writeSkill: number, difficulty: number, latent: number, sim: SimConfig): number {
  return sim.discrimination * (writeSkill - (difficulty - sim.writeEase)) + sim.writerSpread * latent;
}

/**
 * Whether a basic tool can find anything for a step: it must have a skill for the step type, and a
 * tool that searches a fixed index (`offline` for the type) cannot find a fresh fact (a step of the type
 * that needs a tool).
 */
export function toolReaches(tool: Pick<ToolSpec, 'skill' | 'offline'>, type: StepType, needsTool: boolean): boolean {
  return tool.skill[type] !== undefined && !(needsTool && tool.offline?.includes(type) === true);
}

/** The lift of the n-th piece of evidence (n from 0) a tool brings to a step of a type: lift·decay^n. */
export function evidenceLift(tool: Pick<ToolSpec, 'context'>, type: StepType, n: number, sim: SimConfig): number {
  return (tool.context?.[type] ?? 0) * sim.evidenceDecay ** n;
}

/**
 * The mean over the latent of σ(x + s·v), v ~ N(0, 1), in the probit approximation σ(x/√(1 + π s²/8)):
 * what a policy can estimate of a call's chance from the descriptor and the hint, without the hidden latent.
 */
export function expectedSigmoid(x: number, s: number): number {
  return sigmoid(x / Math.sqrt(1 + (Math.PI * s * s) / 8));
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
 * outTokens = round(mean·exp(spread·z₁)); latency = (fixedMs + 1000·outTokens/tps)·exp(jitter·z₂); the
 * cost at the tool's prices times `priceScale` (a training task's provider). `outMean` replaces the
 * tool's mean output (a writer writes a share of its answer length).
 */
export function sampleCall(tool: ToolSpec, inTokens: number, uTokens: number, uLatency: number,
  opts: { priceScale?: number; outMean?: number } = {}): CallDraw {
  const outTokens = Math.round((opts.outMean ?? tool.outputTokens.mean) * Math.exp(tool.outputTokens.spread * unitLogistic(uTokens)));
  const latencyMs = baseLatencyMs(tool.latency, outTokens) * Math.exp(tool.latency.jitter * unitLogistic(uLatency));
  return { outTokens, latencyMs, cost: (opts.priceScale ?? 1) * callCost(tool.pricing, inTokens, outTokens, latencyMs) };
}
