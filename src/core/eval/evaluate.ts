// Evaluation of any policy on a held-out task set: accuracy, mean cost, mean latency, calls per
// task per tool, and a preference-weighted score for a given P. Episode keys depend only on the
// evaluation seed and the task's position, so every policy meets the same random draws.

import { expectedCallCost, expectedLatencyMs, type Catalog } from '../sim/catalog';
import type { SimConfig } from '../sim/callModel';
import { BatchEnv } from '../sim/env';
import { hashInts } from '../sim/rng';
import type { Task } from '../sim/tasks';
import type { Preference } from '../preference';
import { failureKind, FailureTally, type FailureShares } from './failures';
import { roleCalls, type RoleCalls } from './roles';
import { runEpisodes, type BatchPolicy } from './policy';

export interface EvalResult {
  policy: string;
  n: number;
  accuracy: number;
  meanCostUSD: number;
  meanLatencyS: number;
  meanTurns: number;
  /** Tool id → mean calls per task. */
  callsPerTask: Record<string, number>;
  /** Preference-weighted score in [0, 1] (see preferenceScore); present when a P was given. */
  score?: number;
  /** How the episodes that failed did (failures.ts); present when asked for (it traces every episode). */
  failures?: FailureShares;
  /** Each model's calls per task by role (roles.ts); present where the episodes were traced. */
  roles?: RoleCalls;
}

/** Cost and latency of the dearest one-call-per-step path of a task: the scale of the score's cost and latency terms. */
export function referenceScale(task: Task, catalog: Catalog): { cost: number; latencyMs: number } {
  let cost = 0, latencyMs = 0;
  for (const s of task.steps) {
    let c = 0, l = 0;
    for (const t of catalog.tools) {
      if (!t.enabled || t.kind === 'basic' || !task.available.includes(t.id) || t.skill[s.type] === undefined) continue;
      c = Math.max(c, expectedCallCost(t, task.promptTokens));
      l = Math.max(l, expectedLatencyMs(t));
    }
    cost += c;
    latencyMs += l;
  }
  return { cost, latencyMs };
}

/**
 * One episode's preference-weighted score, outcome-gated like the paper's reward but on fixed
 * scales so policies can be compared: outcome·(P_o + P_c·(1 − cost/ref) + P_l·(1 − latency/ref)
 * + Σ_j P_j·m_j)/ΣP, with each ratio clipped to [0, 1]; m_j is the share of the episode's calls that
 * went to tool j, or, with `toolRef` (the paper's Table 3 metric), its calls of j over a reference
 * run's mean calls of j (prompted Qwen3-8B in the paper), capped at 1.
 */
export function preferenceScore(
  p: Preference,
  catalog: Catalog,
  ep: { outcome: number; cost: number; latencyMs: number; calls: ArrayLike<number> },
  ref: { cost: number; latencyMs: number },
  toolRef?: ArrayLike<number>,
): number {
  const total = catalog.tools.reduce((a, t) => a + (p.tools[t.id] ?? 0), p.outcome + p.cost + p.latency);
  if (total === 0 || !ep.outcome) return 0;
  const rel = (x: number, r: number): number => (r > 0 ? Math.max(0, 1 - Math.min(1, x / r)) : 1);
  let nCalls = 0;
  for (let j = 0; j < catalog.tools.length; j++) nCalls += ep.calls[j];
  let s = p.outcome + p.cost * rel(ep.cost, ref.cost) + p.latency * rel(ep.latencyMs, ref.latencyMs);
  catalog.tools.forEach((t, j) => {
    const w = p.tools[t.id] ?? 0;
    const calls = ep.calls[j] as number;
    if (w <= 0 || calls === 0) return;
    s += toolRef ? w * Math.min(1, calls / Math.max(toolRef[j] as number, 1e-9)) : (w * calls) / nCalls;
  });
  return s / total;
}

/** Episode key of the i-th held-out task: the same for every policy. */
export function evalKey(seed: number, i: number): number {
  return hashInts(seed, i, 0x5eed);
}

/** Sums of one policy's episodes, turned into an EvalResult at the end. */
class Tally {
  solved = 0; cost = 0; latency = 0; turns = 0; score = 0; n = 0;
  readonly calls: Float64Array;
  constructor(readonly catalog: Catalog, readonly preference?: Preference, readonly toolRef?: ArrayLike<number>) {
    this.calls = new Float64Array(catalog.tools.length);
  }
  add(env: BatchEnv, i: number, task: Task): void {
    const J = this.catalog.tools.length;
    this.n++;
    this.solved += env.outcome[i];
    this.cost += env.cost[i];
    this.latency += env.latencyMs[i];
    this.turns += env.turn[i];
    for (let j = 0; j < J; j++) this.calls[j] += env.calls[i * J + j];
    if (this.preference) {
      const ep = { outcome: env.outcome[i], cost: env.cost[i], latencyMs: env.latencyMs[i], calls: env.calls.subarray(i * J, (i + 1) * J) };
      this.score += preferenceScore(this.preference, this.catalog, ep, referenceScale(task, this.catalog), this.toolRef);
    }
  }
  result(name: string): EvalResult {
    const n = Math.max(1, this.n);
    const r: EvalResult = {
      policy: name,
      n: this.n,
      accuracy: this.solved / n,
      meanCostUSD: this.cost / n,
      meanLatencyS: this.latency / n / 1000,
      meanTurns: this.turns / n,
      callsPerTask: Object.fromEntries(this.catalog.tools.map((t, j) => [t.id, this.calls[j] / n])),
    };
    if (this.preference) r.score = this.score / n;
    return r;
  }
}

export async function evaluatePolicy(
  policy: BatchPolicy,
  tasks: readonly Task[],
  catalog: Catalog,
  sim: SimConfig,
  opts: { seed: number; preference?: Preference; batch?: number; failures?: boolean; toolRef?: ArrayLike<number> },
): Promise<EvalResult> {
  const batch = Math.min(opts.batch ?? 1024, tasks.length);
  const env = new BatchEnv(catalog, sim, batch);
  const tally = new Tally(catalog, opts.preference, opts.toolRef);
  const failures = opts.failures ? new FailureTally() : null;
  for (let start = 0; start < tasks.length; start += batch) {
    const chunk = tasks.slice(start, start + batch);
    await runEpisodes(env, policy, chunk, chunk.map((_, k) => evalKey(opts.seed, start + k)), { trace: failures !== null });
    for (let i = 0; i < chunk.length; i++) {
      tally.add(env, i, chunk[i]);
      failures?.add(failureKind(env.outcome[i] as number, env.answered[i] as number, env.traces?.[i] ?? []));
    }
  }
  const r = tally.result(policy.name);
  return failures ? { ...r, failures: failures.shares() } : r;
}

/**
 * Runs `replicas` copies of the task set side by side in ONE batched env — slot r·n + i holds
 * task i with the same draws in every copy — so a policy that tells copies apart by slot (one P
 * per copy) is swept over all of them with one forward per turn. One result per copy; with
 * `failuresOfFirst`, the first copy's also says how its failures came about and who did what by
 * role (only it is traced).
 */
export async function evaluateReplicas(policy: BatchPolicy, tasks: readonly Task[], replicas: number, catalog: Catalog,
  sim: SimConfig, seed: number, names: readonly string[],
  opts: { failuresOfFirst?: boolean } = {}): Promise<EvalResult[]> {
  const n = tasks.length;
  const env = new BatchEnv(catalog, sim, n * replicas);
  const all: Task[] = [];
  const keys: number[] = [];
  for (let r = 0; r < replicas; r++) for (let i = 0; i < n; i++) { all.push(tasks[i] as Task); keys.push(evalKey(seed, i)); }
  await runEpisodes(env, policy, all, keys, { trace: opts.failuresOfFirst ? n : 0 });
  return Array.from({ length: replicas }, (_, r) => {
    const tally = new Tally(catalog);
    for (let i = 0; i < n; i++) tally.add(env, r * n + i, tasks[i] as Task);
    const result = tally.result(names[r] ?? `replica ${r}`);
    if (r > 0 || !opts.failuresOfFirst) return result;
    const failures = new FailureTally();
    for (let i = 0; i < n; i++) failures.add(failureKind(env.outcome[i] as number, env.answered[i] as number, env.traces?.[i] ?? []));
    return { ...result, failures: failures.shares(), roles: roleCalls(env.traces?.slice(0, n) ?? []) };
  });
}
