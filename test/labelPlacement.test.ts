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

  it('keeps a label off the marks it must not cover: the rightmost point\'s name goes above when its left holds a curve', () => {
    const font = 12, w = 'GPT-5 + tools'.length * font * 0.62;
    const curve = [{ x: 380, y: 100 }, { x: 360, y: 101 }, { x: 340, y: 102 }];
    const [box] = placeLabels([{ x: 400, y: 100, text: 'GPT-5 + tools' }], font, '', curve);
    // Left of the dot would cover the curve (the first try near the right edge); above, centred on the dot, does not.
    // (its lower edge 12 px above the dot's centre: 100 − 12 − 14 = 74)
    expect(box).toMatchObject({ x: 400 - w / 2, y: 100 - 12 - (font + 2) });
    for (const q of curve) expect(q.x > box!.x && q.x < box!.x + box!.w && q.y > box!.y && q.y < box!.y + box!.h).toBe(false);
    // The first-named label belongs to a point of that curve: it stays right beside its point.
    const [you] = placeLabels([{ x: 360, y: 101, text: 'you are here' }], font, 'you are here', curve);
    expect(you).toMatchObject({ anchor: 'end', x: 360 - 8 - 'you are here'.length * font * 0.62 }); // near the right edge: left of it, at its height
    expect(Math.abs(you!.y + you!.h / 2 - 101)).toBeLessThan(1);
  });

  it('keeps every label off the dots, the first-named one too: "you are here" goes above when its left holds a dot', () => {
    const font = 12, h = font + 2, w = 'you are here'.length * font * 0.62; // 89.28 px
    // The ★ at (730, 365) is the rightmost point, so its label tries the left first: 632.7 … 722 wide, 358 … 372 high,
    // which holds the oracle's dot at (669, 370). Above, centred on the ★ with its lower edge 12 px above the ★'s
    // centre (clear of its 11 px tips): 685.4 … 774.6 wide, 339 … 353 high, clear of the dot.
    const oracle = { x: 669, y: 370 };
    const [you] = placeLabels([{ x: 730, y: 365, text: 'you are here' }], font, 'you are here', [], [oracle]);
    expect(you).toMatchObject({ x: 730 - w / 2, y: 365 - 12 - h });
    // A dot 5 px beyond a box's edge is still under the text (a dot reaches 4.5 px): that side is refused too.
    const [shy] = placeLabels([{ x: 730, y: 365, text: 'you are here' }], font, 'you are here', [], [{ x: 727, y: 377 }]);
    expect(shy).not.toMatchObject({ anchor: 'end', x: 730 - 8 - w, y: 365 - h / 2 });
    // Without the dot it is where it was: left of the ★ at its height.
    const [before] = placeLabels([{ x: 730, y: 365, text: 'you are here' }], font, 'you are here');
    expect(before).toMatchObject({ anchor: 'end', x: 730 - 8 - w });
  });

  it('in a cluster where every side holds a dot, a name stays beside its own dot rather than wander off', () => {
    const font = 12, h = font + 2, w = 'cascade'.length * font * 0.62; // 52.08 px
    // Dots right, left, above and below the point (300, 200), each inside the box that side would take.
    const dots = [{ x: 320, y: 200 }, { x: 280, y: 200 }, { x: 300, y: 180 }, { x: 300, y: 220 }];
    const [box] = placeLabels([{ x: 300, y: 200, text: 'cascade' }], font, '', [], dots);
    // The only point is the rightmost, so the left comes first: 239.9 … 292 wide, at the point's height.
    expect(box).toMatchObject({ anchor: 'end', x: 300 - 8 - w, y: 200 - h / 2 });
  });

  it('keeps every name inside the chart\'s bounds (a 320 px phone): left of a point near the right edge, above one near both', () => {
    const font = 12, h = font + 2, w = (t: string) => t.length * font * 0.62;
    const bounds = { left: 0, right: 280 };
    // The rightmost point is at 275, so a 'GPT-5 + tools' name (96.72 px) at 178 ≤ 275 − 96.72 tries the right first; there
    // it would end at 178 + 8 + 96.72 = 282.7 > 280 (as it did, off the screen): it goes left, ending 8 px short of its dot.
    const pts = [{ x: 178, y: 100, text: 'GPT-5 + tools' }, { x: 275, y: 30, text: 'oracle' }];
    expect(placeLabels(pts, font)[0]).toMatchObject({ anchor: 'start', x: 186 });
    const [tools] = placeLabels(pts, font, '', [], [], bounds);
    expect(tools).toMatchObject({ anchor: 'end', x: 178 - 8 - w('GPT-5 + tools') });
    // At 40 px in a 95 px chart neither side holds 'always GPT-5' (89.28 px, 8 px from the dot): above it, where centred it
    // would start at 40 − 44.64 < 0, so it is pulled in to start at 0.
    const [narrow] = placeLabels([{ x: 40, y: 50, text: 'always GPT-5' }], font, '', [], [], { left: 0, right: 95 });
    expect(narrow).toMatchObject({ x: 0, y: 50 - 12 - h });
    // A name wider than the chart starts at its left edge, beside its point's height (not moved rows down).
    const [wide] = placeLabels([{ x: 30, y: 50, text: 'a name far wider than the chart' }], font, '', [], [], { left: 0, right: 60 });
    expect(wide!.x).toBe(0);
    expect(Math.abs(wide!.y + h / 2 - 50)).toBeLessThan(1);
  });
});
