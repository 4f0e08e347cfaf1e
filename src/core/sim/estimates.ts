// What the orchestrator can estimate of a call's chances from what it observes (observation.ts): the
// models' public descriptors (descriptors.ts), the steps' noisy difficulty hints, how often such a step
// needs a tool, and its belief about the evidence gathered so far, never the world's truth (item
// latents, true skills, real finds): the mean over the latent in the probit approximation
// (callModel.expectedSigmoid). The policy's features and the rule baselines read the same estimates.

import { expectedSigmoid } from './callModel';
import { MAX_STEPS } from './episode';
import type { PublicView } from './observation';
import { SELF, writerRoleOf, type Slot } from './slots';
import { STEP_TYPES, type StepType } from './stepTypes';
import { ROLES } from './taskTables';

const K = STEP_TYPES.length;

/** The chance that step idx needs a tool and has nothing found for it yet, as far as the orchestrator knows. */
export const stillNeeds = (env: PublicView, idx: number): number => (env.needsPrior[idx] as number) * (env.noFind[idx] as number);

/** The writer's described skill in slot s's role: its model's, or the driver's own (NaN for an answer, or one that does not write). */
export function describedWriting(env: PublicView, slot: Slot): number {
  const role = writerRoleOf(slot.role);
  if (role === null) return NaN;
  const r = ROLES.indexOf(role);
  return slot.model === SELF ? env.driverWrites[r] as number : env.describedWrites[slot.model * 2 + r] as number;
}

/** p̂ that model j, or the driver (SELF), gets step k of episode i right now (with `extraLift` more evidence on it, from a find). */
export function stepEstimate(env: PublicView, i: number, k: number, j: number, extraLift = 0): number {
  const idx = i * MAX_STEPS + k, t = env.stepType[idx] as number, type = STEP_TYPES[t] as StepType;
  const skill = j === SELF ? env.driverSkill[t] as number : env.describedSkill[j * K + t] as number;
  if (Number.isNaN(skill)) return 0;
  const x = env.sim.discrimination * (skill - (env.hint[idx] as number)) + (env.beliefEvidence[idx] as number) + extraLift;
  const needs = extraLift > 0 ? 0 : stillNeeds(env, idx);
  const s = env.sim.spread[type], p = expectedSigmoid(x, s);
  return needs > 0 ? (1 - needs) * p + needs * expectedSigmoid(x - env.sim.needsToolPenalty, s) : p;
}

/** p̂ that model j, or the driver (SELF), answers episode i's current unit right now (with `lift` more evidence on step `liftStep`). */
export function unitEstimate(env: PublicView, i: number, j: number, liftStep = -1, lift = 0): number {
  const [start, len] = env.unitRange(i);
  let p = 1;
  for (let k = start; k < start + len; k++) p *= stepEstimate(env, i, k, j, k === liftStep ? lift : 0);
  return p;
}

/** p̂ that slot s (search or code) writes a good query or program for step k AND its tool finds what the step needs. */
export function evidenceEstimate(env: PublicView, i: number, s: number, k: number): number {
  const slot = env.slots[s] as Slot, idx = i * MAX_STEPS + k, t = env.stepType[idx] as number, sim = env.sim;
  const w = describedWriting(env, slot);
  const tool = env.catalog.tools[slot.tool];
  const toolSkill = tool?.skill[STEP_TYPES[t] as StepType];
  if (Number.isNaN(w) || toolSkill === undefined || !tool) return 0;
  // A tool that works offline for the type reaches nothing on a step that needs a fresh fact.
  const reach = tool.offline?.includes(STEP_TYPES[t] as StepType) ? 1 - (env.needsPrior[idx] as number) : 1;
  const hint = env.hint[idx] as number;
  return reach * expectedSigmoid(sim.discrimination * (w - (hint - sim.writeEase)), sim.writerSpread)
    * expectedSigmoid(sim.discrimination * (toolSkill - hint), sim.basicSpread);
}

/** The lift tool j's next find would add to step idx, as far as the orchestrator knows: lift·decay^(finds it believes). */
export const liftAt = (env: PublicView, j: number, idx: number): number =>
  (env.lift[j * K + (env.stepType[idx] as number)] as number) * env.sim.evidenceDecay ** (env.beliefFinds[idx] as number);

/** The lift slot s's next find would add to its target step now, as far as the orchestrator knows (0 when it has no target). */
export function nextLift(env: PublicView, i: number, s: number): number {
  const k = env.target(i, s);
  return k < 0 ? 0 : liftAt(env, (env.slots[s] as Slot).tool, i * MAX_STEPS + k);
}
