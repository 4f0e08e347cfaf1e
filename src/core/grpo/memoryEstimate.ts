// How much memory one GRPO iteration needs, estimated before anything is allocated, so that a size
// the device cannot hold is refused with a message instead of running out of memory mid-update
// (which corrupted the policy on wasm). Counted in float32s: the rollout history on the CPU, and on
// the device the update's packed batch at its largest, with each layer's saved activations and the
// backward's temporaries.

import { trainingTurns, type TrainConfig } from './config';
import { STATE_DIM, TOOL_DIM } from '../policy/features';

/**
 * The largest iteration the lab runs: a wasm heap is at most 4 GiB and other allocations share it.
 * The estimate assumes every decision trains (typically 40% do), so it errs on the safe side.
 */
export const MAX_ITERATION_BYTES = 3 * 2 ** 30;

export function estimateIterationBytes(cfg: Pick<TrainConfig,
  'batchTasks' | 'groupSize' | 'sim' | 'policy' | 'turnBudgets'>, nTools: number): { cpu: number; device: number } {
  const rows = trainingTurns(cfg) * cfg.batchTasks * cfg.groupSize;
  const J = nTools, A = J + 1, H = cfg.policy.width, L = cfg.policy.depth;
  const history = STATE_DIM + J * TOOL_DIM + 2 * A + 4;
  const inputs = STATE_DIM + 2 * J * TOOL_DIM + J * STATE_DIM + 2 * A + 5;
  const activations = J * H * (L + 3) + H * (L + 1) + 12 * A;
  return { cpu: 4 * rows * history, device: 4 * rows * (inputs + activations) };
}

/** Null when an iteration of this size fits, else the message that refuses it (with the bound). */
export function checkIterationSize(cfg: Pick<TrainConfig, 'batchTasks' | 'groupSize' | 'sim' | 'policy' | 'turnBudgets'>, nTools: number): string | null {
  const { cpu, device } = estimateIterationBytes(cfg, nTools);
  const total = cpu + device;
  if (total <= MAX_ITERATION_BYTES) return null;
  const gb = (x: number) => `${(x / 2 ** 30).toFixed(2)} GiB`;
  return `B = ${cfg.batchTasks}, G = ${cfg.groupSize}, ${trainingTurns(cfg)} turns and a ` +
    `${cfg.policy.width}×${cfg.policy.depth} policy need about ${gb(total)} for one iteration (${gb(device)} on the ` +
    `device for the update, ${gb(cpu)} of rollout history); the lab runs iterations up to ` +
    `${gb(MAX_ITERATION_BYTES)}. Lower B, G, the turns or the width.`;
}
