import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { RUN_HEALTH_PENDING, runHealth, runHealthText } from '../core/lab/runHealth';
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
  const line = useMemo(() => {
    const points = s.history.points;
    const h = runHealth(points.map((p) => p.accuracy));
    if (!h) return null;
    const t = s.train, last = points[points.length - 1];
    const weighsCost = t.reward !== 'outcome' && (t.preferenceMode === 'random' || t.preference.cost > 0 || t.preference.latency > 0);
    return { h, text: runHealthText(h, { entropy: last?.entropy ?? 0, lrConstant: !t.lrDecay, weighsCost }) };
    // The series changes on every push; the history is the same object, appended in place.
  }, [s.series, s.history, s.train]); // eslint-disable-line react-hooks/exhaustive-deps
  // Always drawn, with three lines kept (styles.css), so that a verdict appearing does not shrink the charts under it.
  if (!line) return <p className="run-health small muted" data-testid="run-health">{RUN_HEALTH_PENDING}</p>;
  return (
    <p className={`run-health small ${line.h.verdict}`} data-testid="run-health">
      {/* A screen reader hears the verdict when it changes, not the numbers that move every 2 s. */}
      <span className="sr-only" role="status">{`Run health: ${VERDICT_WORDS[line.h.verdict]}`}</span>
      {line.text}
      {line.h.verdict === 'worse' && s.bestIteration !== null && (
        <> <button type="button" onClick={() => void s.restoreBest()} title="Put back the weights kept at the best smoothed reward">
          Restore best (iteration {s.bestIteration})
        </button></>
      )}
    </p>
  );
}
