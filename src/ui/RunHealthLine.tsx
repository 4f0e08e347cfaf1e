import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { RUN_HEALTH_PENDING, runHealth, runHealthLongest, runHealthText } from '../core/lab/runHealth';
import { useLab, type LabState } from '../store/labStore';
import { useStaggered } from './charts/useStaggered';

const selectSeries = (s: LabState) => s.series;
const VERDICT_WORDS = { rising: 'still rising', plateau: 'on a plateau', worse: 'worse than its best' } as const;

/**
 * One line under the recipe on how the run is going (core/lab/runHealth.ts): still rising, on a
 * plateau and why, or worse than its best by more than the noise, with Restore best beside it.
 * Read from every iteration of the run (the export's history), recomputed as the curves update;
 * before the run has enough iterations for a verdict it says when it will have one.
 */
export function RunHealthLine() {
  // A sentence to read, not an animation: at most every 2 s while training.
  const series = useStaggered(selectSeries, 9, 2000);
  const s = useLab(useShallow((x) => ({
    series, history: x.history, train: x.train, bestIteration: x.bestIteration, restoreBest: x.restoreBest,
  })));
  const t = s.train;
  const weighsCost = t.reward !== 'outcome' && (t.preferenceMode === 'random' || t.preference.cost > 0 || t.preference.latency > 0);
  const lrConstant = !t.lrDecay;
  const line = useMemo(() => {
    const points = s.history.points;
    const h = runHealth(points.map((p) => p.accuracy));
    if (!h) return null;
    const last = points[points.length - 1];
    return { h, text: runHealthText(h, { entropy: last?.entropy ?? 0, lrConstant, weighsCost }) };
    // The series changes on every push; the history is the same object, appended in place.
  }, [s.series, s.history, lrConstant, weighsCost]); // eslint-disable-line react-hooks/exhaustive-deps
  const room = useMemo(() => runHealthLongest({ lrConstant, weighsCost }), [lrConstant, weighsCost]);
  const restore = (iteration: number | string, act?: () => void) => (
    <> <button type="button" onClick={act} tabIndex={act ? undefined : -1}
      title="Put back the weights kept at the best smoothed reward">Restore best (iteration {iteration})</button></>
  );
  // The line keeps the room of the longest thing it can say here (styles.css, .keeps-room): a verdict
  // appearing or changing does not shrink the charts under it.
  return (
    <div className="keeps-room run-health-room">
      <p className={`run-health small ${line ? line.h.verdict : 'muted'}`} data-testid="run-health">
        {/* On the page from the start, so that a screen reader hears the verdict when it comes and when it
            changes, not the numbers that move every 2 s. */}
        <span className="sr-only" role="status">{line ? `Run health: ${VERDICT_WORDS[line.h.verdict]}` : ''}</span>
        {line ? line.text : RUN_HEALTH_PENDING}
        {line?.h.verdict === 'worse' && s.bestIteration !== null && restore(s.bestIteration, () => void s.restoreBest())}
      </p>
      <p className="run-health small room" aria-hidden="true">{room.plateau}</p>
      <p className="run-health small room" aria-hidden="true">{room.worse}{restore(88888)}</p>
    </div>
  );
}
