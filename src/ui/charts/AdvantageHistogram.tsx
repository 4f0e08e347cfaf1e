// The advantage histogram: the latest iteration's trajectory advantages, one bar per bin, drawn in ChartFrame
// and re-rendered in its own staggered slot.

import { useMemo } from 'react';
import type { LabState } from '../../store/labStore';
import type { Histogram } from '../../core/grpo/metrics';
import { useStaggered } from './useStaggered';
import { ChartCard } from './ChartCard';
import { ChartFrame, type Marks } from './ChartFrame';
import { linearTicks } from './axisTicks';

const selectHistogram = (s: LabState) => s.histogram;
/** Shown (empty) before the first iteration, so the chart is built at boot rather than during training. */
const EMPTY: Histogram = { edges: Array.from({ length: 25 }, (_, k) => -3 + k / 4), counts: new Array<number>(24).fill(0) };
const centresOf = (h: Histogram): number[] => h.counts.map((_, k) => ((h.edges[k] as number) + (h.edges[k + 1] as number)) / 2);

/** The bin's range; the end bins also hold the values beyond ±3 (they are clamped into them). */
function binLabel(h: Histogram, k: number): string {
  const lo = (h.edges[k] as number).toFixed(2);
  const hi = (h.edges[k + 1] as number).toFixed(2);
  if (k === 0) return `A < ${hi}`;
  if (k === h.counts.length - 1) return `A ≥ ${lo}`;
  return `${lo} ≤ A < ${hi}`;
}

/** One bar per bin, from its lower to its upper edge; the hovered bin is outlined. */
function Bars({ h, m }: { h: Histogram; m: Marks }) {
  const { sx, sy, active } = m;
  const base = sy(0) ?? 0;
  return (
    <g className="bars">
      {h.counts.map((c, k) => {
        const x0 = sx(h.edges[k] as number);
        const x1 = sx(h.edges[k + 1] as number);
        const y = sy(c);
        if (c === 0 || x0 === undefined || x1 === undefined || y === undefined) return null;
        return <rect key={k} x={x0 + 0.5} y={y} width={Math.max(0.5, x1 - x0 - 1)} height={Math.max(0, base - y)}
          fill="var(--accent)" stroke={k === active ? 'var(--ink)' : 'none'} />;
      })}
    </g>
  );
}

/** Distribution of the latest iteration's trajectory advantages A = (R − mean)/std. */
export function AdvantageHistogram() {
  const latest = useStaggered(selectHistogram, 6);
  const h = latest ?? EMPTY;
  const centres = useMemo(() => (latest ? centresOf(latest) : []), [latest]);
  const xTicks = useMemo(() => linearTicks(h.edges[0] as number, h.edges[h.edges.length - 1] as number, 6), [h]);
  const yTicks = useMemo(() => linearTicks(0, Math.max(1, ...h.counts), 3, true), [h]);
  return (
    <ChartCard title="Advantage histogram" note="latest iteration, one count per trajectory (filtered groups sit at 0)" testId="chart-advantage">
      <div className="chart-fill-body">
        <ChartFrame snap={{ xs: centres }} xTicks={xTicks} yTicks={yTicks} xLabel="advantage A" yLabel="count"
          tip={(k) => <><div><strong>{binLabel(h, k)}</strong></div><div>{h.counts[k]} trajectories</div></>}>
          {(m) => <Bars h={h} m={m} />}
        </ChartFrame>
        {!latest && <div className="empty-overlay muted small">No iteration yet.</div>}
      </div>
    </ChartCard>
  );
}
