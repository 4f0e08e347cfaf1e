// A finished comparison's numbers, per metric: each side's values per seed and the paired summary over
// seeds (core/lab/seedSpread.ts), with the way each metric is written. Pure, so that the comparison's
// conclusion (ui/CompareConclusion.tsx) and lesson 6, which quotes it, read the same numbers.

import { summarisePaired } from '../core/lab/seedSpread';
import type { Catalog } from '../core/sim/catalog';
import type { CompareRunSeries } from './compareStore';
import { SMOOTH_WINDOW } from './series';
import type { MetricPoint } from '../worker/protocol';

export interface Metric {
  key: 'accuracy' | 'meanCostUSD';
  name: string;
  /** A value, and a difference with its sign. */
  value: (v: number) => string;
  diff: (v: number) => string;
  unit: string;
}

export const signed = (v: number, text: (x: number) => string): string => `${v < 0 ? '−' : '+'}${text(Math.abs(v))}`;

function metrics(catalog: Pick<Catalog, 'currency'>): Metric[] {
  const money = (v: number) => (catalog.currency === 'USD' ? `$${v.toPrecision(3)}` : `${v.toPrecision(3)} u`);
  const points = (v: number) => (100 * v).toFixed(1);
  return [
    { key: 'accuracy', name: 'Accuracy', value: (v) => `${points(v)}%`, diff: points, unit: ' points' },
    { key: 'meanCostUSD', name: 'Cost per task', value: money, diff: money, unit: '' },
  ];
}

const valuesOf = (seeds: readonly MetricPoint[][], key: Metric['key']): number[][] =>
  seeds.map((s) => s.map((p) => p[key]));

/** Each metric with its paired summary over seeds, as the conclusion shows it (lesson 6 quotes it too). */
export function conclusionLines(a: CompareRunSeries, b: CompareRunSeries, catalog: Pick<Catalog, 'currency'>) {
  return metrics(catalog).map((m) => ({
    m, s: summarisePaired(valuesOf(a.seeds, m.key), valuesOf(b.seeds, m.key), SMOOTH_WINDOW),
  }));
}
