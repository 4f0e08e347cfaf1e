import { useMemo } from 'react';
import { downsample, SMOOTH_WINDOW, trailingMean } from '../../store/series';
import { ChartCard } from './ChartCard';
import { IterationChart, type Curve, type ValueFormat } from './IterationChart';

/** One run on an overlaid chart: its colour and dash pattern (so the runs read apart in greyscale too). */
export interface PairedSeries {
  label: string;
  colour: string;
  /** SVG stroke-dasharray, or undefined for a solid line. */
  dash?: string;
  iterations: readonly number[];
  values: readonly number[];
}

/** Legend: each run's line as drawn (colour and dash), and what faint and bold mean. */
function PairedLegend({ series }: { series: readonly Pick<PairedSeries, 'label' | 'colour' | 'dash'>[] }) {
  return (
    <ul className="legend compact" aria-label="legend">
      {series.map((s) => (
        <li key={s.label}>
          <svg width="22" height="8" aria-hidden="true"><line x1="1" x2="21" y1="4" y2="4" stroke={s.colour} strokeWidth="2" strokeDasharray={s.dash} /></svg>
          {s.label}
        </li>
      ))}
      <li className="muted">bold: mean of the last {SMOOTH_WINDOW}; faint: each iteration</li>
    </ul>
  );
}

/**
 * Two (or more) runs of one quantity on the same axes (IterationChart): each run's raw points faint
 * under the mean of its last SMOOTH_WINDOW iterations (computed over the whole series, then
 * downsampled), in the run's colour and dash pattern. The runs share their iterations.
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
  const { xs, curves } = useMemo(() => {
    const n = Math.min(...series.map((s) => s.values.length));
    const index = downsample(Array.from({ length: Number.isFinite(n) ? n : 0 }, (_, i) => i));
    const pick = (v: readonly number[]) => index.map((i) => v[i] as number);
    const curves: Curve[] = series.flatMap((s) => [
      { name: `${s.label} (each iteration)`, colour: s.colour, values: pick(s.values), faint: true, ...(s.dash ? { dash: s.dash } : {}) },
      { name: s.label, colour: s.colour, values: pick(trailingMean(s.values.slice(0, n), SMOOTH_WINDOW)), run: s.label, ...(s.dash ? { dash: s.dash } : {}) },
    ]);
    return { xs: index.map((i) => (series[0] as PairedSeries).iterations[i] as number), curves };
  }, [series]);
  return (
    <ChartCard title={title} note={note} testId={testId} footer={<PairedLegend series={series} />}>
      <IterationChart xs={xs} curves={curves} yLabel={yLabel} {...(domain ? { domain } : {})} {...(format ? { format } : {})} />
    </ChartCard>
  );
}
