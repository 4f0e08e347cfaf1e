// The run slice: the run controls — Start, Pause, Step, Reset, Restore best, Undo — the worker's pushes
// about the run, and the charts' runs they move (LabEnv.runs, chartRuns.ts): the run id each command
// carries, which run a metrics push belongs to, and the curves kept with the policy Undo brings back.

import { ChartRuns, curvesOf, noCurves, type KeptCurves } from './chartRuns';
import type { LabEnv, LabSlice, LabState, RunSlice, SetLab } from './labState';
import { saveFile } from './saveFile';
import { metricsCsv } from './series';
import { adoptShape } from './settingsSlice';
import { noticeText, restoredText, stopText } from './workerText';

/** Called when the user starts the main run (a comparison stops then: both would share the cores). */
const startListeners: (() => void)[] = [];
export const onRunStart = (f: () => void): void => { startListeners.push(f); };

/**
 * A policy that starts at iteration 0 replaced the current one (Reset, an import): a new run with
 * empty charts; the replaced curves are kept for Undo, which brings that policy back (`keep`:
 * the worker kept that policy, i.e. it was not a fresh, untrained network). Returns what was
 * kept before, for when the worker's answer comes later (Reset).
 */
export function replaceCurves(runs: ChartRuns, set: SetLab, get: () => LabState, keep = true): KeptCurves {
  const before = runs.keptState();
  set({ ...runs.replace(curvesOf(get())), iteration: 0, itPerS: 0, tradeoffStale: true });
  if (!keep) runs.restoreKept(before);
  return before;
}

export const createRunSlice = (env: LabEnv): LabSlice<RunSlice> => (set, get) => {
  const { runs } = env;
  /** A Restore best or Undo in flight: Reset waits for it (curves swap in the order the worker swaps policies). */
  let restoring: Promise<unknown> = Promise.resolve();

  /**
   * Restore best / Undo: the worker swaps the weights back; the page adopts the shape and says what
   * came back. Restore best carries the curves on (the counter goes on); Undo swaps them with the
   * ones kept for it, so the charts show the history of the policy that came back, and brings back
   * the seed that policy was kept under (the tasks follow it). One at a time, in click order, each
   * with its follow-up configure: a second Undo never reaches the worker before the first one's seed.
   */
  const restoreFrom = (type: 'restoreBest' | 'undo'): Promise<void> => {
    const run = restoring.then(() => restoreOnce(type));
    restoring = run.catch(() => undefined);
    return run;
  };

  const restoreOnce = async (type: 'restoreBest' | 'undo') => {
    await env.booted();
    await get().flushSettings(); // an edit still waiting (a seed typed a moment ago) reaches the worker first
    const runId = runs.carryOn();
    set({ running: false });
    get().dropPhases();
    try {
      const r = await env.worker().request({ type, runId });
      if (r.type !== 'restored') return;
      if (type === 'undo') set(runs.swap(curvesOf(get())));
      // Restore best kept the policy it replaced for Undo: its curves so far go with it, and the shown ones carry on.
      else if (r.kept) runs.keepForUndo(curvesOf(get()));
      const seed = r.seed ?? get().train.seed; // Undo's policy comes with the seed it was kept under
      const seedBack = seed !== get().train.seed;
      set((s) => ({ policyOrigin: 'restored',
        train: { ...s.train, seed, policy: { ...s.train.policy, width: r.width, depth: r.depth, seed } }, paper: null,
        tradeoffStale: true }));
      set(adoptShape);
      env.syncUrl();
      if (seedBack) await env.configure();
      const withSeed = seedBack ? `, with its seed ${seed}` : '';
      get().notify('info', `${restoredText(r.restored, r.kept)}${withSeed}.`, 'policy');
    } catch (e) {
      env.fail(e);
    }
  };

  // A push of the worker: metrics go to the curves of their run; status and trade-off count only from the current run.
  env.onPush((p) => {
    if (p.type === 'activity') return set({ workerActivity: p.activity });
    if (p.type === 'alive' || p.type === 'weights') return; // the worker's watch (workerWatch.ts) and the keep slice
    if (p.type === 'metrics') {
      const shown = runs.take(p.runId, p.points, p.histogram, p.group, curvesOf(get()));
      if (shown) set(shown);
      return;
    }
    if (p.runId !== runs.current) return; // from a run that was reset or replaced, or has ended
    if (p.type === 'status') {
      set({ running: p.running, iteration: p.iteration, itPerS: p.itPerS,
        ...(p.bestIteration !== undefined ? { bestIteration: p.bestIteration } : {}),
        ...(p.undo !== undefined ? { undoLabel: p.undo } : {}) });
      if (p.stop) get().notify('error', stopText(p.stop), 'run');
      if (p.notice) get().notify('info', noticeText(p.notice), 'run'); // a pause, no failure (the schedule's end)
    } else if (p.type === 'tradeoff') set({ tradeoff: p.tradeoff, tradeoffStale: false });
  });

  return {
    ...noCurves(),
    running: false,
    iteration: 0,
    itPerS: 0,
    savedPoint: null,
    bestIteration: null,
    undoLabel: null,
    workerActivity: { code: 'starting' },
    start() {
      if (get().running) return;
      for (const f of startListeners) f();
      get().dropPhases();
      // Why training paused (the schedule's end, a stop) no longer holds once it runs again.
      set((s) => ({ running: true, notices: s.notices.filter((n) => n.topic !== 'run') }));
      // Settings changed just before (still in their debounce) apply to this run, not the one after.
      void env.booted().then(() => get().flushSettings())
        .then(() => env.worker().request({ type: 'start', runId: runs.current })).catch(env.fail);
    },
    pause() {
      set({ running: false });
      void env.worker().request({ type: 'pause' }).catch(env.fail);
    },
    toggleRun() {
      if (get().running) get().pause();
      else get().start();
    },
    async stepOnce() {
      await env.booted();
      if (get().running) get().pause();
      get().dropPhases();
      await get().flushSettings().catch(env.fail); // a setting changed a moment ago applies to this step
      await env.worker().request({ type: 'step', runId: runs.current }).catch(env.fail);
    },
    async reset() {
      await env.booted();
      await restoring;
      const before = replaceCurves(runs, set, get);
      // Notices about the policy that is gone no longer hold (e.g. "Loaded the shipped pretrained policy").
      get().dropPhases();
      set((s) => ({ running: false, paper: null, policyOrigin: 'scratch',
        notices: s.notices.filter((n) => n.topic !== 'policy') }));
      const r = await env.worker().request({ type: 'reset', runId: runs.current }).catch(env.fail);
      const kept = r?.type === 'resetDone' && r.kept;
      if (!kept) runs.restoreKept(before);
      const undoable = kept ? ' (Undo brings the previous one back)' : '';
      get().notify('info', `Reset: a fresh random policy from the seed${undoable}.`, 'policy');
    },
    restoreBest: () => restoreFrom('restoreBest'),
    undo: () => restoreFrom('undo'),
    exportMetrics(kind) {
      const series = get().history.points; // every iteration (the charts' series is thinned past its cap)
      if (kind === 'csv') saveFile('orchestra-lab-metrics.csv', metricsCsv(series), 'text/csv');
      else saveFile('orchestra-lab-metrics.json', JSON.stringify(series), 'application/json');
    },
  };
};
