// Numbers as the page shows them, for text that quotes them (the first screen, the lessons): the
// same rounding as the display they come from, and ratios computed from the rounded numbers, so a
// reader who divides what is on screen gets the ratio the text states.

import { formatCost, type Catalog } from '../core/sim/catalog';
import type { Tradeoff } from '../worker/protocol';

/** A share as a percentage with `decimals` places ("67.2%"), as the trade-off view's lines show it. */
export const percentText = (x: number, decimals = 1): string => `${(100 * x).toFixed(decimals)}%`;

/** The number a formatted string shows ("$0.11" → 0.11, "67%" → 67, "0.123 u" → 0.123). */
export const shownValue = (text: string): number => Number(text.replace(/[^\d.]/g, ''));

/** a / b in whole percent, from the numbers as shown (`a` and `b` formatted): "$0.0477" of "$0.11" → 43. */
export function shownRatio(a: string, b: string): number {
  const x = shownValue(a), y = shownValue(b);
  return y > 0 ? Math.round((100 * x) / y) : 0;
}

/**
 * A number as the slow-motion tables show it (phaseReport's cells): `decimals` places, and a
 * tiny non-zero number in exponent form ("-1.2e-5"), so a lesson quotes the cell the reader sees.
 */
export const tableNumber = (x: number | undefined, decimals = 3): string => {
  if (x === undefined) return '?';
  if (!Number.isFinite(x)) return String(x);
  return Math.abs(x) < 5e-4 && x !== 0 ? x.toExponential(1) : x.toFixed(decimals);
};

/** The first screen's live sentence: the ★ against GPT-5 with tools, as shown there (and quoted by Lesson 1). */
export interface Headline {
  accuracy: string;
  cost: string;
  toolsAccuracy: string;
  toolsCost: string;
  /** The ★'s cost as a share of GPT-5-with-tools' cost, in whole percent, from the costs as shown. */
  costShare: number;
}

export function headline(
  t: Pick<Tradeoff, 'current' | 'baselines'>, catalog: Pick<Catalog, 'currency'>,
): Headline | null {
  const tools = t.baselines.find((b) => b.label === 'tools+gpt-5');
  if (!tools) return null;
  const cost = formatCost(catalog, t.current.cost), toolsCost = formatCost(catalog, tools.cost);
  return {
    accuracy: percentText(t.current.accuracy, 0), cost,
    toolsAccuracy: percentText(tools.accuracy, 0), toolsCost, costShare: shownRatio(cost, toolsCost),
  };
}
