// Who does what, as the paper's Table 15 tells it by role: per held-out task, how often each model
// writes a query (search), writes a program (code) and answers, read from the episodes' traces. The
// orchestrator itself counts under its own id (its self-written queries and programs, and a unit it
// submits itself). A model's three roles sum to its calls per task in an EvalResult's callsPerTask.

import type { TraceEntry } from '../sim/episode';

export type Role = 'search' | 'code' | 'answer';
export const ROLES: readonly Role[] = ['search', 'code', 'answer'];

/** Model id → mean calls per task in each role. */
export type RoleCalls = Record<string, Record<Role, number>>;

/** The mean calls per task of each model in each role over `traces` (one per task). */
export function roleCalls(traces: readonly (readonly TraceEntry[])[]): RoleCalls {
  const out: RoleCalls = {};
  const n = Math.max(1, traces.length);
  for (const trace of traces) {
    for (const e of trace) {
      if (!e.model) continue;
      const row = (out[e.model] ??= { search: 0, code: 0, answer: 0 });
      row[e.action === 'submit' ? 'answer' : e.action] += 1 / n; // a submit: the orchestrator answers the unit itself
    }
  }
  return out;
}

/** A model's share of the calls to models in `calls`, the orchestrator's own work (`driver`) left out (0 when there are none). */
export function shareOfModelCalls(calls: RoleCalls, model: string, driver: string): number {
  let all = 0, mine = 0;
  for (const [id, r] of Object.entries(calls)) {
    if (id === driver) continue;
    const total = r.search + r.code + r.answer;
    all += total;
    if (id === model) mine = total;
  }
  return all > 0 ? mine / all : 0;
}
