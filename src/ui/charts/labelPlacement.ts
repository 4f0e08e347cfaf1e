// Where the trade-off view writes the names of its points: beside each point, never over another name.

/** Width of one character of the chart font, in font px (sans-serif digits and names; a little generous so nothing clips). */
export const CHAR_PER_FONT_PX = 0.62;
/** The chart font (12 px, 18 px in classroom mode); the style sheet's --chart-font matches. */
export const chartFontPx = (classroom: boolean): number => (classroom ? 18 : 12);

/** How far a label above or below its point keeps from the point's centre (px). */
const CLEAR = 12;

export type LabelBox = { text: string; x: number; y: number; w: number; h: number; anchor: 'start' | 'end' };

/**
 * Puts each label beside its point where it overlaps no label placed before it (`first`'s before the rest)
 * and covers none of the `avoid` marks (e.g. the dots of a curve it would read as naming) nor any of the
 * `dots` (every label keeps off them, `first`'s too): right, left, above, below, then further down. Boxes are
 * estimated from the text's length. Every box stays between `bounds` (the chart's width: on a 320 px phone a
 * name right of a point near the edge ran off the screen); one wider than them starts at their left.
 */
export function placeLabels(points: readonly { x: number; y: number; text: string }[], font: number, first = '',
  avoid: readonly { x: number; y: number }[] = [], dots: readonly { x: number; y: number }[] = [],
  bounds: { left: number; right: number } = { left: -Infinity, right: Infinity }): LabelBox[] {
  const placed: LabelBox[] = [];
  const inside = (b: LabelBox) => b.x >= bounds.left && b.x + b.w <= bounds.right;
  const pulledIn = (b: LabelBox): LabelBox => ({ ...b, x: Math.max(bounds.left, Math.min(b.x, bounds.right - b.w)) });
  // A curve's points are small; a dot reaches 4.5 px from its centre, so a box keeps 6 px from it.
  const under = (b: LabelBox, margin: number) => (q: { x: number; y: number }) => q.x > b.x - margin
    && q.x < b.x + b.w + margin && q.y > b.y - margin && q.y < b.y + b.h + margin;
  const covers = (b: LabelBox, keepOffDots: boolean) => (b.text !== first && avoid.some(under(b, 3)))
    || (keepOffDots && dots.some(under(b, 6)));
  // `first` lies on the marks to avoid (the ★ is a point of the orchestrator's curve): it stays beside its point.
  const clashes = (b: LabelBox, keepOffDots: boolean) => covers(b, keepOffDots)
    || placed.some((o) => b.x < o.x + o.w && o.x < b.x + b.w && b.y < o.y + o.h && o.y < b.y + b.h);
  const overlaps = (b: LabelBox, keepOffDots = true) => !inside(b) || clashes(b, keepOffDots);
  const ordered = [...points].sort((a, b) => Number(b.text === first) - Number(a.text === first));
  const right = Math.max(...points.map((p) => p.x));
  for (const p of ordered) {
    const w = p.text.length * font * CHAR_PER_FONT_PX, h = font + 2;
    const at = (dx: number, dy: number, anchor: 'start' | 'end'): LabelBox => ({ text: p.text,
      x: anchor === 'end' ? p.x - dx - w : p.x + dx, y: p.y + dy - h / 2, w, h, anchor });
    // Above and below, the box's edge is CLEAR px from the point (clear of the ★'s tips, 11 px, as of a dot),
    // centred on it, or as near as the bounds allow.
    const [rightOf, leftOf, above, below] = [at(8, 0, 'start'), at(8, 0, 'end'),
      pulledIn({ ...at(0, -(CLEAR + h / 2), 'start'), x: p.x - w / 2 }), pulledIn({ ...at(0, CLEAR + h / 2, 'start'), x: p.x - w / 2 })];
    // Near the right edge, the left side, above and below first, so the label stays inside the plot.
    const tries = p.x > Math.min(right, bounds.right) - w ? [leftOf, above, below, rightOf] : [rightOf, leftOf, above, below];
    // Where every side holds a dot (a dense cluster), a name beside its own dot over another dot reads better
    // than one pushed away from it: the dots give way first, then the other names, by moving down.
    let box = tries.find((b) => !overlaps(b)) ?? tries.find((b) => !overlaps(b, false)) ?? pulledIn(tries[0] as LabelBox);
    for (let k = 0; clashes(box, false) && k < 8; k++) box = { ...box, y: box.y + h };
    placed.push(box);
  }
  return placed;
}

