// Synthetic decision batches for the speed probe and bench-train: a mask that allows the share of
// tools the rollouts allow (so the scorer runs on as many pairs as in training) and taken actions
// the mask allows (so the loss does the work it does in training).

import { isAllowed } from '../policy/pairs';

/** Share of a decision's tools the mask allows at the default size (bench-train measured 55–57%). */
export const ALLOWED_TOOL_SHARE = 0.56;

/** A mask bias [M, J + 1] that allows `share` of the tools, spread evenly, and submit always. */
export function spreadMaskBias(M: number, J: number, share: number): Float32Array {
  const A = J + 1, bias = new Float32Array(M * A);
  // Bresenham: pair k is allowed when ⌊(k + 1)·share⌋ steps past ⌊k·share⌋.
  for (let m = 0; m < M; m++) for (let j = 0; j < J; j++) { const k = m * J + j;
    if (Math.floor((k + 1) * share) === Math.floor(k * share)) bias[m * A + j] = -1e9; }
  return bias;
}

/** One allowed action per row of a bias [M, A], cycling through each row's allowed ones. */
export function allowedActions(bias: Float32Array, M: number, A: number): Int32Array {
  return Int32Array.from({ length: M }, (_, m) => {
    const allowed: number[] = [];
    for (let c = 0; c < A; c++) if (isAllowed(bias[m * A + c] as number)) allowed.push(c);
    return allowed[m % allowed.length] as number;
  });
}
