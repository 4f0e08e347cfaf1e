// The bench page's worker: starts the requested tfjs backend and runs a plan on it — the training
// benchmark (core/bench/trainBench.ts, each row's line then the report), 'diverge' (the divergence
// guard's self-check), 'memory' (tensors and GPU bytes at a tiny size), 'kernels' (the WGSL kernels
// against tfjs's ops) or 'series' (a fixed seed's diagnostics). `flags` ("NAME:value,…") are tfjs
// flags set once the backend has started.

import * as tf from '@tensorflow/tfjs-core';
import { initBackend } from '../worker/backend';
import { DEFAULT_SIZE_PLAN, FULL_PLAN, memoryFlat, QUICK_PLAN, runTrainBench } from '../core/bench/trainBench';
import type { BackendName } from '../worker/protocol';
import { divergenceCheck, type DivergenceCheck } from '../core/bench/divergenceCheck';
import { errorMessage } from '../core/errorMessage';
import { webgpuKernelCheck, type KernelCheck } from '../core/bench/webgpuCheck';
import { trainingSeries, type TrainingSeries } from '../core/bench/trainingSeries';

export type BenchMessage =
  | { type: 'log'; line: string }
  | { type: 'done'; report: Awaited<ReturnType<typeof runTrainBench>>; adapter: string; software: boolean }
  | { type: 'checked'; check: DivergenceCheck | KernelCheck | TrainingSeries | Awaited<ReturnType<typeof memoryFlat>> }
  | { type: 'unavailable'; reason: string }
  | { type: 'error'; message: string };

const post = (m: BenchMessage) => (self as unknown as Worker).postMessage(m);

/** "NAME:value,…" → tf.env() flags (numbers and booleans parsed); throws on a flag tfjs does not know. */
function setFlags(spec: string): void {
  for (const item of spec.split(',').map((x) => x.trim()).filter(Boolean)) {
    const [name = '', raw = ''] = item.split(':');
    const value = raw === 'true' ? true : raw === 'false' ? false : Number.isFinite(Number(raw)) && raw !== '' ? Number(raw) : raw;
    tf.env().set(name, value);
  }
}

type Plan = 'quick' | 'full' | 'default' | 'diverge' | 'memory' | 'kernels' | 'series';

self.addEventListener('message', (ev: MessageEvent<{ backend: BackendName; plan: Plan; flags?: string }>) => {
  void (async () => {
    try {
      const info = await initBackend(ev.data.backend);
      if (info.name !== ev.data.backend) return post({ type: 'unavailable', reason: info.notes.join('; ') || `${ev.data.backend} did not start` });
      if (ev.data.flags) setFlags(ev.data.flags);
      if (ev.data.plan === 'diverge') return post({ type: 'checked', check: await divergenceCheck() });
      if (ev.data.plan === 'series') return post({ type: 'checked', check: await trainingSeries() });
      if (ev.data.plan === 'kernels') return post({ type: 'checked', check: await webgpuKernelCheck() });
      if (ev.data.plan === 'memory') return post({ type: 'checked', check: await memoryFlat([5, 15]) });
      const plans = { full: FULL_PLAN, quick: QUICK_PLAN, default: DEFAULT_SIZE_PLAN };
      const report = await runTrainBench(plans[ev.data.plan], (line) => post({ type: 'log', line }));
      post({ type: 'done', report, adapter: info.adapter, software: info.software });
    } catch (e) {
      post({ type: 'error', message: errorMessage(e) });
    }
  })();
});
