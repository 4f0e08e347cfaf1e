// What a policy is to the evaluator and the trainer: something that, given the batched env and
// its action mask, writes one action per live slot. Baselines act synchronously; the learned
// policy acts through tfjs and is async. `runEpisodes` drives any of them to the end.

import type { BatchEnv } from '../sim/env';
import type { Task } from '../sim/tasks';

export interface BatchPolicy {
  readonly name: string;
  /** Writes an action for every live slot of `env` into `out` ([slot] = tool index or env.submitAction). */
  act(env: BatchEnv, mask: Uint8Array, out: Int32Array): void | Promise<void>;
}

/** Runs one episode per task to completion (at most maxTurns turns). */
export async function runEpisodes(env: BatchEnv, policy: BatchPolicy, tasks: readonly Task[], keys: ArrayLike<number>, opts: { trace?: boolean | number } = {}): Promise<void> {
  env.reset(tasks, keys, opts);
  const mask = new Uint8Array(env.capacity * env.nActions);
  const actions = new Int32Array(env.capacity);
  for (let t = 0; t < env.sim.maxTurns && !env.allDone(); t++) {
    env.writeMask(mask);
    actions.fill(env.submitAction);
    await policy.act(env, mask, actions);
    env.step(actions);
  }
}
