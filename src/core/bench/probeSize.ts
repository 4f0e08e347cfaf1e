// The backend speed probe's plan without tfjs (the page uses it too): the size it is measured at,
// its cache key, the order backends are measured in, the choice when none finishes, its badge line.

import type { PolicyConfig } from '../policy/policyConfig';

export interface ProbeSize {
  episodes: number;
  nTools: number;
  policy: Pick<PolicyConfig, 'width' | 'depth'>;
  epochs: number;
}

/** The probe's size for a training configuration. */
export function probeSizeOf(train: { batchTasks: number; groupSize: number; epochs: number; policy: Pick<PolicyConfig,
  'width' | 'depth'> }, nTools: number): ProbeSize {
  return { episodes: train.batchTasks * train.groupSize, nTools, policy: { width: train.policy.width, depth: train.policy.depth }, epochs: train.epochs };
}

/** A cache key for a probe size: "N128·J12·64×2·μ2". */
export function probeSizeKey(size: ProbeSize): string {
  return `N${size.episodes}·J${size.nTools}·${size.policy.width}×${size.policy.depth}·μ${size.epochs}`;
}


/** One line over a probe's results: "wasm: 7.1 it/s · webgpu (software adapter): ≤ 0.2 it/s · cpu: timed out". */
export function probeSummary(results: readonly { label: string; status: string; itPerS?: number }[]): string {
  const fig = (x: number | undefined) => (x === undefined ? '?' : x >= 10 ? x.toFixed(0) : x.toFixed(1));
  return results.map((r) => `${r.label}: ${r.status === 'measured' ? `${fig(r.itPerS)} it/s` : r.status === 'bound'
    ? `≤ ${fig(r.itPerS)} it/s` : r.status}`).join(' · ');
}

export type ProbeBackend = 'webgpu' | 'webgl' | 'wasm' | 'cpu';

/**
 * The order backends are measured in. wasm goes first, except on a hardware WebGPU adapter:
 * there, at a large size, one wasm iteration blocks the worker past the whole 2 s (seen on an
 * NVIDIA H200 at width 256, N = 1024: WebGPU was skipped), while WebGPU's work runs on the GPU.
 * WebGL stays last (starting it cannot be cut short).
 */
export function probeOrder(gpu: { software: boolean } | null): ProbeBackend[] {
  return gpu && !gpu.software ? ['webgpu', 'wasm', 'cpu', 'webgl'] : ['wasm', 'webgpu', 'cpu', 'webgl'];
}

/**
 * The backends to start, in order, when no backend finished the probe (a large size: its first
 * iteration outlasts the budget everywhere). On an NVIDIA H200 at width 256, N = 1024, wasm took
 * 3.2 s an iteration and WebGPU 0.25 s (docs/BENCHMARKS.md): a hardware adapter gets the large
 * sizes, a software one comes after wasm and cpu (24 s for one default iteration on this project's
 * machine), and WebGL, which cannot be cut short, last.
 */
export function unmeasuredOrder(gpu: { software: boolean } | null): ProbeBackend[] {
  return gpu && !gpu.software ? ['webgpu', 'wasm', 'cpu', 'webgl'] : ['wasm', 'cpu', 'webgpu', 'webgl'];
}
