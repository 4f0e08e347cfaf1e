import { startTransition, useEffect, useState } from 'react';
import { useLab, type LabState } from '../../store/labStore';

/** Minimum time between two re-renders of one chart. */
const MIN_INTERVAL_MS = 500;
/** Offset between charts, so each chart re-renders in its own short task rather than all in one long one. */
const SLOT_MS = 45;

/**
 * A store value for a chart, re-rendered at most every 500 ms and offset by `slot`, so chart
 * updates spread over separate tasks and the main thread never blocks for long while training.
 */
export function useStaggered<T>(select: (s: LabState) => T, slot: number, minIntervalMs = MIN_INTERVAL_MS): T {
  const [value, setValue] = useState(() => select(useLab.getState()));
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    let last = 0;
    const unsubscribe = useLab.subscribe((s, prev) => {
      if (select(s) === select(prev) || timer) return;
      const wait = Math.max(0, last + minIntervalMs - performance.now()) + slot * SLOT_MS;
      timer = setTimeout(() => {
        timer = null;
        last = performance.now();
        // A transition: React renders the chart in slices and yields to the browser between them.
        startTransition(() => setValue(() => select(useLab.getState())));
      }, wait);
    });
    return () => {
      unsubscribe();
      if (timer) clearTimeout(timer);
    };
  }, [select, slot, minIntervalMs]);
  return value;
}
