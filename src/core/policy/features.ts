// The policy's inputs, documented in one place (the table above STATE_DIM). For every decision the
// encoder writes a STATE vector (one per episode: what the orchestrator knows about the task and its
// progress) and a SLOT vector per action slot (slots.ts): that slot's descriptor in this state.
// A slot is seen only through its descriptor (role, what its model and tool can do as described,
// prices at this task's provider, its chances as the hints suggest), never its name, so one shared
// scorer serves any catalog and models it never saw. It reads a PublicView (sim/observation.ts) only.

import { expectedCallCost, expectedLatencyMs, writeTokens, type Catalog, type ToolSpec } from '../sim/catalog';
import { briefTokens } from '../sim/callModel';
import { describedWriting, evidenceEstimate, nextLift, stillNeeds, unitEstimate } from '../sim/estimates';
import type { PublicView } from '../sim/observation';
import { MAX_STEPS } from '../sim/episode';
import { SELF, type Slot } from '../sim/slots';
import { DOMAINS, STEP_TYPES } from '../sim/stepTypes';

// STATE (STATE_DIM = 32)                               SLOT (SLOT_DIM = 21)
//  0–5   domain, one-hot                                0–2  role (search, code, answer), one-hot
//  6–11  step types in the current unit, count / 2      3    written by the driver itself (0/1)
//  12    mean hint of the unit's steps / 2              4    p̂: evidence: a good query/program AND a find; answer: the unit right now
//  13    max hint / 2                                   5    evidence: p̂ gain of the likeliest answerer if it finds; answer: 0
//  14    units left (the current one included) / 3      6    the lift a find adds to its target step / 4
//  15    turns used / 12                                7    P(its target step needs a tool, nothing found yet)
//  16    turns left / 12                                8    the model's described skill in its role / 3 (writing; answering: mean over the unit)
//  17    slack = (turns left − units left) / 12        9    the signal's calibration (evidence), 0 for an answer
//  18    evidence calls on the unit, min(n, 8)/8        10   ln(expected cost of the call / cost scale) / 3
//  19    finds believed on the unit, min(n, 8)/8        11   ln(expected latency / latency scale) / 3
//  20    steps believed to need a tool, unfound / 2     12   the user's preference for its model, P_model
//  21    best signal on the unit (0 if none)            13   the user's preference for its tool, P_tool
//  22    last signal on the unit (0 if none)            14   calls of its model this episode, min(n, 4)/4
//  23    ln(1 + cost so far / cost scale)               15   calls of this slot on the unit, min(n, 3)/3
//  24    ln(1 + latency so far / latency scale)         16   ln(1 + $/M input of its model at this provider) / 3
//  25–27 P_outcome, P_cost, P_latency                   17   ln(1 + $/M output) / 3
//  28    p̂ that the driver answers the unit right now  18   ln(1 + 100·fee per call of its tool) / 3
//  29    best p̂ over the answer slots allowed now      19   its tool reaches fresh facts (a live search, or code); 0 for an answer
//  30    evidence believed gathered / 4                20   its model is a generalist (1), a specialist (0), the driver (0.5)
//  31    preference weight on tools, min(1, ΣP_tools/3)
// Cost scale = the mean expected call cost of the catalog's enabled tools at 1000 context tokens;
// latency scale = their mean expected latency. So the same features work for USD and cost units.
export const STATE_DIM = 32;
export const TOOL_DIM = 21;
/** The turn count the state's turn features are scaled by (the lab's default budget). */
export const TURN_SCALE = 12;

const K = STEP_TYPES.length;

/** Per-catalog constants of the encoder (computed once per catalog). */
export interface CatalogScales {
  cost: number;
  latencyMs: number;
  /** Per slot: its descriptor entries that never change (role, self, calibration, fresh, kind), the rest 0. */
  template: Float32Array[];
}

const clampLog = (x: number): number => Math.max(-4, Math.min(4, Math.log(Math.max(x, 1e-12))));

export function catalogScales(catalog: Catalog, slots: readonly Slot[]): CatalogScales {
  const on = catalog.tools.filter((t) => t.enabled);
  const mean = (xs: number[]): number => (xs.length ? xs.reduce((a, x) => a + x, 0) / xs.length : 0);
  const cost = Math.max(mean(on.map((t) => expectedCallCost(t, 1000))), 1e-9);
  const latencyMs = Math.max(mean(on.map((t) => expectedLatencyMs(t))), 1);
  const template = slots.map((s) => {
    const row = new Float32Array(TOOL_DIM);
    row[s.role === 'search' ? 0 : s.role === 'code' ? 1 : 2] = 1;
    row[3] = s.model === SELF ? 1 : 0;
    const tool = s.tool >= 0 ? catalog.tools[s.tool] : undefined;
    if (tool) {
      row[9] = tool.calibration;
      row[19] = s.role === 'code' || !(tool.offline?.includes('retrieve') ?? false) ? 1 : 0;
    }
    row[20] = s.model === SELF ? 0.5 : catalog.tools[s.model]?.kind === 'generalist' ? 1 : 0;
    return row;
  });
  return { cost, latencyMs, template };
}


/**
 * Encodes every live episode of the env. `prefs` holds, per episode, P in M's order (tools…, outcome,
 * cost, latency). Writes state[i·STATE_DIM …] and tools[(i·nSlots + s)·TOOL_DIM …]; with the action
 * `mask` (env.writeMask), a masked slot's descriptor stays 0 (the scorer runs on allowed pairs only).
 */
export function encodeFeatures(env: PublicView, scales: CatalogScales, prefs: Float32Array, state: Float32Array, tools: Float32Array, mask?: Uint8Array): void {
  const A = env.nActions, S = env.nSlots, J = env.nTools, P = J + 3, sim = env.sim, cat = env.catalog;
  state.fill(0);
  tools.fill(0);
  for (let i = 0; i < env.size; i++) {
    if (env.done[i]) continue;
    const [start, len] = env.unitRange(i);
    const o = i * STATE_DIM;
    let hintSum = 0, hintMax = -Infinity, needy = 0, evidence = 0, found = 0;
    for (let k = start; k < start + len; k++) {
      const idx = i * MAX_STEPS + k;
      state[o + DOMAINS.length + (env.stepType[idx] as number)] += 0.5;
      hintSum += env.hint[idx] as number;
      hintMax = Math.max(hintMax, env.hint[idx] as number);
      needy += stillNeeds(env, idx);
      evidence += env.beliefEvidence[idx] as number;
      found += env.beliefFinds[idx] as number;
    }
    const turn = env.turn[i] as number, left = (env.budget[i] as number) - turn, unitsLeft = (env.nUnits[i] as number) - (env.unitIdx[i] as number);
    state[o + (env.domain[i] as number)] = 1;
    state[o + 12] = hintSum / len / 2;
    state[o + 13] = hintMax / 2;
    state[o + 14] = unitsLeft / 3;
    state[o + 15] = turn / TURN_SCALE;
    state[o + 16] = left / TURN_SCALE;
    state[o + 17] = (left - unitsLeft) / TURN_SCALE;
    state[o + 18] = Math.min(env.unitCalls[i] as number, 8) / 8;
    state[o + 19] = Math.min(found, 8) / 8;
    state[o + 20] = needy / 2;
    state[o + 21] = Math.max(0, env.bestSignal[i] as number);
    state[o + 22] = Math.max(0, env.lastSignal[i] as number);
    state[o + 23] = Math.log1p((env.cost[i] as number) / scales.cost);
    state[o + 24] = Math.log1p((env.latencyMs[i] as number) / scales.latencyMs);
    state[o + 25] = prefs[i * P + J] as number;
    state[o + 26] = prefs[i * P + J + 1] as number;
    state[o + 27] = prefs[i * P + J + 2] as number;
    state[o + 28] = unitEstimate(env, i, SELF);
    let toolPref = 0;
    for (let j = 0; j < J; j++) toolPref += prefs[i * P + j] as number;
    state[o + 30] = evidence / 4;
    state[o + 31] = Math.min(1, toolPref / 3);
    // The likeliest answerer now: the reference for what a piece of evidence would gain.
    let bestP = state[o + 28] as number, bestJ = SELF;
    for (let s = 0; s < S; s++) {
      const slot = env.slots[s] as Slot;
      if (slot.role !== 'answer' || (mask ? !mask[i * A + s] : !env.allowed(i, s))) continue;
      const p = unitEstimate(env, i, slot.model);
      if (p > bestP) { bestP = p; bestJ = slot.model; }
    }
    state[o + 29] = bestP;
    const brief = briefTokens(env.promptTokens[i] as number, turn, sim), ctx = env.context[i] as number;
    for (let s = 0; s < S; s++) {
      if (mask ? !mask[i * A + s] : !env.allowed(i, s)) continue;
      const slot = env.slots[s] as Slot, q = (i * S + s) * TOOL_DIM;
      tools.set(scales.template[s] as Float32Array, q);
      const model = slot.model === SELF ? null : (cat.tools[slot.model] as ToolSpec);
      const mScale = model ? (env.priceScale[i * J + slot.model] as number) : 1;
      const pricing = model ? model.pricing : env.driver.pricing;
      let cost: number, latency: number;
      if (slot.role === 'answer') {
        const m = model as ToolSpec;
        tools[q + 4] = unitEstimate(env, i, slot.model);
        let sk = 0;
        for (let k = start; k < start + len; k++) sk += env.describedSkill[slot.model * K + (env.stepType[i * MAX_STEPS + k] as number)] as number;
        tools[q + 8] = sk / len / 3;
        cost = mScale * (m.pricing.inputPerM * ctx + m.pricing.outputPerM * m.outputTokens.mean) / 1e6;
        latency = expectedLatencyMs(m);
      } else {
        const k = env.target(i, s), idx = i * MAX_STEPS + k, tool = cat.tools[slot.tool] as ToolSpec;
        const lift = nextLift(env, i, s);
        tools[q + 4] = evidenceEstimate(env, i, s, k);
        tools[q + 5] = Math.max(0, unitEstimate(env, i, bestJ, k, lift) - bestP);
        tools[q + 6] = lift / 4;
        tools[q + 7] = stillNeeds(env, idx);
        tools[q + 8] = describedWriting(env, slot) / 3;
        const tScale = env.priceScale[i * J + slot.tool] as number;
        const written = model ? mScale * (model.pricing.inputPerM * brief + model.pricing.outputPerM * writeTokens(model, sim.writerTokenShare)) / 1e6 : 0;
        cost = written + tScale * expectedCallCost(tool, 0);
        latency = expectedLatencyMs(tool) + (model ? model.latency.fixedMs + (model.latency.tokensPerSecond > 0
          ? (1000 * writeTokens(model, sim.writerTokenShare)) / model.latency.tokensPerSecond : 0) : 0);
        tools[q + 13] = prefs[i * P + slot.tool] as number;
        tools[q + 18] = Math.log1p(100 * tScale * tool.pricing.perCall) / 3;
      }
      tools[q + 10] = clampLog(cost / scales.cost) / 3;
      tools[q + 11] = clampLog(latency / scales.latencyMs) / 3;
      if (model) {
        tools[q + 12] = prefs[i * P + slot.model] as number;
        tools[q + 14] = Math.min(env.calls[i * J + slot.model] as number, 4) / 4;
      }
      tools[q + 15] = Math.min(env.slotCalls[i * S + s] as number, 3) / 3;
      tools[q + 16] = Math.log1p(mScale * pricing.inputPerM) / 3;
      tools[q + 17] = Math.log1p(mScale * pricing.outputPerM) / 3;
    }
  }
}

/** Additive mask: 0 where allowed, −1e9 where not; finished episodes may only "submit" (ignored by the env). */
export function maskBias(env: PublicView, mask: Uint8Array, out: Float32Array): void {
  const A = env.nActions;
  for (let i = 0; i < env.capacity; i++) {
    const live = i < env.size && !env.done[i];
    for (let c = 0; c < A; c++) out[i * A + c] = live ? (mask[i * A + c] ? 0 : -1e9) : c === env.submitAction ? 0 : -1e9;
  }
}

