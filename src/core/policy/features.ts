// The policy's inputs, documented in one place. For every decision the encoder writes
//  - a STATE vector (one per episode): what the orchestrator knows about the task and its progress;
//  - a TOOL vector per catalog tool: that tool's descriptor in this state.
// The network scores each tool from [state ⊕ tool] with one shared scorer, so any catalog size
// works and edited or unseen tools can be scored. Scales are chosen so inputs stay roughly in [−2, 2].
//
// STATE (STATE_DIM = 28)                          TOOL (TOOL_DIM = 16)
//  0–5   domain, one-hot                           0–2  kind (basic, specialist, generalist), one-hot
//  6–11  current step type, one-hot                3    p̂ = σ(a·(skill − hint) + boost − penalty): its chance on this step as the hint
//                                                       and the context suggest, without the hidden latent (0 if it cannot answer)
//  12    difficulty hint / 2                       4    skill on the current step type / 3 (0 if it cannot answer)
//  13    step index / MAX_STEPS                    5    calibration
//  14    steps left (incl. current) / MAX_STEPS    6    ln(expected call cost at this turn's context / cost scale) / 3
//  15    turn / maxTurns                           7    ln(expected latency / latency scale) / 3
//  16    slack = (turns left − 2·steps left)/maxTurns  8  the user's preference for this tool, P_j
//  17    attempts on this step, min(k, 3)/3         9    its calls this episode, min(n, 4)/4
//  18    has an attempt on this step (0/1)          10   its calls on this step, min(n, 3)/3
//  19    best confidence on this step (0 if none)   11   ln(1 + $/M input)/3
//  20    last confidence on this step (0 if none)   12   ln(1 + $/M output)/3
//  21    ln(1 + cost so far / cost scale)           13   ln(1 + 100·per-call fee)/3
//  22    ln(1 + latency so far / latency scale)   14   the context boost its result would add to this step / 3 (0 if none;
//                                                       for an answering tool an upper bound: only a right answer lifts)
//  23–25 P_outcome, P_cost, P_latency              15   it can answer this step (0/1; 0 = evidence only)
//  26    the step needs a tool (fresh fact, big arithmetic, a stored record)
//  27    boost of the tool results already in this step's context / 3
// Cost scale = the mean expected call cost of the catalog's enabled tools at 1000 context tokens;
// latency scale = their mean expected latency. So the same features work for USD and cost units.

import { expectedCallCost, expectedLatencyMs, type Catalog } from '../sim/catalog';
import { briefTokens, callLogit, sigmoid } from '../sim/callModel';
import type { BatchEnv } from '../sim/env';
import { MAX_STEPS } from '../sim/episode';
import { DOMAINS, STEP_TYPES, TOOL_KINDS } from '../sim/stepTypes';

export const STATE_DIM = 28;
export const TOOL_DIM = 16;

/** Per-catalog constants of the encoder (computed once per catalog). */
export interface CatalogScales {
  cost: number;
  latencyMs: number;
  /** [j·STEP_TYPES.length + type]: skill, NaN where the tool cannot answer. */
  skill: Float64Array;
  /** [j·STEP_TYPES.length + type]: context boost its result brings (0 = none). */
  lift: Float64Array;
  /** [j·STEP_TYPES.length + type]: 1 where it may be called at all (answer or context). */
  callable: Uint8Array;
  kind: Int32Array;
  /** Per tool, its descriptor entries that never change (kind, calibration, latency, prices); the rest 0. */
  template: Float32Array[];
  /** Per tool, its expected call cost as fixed + perInToken · input tokens (expectedCallCost, linear in the input). */
  costFixed: Float64Array;
  costPerInToken: Float64Array;
}

const clampLog = (x: number): number => Math.max(-4, Math.min(4, Math.log(Math.max(x, 1e-12))));

export function catalogScales(catalog: Catalog): CatalogScales {
  const on = catalog.tools.filter((t) => t.enabled);
  const mean = (xs: number[]): number => (xs.length ? xs.reduce((a, x) => a + x, 0) / xs.length : 0);
  const cost = Math.max(mean(on.map((t) => expectedCallCost(t, 1000))), 1e-9);
  const latencyMs = Math.max(mean(on.map((t) => expectedLatencyMs(t))), 1);
  const K = STEP_TYPES.length;
  const skill = new Float64Array(catalog.tools.length * K).fill(NaN);
  const lift = new Float64Array(catalog.tools.length * K);
  const callable = new Uint8Array(catalog.tools.length * K);
  catalog.tools.forEach((t, j) => STEP_TYPES.forEach((s, k) => {
    const v = t.skill[s];
    if (v !== undefined) skill[j * K + k] = v;
    lift[j * K + k] = t.context?.[s] ?? 0;
    callable[j * K + k] = v !== undefined || t.context?.[s] !== undefined ? 1 : 0;
  }));
  const kind = Int32Array.from(catalog.tools.map((t) => TOOL_KINDS.indexOf(t.kind)));
  const template = catalog.tools.map((tool, j) => {
    const row = new Float32Array(TOOL_DIM);
    row[kind[j] as number] = 1;
    row[5] = tool.calibration;
    row[7] = clampLog(expectedLatencyMs(tool) / latencyMs) / 3;
    row[11] = Math.log1p(tool.pricing.inputPerM) / 3;
    row[12] = Math.log1p(tool.pricing.outputPerM) / 3;
    row[13] = Math.log1p(100 * tool.pricing.perCall) / 3;
    return row;
  });
  const costFixed = Float64Array.from(catalog.tools, (t) => expectedCallCost(t, 0));
  const costPerInToken = Float64Array.from(catalog.tools, (t) => t.pricing.inputPerM / 1e6);
  return { cost, latencyMs, skill, lift, callable, kind, template, costFixed, costPerInToken };
}


/**
 * Encodes every slot of the env. `prefs` holds, per slot, P in M's order (tools…, outcome, cost,
 * latency). Writes state[slot·STATE_DIM …] and tools[(slot·nTools + j)·TOOL_DIM …]. With the action
 * `mask` (env.writeMask), a masked tool's descriptor stays 0: the scorer runs on allowed pairs only.
 */
export function encodeFeatures(env: BatchEnv, scales: CatalogScales, prefs: Float32Array, state: Float32Array, tools: Float32Array, mask?: Uint8Array): void {
  const A = env.nActions;
  const J = env.nTools, P = J + 3, K = STEP_TYPES.length, T = env.sim.maxTurns, a = env.sim.discrimination, sim = env.sim;
  state.fill(0);
  tools.fill(0);
  for (let i = 0; i < env.size; i++) {
    if (env.done[i]) continue;
    const s = env.stepIdx[i];
    const idx = i * MAX_STEPS + s;
    const type = env.stepType[idx];
    const hint = env.hint[idx];
    const stepsLeft = env.nSteps[i] - s;
    const turn = env.turn[i];
    const k = env.stepAttempts[i];
    const o = i * STATE_DIM;
    state[o + env.domain[i]] = 1;
    state[o + DOMAINS.length + type] = 1;
    state[o + 12] = hint / 2;
    state[o + 13] = s / MAX_STEPS;
    state[o + 14] = stepsLeft / MAX_STEPS;
    state[o + 15] = turn / T;
    state[o + 16] = (T - turn - 2 * stepsLeft) / T;
    state[o + 17] = Math.min(k, 3) / 3;
    state[o + 18] = k > 0 ? 1 : 0;
    state[o + 19] = k > 0 ? env.bestConf[i] : 0;
    state[o + 20] = k > 0 ? env.lastConf[i] : 0;
    state[o + 21] = Math.log1p(env.cost[i] / scales.cost);
    state[o + 22] = Math.log1p(env.latencyMs[i] / scales.latencyMs);
    state[o + 23] = prefs[i * P + J];
    state[o + 24] = prefs[i * P + J + 1];
    state[o + 25] = prefs[i * P + J + 2];
    const needsTool = env.needsTool[idx] === 1;
    const boost = env.boost[i];
    state[o + 26] = needsTool ? 1 : 0;
    state[o + 27] = boost / 3;
    const ctx = briefTokens(env.promptTokens[i], turn, sim);
    for (let j = 0; j < J; j++) {
      if (mask && !mask[i * A + j]) continue;
      const q = (i * J + j) * TOOL_DIM;
      const skill = scales.skill[j * K + type];
      const here = env.available[i * J + j] === 1;
      const able = here && !Number.isNaN(skill);
      tools.set(scales.template[j] as Float32Array, q); // the entries that never change
      tools[q + 3] = able ? sigmoid(callLogit(a * (skill - hint), env.isBound(j, type), needsTool, boost, sim)) : 0;
      tools[q + 4] = able ? skill / 3 : 0;
      tools[q + 6] = clampLog(((scales.costFixed[j] as number) + (scales.costPerInToken[j] as number) * ctx) / scales.cost) / 3;
      tools[q + 8] = prefs[i * P + j];
      tools[q + 9] = Math.min(env.calls[i * J + j], 4) / 4;
      tools[q + 10] = Math.min(env.stepCalls[i * J + j], 3) / 3;
      tools[q + 14] = here && scales.callable[j * K + type] ? Math.max(0, scales.lift[j * K + type] - boost) / 3 : 0;
      tools[q + 15] = able ? 1 : 0;
    }
  }
}

/** Additive mask: 0 where allowed, −1e9 where not; finished slots may only "submit" (ignored by the env). */
export function maskBias(env: BatchEnv, mask: Uint8Array, out: Float32Array): void {
  const A = env.nActions;
  for (let i = 0; i < env.capacity; i++) {
    const live = i < env.size && !env.done[i];
    for (let c = 0; c < A; c++) out[i * A + c] = live ? (mask[i * A + c] ? 0 : -1e9) : c === env.submitAction ? 0 : -1e9;
  }
}
