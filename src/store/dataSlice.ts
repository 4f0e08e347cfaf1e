// The data slice: the tasks the data browser shows, generated in the worker from the catalog and a
// data seed of their own (a newer catalog or seed supersedes an answer still on its way).

import type { DataSlice, LabEnv, LabSlice } from './labState';

export const createDataSlice = (env: LabEnv): LabSlice<DataSlice> => (set, get) => ({
  tasks: [],
  stats: null,
  selected: 0,
  dataSeed: 1,
  async regenerate() {
    const { catalog, dataSeed } = get();
    try {
      const r = await env.worker().request({ type: 'generate', catalog, seed: dataSeed, count: 120,
        availability: 0.75 });
      const current = get().catalog === catalog && get().dataSeed === dataSeed;
      if (r.type === 'tasks' && current) set({ tasks: r.tasks, stats: r.stats });
    } catch (e) {
      env.fail(e);
    }
  },
  select(i) {
    set({ selected: i });
  },
  setDataSeed(seed) {
    set({ dataSeed: seed, selected: 0 });
    void get().regenerate();
  },
});
