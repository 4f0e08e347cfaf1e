// The page's runs and curves (chartRuns.ts) through Reset, late metrics, Undo and Restore best,
// with the iterations written out by hand.

import { describe, expect, it } from 'vitest';
import { ChartRuns, noCurves, type Curves } from '../src/store/chartRuns';
import type { Histogram } from '../src/core/grpo/metrics';
import type { MetricPoint } from '../src/worker/protocol';

const H = { edges: [], counts: [] } as unknown as Histogram;
const at = (...its: number[]) => its.map((iteration) => ({ iteration }) as MetricPoint);
const its = (c: Curves | null) => c?.series.map((p) => p.iteration) ?? null;

describe('ChartRuns', () => {
  it('Reset keeps the curves for Undo, late points of their run included; Undo swaps them back, and the points the worker closed before the undo stay with the policy they belong to', () => {
    const runs = new ChartRuns();
    let shown: Curves = noCurves();
    const push = (run: number, ...points: number[]) => { const next = runs.take(run, at(...points), H, null, shown); if (next) shown = next; return next; };
    push(1, 1, 2, 3);
    expect(its(shown)).toEqual([1, 2, 3]);
    // Reset: run 2, empty charts; run 1's last batch, flushed after the page moved on, joins the kept curves.
    shown = runs.replace(shown);
    expect(runs.current).toBe(2);
    expect(push(1, 4)).toBeNull();
    expect(its(shown)).toEqual([]);
    push(2, 1, 2, 3, 4, 5);
    // Undo goes under a new run carrying the curves on; the slow-motion iteration the worker closes first is charted there.
    const undoRun = runs.carryOn();
    expect(undoRun).toBe(3);
    push(3, 6);
    expect(its(shown)).toEqual([1, 2, 3, 4, 5, 6]);
    shown = runs.swap(shown);
    expect(its(shown)).toEqual([1, 2, 3, 4]); // the policy of iteration 4 and its curves
    // Run 2's late batch belongs to the policy just put away; run 3 goes on with the one that came back.
    expect(push(2, 7)).toBeNull();
    push(3, 5);
    expect(its(shown)).toEqual([1, 2, 3, 4, 5]);
    // Undo again: the Reset policy with all seven of its iterations.
    runs.carryOn();
    shown = runs.swap(shown);
    expect(its(shown)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(push(1, 9)).toBeNull(); // run 1 ended long ago: dropped
    expect(its(shown)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('a new network in the run going on keeps the trained curves for Undo; the run\'s further points are the new network\'s', () => {
    const runs = new ChartRuns();
    let shown = runs.take(1, at(1, 2, 3, 4, 5), H, null, noCurves()) as Curves;
    shown = runs.keepForUndo(shown);
    expect(its(shown)).toEqual([]);
    shown = runs.take(1, at(1, 2), H, null, shown) as Curves; // the same run, the new network's counter
    expect(its(shown)).toEqual([1, 2]);
    runs.carryOn();
    expect(its(runs.swap(shown))).toEqual([1, 2, 3, 4, 5]);
  });

  it('Restore best carries the curves on: the old run\'s points and the new run\'s both chart', () => {
    const runs = new ChartRuns();
    let shown: Curves = runs.take(1, at(1, 2), H, null, noCurves()) as Curves;
    const run = runs.carryOn();
    shown = runs.take(1, at(3), H, null, shown) as Curves; // the iteration in flight when Restore was pressed
    shown = runs.take(run, at(4), H, null, shown) as Curves;
    expect(its(shown)).toEqual([1, 2, 3, 4]);
  });
  it('a Reset the worker did not keep (a fresh network) leaves the kept curves and their runs as they were', () => {
    const runs = new ChartRuns();
    let shown: Curves = noCurves();
    const push = (run: number, ...points: number[]) => { const next = runs.take(run, at(...points), H, null, shown); if (next) shown = next; return next; };
    push(1, 1, 2, 3);
    shown = runs.replace(shown); // Reset of the trained policy: kept
    // Reset again, of the fresh network (no points): the worker keeps nothing, so neither does the page.
    const before = runs.keptState();
    shown = runs.replace(shown);
    runs.restoreKept(before);
    expect(push(1, 4)).toBeNull(); // run 1's late point still joins the kept curves
    push(3, 1, 2);
    runs.carryOn();
    shown = runs.swap(shown);
    expect(its(shown)).toEqual([1, 2, 3, 4]);
  });
});

describe('the export history', () => {
  it('keeps every iteration past the charts cap, cuts back where the counter goes back, and goes with its policy on Undo', () => {
    const runs = new ChartRuns();
    let shown: Curves = noCurves();
    for (let i = 1; i <= 3017; i += 7) shown = runs.take(1, at(...Array.from({ length: 7 }, (_, k) => i + k)), H, null, shown) as Curves;
    // 431 batches of 7 iterations: 1 … 3017.
    expect(shown.history.points).toHaveLength(3017);
    expect(shown.history.points.map((p) => p.iteration)).toEqual(Array.from({ length: 3017 }, (_, k) => k + 1));
    expect(shown.series.length).toBeLessThanOrEqual(2000);
    // The counter went back to 3001 (a recovered backend): the log ends at 3000 then carries on.
    shown = runs.take(1, at(3001), H, null, shown) as Curves;
    expect(shown.history.points).toHaveLength(3001);
    // Reset: a new log; Undo brings the old one back with its 3001 points.
    shown = runs.replace(shown);
    shown = runs.take(2, at(1, 2), H, null, shown) as Curves;
    expect(shown.history.points).toHaveLength(2);
    runs.carryOn();
    shown = runs.swap(shown);
    expect(shown.history.points).toHaveLength(3001);
  });
});
