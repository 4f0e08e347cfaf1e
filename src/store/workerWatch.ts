// The training worker, watched (worker/client.ts says when it stopped: a silence past the limit, or a
// script that did not load), so the page never shows a stale speed or "starting tfjs…" forever. The
// page keeps the worker's latest policy copy (worker/weightsCopy.ts), says what happened, and starts
// a worker afresh from it (backend, accepted settings, the copy at its own iteration), paused there.
// A worker that cannot be started again (or stops again and again) is left stopped, and said so.

import type { LabWorkerClient } from '../worker/client';
import type { LabSettings, Push } from '../worker/protocol';
import type { LabState, SetLab } from './labState';


/** The policy as Export writes it, and the lab's iteration it was copied at. */
export interface WeightsCopy { json: object; weights: ArrayBuffer; iteration: number }

/** An idle worker (or one training fast) counts as stopped after this silence (client.ts allows more while busy). */
export const IDLE_SILENCE_MS = 10_000;
/** Before the first speed reading of a run, or while the worker is busy with something else (a long evaluation). */
const BUSY_SILENCE_MS = 60_000;
/** Restarts allowed within RESTART_WINDOW_MS: a worker that keeps dying is left stopped. */
const MAX_RESTARTS = 3;
const RESTART_WINDOW_MS = 5 * 60_000;

export function workerWatch(set: SetLab, get: () => LabState, deps: {
  /** The current client (a new one once `forget` has dropped the stopped one). */
  worker: () => LabWorkerClient;
  /** Drops the stopped client: the next worker() starts a new one. */
  forget: (stopped: LabWorkerClient) => void;
  /** Starts tfjs in the (new) worker: the forced backend, the cached measurement or a probe. */
  startBackend: () => Promise<void>;
  /** The settings the stopped worker had accepted. */
  settings: () => LabSettings;
  evaluate: (sweep: boolean) => Promise<void>;
  /** Holds the page's actions until `work` has settled (they wait as they wait for boot). */
  reboot: (work: () => Promise<void>) => Promise<void>;
}) {
  let copy: WeightsCopy | null = null;
  let restarting = false;
  const restarts: number[] = [];

  const giveUp = (text: string) => {
    set({ running: false, itPerS: 0, backendSwitch: null, workerActivity: { code: 'stopped' } }); // the backend badge reads it too
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
    const from = copy;
    const fromCopy = from ? ` from the page's copy of the policy (iteration ${from.iteration})` : '';
    get().notify('error', `The training worker stopped: ${why}. It is started afresh${fromCopy}; `
      + 'nothing else was changed.', 'worker');
    restarting = true;
    try {
      await deps.reboot(async () => {
        await deps.startBackend();
        await deps.worker().request({ type: 'configure', settings: deps.settings() });
        if (from) {
          const weights = from.weights.slice(0); // the copy stays the page's (the import takes its own)
          const r = await deps.worker().request({
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
        await deps.evaluate(true);
      });
    } catch (e) {
      giveUp(`The training worker could not be started again (${(e as Error).message})`);
    } finally {
      restarting = false;
    }
  };

  return {
    /** The latest copy of the policy the worker sent (null before the first). */
    copy: (): WeightsCopy | null => copy,
    onPush(p: Push): void {
      if (p.type === 'weights') copy = { json: p.json, weights: p.weights, iteration: p.iteration };
    },
    /** How long a silence means a stopped worker (worker/client.ts allows more while a request waits). */
    silenceLimitMs(): number {
      const s = get();
      if (s.running) return s.itPerS > 0 ? Math.max(IDLE_SILENCE_MS, 5000 / s.itPerS) : BUSY_SILENCE_MS;
      return s.workerActivity.code === 'idle' ? IDLE_SILENCE_MS : BUSY_SILENCE_MS;
    },
    /** The client said its worker stopped: start afresh (unless this is the worker a restart was starting). */
    stopped(client: LabWorkerClient, why: string): void {
      deps.forget(client);
      if (restarting) return; // the restart in progress fails with it and says so
      void restart(why);
    },
  };
}
