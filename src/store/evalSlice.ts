// The eval slice: the trade-off view (the policy at the sliders' P, and the preference sweep, beside
// the baselines, evaluated in the worker; a later evaluation supersedes one still running), the
// "Paper vs lab" table, and the policy's probabilities on the probe batch.

import type { EvalSlice, LabEnv, LabSlice } from './labState';

export const createEvalSlice = (env: LabEnv): LabSlice<EvalSlice> => (set, get) => {
  /** Bumped by each evaluation: only the latest one's answer is shown. */
  let generation = 0;
  return {
    tradeoff: null,
    tradeoffStale: false,
    evaluating: false,
    async evaluate(sweep) {
      const mine = ++generation;
      set({ evaluating: true });
      try {
        const r = await env.worker().request({ type: 'evaluate', preference: get().train.preference, sweep });
        if (mine === generation && r.type === 'tradeoff') set({ tradeoff: r.tradeoff, tradeoffStale: false });
      } finally {
        if (mine === generation) set({ evaluating: false });
      }
    },
    paper: null,
    paperBusy: false,
    async computePaper(count = 200) {
      set({ paperBusy: true });
      try {
        const r = await env.worker().request({ type: 'paper', preference: get().train.preference, count });
        if (r.type === 'paper') set({ paper: { rows: r.rows, iteration: r.iteration, count: r.count } });
      } catch (e) {
        // Shown empty with Recompute, not retried in a loop.
        set({ paper: { rows: [], iteration: get().iteration, count } });
        env.fail(e);
      } finally {
        set({ paperBusy: false });
      }
    },
    async probe() {
      const r = await env.worker().request({ type: 'probe' });
      return r.type === 'probed' ? r.probabilities : [];
    },
  };
};
