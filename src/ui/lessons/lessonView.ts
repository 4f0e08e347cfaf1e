// The lesson box on the page: it brings what a lesson points at into view and docks where it covers
// none of it (dockPlacement.ts does the geometry; this measures the page, follows its scrolling and
// resizing, and re-places the box when its content grows).

import { useLayoutEffect, useState, type RefObject } from 'react';
import { clip, placeDock, scrollToShow, union, type Box, type DockPlace, type View } from './dockPlacement';
import type { Subject } from './lessonPlan';

const viewport = (): View => ({ width: document.documentElement.clientWidth, height: window.innerHeight });
const remPx = (): number => parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;

/** Viewport boxes of every element the selectors match (whole, not clipped). */
export function boxesOf(selectors: readonly string[]): Box[] {
  return selectors.flatMap((sel) => [...document.querySelectorAll(sel)].map((el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  })).filter((b) => b.right > b.left && b.bottom > b.top);
}

/** Scrolls the page (smoothly, the least it can) so that all the selectors match is in view. */
export function bringIntoView(selectors: readonly string[]): void {
  const u = union(boxesOf(selectors));
  if (!u) return;
  const top = scrollToShow(u, viewport(), window.scrollY, 0.5 * remPx());
  const still = typeof matchMedia !== 'undefined' && matchMedia('(prefers-reduced-motion: reduce)').matches;
  if (top !== null) window.scrollTo({ top, behavior: still ? 'auto' : 'smooth' });
}

/** Where the dock is: a free place (`cramped`: only room for its title bar), or null for the style sheet's corner. */
export type DockSpot = { place: DockPlace; cramped: boolean } | null;

const same = (a: DockSpot, b: DockSpot) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Places the dock beside its subject, again on every scroll, resize, layout change and change of
 * its own size (one measure a frame). `key` changes with what the dock shows.
 */
/** The page's tab labels, which the box leaves in view where there is room. */
const TAB_LABELS = '[role="tablist"]';

export function useDockSpot(dock: RefObject<HTMLElement | null>, subject: Subject | null, key: string): DockSpot {
  const [spot, setSpot] = useState<DockSpot>(null);
  const keep = subject?.keep.join('|') ?? '', spare = subject?.spare?.join('|') ?? '';
  useLayoutEffect(() => {
    if (!keep) return undefined;
    let frame = 0;
    let last: DockSpot = null;
    const measure = () => {
      frame = 0;
      const view = viewport(), rem = remPx();
      const inView = (sels: string) => (sels ? boxesOf(sels.split('|')) : []).flatMap((b) => clip(b, view) ?? []);
      // The tabs' labels are spared too: a class goes on to the next tab (Export / Import among them) while the box is open.
      const [k, s] = [inView(keep), inView([spare, TAB_LABELS].filter(Boolean).join('|'))];
      const wide = document.documentElement.dataset.classroom ? 40 : 34;
      const sizes = {
        margin: rem, gap: 0.5 * rem, minWidth: 18 * rem, minHeight: 8 * rem,
        maxWidth: Math.min(wide * rem, view.width - 2 * rem), want: (dock.current?.scrollHeight ?? 20 * rem) + 4,
      };
      const open = placeDock(view, k, s, sizes, last?.cramped ? null : last?.place);
      const barSizes = { ...sizes, minWidth: 14 * rem, minHeight: 2.6 * rem, want: 2.6 * rem };
      const bar = open ? null : placeDock(view, k, [], barSizes);
      const next: DockSpot = open ? { place: open, cramped: false } : bar ? { place: bar, cramped: true } : null;
      if (!same(next, last)) {
        last = next;
        setSpot(next);
      }
    };
    const soon = () => { if (!frame) frame = requestAnimationFrame(measure); };
    measure();
    window.addEventListener('scroll', soon, { passive: true });
    window.addEventListener('resize', soon);
    const watch = new ResizeObserver(soon);
    watch.observe(document.body);
    if (dock.current) watch.observe(dock.current);
    return () => {
      if (frame) cancelAnimationFrame(frame);
      window.removeEventListener('scroll', soon);
      window.removeEventListener('resize', soon);
      watch.disconnect();
    };
  }, [dock, keep, spare, key]);
  return keep ? spot : null;
}
