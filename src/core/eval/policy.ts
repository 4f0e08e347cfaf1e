// What a policy is to the evaluator and the trainer: something that, given the batched env and
// its action mask, writes one action per live episode. Baselines act synchronously; the learned
// policy acts through tfjs and is async. `runEpisodes` drives any of them to the end, and the
// helpers below are what rule policies read of an episode: its allowed slots, their expected costs.

import { baseLatencyMs, callCost, expectedLatencyMs, writeTokens, type Driver, type ToolSpec } from '../sim/catalog';
import { briefTokens } from '../sim/callModel';
import type { BatchEnv } from '../sim/env';
import type { PublicView } from '../sim/observation';
import { SELF, type Slot } from '../sim/slots';
import type { Task } from '../sim/tasks';

export interface BatchPolicy {
  readonly name: string;
  /** Who drives its episodes (writes the turns, answers units itself); default the catalog's orchestrator. */
  readonly driver?: Driver;
  /** Writes an action for every live episode of `env` into `out` ([episode] = slot index or env.submitAction). */
  act(env: BatchEnv, mask: Uint8Array, out: Int32Array): void | Promise<void>;
}

/** Runs one episode per task to completion (each within its own turn budget). */
export async function runEpisodes(env: BatchEnv, policy: BatchPolicy, tasks: readonly Task[], keys: ArrayLike<number>,
  opts: { trace?: boolean | number } = {}): Promise<void> {
  env.reset(tasks, keys, { ...opts, ...(policy.driver ? { driver: policy.driver } : {}) });
  const mask = new Uint8Array(env.capacity * env.nActions);
  const actions = new Int32Array(env.capacity);
  while (!env.allDone()) {
    env.writeMask(mask);
    actions.fill(env.submitAction);
    await policy.act(env, mask, actions);
    env.step(actions);
  }
}

// Helpers for rule-based policies.

export type Decide = (env: BatchEnv, episode: number) => number;

/** A policy from a per-episode rule. */
export function policy(name: string, decide: Decide, extra: Pick<BatchPolicy, 'driver'> = {}): BatchPolicy {
  return {
    name,
    ...extra,
    act(env, _mask, out) {
      for (let i = 0; i < env.size; i++) if (!env.done[i]) out[i] = decide(env, i);
    },
  };
}

/** The allowed slots of episode i that satisfy `pred`. */
export function allowedSlots(env: PublicView, i: number, pred: (s: Slot) => boolean): number[] {
  const out: number[] = [];
  for (let s = 0; s < env.nSlots; s++) if (pred(env.slots[s] as Slot) && env.allowed(i, s)) out.push(s);
  return out;
}

/** The expected cost of slot s for episode i now (median tokens, the task's prices). */
export function slotCost(env: PublicView, i: number, s: number): number {
  const slot = env.slots[s] as Slot, J = env.nTools;
  const scaled = (j: number) => env.priceScale[i * J + j] as number;
  if (slot.role === 'answer') {
    const m = env.catalog.tools[slot.model] as ToolSpec;
    return scaled(slot.model) * callCost(m.pricing, env.context[i] as number, m.outputTokens.mean, expectedLatencyMs(m));
  }
  const tool = env.catalog.tools[slot.tool] as ToolSpec;
  const toolCost = scaled(slot.tool) * (tool.pricing.perCall + (tool.pricing.perSecond * expectedLatencyMs(tool)) / 1000);
  if (slot.model === SELF) return toolCost;
  const m = env.catalog.tools[slot.model] as ToolSpec;
  const brief = briefTokens(env.promptTokens[i] as number, env.turn[i] as number, env.sim), out = writeTokens(m, env.sim.writerTokenShare);
  return toolCost + scaled(slot.model) * callCost(m.pricing, brief, out, baseLatencyMs(m.latency, out));
}

/** The expected latency of slot s now: the answering model's, or the writer's (its share of tokens) plus the tool's. */
export function slotLatencyMs(env: PublicView, s: number): number {
  const slot = env.slots[s] as Slot;
  if (slot.role === 'answer') return expectedLatencyMs(env.catalog.tools[slot.model] as ToolSpec);
  const tool = expectedLatencyMs(env.catalog.tools[slot.tool] as ToolSpec);
  if (slot.model === SELF) return tool;
  const m = env.catalog.tools[slot.model] as ToolSpec;
  return tool + baseLatencyMs(m.latency, writeTokens(m, env.sim.writerTokenShare));
}

/** `slots` sorted by expected cost, cheapest first (ties: slot order). */
export function byCost(env: PublicView, i: number, slots: number[]): number[] {
  return slots.map((s) => ({ s, c: slotCost(env, i, s) })).sort((a, b) => a.c - b.c || a.s - b.s).map((x) => x.s);
}

/** Turns episode i has left, and the commits it still owes (its current unit's included). */
export function turnsLeft(env: PublicView, i: number): number {
  return (env.budget[i] as number) - (env.turn[i] as number);
}
export function unitsLeft(env: PublicView, i: number): number {
  return (env.nUnits[i] as number) - (env.unitIdx[i] as number);
}
