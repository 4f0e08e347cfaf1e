// The typed message protocol between the page and the training worker. Every request carries
// an id; every reply names the id it answers, so stale replies can be dropped.

import type { Catalog } from '../core/sim/catalog';
import type { GenerateStats, Task } from '../core/sim/tasks';

export type BackendName = 'webgpu' | 'webgl' | 'wasm' | 'cpu';

export interface BackendInfo {
  name: BackendName;
  /** Adapter description (WebGPU) or the backend's own name. */
  adapter: string;
  /** True for a software WebGPU adapter (SwiftShader), and for wasm / cpu. */
  software: boolean;
  /** Why backends earlier in the chain were skipped. */
  notes: string[];
}

export type Request =
  | { id: number; type: 'init'; backend?: BackendName }
  | { id: number; type: 'generate'; catalog: Catalog; seed: number; count: number; availability: number };

export type Reply =
  | { id: number; type: 'ready'; backend: BackendInfo }
  | { id: number; type: 'tasks'; tasks: Task[]; stats: GenerateStats }
  | { id: number; type: 'error'; message: string };
