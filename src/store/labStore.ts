// The page's state (zustand): the catalog in use, the generated task set shown by the data
// browser, and the backend the worker reports. Work is done by the worker; this only holds results.

import { create } from 'zustand';
import type { Catalog } from '../core/sim/catalog';
import { presetCatalog } from '../core/sim/presets';
import type { GenerateStats, Task } from '../core/sim/tasks';
import type { BackendInfo, BackendName } from '../worker/protocol';
import { LabWorkerClient } from '../worker/client';

export interface LabState {
  preset: string;
  catalog: Catalog;
  seed: number;
  count: number;
  tasks: Task[];
  stats: GenerateStats | null;
  selected: number;
  backend: BackendInfo | null;
  error: string | null;
  busy: boolean;
  setPreset(name: string): void;
  setSeed(seed: number): void;
  select(i: number): void;
  regenerate(): Promise<void>;
  boot(backend?: BackendName): Promise<void>;
}

let client: LabWorkerClient | null = null;
const worker = (): LabWorkerClient => (client ??= new LabWorkerClient());
let generation = 0;

export const useLab = create<LabState>((set, get) => ({
  preset: 'toolorchestra',
  catalog: presetCatalog('toolorchestra'),
  seed: 1,
  count: 120,
  tasks: [],
  stats: null,
  selected: 0,
  backend: null,
  error: null,
  busy: false,
  setPreset(name) {
    set({ preset: name, catalog: presetCatalog(name), selected: 0 });
    void get().regenerate();
  },
  setSeed(seed) {
    set({ seed, selected: 0 });
    void get().regenerate();
  },
  select(i) {
    set({ selected: i });
  },
  async regenerate() {
    const mine = ++generation;
    const { catalog, seed, count } = get();
    set({ busy: true });
    try {
      const r = await worker().request({ type: 'generate', catalog, seed, count, availability: 0.75 });
      if (mine !== generation || r.type !== 'tasks') return; // a newer request superseded this one
      set({ tasks: r.tasks, stats: r.stats, error: null, busy: false });
    } catch (e) {
      if (mine === generation) set({ error: (e as Error).message, busy: false });
    }
  },
  async boot(backend) {
    try {
      const r = await worker().request({ type: 'init', ...(backend ? { backend } : {}) });
      if (r.type === 'ready') set({ backend: r.backend });
    } catch (e) {
      set({ error: (e as Error).message });
    }
    await get().regenerate();
  },
}));
