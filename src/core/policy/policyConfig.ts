// The policy network's shape and seed, the lab's default, and the names and shapes of its weights
// (no tfjs here: the page imports it
// through the training defaults, and tfjs must not load on the page — its URL-flag parser runs at
// import and throws on a stray % in the query).

import { STATE_DIM, TOOL_DIM } from './features';

export interface PolicyConfig {
  /** Hidden units per layer. */
  width: number;
  /** Hidden layers per MLP (≥ 1). */
  depth: number;
  seed: number;
}

export const DEFAULT_POLICY: Readonly<PolicyConfig> = { width: 64, depth: 2, seed: 1 };

/** Names and shapes of every weight, in a fixed order (the export format relies on it). */
export function weightShapes(cfg: PolicyConfig): { name: string; shape: [number] | [number, number] }[] {
  const H = cfg.width;
  const out: { name: string; shape: [number] | [number, number] }[] = [
    { name: 'scorer/l0/state', shape: [STATE_DIM, H] },
    { name: 'scorer/l0/tool', shape: [TOOL_DIM, H] },
    { name: 'scorer/l0/bias', shape: [H] },
  ];
  for (let l = 1; l < cfg.depth; l++) out.push({ name: `scorer/l${l}/kernel`, shape: [H, H] }, { name: `scorer/l${l}/bias`, shape: [H] });
  out.push({ name: 'scorer/out/kernel', shape: [H, 1] }, { name: 'scorer/out/bias', shape: [1] });
  out.push({ name: 'submit/l0/kernel', shape: [STATE_DIM, H] }, { name: 'submit/l0/bias', shape: [H] });
  for (let l = 1; l < cfg.depth; l++) out.push({ name: `submit/l${l}/kernel`, shape: [H, H] }, { name: `submit/l${l}/bias`, shape: [H] });
  out.push({ name: 'submit/out/kernel', shape: [H, 1] }, { name: 'submit/out/bias', shape: [1] });
  return out;
}
