// The boot slice: the page's start. tfjs in the worker, the link's settings (or, refused, the
// default sizes), then the first policy: the link's, else this browser's saved lab, else the shipped
// one; the actions clicked meanwhile wait for it (LabEnv.holdActions), then the trade-off view.

import { errorMessage } from '../core/errorMessage';
import { DEFAULT_TRAIN } from '../core/grpo/config';
import type { BootSlice, LabEnv, LabSlice } from './labState';
import { openedLink, ownLink } from './openedLink';
import { settingsOf } from './settingsSlice';

export const createBootSlice = (env: LabEnv): LabSlice<BootSlice> => (set, get) => {
  /** The link's settings to the worker; when it refuses their sizes (e.g. past the memory bound), the default sizes. */
  const configureFirst = async () => {
    try {
      await env.worker().request({ type: 'configure', settings: settingsOf(get()) });
    } catch (e) {
      const d = structuredClone(DEFAULT_TRAIN);
      set((s) => ({ train: { ...s.train, batchTasks: d.batchTasks, groupSize: d.groupSize, sim: d.sim,
        policy: d.policy } }));
      env.syncUrl();
      get().notify('error', `The link's settings were not applied: ${errorMessage(e).replace(/\.$/, '')}. `
        + 'Using the default sizes instead.');
      await env.worker().request({ type: 'configure', settings: settingsOf(get()) });
    }
    set({ workerSettings: settingsOf(get()) });
  };

  return {
    async boot() {
      try {
        await env.holdActions(async () => {
          try {
            await get().startBackend();
            await configureFirst();
            const t = get().train.policy;
            const linked = await get().bootPolicy();
            // A link that carries a fragment (#catalog=, #policy=) or settings the lab ignored is someone's
            // lab: this browser's saved one is not put back over it.
            const restored = await get().restoreSaved(!linked && ownLink(openedLink()));
            if (!linked && !restored && t.width === 64 && t.depth === 2) await get().loadPretrained();
          } finally {
            // No shipped policy for this size, or it could not load; a failed boot says why, and the
            // actions then say what they meet.
            if (get().policyOrigin === 'loading') set({ policyOrigin: 'random' });
          }
        });
        await get().evaluate(true);
      } catch (e) {
        env.fail(e);
      }
      void get().regenerate();
    },
  };
};
