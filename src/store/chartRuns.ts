// Which worker run each chart point belongs to, and the curves kept for Undo. The page's run
// commands carry a run id and the worker tags every push with it; a policy's curves are the
// metrics of the runs that trained it. The worker keeps one policy for Undo (the one the last
// Reset, import, new network, Restore best or Undo replaced), so the page keeps that policy's curves, and the runs whose late
// metrics (flushed after the page moved on) still belong to them.

import type { GroupSample, Histogram } from '../core/grpo/metrics';
import type { MetricPoint } from '../worker/protocol';
import { appendBounded, MetricLog } from './series';

/** The charts' state of one policy: the bounded series they draw, and every iteration for export. */
export interface Curves { series: MetricPoint[]; history: MetricLog; histogram: Histogram | null; group: GroupSample | null }
/** Curves with nothing yet (each with a log of its own). */
export const noCurves = (): Curves => ({ series: [], history: new MetricLog(), histogram: null, group: null });
/** The curves of a state that shows them (the lab's). */
export const curvesOf = (s: Curves): Curves =>
  ({ series: s.series, history: s.history, histogram: s.histogram, group: s.group });
/** The curves Undo would bring back, and the runs whose late metrics join them. */
export interface KeptCurves { kept: Curves; keptRuns: Set<number> }

export class ChartRuns {
  /** The run the page's commands go under now. */
  current = 1;
  /** Runs whose metrics the shown curves take: the current one and those it carries on. */
  private shown = new Set([1]);
  /** The curves of the policy Undo brings back. */
  private kept: Curves = noCurves();
  /** Runs whose late metrics belong to the kept curves. */
  private keptRuns = new Set<number>();

  /** A new run that carries the shown curves on (Start after a Restore best: the counter goes on). */
  carryOn(): number {
    this.shown.add(++this.current);
    return this.current;
  }

  /**
   * A policy that starts at iteration 0 replaced the shown one (Reset, an import): a new run, and
   * empty curves to show; the replaced curves are kept for Undo, late metrics of their runs included.
   */
  replace(shown: Curves): Curves {
    this.kept = shown;
    this.keptRuns = this.shown;
    this.shown = new Set([++this.current]);
    return noCurves();
  }

  /** What Undo would bring back now, to put back with restoreKept(). */
  keptState(): KeptCurves {
    return { kept: this.kept, keptRuns: this.keptRuns };
  }

  /** The worker did not keep the policy replace() kept the curves of (a fresh network): its slot, and so the curves, hold what they held before. */
  restoreKept(state: KeptCurves): void {
    this.kept = state.kept;
    this.keptRuns = state.keptRuns;
  }

  /**
   * A new network (or Restore best) replaced a trained policy in the run going on (the worker kept
   * that policy for Undo): the shown curves are kept, and empty ones returned to show (Restore best
   * goes on showing its own instead). Late points cannot be told apart (same run), so the kept
   * curves end where the page had them.
   */
  keepForUndo(shown: Curves): Curves {
    this.kept = shown;
    this.keptRuns = new Set();
    return noCurves();
  }

  /**
   * Undo brought the kept policy back (its request went under a carryOn() run, so what the worker
   * closed before the undo is on the shown curves): returns the kept curves to show, and keeps the
   * shown ones instead; the current run goes on, under the policy that came back.
   */
  swap(shown: Curves): Curves {
    const back = this.kept;
    this.kept = shown;
    this.keptRuns = new Set([...this.shown].filter((r) => r !== this.current));
    this.shown = new Set([this.current]);
    return back;
  }

  /**
   * A metrics push of `runId`: the shown curves with its points, null when it is not theirs (the
   * kept curves take the points of their runs, other runs' are dropped).
   */
  take(runId: number, points: readonly MetricPoint[], histogram: Histogram, group: GroupSample | null, shown: Curves): Curves | null {
    if (this.shown.has(runId)) {
      shown.history.append(points);
      return { series: appendBounded(shown.series, points), history: shown.history, histogram, group };
    }
    if (this.keptRuns.has(runId)) {
      this.kept.history.append(points);
      this.kept = { series: appendBounded(this.kept.series, points), history: this.kept.history, histogram, group };
    }
    return null;
  }
}
