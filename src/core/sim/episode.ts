// An episode's vocabulary, shared by the batched env (env.ts) and what reads its episodes: the
// channels of the counter-based draws and the functions that make them, the longest task, and
// the trace entry of one turn.

/** Draw channels of the counter-based generator. */
export const CH_SUCCESS = 0;
export const CH_CONFIDENCE = 1;
export const CH_TOKENS = 2;
export const CH_LATENCY = 3;

/** u(key, step, tool, attempt, channel) in (0, 1); tool = nTools stands for the driver itself. */
export type DrawFn = (key: number, step: number, tool: number, attempt: number, channel: number) => number;

/** v(task key, step, latent key of the tool or driver) ~ N(0, 1): the per-item latent. A pure function of its arguments (reset computes a task's rows once for a group of slots). */
export type LatentFn = (taskKey: number, step: number, toolKey: number) => number;

/** Longest task the env holds. */
export const MAX_STEPS = 5;

export interface TraceEntry {
  turn: number;
  step: number;
  action: 'call' | 'submit';
  tool?: string;
  inTokens: number;
  outTokens?: number;
  /** Cost of this turn: the call (if any) plus the orchestrator's own turn. */
  cost: number;
  latencyMs: number;
  correct?: boolean;
  confidence?: number;
  /** A call that brought context (evidence) to a step it cannot answer, and the boost now in effect. */
  evidence?: boolean;
  boost?: number;
  /** For a submit: whether the committed result of the step is right, and whether the orchestrator solved it alone. */
  committedCorrect?: boolean;
  selfSolved?: boolean;
}
