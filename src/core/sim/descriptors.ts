// What the orchestrator may know of a model: its public descriptor, never its skill. As in the paper,
// a model is described from its attempts on a few tasks (DESCRIBED_TASKS per step type and role), so
// the descriptor carries that sample's error; and a describer's profile of a model misses its skill on
// a step type by a systematic gap (the lab's assumption, PROFILE_GAP). Both are fixed per model, so
// only experience with the model reveals them. Basic tools (search, the interpreter) are described
// exactly: what they reach is public. Deterministic: keyed by the model's id.

import type { Driver, ToolSpec, WriterRole } from './catalog';
import type { SimConfig } from './callModel';
import { DIFFICULTY } from './taskTemplates';
import { counterUniform, hashString, normalQuantile } from './rng';
import { CH_DESCRIBE } from './episode';
import { STEP_TYPES, type StepType } from './stepTypes';

/** Tasks a model is described from, per step type and writer role (the paper describes each model from 10). */
export const DESCRIBED_TASKS = 10;
/** SD of the gap between a model's profile and its skill on a step type, in skill units (the lab's assumption). */
export const PROFILE_GAP = 0.5;

/** A model's public profile: estimated skills per step type and writing per role (absent where it has none). */
export interface Descriptor {
  skill: Partial<Record<StepType, number>>;
  writes?: Partial<Record<WriterRole, number>>;
}

/** The mean difficulty of a step type over the domains that hold it (the describer's reference tasks). */
function referenceDifficulty(type: StepType): number {
  const ds = Object.values(DIFFICULTY).flatMap((d) => (d[type] ? [d[type][0]] : []));
  return ds.length ? ds.reduce((a, x) => a + x, 0) / ds.length : 1;
}

/**
 * The skill a describer reads off DESCRIBED_TASKS attempts of a model with `skill` on steps of
 * difficulty around `d` (item spread `s`): the skill whose mean success matches the smoothed share it
 * got right, then the profile's gap. `key` makes the attempts and the gap the model's own.
 */
export function describedSkill(skill: number, d: number, s: number, a: number, key: number): number {
  let right = 0;
  for (let n = 0; n < DESCRIBED_TASKS; n++) {
    const item = d + 0.5 * normalQuantile(counterUniform(key, n, 0, 0, CH_DESCRIBE));
    const x = a * (skill - item) + s * normalQuantile(counterUniform(key, n, 1, 0, CH_DESCRIBE));
    if (counterUniform(key, n, 2, 0, CH_DESCRIBE) < 1 / (1 + Math.exp(-x))) right++;
  }
  const p = (right + 0.5) / (DESCRIBED_TASKS + 1);
  // expectedSigmoid(a(ŝ − d), s) = σ(a(ŝ − d)/√(1 + πs²/8)) = p.
  const x = Math.log(p / (1 - p)) * Math.sqrt(1 + (Math.PI * s * s) / 8);
  return d + x / a + PROFILE_GAP * normalQuantile(counterUniform(key, 0, 3, 0, CH_DESCRIBE));
}

/** A model's (or the driver's) descriptor; a basic tool's is its skill as it is. */
export function describe(tool: Pick<ToolSpec, 'id' | 'skill' | 'writes'> & { kind: ToolSpec['kind'] | 'driver' },
  sim: SimConfig): Descriptor {
  if (tool.kind === 'basic') return { skill: { ...tool.skill }, ...(tool.writes ? { writes: { ...tool.writes } } : {}) };
  const skill: Descriptor['skill'] = {};
  for (const type of STEP_TYPES) {
    const v = tool.skill[type];
    if (v !== undefined) skill[type] = describedSkill(v, referenceDifficulty(type), sim.spread[type], sim.discrimination, hashString(`${tool.id}@${type}`));
  }
  let writes: Descriptor['writes'];
  for (const [role, v] of Object.entries(tool.writes ?? {}) as [WriterRole, number][]) {
    (writes ??= {})[role] = describedSkill(v, 1 - sim.writeEase, sim.writerSpread, sim.discrimination, hashString(`${tool.id}#${role}`));
  }
  return { skill, ...(writes ? { writes } : {}) };
}

/** The driver's descriptor (it is a model too). */
export const describeDriver = (driver: Driver, sim: SimConfig): Descriptor =>
  describe({ id: driver.id, kind: 'driver', skill: driver.skill, ...(driver.writes ? { writes: driver.writes } : {}) }, sim);
