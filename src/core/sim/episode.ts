// An episode's vocabulary, shared by the batched env (env.ts) and what reads its episodes: the
// channels of the counter-based draws and the functions that make them, the longest task, and
// the trace entry of one turn.

/** Draw channels of the counter-based generator (5 is the per-item latents': callModel.CH_LATENT). */
export const CH_SUCCESS = 0;
export const CH_CONFIDENCE = 1;
export const CH_TOKENS = 2;
export const CH_LATENCY = 3;
export const CH_WRITE = 10;
export const CH_HIT = 11;
export const CH_TOOL_TOKENS = 12;
export const CH_TOOL_LATENCY = 13;
/** A describer's attempts at a model (descriptors.ts), keyed by the model's id, not by a task. */
export const CH_DESCRIBE = 20;

/** u(key, step, who, attempt, channel) in (0, 1); `who` is the hashed id of the model, tool or slot the draw belongs to. */
export type DrawFn = (key: number, step: number, who: number, attempt: number, channel: number) => number;

/**
 * v(task key, step, latent key of the model, writer or tool, ρ) ~ N(0, 1): the per-item latent, with a share
 * ρ common to every latent of the step (default: the world's sharedFactor). A pure function of its
 * arguments (reset computes a task's rows once for a group of slots).
 */
export type LatentFn = (taskKey: number, step: number, key: number, rho?: number) => number;

/** Longest task the env holds. */
export const MAX_STEPS = 5;

export interface TraceEntry {
  turn: number;
  /** The commit unit the turn worked on, and the step it targeted (an answer: the unit's first step). */
  unit: number;
  step: number;
  action: 'search' | 'code' | 'answer' | 'submit';
  /** The slot's id (slots.ts); absent for a submit. */
  slot?: string;
  /** The model that wrote or answered (the driver's id for self-written work and a submit), and the basic tool that ran. */
  model?: string;
  tool?: string;
  inTokens: number;
  outTokens?: number;
  /** Cost of this turn: the calls (if any) plus the orchestrator's own turn. */
  cost: number;
  latencyMs: number;
  /** Evidence calls: whether the written query or program found what the step needs, the signal it showed, and the step's evidence after it. */
  success?: boolean;
  signal?: number;
  evidence?: number;
  /** Commits (answer, submit): whether every step of the unit came out right, and per step. */
  committedCorrect?: boolean;
  stepsRight?: boolean[];
  /** A step of the unit needed a tool and was committed with no tool result for it. */
  missingEvidence?: boolean;
}
