// The names on the trade-off view never overlap, even for points on top of each other.
import { describe, expect, it } from 'vitest';
import { placeLabels } from '../src/ui/charts/labelPlacement';

describe('label placement', () => {
  it('puts clustered labels where no two boxes overlap, the first-named one beside its own point', () => {
    const pts = [
      { x: 300, y: 200, text: 'GPT-5 + tools' }, { x: 305, y: 204, text: 'you are here' }, { x: 298, y: 198, text: 'cascade' },
      { x: 302, y: 210, text: 'always GPT-5' }, { x: 500, y: 50, text: 'oracle' },
    ];
    const boxes = placeLabels(pts, 18, 'you are here');
    expect(boxes.map((b) => b.text).sort()).toEqual(pts.map((p) => p.text).sort());
    for (const a of boxes) for (const b of boxes) {
      if (a === b) continue;
      const apart = a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
      expect(apart, `${a.text} overlaps ${b.text}`).toBe(true);
    }
    const you = boxes.find((b) => b.text === 'you are here')!;
    // Placed first: right of its ★ at its height, 8 px away.
    expect(you).toMatchObject({ anchor: 'start', x: 313 });
    expect(Math.abs(you.y + you.h / 2 - 204)).toBeLessThan(1);
    // The rightmost point's label ends left of its dot (so it stays inside the plot).
    const oracle = boxes.find((b) => b.text === 'oracle')!;
    expect(oracle.x + oracle.w).toBeLessThanOrEqual(500);
  });
});
