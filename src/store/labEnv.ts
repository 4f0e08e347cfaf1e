// The one LabEnv the store's slices share (labState.ts), made once per store: the training worker's
// client (started on first use and afresh after one stopped: workerWatch.ts), its pushes handed to
// every listener and its latest policy copy kept, failures said as notices, the address bar, the
// settings' trip to the worker, and the gate that actions clicked before boot (or a restart) wait at.

import { errorMessage } from '../core/errorMessage';
import type { StoreApi } from 'zustand';
import { LabWorkerClient, WorkerStoppedError } from '../worker/client';
import type { Push } from '../worker/protocol';
import { ChartRuns, curvesOf, noCurves } from './chartRuns';
import type { LabEnv, LabState, WeightsCopy } from './labState';
import { describeSettingsChange } from './settingsChange';
import { settingsOf } from './settingsSlice';
import { readView, urlConfigOf, writeUrl } from './urlState';
import { workerWatch } from './workerWatch';
import { errorText, keptText } from './workerText';

export function labEnv(api: StoreApi<LabState>): LabEnv {
  const { getState: get, setState: set } = api;
  let client: LabWorkerClient | null = null;
  let copy: WeightsCopy | null = null;
  const listeners: ((p: Push) => void)[] = [];
  // Closed from the start until boot has configured the worker and loaded the starting policy: a training
  // action clicked before (the buttons are there at once) waits instead of reaching an unconfigured worker.
  // It opens once every work that holds it (boot, a restart) has settled.
  let holders = 0, open = false;
  let release: () => void = () => undefined;
  let gate = new Promise<void>((resolve) => { release = resolve; });

  const env: LabEnv = {
    worker: () => (client ??= newClient()),
    onPush(listener) {
      listeners.push(listener);
    },
    lastCopy: () => copy,
    fail(e) {
      if (!(e instanceof WorkerStoppedError)) get().notify('error', errorText(e));
    },
    syncUrl() {
      const q = writeUrl(urlConfigOf(get()), readView(location.search)); // classroom mode stays in the link
      history.replaceState(null, '', `${location.pathname}${q}`);
    },
    configure: () => configureNow(),
    booted: () => gate,
    async holdActions(work) {
      if (open && holders === 0) {
        open = false;
        gate = new Promise<void>((resolve) => { release = resolve; });
      }
      holders++;
      try {
        await work();
      } finally {
        if (--holders === 0) {
          open = true;
          release();
        }
      }
    },
    runs: new ChartRuns(),
  };

  const watch = workerWatch(api, env, (stopped) => { if (client === stopped) client = null; });
  const newClient = (): LabWorkerClient => {
    const c: LabWorkerClient = new LabWorkerClient({
      silenceLimitMs: () => watch.silenceLimitMs(),
      onStopped: (why) => watch.stopped(c, why),
      onError: (text) => get().notify('error', text),
    });
    c.onPush((p) => {
      if (p.type === 'weights') copy = { json: p.json, weights: p.weights, iteration: p.iteration };
      for (const listener of listeners) listener(p);
    });
    return c;
  };

  /** Sends the settings now, then re-evaluates the operating point (and the sweep if the policy or tasks changed). */
  const configureNow = async (): Promise<void> => {
    const settings = settingsOf(get());
    // Said at once, against what the worker runs: a worker busy measuring may take seconds to answer,
    // and a refusal below replaces this notice (same topic) and puts the settings back.
    const before = get().workerSettings;
    const said = before && describeSettingsChange(before, settings, get().iteration);
    if (said) get().notify('info', said, 'settings');
    let r;
    try {
      r = await env.worker().request({ type: 'configure', settings });
    } catch (e) {
      // Refused by the worker: the page goes back to what the worker runs, so the two never disagree.
      const accepted = get().workerSettings;
      if (accepted) {
        set({ ...accepted });
        env.syncUrl();
      }
      get().notify('error', `Not applied: ${errorMessage(e)}. The lab goes on with the settings it had.`,
        'settings');
      return;
    }
    set({ workerSettings: settings });
    const changed = r.type === 'configured' ? r.changed : [];
    // The worker closed a slow-motion iteration the new settings no longer fit.
    if (changed.includes('phases')) get().dropPhases();
    // A new network (width, depth or seed changed): its counter starts at 0, with curves of its own;
    // a trained policy it replaced is kept for Undo, with its curves.
    if (changed.includes('policy')) {
      set({ ...(changed.includes('undo') ? env.runs.keepForUndo(curvesOf(get())) : noCurves()), iteration: 0,
        policyOrigin: 'random', tradeoffStale: true });
    }
    if (r.type === 'configured') set({ bestIteration: r.bestIteration, undoLabel: r.undo });
    if (r.type === 'configured' && changed.includes('undo') && r.undo) get().notify('info',
      `A new network for the new shape or seed: ${keptText(r.undo)} is kept — Undo brings it back.`, 'policy');
    await get().evaluate(changed.some((c) => c === 'policy' || c === 'tasks' || c === 'baselines'));
  };

  return env;
}
