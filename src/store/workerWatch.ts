// The training worker, watched (worker/client.ts says when it stopped: a silence past the limit, or a
// script that did not load), so the page never shows a stale speed or "starting tfjs…" forever. The
// page keeps the worker's latest policy copy (worker/weightsCopy.ts, LabEnv.lastCopy), says what
// happened, and starts a worker afresh from it (backend, accepted settings, the copy at its own
// iteration), paused there. A worker that cannot be started again (or stops again and again) is left
// stopped, and said so.

import { errorMessage } from '../core/errorMessage';
import type { StoreApi } from 'zustand';
import { BUSY_SILENCE_MS, type LabWorkerClient } from '../worker/client';
import type { LabEnv, LabState } from './labState';
import { settingsOf } from './settingsSlice';

/** An idle worker (or one training fast) counts as stopped after this silence (client.ts allows more while busy). */
const IDLE_SILENCE_MS = 10_000;
/** Restarts allowed within RESTART_WINDOW_MS: a worker that keeps dying is left stopped. */
const MAX_RESTARTS = 3;
const RESTART_WINDOW_MS = 5 * 60_000;

/**
 * The watch of `env`'s worker; `forget` drops the stopped client, so that the next env.worker() starts
 * a new one. A restart holds the page's actions (they wait as they wait for boot).
 */
export function workerWatch(api: StoreApi<LabState>, env: LabEnv, forget: (stopped: LabWorkerClient) => void) {
  const { getState: get, setState: set } = api;
  let restarting = false;
  const restarts: number[] = [];

  const giveUp = (text: string) => {
    // The backend badge reads the activity too.
    set({ running: false, itPerS: 0, backendSwitch: null, workerActivity: { code: 'stopped' } });
    const copy = env.lastCopy();
    const saved = copy
      ? `; Export weights still saves the page's copy of the policy (iteration ${copy.iteration})`
      : '';
    get().notify('error', `${text}. Reload the page${saved}.`, 'worker');
  };

  const restart = async (why: string) => {
    const now = Date.now();
    while (restarts.length && now - (restarts[0] as number) > RESTART_WINDOW_MS) restarts.shift();
    get().dropPhases();
    set({ running: false, itPerS: 0, backendInfo: null, workerActivity: { code: 'restarting' } });
    if (restarts.length >= MAX_RESTARTS) {
      const times = `for the ${MAX_RESTARTS + 1}th time in ${RESTART_WINDOW_MS / 60_000} minutes`;
      return giveUp(`The training worker stopped (${why}), ${times}: it is not started again`);
    }
    restarts.push(now);
    const from = env.lastCopy();
    const fromCopy = from ? ` from the page's copy of the policy (iteration ${from.iteration})` : '';
    get().notify('error', `The training worker stopped: ${why}. It is started afresh${fromCopy}; `
      + 'nothing else was changed.', 'worker');
    restarting = true;
    try {
      await env.holdActions(async () => {
        await get().startBackend();
        // The settings the stopped worker had accepted.
        await env.worker().request({ type: 'configure', settings: get().workerSettings ?? settingsOf(get()) });
        if (from) {
          const weights = from.weights.slice(0); // the copy stays the page's (the import takes its own)
          const r = await env.worker().request({
            type: 'import', json: from.json, weights, replacedBy: 'restart', resumeAt: from.iteration,
          }, [weights]);
          if (r.type === 'imported') {
            const shape = { width: r.width, depth: r.depth };
            set((s) => ({
              iteration: from.iteration, bestIteration: r.bestIteration, undoLabel: r.undo,
              train: { ...s.train, policy: { ...s.train.policy, ...shape } },
            }));
          }
        } else set({ iteration: 0 });
        const on = get().backendInfo?.name ?? 'its backend';
        get().notify('info', from
          ? `The training worker runs again (on ${on}) with the weights of iteration ${from.iteration}, `
            + 'the page\'s last copy: training is paused there; press Start to go on.'
          : `The training worker runs again (on ${on}), with a fresh policy: it had sent no copy of its weights yet.`, 'policy');
        await get().evaluate(true);
      });
    } catch (e) {
      giveUp(`The training worker could not be started again (${errorMessage(e)})`);
    } finally {
      restarting = false;
    }
  };

  return {
    /** How long a silence means a stopped worker (worker/client.ts allows more while a request waits). */
    silenceLimitMs(): number {
      const s = get();
      if (s.running) return s.itPerS > 0 ? Math.max(IDLE_SILENCE_MS, 5000 / s.itPerS) : BUSY_SILENCE_MS;
      return s.workerActivity.code === 'idle' ? IDLE_SILENCE_MS : BUSY_SILENCE_MS;
    },
    /** The client said its worker stopped: start afresh (unless this is the worker a restart was starting). */
    stopped(client: LabWorkerClient, why: string): void {
      forget(client);
      if (restarting) return; // the restart in progress fails with it and says so
      void restart(why);
    },
  };
}
