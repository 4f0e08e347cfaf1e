// The lesson box's place: beside what a lesson points at (never over it), away from what it would
// rather leave in view where there is room, steady while the page scrolls; and the scroll that
// brings a lesson's subject into view.
import { describe, expect, it } from 'vitest';
import { coverOf, placeDock, scrollToShow, type Box, type DockSizes } from '../src/ui/lessons/dockPlacement';

const SIZES: DockSizes = { margin: 16, gap: 8, minWidth: 288, minHeight: 160, maxWidth: 544, want: 400 };
const view = { width: 1280, height: 800 };
const meets = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

describe('placeDock', () => {
  it('docks in the free column beside the subject, over nothing it points at', () => {
    // The first screen's sliders and the trade-off plot: the curves' column is free.
    const keep = [{ left: 39, top: 584, right: 304, bottom: 725 }, { left: 333, top: 194, right: 829, bottom: 754 }];
    const p = placeDock(view, keep, [], SIZES);
    expect(p).not.toBeNull();
    const cover = coverOf(p!, view);
    for (const k of keep) expect(meets(cover, k)).toBe(false);
    expect(p!.left).toBeGreaterThan(829);
    expect(p!.width).toBeGreaterThanOrEqual(SIZES.minWidth);
    expect(cover.right).toBeLessThanOrEqual(view.width - SIZES.margin);
  });

  it('leaves a spared region uncovered where there is room, and covers it rather than the subject where not', () => {
    const phase = { left: 20, top: 60, right: 700, bottom: 420 };
    const formulas = { left: 720, top: 8, right: 1260, bottom: 800 };
    const p = placeDock(view, [phase], [formulas], SIZES)!;
    expect(meets(coverOf(p, view), phase)).toBe(false);
    expect(meets(coverOf(p, view), formulas)).toBe(false);
    // The phase fills the left column's height: only the formulas' column is left.
    const tall = { left: 20, top: 20, right: 700, bottom: 780 };
    const q = placeDock(view, [tall], [formulas], SIZES)!;
    expect(meets(coverOf(q, view), tall)).toBe(false);
    expect(q.left).toBeGreaterThan(700);
  });

  it('keeps its place while free and nearly as good (no jumping on scroll), moves when the subject is under it', () => {
    const first = placeDock(view, [{ left: 20, top: 100, right: 600, bottom: 400 }], [], SIZES)!;
    const scrolled = placeDock(view, [{ left: 20, top: 80, right: 600, bottom: 380 }], [], SIZES, first)!;
    expect(scrolled).toEqual(first);
    const under = coverOf(first, view);
    const moved = placeDock(view, [under], [], SIZES, first)!;
    expect(meets(coverOf(moved, view), under)).toBe(false);
  });

  it('finds nothing where the subject fills the view', () => {
    expect(placeDock(view, [{ left: 0, top: 0, right: 1280, bottom: 800 }], [], SIZES)).toBeNull();
  });
});

describe('scrollToShow', () => {
  it('scrolls the least that shows the target whole, its top where taller than the view, not at all in view', () => {
    expect(scrollToShow({ left: 0, top: 100, right: 10, bottom: 700 }, view, 500, 8)).toBeNull();
    expect(scrollToShow({ left: 0, top: 600, right: 10, bottom: 1000 }, view, 500, 8)).toBe(500 + 1000 - 792);
    expect(scrollToShow({ left: 0, top: -300, right: 10, bottom: 100 }, view, 500, 8)).toBe(500 - 308);
    expect(scrollToShow({ left: 0, top: 300, right: 10, bottom: 1400 }, view, 500, 8)).toBe(500 + 292);
  });
});
