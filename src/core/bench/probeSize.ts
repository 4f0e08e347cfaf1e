// The size a backend speed probe is measured at, and its cache key (no tfjs here: the page uses it).

import type { PolicyConfig } from '../policy/policyConfig';

export interface ProbeSize {
  episodes: number;
  nTools: number;
  policy: Pick<PolicyConfig, 'width' | 'depth'>;
  epochs: number;
}

/** The probe's size for a training configuration. */
export function probeSizeOf(train: { batchTasks: number; groupSize: number; epochs: number; policy: Pick<PolicyConfig, 'width' | 'depth'> }, nTools: number): ProbeSize {
  return { episodes: train.batchTasks * train.groupSize, nTools, policy: { width: train.policy.width, depth: train.policy.depth }, epochs: train.epochs };
}

/** A cache key for a probe size: "N128·J12·64×2·μ2". */
export function probeSizeKey(size: ProbeSize): string {
  return `N${size.episodes}·J${size.nTools}·${size.policy.width}×${size.policy.depth}·μ${size.epochs}`;
}


/** One line over a probe's results: "wasm: 7.1 it/s · webgpu (software adapter): ≤ 0.2 it/s · cpu: timed out". */
export function probeSummary(results: readonly { label: string; status: string; itPerS?: number }[]): string {
  const fig = (x: number | undefined) => (x === undefined ? '?' : x >= 10 ? x.toFixed(0) : x.toFixed(1));
  return results.map((r) => `${r.label}: ${r.status === 'measured' ? `${fig(r.itPerS)} it/s` : r.status === 'bound' ? `≤ ${fig(r.itPerS)} it/s` : r.status}`).join(' · ');
}
