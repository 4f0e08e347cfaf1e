// Where the lesson box goes: a fixed box over the page that covers nothing the lesson points at,
// and how far to scroll so that what it points at is in view. Plain geometry on viewport
// rectangles (Lessons.tsx measures the page), so it is unit-tested without a browser.

export interface Box { left: number; top: number; right: number; bottom: number }
export interface View { width: number; height: number }

/** The dock's place: its left edge and width, its distance from the viewport's bottom, its tallest height. */
export interface DockPlace { left: number; bottom: number; width: number; maxHeight: number }

export interface DockSizes {
  /** Space kept to the viewport's edges, and between the dock and what it avoids (px). */
  margin: number;
  gap: number;
  /** The narrowest and lowest box worth docking in, the widest dock, and the height its content wants. */
  minWidth: number;
  minHeight: number;
  maxWidth: number;
  want: number;
}

const meets = (a: Box, b: Box): boolean =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
const grow = (b: Box, d: number): Box =>
  ({ left: b.left - d, top: b.top - d, right: b.right + d, bottom: b.bottom + d });

/** The part of `b` inside the view, or null where none is. */
export function clip(b: Box, view: View): Box | null {
  const c = {
    left: Math.max(0, b.left), top: Math.max(0, b.top),
    right: Math.min(view.width, b.right), bottom: Math.min(view.height, b.bottom),
  };
  return c.right > c.left && c.bottom > c.top ? c : null;
}

/** The smallest box holding all of `boxes`, or null for none. */
export function union(boxes: readonly Box[]): Box | null {
  if (boxes.length === 0) return null;
  return boxes.reduce((u, b) => ({
    left: Math.min(u.left, b.left), top: Math.min(u.top, b.top),
    right: Math.max(u.right, b.right), bottom: Math.max(u.bottom, b.bottom),
  }));
}

/**
 * Every box of the view, bounded by the view's margins and the avoided boxes' edges, that meets
 * none of them and is at least minWidth × minHeight.
 */
function freeBoxes(view: View, avoid: readonly Box[], s: DockSizes): Box[] {
  const grown = avoid.map((b) => grow(b, s.gap));
  const edges = (lo: number, hi: number, cuts: number[]) =>
    [...new Set([lo, hi, ...cuts.filter((x) => x > lo && x < hi)])].sort((a, b) => a - b);
  const xs = edges(s.margin, view.width - s.margin, grown.flatMap((b) => [b.left, b.right]));
  const ys = edges(s.margin, view.height - s.margin, grown.flatMap((b) => [b.top, b.bottom]));
  const out: Box[] = [];
  for (const [i, left] of xs.entries()) {
    for (const right of xs.slice(i + 1)) {
      if (right - left < s.minWidth) continue;
      for (const [j, top] of ys.entries()) {
        for (const bottom of ys.slice(j + 1)) {
          const box = { left, top, right, bottom };
          if (bottom - top >= s.minHeight && !grown.some((g) => meets(box, g))) out.push(box);
        }
      }
    }
  }
  return out;
}

/** The dock in a free box: as wide as it may be, against the box's right and bottom edges. */
function inside(b: Box, view: View, s: DockSizes): DockPlace {
  const width = Math.min(s.maxWidth, b.right - b.left);
  return { left: b.right - width, bottom: view.height - b.bottom, width, maxHeight: b.bottom - b.top };
}

/** How much of the dock's content a place shows (its width up to maxWidth times its height up to `want`). */
const score = (p: DockPlace, s: DockSizes): number => Math.min(p.width, s.maxWidth) * Math.min(p.maxHeight, s.want);

/** More of the content shown; at a tie, further right, then lower. */
function better(a: DockPlace, b: DockPlace, s: DockSizes): boolean {
  const d = score(a, s) - score(b, s);
  if (Math.abs(d) > 1) return d > 0;
  const right = a.left + a.width - (b.left + b.width);
  return Math.abs(right) > 0.5 ? right > 0 : a.bottom < b.bottom;
}

/** The box a place covers at most (its full height). */
export const coverOf = (p: DockPlace, view: View): Box => ({
  left: p.left, right: p.left + p.width, bottom: view.height - p.bottom, top: view.height - p.bottom - p.maxHeight,
});

/**
 * Where the dock goes: the free box that shows most of its content, away from `keep` (what the
 * lesson points at) and, where there is room, from `spare` (what it would rather leave in view);
 * lower and further right first. The previous place stays while it is free and nearly as good, so
 * the dock does not jump as the page scrolls. Null: no box is free (the caller folds the dock).
 */
export function placeDock(
  view: View, keep: readonly Box[], spare: readonly Box[], s: DockSizes, previous?: DockPlace | null,
): DockPlace | null {
  for (const avoid of [[...keep, ...spare], keep]) {
    const places = freeBoxes(view, avoid, s).map((b) => inside(b, view, s));
    if (places.length === 0) continue;
    const best = places.reduce((a, b) => (better(b, a, s) ? b : a));
    const stays = previous && previous.width >= s.minWidth && previous.maxHeight >= s.minHeight
      && previous.left >= s.margin - 0.5 && previous.left + previous.width <= view.width - s.margin + 0.5
      && previous.bottom >= s.margin - 0.5 && view.height - previous.bottom - previous.maxHeight >= s.margin - 0.5
      && !avoid.some((k) => meets(coverOf(previous, view), grow(k, s.gap - 0.5)));
    return stays && score(previous, s) >= 0.9 * score(best, s) ? previous : best;
  }
  return null;
}

/**
 * Where to scroll (the new scrollY) so that `target` (in viewport coordinates) is in view with a
 * margin: the least movement that shows it whole, or its top where it is taller than the view.
 * Null when it is in view already.
 */
export function scrollToShow(target: Box, view: View, scrollY: number, margin: number): number | null {
  const room = view.height - 2 * margin;
  if (target.top >= margin && target.bottom <= view.height - margin) return null;
  if (target.bottom - target.top > room || target.top < margin) return Math.max(0, scrollY + target.top - margin);
  return Math.max(0, scrollY + target.bottom - (view.height - margin));
}
