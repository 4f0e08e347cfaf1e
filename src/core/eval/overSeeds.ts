// The paper's tables over recipe seeds and held-out task samples: each cell of `reproduce` run once per
// (seed, sample) becomes a mean with a 95% interval. A cell moves with the seed (which policy training
// gave) and with the sample (which tasks were drawn); the interval of the grand mean adds the two:
// se² = var(seed means)/N + var(sample means)/S, each mean taken over the other factor, with Student's
// t at the Welch–Satterthwaite degrees of freedom (rounded down). Each of the two variances also carries
// the runs' residual, so the interval is conservative: wider than the grand mean's own. A row no seed
// changes (a baseline) gets the sample spread alone. Which samples may be reported, and why, is `samples.ts`.

import { tCritical } from '../lab/seedSpread';
import type { Reproduction, Row } from './reproduce';

/** One run of `reproduce`: a policy trained with recipe seed `seed`, measured on task sample `sample`. */
export interface SeedRun {
  seed: number;
  sample: number;
  r: Reproduction;
}

/** A cell over the runs: its mean, the half-width of its 95% interval, and how many runs had it. */
export interface Cell {
  mean: number;
  half: number;
  n: number;
}

export interface SpreadRow {
  name: string;
  paper: Row['paper'];
  lab: Record<string, Cell | null>;
}

export type Spread = { [K in keyof Reproduction]: SpreadRow[] };

const meanOf = (xs: readonly number[]): number => xs.reduce((a, x) => a + x, 0) / xs.length;
const varOf = (xs: readonly number[]): number => {
  if (xs.length < 2) return 0;
  const m = meanOf(xs);
  return xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1);
};

/** Means of `v` grouped by `key` (each group's mean over the other factor). */
function groupMeans(values: readonly { key: number; v: number }[]): number[] {
  const groups = new Map<number, number[]>();
  for (const { key, v } of values) groups.set(key, [...(groups.get(key) ?? []), v]);
  return [...groups.values()].map(meanOf);
}

/** The mean of one cell over (seed, sample) runs and its 95% interval's half-width. */
export function cellOver(values: readonly { seed: number; sample: number; v: number }[]): Cell {
  const seedMeans = groupMeans(values.map((x) => ({ key: x.seed, v: x.v })));
  const sampleMeans = groupMeans(values.map((x) => ({ key: x.sample, v: x.v })));
  const a = varOf(seedMeans) / seedMeans.length, b = varOf(sampleMeans) / sampleMeans.length;
  const mean = meanOf(values.map((x) => x.v));
  if (!(a + b > 0)) return { mean, half: 0, n: values.length };
  const df = (a + b) ** 2 / ((seedMeans.length > 1 ? a * a / (seedMeans.length - 1) : 0)
    + (sampleMeans.length > 1 ? b * b / (sampleMeans.length - 1) : 0));
  return { mean, half: tCritical(df) * Math.sqrt(a + b), n: values.length };
}

/** Every table of the runs, row by row (matched by name) and cell by cell. */
export function overSeeds(runs: readonly SeedRun[]): Spread {
  const first = runs[0];
  if (!first) throw new Error('overSeeds: no runs');
  const out = {} as Spread;
  for (const table of Object.keys(first.r) as (keyof Reproduction)[]) {
    const names = [...new Set(runs.flatMap((x) => x.r[table].map((row) => row.name)))];
    out[table] = names.map((name) => {
      const rows = runs.map((x) => ({ run: x, row: x.r[table].find((row) => row.name === name) }));
      const keys = [...new Set(rows.flatMap((x) => (x.row ? Object.keys(x.row.lab) : [])))];
      const lab = Object.fromEntries(keys.map((k) => {
        const values = rows.flatMap(({ run, row }) => {
          const v = row?.lab[k];
          return typeof v === 'number' && Number.isFinite(v) ? [{ seed: run.seed, sample: run.sample, v }] : [];
        });
        return [k, values.length ? cellOver(values) : null];
      }));
      return { name, paper: rows.find((x) => x.row)?.row?.paper ?? {}, lab };
    });
  }
  return out;
}

/** A cell as the tables write it: "mean ± half", the mean to three significant figures (one decimal at least, four at most) and the half-width to as many decimals. */
export function showCell(c: Cell | null | undefined): string {
  if (!c) return '—';
  const size = Math.abs(c.mean) > 0 ? Math.floor(Math.log10(Math.abs(c.mean))) : 0;
  const digits = Math.min(4, Math.max(1, 2 - size));
  return c.half > 0 ? `${c.mean.toFixed(digits)} ± ${c.half.toFixed(digits)}` : c.mean.toFixed(digits);
}

/** One table over the runs as markdown: each cell "mean ± 95% half-width / paper". */
export function spreadTableMarkdown(title: string, rows: readonly SpreadRow[]): string {
  const keys = [...new Set(rows.flatMap((x) => [...Object.keys(x.lab), ...Object.keys(x.paper)]))];
  const paper = (v: number | null | undefined) => (v === null || v === undefined ? '—' : String(v));
  return [`## ${title}`, '', `| row | ${keys.map((k) => `${k} lab / paper`).join(' | ')} |`, `|---|${keys.map(() => '---:').join('|')}|`,
    ...rows.map((x) => `| ${x.name} | ${keys.map((k) => `${showCell(x.lab[k])} / ${paper(x.paper[k])}`).join(' | ')} |`), ''].join('\n');
}
