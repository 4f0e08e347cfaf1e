// The shapes the WGSL kernels are built for, and the regions of their workspace: one float32 tensor
// that every level writes into (tfjs gives a program a single output), laid out as the table below
// the imports says. M and Pb are multiples of 4 (the buckets of pairs.ts and act.ts), so every region
// is vec4-aligned.

import { STATE_DIM, TOOL_DIM } from '../policy/features';
import type { PolicyConfig } from '../policy/policyConfig';
import { paramLayout, type ParamLayout } from './webgpuParams';

// The workspace's regions, in this order —
//   HS          [M, H]          the scorer's state part s·W_s + b of each decision
//   ACT(l)      [Pb + M, H]     level l's activations: the Pb pair rows, then the M submit rows (l < L)
// and, for an update,
//   TERMS       [M, 8]          each decision's loss terms, summed by webgpuAdam.ts
//   DSC, DSUB   [Pb], [M]       ∂loss/∂score of each pair and of each decision's submit logit
//   DZ(0), DZ(1) [Pb + M, H]    ∂loss/∂(pre-activation) of the level being back-propagated, alternately
//   GRAD(c)     [CHUNKS, padded] the weights' gradient as partial sums over CHUNKS chunks of the rows,
//                               each in the flat layout of webgpuParams.ts (webgpuAdam.ts adds them up).

/** Chunks of rows a weight gradient sums separately (more invocations for sums over thousands of rows). */
export const GRAD_CHUNKS = 8;

export interface NetDims {
  S: number;
  D: number;
  H: number;
  L: number;
  /** Actions per decision (tools + submit). */
  A: number;
  /** Floats per decision row of the states input (STATE_DIM for a rollout; the update's packed rows are wider). */
  cols: number;
  layout: ParamLayout;
}

export function netDims(policy: Pick<PolicyConfig, 'width' | 'depth'>, actions: number, cols = STATE_DIM): NetDims {
  return { S: STATE_DIM, D: TOOL_DIM, H: policy.width, L: policy.depth, A: actions, cols, layout: paramLayout(policy) };
}

/** Float offsets of the workspace's regions for M decisions and a bucket of Pb pairs (as layoutWgsl computes them). */
export function workspaceRegions(d: Pick<NetDims, 'H' | 'L'>, M: number, Pb: number, padded: number) {
  const level = (Pb + M) * d.H;
  const act = (l: number) => M * d.H + l * level;
  const terms = act(d.L), dsc = terms + 8 * M, dsub = dsc + Pb, dz = (l: number) => dsub + M + (l % 2) * level;
  const grad = dz(0) + 2 * level;
  return { hs: 0, act, terms, dsc, dsub, dz, grad, forward: act(d.L), update: grad + GRAD_CHUNKS * padded };
}

/** WGSL: the regions as functions of uniforms.M and uniforms.Pb (the prelude defines H, L and PADDED). */
export function layoutWgsl(): string {
  return `
    fn HS() -> i32 { return 0; }
    fn LEVEL() -> i32 { return (uniforms.Pb + uniforms.M) * H; }
    fn ACT(l : i32) -> i32 { return uniforms.M * H + l * LEVEL(); }
    fn TERMS() -> i32 { return ACT(L); }
    fn DSC() -> i32 { return TERMS() + 8 * uniforms.M; }
    fn DSUB() -> i32 { return DSC() + uniforms.Pb; }
    fn DZ(l : i32) -> i32 { return DSUB() + uniforms.M + (l % 2) * LEVEL(); }
    fn GRAD0() -> i32 { return DZ(0) + 2 * LEVEL(); }
    fn GRAD(c : i32) -> i32 { return GRAD0() + c * PADDED; }`;
}
