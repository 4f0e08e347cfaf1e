// What can be estimated of a call's chances from public information only: the model's or tool's
// skills (its descriptor), the steps' noisy difficulty hints and the evidence gathered so far, never
// the hidden latents (the mean over them in the probit approximation: callModel.expectedSigmoid).
// The policy's features and the rule baselines read the same estimates.

import type { ToolSpec } from './catalog';
import { expectedSigmoid } from './callModel';
import type { BatchEnv } from './env';
import { MAX_STEPS } from './episode';
import { SELF, writerRoleOf, type Slot } from './slots';
import { STEP_TYPES, type StepType } from './stepTypes';

const K = STEP_TYPES.length;

/** p̂ that model j, or the driver (SELF), gets step k of episode i right now (with `extraLift` more evidence on it). */
export function stepEstimate(env: BatchEnv, i: number, k: number, j: number, extraLift = 0): number {
  const idx = i * MAX_STEPS + k, type = STEP_TYPES[env.stepType[idx] as number] as StepType;
  const skill = j === SELF ? env.driver.skill[type] : env.catalog.tools[j]?.skill[type];
  if (skill === undefined) return 0;
  const has = (env.hits[idx] as number) > 0 || extraLift > 0;
  const x = env.sim.discrimination * (skill - (env.hint[idx] as number)) + (env.evidence[idx] as number) + extraLift - (env.needsTool[idx]
    && !has ? env.sim.needsToolPenalty : 0);
  return expectedSigmoid(x, env.sim.spread[type]);
}

/** p̂ that model j, or the driver (SELF), answers episode i's current unit right now (with `lift` more evidence on step `liftStep`). */
export function unitEstimate(env: BatchEnv, i: number, j: number, liftStep = -1, lift = 0): number {
  const [start, len] = env.unitRange(i);
  let p = 1;
  for (let k = start; k < start + len; k++) p *= stepEstimate(env, i, k, j, k === liftStep ? lift : 0);
  return p;
}

/** p̂ that slot s (search or code) writes a good query or program for step k AND its tool finds what the step needs. */
export function evidenceEstimate(env: BatchEnv, i: number, s: number, k: number): number {
  const slot = env.slots[s] as Slot, idx = i * MAX_STEPS + k, type = STEP_TYPES[env.stepType[idx] as number] as StepType, sim = env.sim;
  const role = writerRoleOf(slot.role);
  const w = role === null ? undefined : slot.model === SELF ? env.driver.writes?.[role] : env.catalog.tools[slot.model]?.writes?.[role];
  const toolSkill = (env.catalog.tools[slot.tool] as ToolSpec | undefined)?.skill[type];
  if (w === undefined || toolSkill === undefined || Number.isNaN(env.hitItem[idx * env.nTools + slot.tool] as number)) return 0;
  const hint = env.hint[idx] as number;
  return expectedSigmoid(sim.discrimination * (w - (hint - sim.writeEase)),
    sim.writerSpread) * expectedSigmoid(sim.discrimination * (toolSkill - hint), sim.basicSpread);
}

/** The lift slot s's next find would add to its target step now (0 when it has no target). */
export function nextLift(env: BatchEnv, i: number, s: number): number {
  const k = env.target(i, s), slot = env.slots[s] as Slot;
  if (k < 0) return 0;
  const idx = i * MAX_STEPS + k;
  return (env.lift[slot.tool * K + (env.stepType[idx] as number)] as number) * env.sim.evidenceDecay ** (env.hits[idx] as number);
}
