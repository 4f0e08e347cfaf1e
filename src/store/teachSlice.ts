// The teach slice: the first screen's two explicit ways to train (from scratch, or on from the
// shipped pretrained policy) and GRPO in slow motion (the worker runs one named phase of an
// iteration per "Next phase" and sends back what it computed; the page only displays it).

import { PHASE_NAMES } from '../core/grpo/phaseNames';
import type { LabEnv, LabSlice, TeachSlice } from './labState';

export const createTeachSlice = (env: LabEnv): LabSlice<TeachSlice> => (set, get) => {
  /** Bumped whenever the phases on screen are dropped: a reply still in flight from before is then ignored. */
  let generation = 0;
  return {
    policyOrigin: 'loading',
    importedIterations: null,
    phases: [],
    phaseBusy: false,
    // Reset, an import and Start each drop the phases on screen (dropPhases).
    async trainFromScratch() {
      await get().reset();
      get().start();
    },
    async continueFromPretrained() {
      await env.booted();
      if (get().running) get().pause();
      // The import gives the pretrained policy a new run and charts of its own (Undo brings the current one back).
      if (get().policyOrigin !== 'pretrained' || get().iteration > 0) {
        if (!(await get().loadPretrained())) return;
      }
      get().start();
    },
    async nextPhase() {
      await env.booted();
      if (get().phaseBusy) return;
      if (get().running) get().pause();
      const fresh = get().phases.length === 0 || get().phases.length >= PHASE_NAMES.length;
      if (fresh) generation++;
      const mine = generation;
      set((s) => ({ phaseBusy: true, phases: fresh ? [] : s.phases }));
      try {
        const r = await env.worker().request({ type: 'phase', runId: env.runs.current });
        if (r.type !== 'phase' || mine !== generation) return;
        // Phase 1 opens a new iteration (the worker may have closed the one on screen); any other phase follows the last one shown.
        set((s) => {
          const last = s.phases[s.phases.length - 1];
          if (r.report.index === 1) return { phases: [r.report] };
          return last && last.index === r.report.index - 1 && last.iteration === r.report.iteration ? { phases: [...s.phases, r.report] } : { phases: [] };
        });
      } catch (e) {
        set({ phases: [] });
        env.fail(e);
      } finally {
        set({ phaseBusy: false });
      }
    },
    dropPhases() {
      generation++;
      set({ phases: [] });
    },
    async closePhases() {
      get().dropPhases();
      await env.worker().request({ type: 'closePhases', runId: env.runs.current }).catch(env.fail);
    },
  };
};
