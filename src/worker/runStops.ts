// What stops a run, in codes and numbers (a RunStop; the page writes the words: store/workerText.ts):
// the session's failures that carry more than a message, and an iteration's metrics that diverged or
// collapsed. Also the one refusal the page words itself (a Refusal): exporting a broken policy.

import { errorMessage } from '../core/errorMessage';
import type { IterationMetrics } from '../core/grpo/metrics';
import { NonFiniteError } from '../core/policy/act';
import type { Reply, RunStop } from './protocol';

/** An iteration broke the backend, which was then started afresh: what the page is told. */
export class BackendRebuilt extends Error {
  constructor(readonly stop: Extract<RunStop, { code: 'backendRebuilt' }>, cause: unknown) {
    super(stop.cause, { cause });
  }
}

/** An export of a policy that no longer computes finite probabilities. */
export class BrokenPolicyError extends Error {
  constructor(readonly why: string) {
    super(`export refused: the current policy is broken (${why})`);
  }
}

/** Why an iteration could not run. */
export function failureStop(e: unknown): RunStop {
  if (e instanceof BackendRebuilt) return e.stop;
  const error = errorMessage(e);
  return e instanceof NonFiniteError ? { code: 'nonFinite', detail: error } : { code: 'failed', error };
}

/** Why an iteration that ran stops the run, if it does; `pausedWithBest`: a running loop pauses on a collapse. */
export function iterationStop(m: IterationMetrics, pausedWithBest?: number | null): { stop?: RunStop } {
  if (m.diverged) return { stop: { code: 'diverged', divergence: m.diverged } };
  if (!m.collapsed) return {};
  const paused = pausedWithBest !== undefined ? { pausedWithBest } : {};
  return { stop: { code: 'collapsed', collapse: m.collapsed, ...paused } };
}

/** A request that failed, as the worker answers it: its message, and for a broken policy's export the refusal. */
export function errorReply(id: number, e: unknown): Extract<Reply, { type: 'error' }> {
  return { id, type: 'error', message: errorMessage(e),
    ...(e instanceof BrokenPolicyError ? { refusal: { code: 'brokenPolicy', why: e.why } } : {}) };
}
