// The run controls — Start, Pause, Step, Reset, Restore best, Undo — and the charts' runs they
// move (chartRuns.ts): the run id each command carries, which run a metrics push belongs to, and
// the curves kept with the policy Undo brings back.

import type { LabWorkerClient } from '../worker/client';
import type { Push } from '../worker/protocol';
import { ChartRuns, type Curves, type KeptCurves } from './chartRuns';
import type { LabState, SetLab } from './labState';
import { noticeText, restoredText, stopText } from './workerText';

type RunControls = Pick<LabState, 'start' | 'pause' | 'toggleRun' | 'stepOnce' | 'reset' | 'restoreBest' | 'undo'>;

const curvesOf = (s: LabState): Curves => ({ series: s.series, history: s.history, histogram: s.histogram, group: s.group });

export function runActions(set: SetLab, get: () => LabState, worker: () => LabWorkerClient, deps: {
  fail: (e: unknown) => void;
  booted: () => Promise<void>;
  /** Called when the user starts the main run. */
  onStart: () => void;
  /** After the worker swapped in a policy of another shape: the page adopts it (and the link). */
  adoptShape: () => void;
  /** Sends the page's settings to the worker now (an Undo across a seed change brings the data seed back). */
  configure: () => Promise<void>;
}) {
  const runs = new ChartRuns();
  /** A Restore best or Undo in flight: Reset waits for it, so the page swaps curves in the order the worker swaps policies. */
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
    await deps.booted();
    await get().flushSettings(); // an edit still waiting (a seed typed a moment ago) reaches the worker first
    const runId = runs.carryOn();
    set({ running: false });
    get().dropPhases();
    try {
      const r = await worker().request({ type, runId });
      if (r.type !== 'restored') return;
      if (type === 'undo') set(runs.swap(curvesOf(get())));
      // Restore best kept the policy it replaced for Undo: its curves up to now go with it, and the shown ones carry on.
      else if (r.kept) runs.keepForUndo(curvesOf(get()));
      const seed = r.seed ?? get().train.seed; // Undo's policy comes with the seed it was kept under
      const seedBack = seed !== get().train.seed;
      set((s) => ({ policyOrigin: 'restored',
        train: { ...s.train, seed, policy: { ...s.train.policy, width: r.width, depth: r.depth, seed } }, paper: null,
        tradeoffStale: true }));
      deps.adoptShape();
      if (seedBack) await deps.configure();
      get().notify('info', `${restoredText(r.restored, r.kept)}${seedBack ? `, with its seed ${seed}` : ''}.`, 'policy');
    } catch (e) {
      deps.fail(e);
    }
  };

  const controls: RunControls = {
    start() {
      if (get().running) return;
      deps.onStart();
      get().dropPhases();
      // Why training paused (the schedule's end, a stop) no longer holds once it runs again.
      set((s) => ({ running: true, notices: s.notices.filter((n) => n.topic !== 'run') }));
      // Settings changed just before (still in their debounce) apply to this run, not the one after.
      void deps.booted().then(() => get().flushSettings()).then(() => worker().request({ type: 'start', runId: runs.current })).catch(deps.fail);
    },
    pause() {
      set({ running: false });
      void worker().request({ type: 'pause' }).catch(deps.fail);
    },
    toggleRun() {
      if (get().running) get().pause();
      else get().start();
    },
    async stepOnce() {
      await deps.booted();
      if (get().running) get().pause();
      get().dropPhases();
      await get().flushSettings().catch(deps.fail); // a setting changed a moment ago applies to this step
      await worker().request({ type: 'step', runId: runs.current }).catch(deps.fail);
    },
    async reset() {
      await deps.booted();
      await restoring;
      const before = replaceCurves();
      // Notices about the policy that is gone no longer hold (e.g. "Loaded the shipped pretrained policy").
      get().dropPhases();
      set((s) => ({ running: false, paper: null, policyOrigin: 'scratch', notices: s.notices.filter((n) => n.topic !== 'policy') }));
      const r = await worker().request({ type: 'reset', runId: runs.current }).catch(deps.fail);
      const kept = r?.type === 'resetDone' && r.kept;
      if (!kept) runs.restoreKept(before);
      get().notify('info', `Reset: a fresh random policy from the seed${kept ? ' (Undo brings the previous one back)' : ''}.`, 'policy');
    },
    restoreBest: () => restoreFrom('restoreBest'),
    undo: () => restoreFrom('undo'),
  };

  /**
   * A policy that starts at iteration 0 replaced the current one (Reset, an import): a new run with
   * empty charts; the replaced curves are kept for Undo, which brings that policy back (`keep`:
   * the worker kept that policy, i.e. it was not a fresh, untrained network). Returns what was
   * kept before, for when the worker's answer comes later (Reset).
   */
  function replaceCurves(keep = true): KeptCurves {
    const before = runs.keptState();
    set({ ...runs.replace(curvesOf(get())), iteration: 0, itPerS: 0, tradeoffStale: true });
    if (!keep) runs.restoreKept(before);
    return before;
  }

  return {
    controls,
    replaceCurves,
    currentRun: () => runs.current,
    /** A new network replaced a trained policy the worker kept for Undo: its curves are kept too; returns the new, empty ones. */
    keepForUndo: (): Curves => runs.keepForUndo(curvesOf(get())),
    /** A push of the worker: metrics go to the curves of their run; status and trade-off count only from the current run. */
    onPush(p: Push): void {
      if (p.type === 'activity') return set({ workerActivity: p.activity });
      if (p.type === 'alive' || p.type === 'weights') return; // the worker's watch (workerWatch.ts)
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
        if (p.notice) get().notify('info', noticeText(p.notice), 'run'); // a pause that is no failure (the learning-rate schedule's end)
      } else if (p.type === 'tradeoff') set({ tradeoff: p.tradeoff, tradeoffStale: false });
    },
  };
}
