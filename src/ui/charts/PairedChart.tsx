import { useMemo } from 'react';
import { downsample, trailingMean } from '../../store/series';
import { ChartCard } from './ChartCard';
import { ChartFrame, TipRow } from './ChartFrame';
import { iterationTicks, valueTicks, type Curve, type ValueFormat } from './IterationChart';
import { linePath } from './seriesPaths';

/** Iterations the smoothed lines average over (as the training charts). */
export const PAIRED_SMOOTH_WINDOW = 10;

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
export function PairedLegend({ series }: { series: readonly Pick<PairedSeries, 'label' | 'colour' | 'dash'>[] }) {
  return (
    <ul className="legend compact" aria-label="legend">
      {series.map((s) => (
        <li key={s.label}>
          <svg width="22" height="8" aria-hidden="true"><line x1="1" x2="21" y1="4" y2="4" stroke={s.colour} strokeWidth="2" strokeDasharray={s.dash} /></svg>
          {s.label}
        </li>
      ))}
      <li className="muted">bold: mean of the last {PAIRED_SMOOTH_WINDOW}; faint: each iteration</li>
    </ul>
  );
}

/**
 * Two (or more) runs of one quantity on the same axes: each run's raw points faint under the mean
 * of its last PAIRED_SMOOTH_WINDOW iterations (computed over the whole series, then downsampled),
 * in the run's colour and dash pattern. The runs share their iterations (a paired comparison).
 */
export function PairedChart({ title, note, testId, yLabel, series, domain, format = (v) => v.toPrecision(4) }: {
  title: string;
  note: string;
  testId: string;
  yLabel: string;
  series: readonly PairedSeries[];
  domain?: [number, number];
  format?: ValueFormat;
}) {
  const { xs, lines } = useMemo(() => {
    const n = Math.min(...series.map((s) => s.values.length));
    const index = downsample(Array.from({ length: Number.isFinite(n) ? n : 0 }, (_, i) => i));
    const pick = (v: readonly number[]) => index.map((i) => v[i] as number);
    const lines = series.map((s) => ({ s, raw: pick(s.values), smooth: pick(trailingMean(s.values.slice(0, n), PAIRED_SMOOTH_WINDOW)) }));
    return { xs: index.map((i) => (series[0] as PairedSeries).iterations[i] as number), lines };
  }, [series]);
  const curves: Curve[] = useMemo(() => lines.flatMap((l) => [{ name: `${l.s.label} (each)`, colour: l.s.colour, values: l.raw, faint: true }, { name: l.s.label, colour: l.s.colour, values: l.smooth }]), [lines]);
  const xTicks = useMemo(() => iterationTicks(xs), [xs]);
  const yTicks = useMemo(() => valueTicks(curves, false, domain), [curves, domain]);
  const show = (v: number) => (Number.isFinite(v) ? format(v) : '—');
  const tip = (i: number) => (
    <>
      <div><strong>iteration {xs[i]}</strong></div>
      {lines.map((l) => <TipRow key={l.s.label} colour={l.s.colour}>{l.s.label}: {show(l.smooth[i] as number)} (this iteration {show(l.raw[i] as number)})</TipRow>)}
    </>
  );
  return (
    <ChartCard title={title} note={note} testId={testId} footer={<PairedLegend series={series} />}>
      <ChartFrame xTicks={xTicks} yTicks={yTicks} xLabel="iteration" yLabel={yLabel} snap={{ xs }} tip={tip}>
        {({ sx, sy, active }) => (
          <g className="curves">
            {lines.map((l) => <path key={`${l.s.label}-raw`} className="curve faint" d={linePath(xs, l.raw, sx, sy)} fill="none" stroke={l.s.colour} strokeWidth={1} strokeOpacity={0.3} strokeDasharray={l.s.dash} />)}
            {lines.map((l) => <path key={l.s.label} className="curve" data-run={l.s.label} d={linePath(xs, l.smooth, sx, sy)} fill="none" stroke={l.s.colour} strokeWidth={2.25} strokeLinejoin="round" strokeDasharray={l.s.dash} />)}
            {active >= 0 && lines.map((l) => {
              const x = sx(xs[active] as number), y = sy(l.smooth[active] as number);
              return x === undefined || y === undefined ? null : <circle key={`${l.s.label}-dot`} cx={x} cy={y} r={3} fill={l.s.colour} stroke="var(--panel)" />;
            })}
          </g>
        )}
      </ChartFrame>
    </ChartCard>
  );
}
