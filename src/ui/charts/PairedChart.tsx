// One quantity of a comparison over seeds (Compare runs): each side's mean over its seeds as a line
// and its lowest-to-highest seed as a band, both from each seed's mean of its last SMOOTH_WINDOW
// iterations (core/lab/seedSpread.ts), so the gap between the sides reads against the seeds' spread.

import { useMemo } from 'react';
import { seedBand } from '../../core/lab/seedSpread';
import { downsample, SMOOTH_WINDOW } from '../../store/series';
import { ChartCard } from './ChartCard';
import { IterationChart, type Band, type Curve, type ValueFormat } from './IterationChart';

/** One side on an overlaid chart: its colour and dash pattern (so the sides read apart in greyscale too). */
export interface PairedSeries {
  label: string;
  colour: string;
  /** SVG stroke-dasharray, or undefined for a solid line. */
  dash?: string;
  /** The iterations (1-based), as long as the longest seed. */
  iterations: readonly number[];
  /** Per seed, its value at each iteration. */
  seeds: readonly (readonly number[])[];
}

/** Legend: each side's line as drawn (colour and dash) over its band, and what line and band mean. */
function PairedLegend({ series, seeds }: {
  series: readonly Pick<PairedSeries, 'label' | 'colour' | 'dash'>[];
  seeds: number;
}) {
  return (
    <ul className="legend compact" aria-label="legend">
      {series.map((s) => (
        <li key={s.label}>
          <svg width="22" height="12" aria-hidden="true">
            <rect x="1" y="1" width="20" height="10" fill={s.colour} fillOpacity={0.24} />
            <line x1="1" x2="21" y1="6" y2="6" stroke={s.colour} strokeWidth="2" strokeDasharray={s.dash} />
          </svg>
          {s.label}
        </li>
      ))}
      <li className="muted" data-testid="band-meaning">
        line: mean of the {seeds} seeds; band: lowest to highest seed (each seed smoothed over its last{' '}
        {SMOOTH_WINDOW} iterations)
      </li>
    </ul>
  );
}

/**
 * Two sides of one quantity on the same axes (IterationChart): per side, the mean over seeds as a
 * line in the side's colour and dash pattern, over a faint band from the lowest to the highest
 * seed, up to the iteration every seed has reached (computed over the whole series, then downsampled).
 */
export function PairedChart({ title, note, testId, yLabel, series, domain, format }: {
  title: string;
  note: string;
  testId: string;
  yLabel: string;
  series: readonly PairedSeries[];
  domain?: [number, number];
  format?: ValueFormat;
}) {
  const { xs, curves, bands } = useMemo(() => {
    const each = series.map((s) => ({ s, band: seedBand(s.seeds, SMOOTH_WINDOW) }));
    const n = Math.min(...each.map((e) => e.band.mean.length));
    const index = downsample(Array.from({ length: Number.isFinite(n) ? n : 0 }, (_, i) => i));
    const pick = (v: readonly number[]) => index.map((i) => v[i] as number);
    const look = (s: PairedSeries) => (s.dash ? { dash: s.dash } : {});
    const curves: Curve[] = each.map(({ s, band }) => ({
      name: `${s.label} (mean)`, colour: s.colour, values: pick(band.mean), run: s.label, ...look(s),
    }));
    const bands: Band[] = each.map(({ s, band }) => ({
      name: `${s.label} (seeds)`, colour: s.colour, lo: pick(band.lo), hi: pick(band.hi), run: s.label,
    }));
    return { xs: index.map((i) => (series[0] as PairedSeries).iterations[i] as number), curves, bands };
  }, [series]);
  const fewest = Math.min(...series.map((s) => s.seeds.length));
  const legend = <PairedLegend series={series} seeds={Number.isFinite(fewest) ? fewest : 0} />;
  return (
    <ChartCard title={title} note={note} testId={testId} footer={legend}>
      <IterationChart xs={xs} curves={curves} bands={bands} yLabel={yLabel}
        {...(domain ? { domain } : {})} {...(format ? { format } : {})} />
    </ChartCard>
  );
}
