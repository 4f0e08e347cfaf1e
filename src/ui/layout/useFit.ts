// Whether a wide table fits its box, and at which level of compaction: a component renders its
// table at `level` 0, and while it overflows the hook raises the level (transposed, stacked…) up to
// `levels`; past the last one it reports `overflow`, so the box shows a visible cue to scroll.
// Measured when the box or its table changes size; a new box width starts again from level 0.

import { useEffect, useRef, useState } from 'react';

export function useFit(levels: number) {
  // A callback ref: the box may mount after the component (a table shown once there is data).
  const [box, setBox] = useState<HTMLDivElement | null>(null);
  const [level, setLevel] = useState(0);
  const [overflow, setOverflow] = useState(false);
  const at = useRef({ level: 0, width: -1 });
  useEffect(() => {
    if (!box) return undefined;
    const apply = (l: number, over: boolean) => { at.current.level = l; setLevel(l); setOverflow(over); };
    const measure = () => {
      const w = box.clientWidth;
      if (w === 0) return; // hidden (a closed tab): measured when it shows
      const widthChanged = Math.abs(w - at.current.width) > 1;
      at.current.width = w;
      if (widthChanged && at.current.level > 0) { apply(0, false); return; } // the table's resize measures again
      const over = box.scrollWidth > w + 1;
      if (over && at.current.level < levels) apply(at.current.level + 1, false);
      else setOverflow(over);
    };
    const watch = new ResizeObserver(measure);
    watch.observe(box);
    const table = box.querySelector('table');
    if (table) watch.observe(table);
    return () => watch.disconnect();
  }, [box, levels]);
  return { box: setBox, level, overflow };
}
