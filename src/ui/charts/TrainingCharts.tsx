import { useMemo, type ReactNode } from 'react';
import { useLab, type LabState } from '../../store/labStore';
import { EVAL_SUITES } from '../../store/urlState';
import { useStaggered } from './useStaggered';
import { downsample, OF_UPDATE, SMOOTH_WINDOW, trailingMean } from '../../store/series';
import { ChartCard, toolColour } from './ChartCard';
import { IterationChart, type RefLine } from './IterationChart';

/** Points the stacked usage chart draws (one band per tool, so fewer than a line chart). */
const USAGE_POINTS = 100;

type Key = 'meanReward' | 'accuracy' | 'meanCostUSD' | 'meanLatencyS' | 'kl' | 'entropy' | 'clipFrac';

type LineSpec = { key: Key; name: string; colour: string };

/** An HTML legend (the browser lays it out; nothing in the SVG measures text): lines or filled areas. */
function LineLegend({
  items,
  swatch = 'line',
}: {
  items: readonly { name: string; colour: string; faint?: boolean; dashed?: boolean }[];
  swatch?: 'line' | 'area';
}) {
  return (
    <ul className="legend compact" aria-label="legend">
      {items.map((l) => (
        <li key={l.name}>
          {swatch === 'line' ? (
            <span
              className={l.dashed ? 'line dashed' : 'line'}
              style={{ borderColor: l.colour, opacity: l.faint ? 0.35 : 1 }}
            />
          ) : (
            <span className="swatch" style={{ background: l.colour }} />
          )}
          {l.name}
        </li>
      ))}
    </ul>
  );
}

const selectSeries = (s: LabState) => s.series;

/**
 * One line chart over iterations, re-rendered in its own staggered slot. A chart of one quantity
 * draws its raw points faint under the mean of the last SMOOTH_WINDOW iterations (computed over the
 * whole series, then downsampled), so noise does not read as a trend.
 */
function SeriesChart({
  slot,
  title,
  note,
  testId,
  yLabel,
  lines,
  domain,
  refs,
  includeZero,
  yFormat,
  missing,
}: {
  slot: number;
  title: string;
  note: ReactNode;
  testId: string;
  yLabel: string;
  lines: LineSpec[];
  domain?: [number, number];
  refs?: readonly RefLine[];
  includeZero?: boolean;
  yFormat?: (v: number) => string;
  missing?: string;
}) {
  const series = useStaggered(selectSeries, slot);
  const smooth = lines.length === 1;
  const { xs, curves } = useMemo(() => {
    const index = downsample(series.map((_, i) => i));
    const pick = (values: readonly number[]) => index.map((i) => values[i] as number);
    // An iteration without an update has no KL, entropy or clip fraction: a gap, not a 0.
    const raw = lines.map((l) =>
      series.map((p) => (OF_UPDATE.includes(l.key) && p.decisions.trained === 0 ? Number.NaN : p[l.key])),
    );
    const curves = lines.flatMap((l, k) => {
      const values = raw[k] as number[];
      return smooth
        ? [
            { name: `${l.name} (each iteration)`, colour: l.colour, values: pick(values), faint: true },
            {
              name: `${l.name} (mean of the last ${SMOOTH_WINDOW})`,
              colour: l.colour,
              values: pick(trailingMean(values, SMOOTH_WINDOW)),
            },
          ]
        : [{ name: l.name, colour: l.colour, values: pick(values) }];
    });
    return { xs: index.map((i) => (series[i] as (typeof series)[number]).iteration), curves };
  }, [series, lines, smooth]);
  return (
    <ChartCard
      title={title}
      note={note}
      testId={testId}
      footer={
        smooth ? (
          <LineLegend
            items={[
              { name: 'each iteration', colour: (lines[0] as LineSpec).colour, faint: true },
              { name: `mean of the last ${SMOOTH_WINDOW}`, colour: (lines[0] as LineSpec).colour },
              ...(refs ?? []).map((r) => ({ name: r.label, colour: r.colour, dashed: true })),
            ]}
          />
        ) : (
          <LineLegend items={lines} />
        )
      }
    >
      {/* Mounted even while empty, so the first metrics do not have to build the chart during training. */}
      <IterationChart
        xs={xs}
        curves={curves}
        yLabel={yLabel}
        {...(domain ? { domain } : {})}
        {...(refs ? { refs } : {})}
        {...(includeZero ? { includeZero } : {})}
        {...(yFormat ? { yFormat } : {})}
        {...(missing ? { missing } : {})}
      />
    </ChartCard>
  );
}

const formatCalls = (v: number): string => v.toFixed(2);

function UsageChart({ slot }: { slot: number }) {
  const series = useStaggered(selectSeries, slot);
  const catalog = useLab((s) => s.catalog);
  const { xs, curves } = useMemo(() => {
    const points = downsample(series, USAGE_POINTS);
    return {
      xs: points.map((p) => p.iteration),
      curves: catalog.tools.map((t, j) => ({
        name: t.id,
        colour: toolColour(j),
        values: points.map((p) => p.callsPerTask[t.id] ?? 0),
      })),
    };
  }, [series, catalog]);
  return (
    <ChartCard
      title="Tool usage"
      note="mean calls per task, stacked"
      testId="chart-usage"
      footer={<LineLegend items={curves} swatch="area" />}
    >
      <IterationChart xs={xs} curves={curves} yLabel="calls" stacked format={formatCalls} />
    </ChartCard>
  );
}

const selectTradeoff = (s: LabState) => s.tradeoff;
const percent = (v: number): string => `${Math.round(100 * v)}%`;
/** The baselines to beat, drawn on the curves: GPT-5 with basic tools and the cheapest tool, from the trade-off view's held-out evaluation. */
const REFS = [
  { label: 'tools+gpt-5', name: 'GPT-5 + tools', colour: '#c2255c' },
  { label: 'cheapest', name: 'cheapest tool', colour: '#868e96' },
] as const;

/** The held-out task set of the baselines when it is not the training distribution (the curves' own), else null. */
function useOtherSuite(): string | null {
  const suite = useLab(selectTradeoff)?.evalSuite;
  return suite && suite !== 'toolscale' ? (EVAL_SUITES.find((x) => x.name === suite)?.label ?? suite) : null;
}

function useBaselineRefs(key: 'accuracy' | 'cost'): RefLine[] | undefined {
  const t = useLab(selectTradeoff);
  const baselines = t?.baselines;
  const other = useOtherSuite();
  return useMemo(() => {
    if (!baselines) return undefined;
    return REFS.flatMap((r) => {
      const b = baselines.find((x) => x.label === r.label);
      // On another task set than the curve's, the line says which: it is not the same test.
      return b ? [{ label: other ? `${r.name} (${other})` : r.name, value: b[key], colour: r.colour }] : [];
    });
  }, [baselines, key, other]);
}

/** The three curves that tell whether it learns: accuracy, reward and cost, with the baselines to beat. */
export function KeyCurves() {
  const catalog = useLab((s) => s.catalog);
  const unit = catalog.currency === 'USD' ? '$' : 'u';
  const accRefs = useBaselineRefs('accuracy');
  const costRefs = useBaselineRefs('cost');
  const other = useOtherSuite();
  const dashed = other
    ? `dashed: baselines on held-out ${other} tasks, another task set than the curve's`
    : 'dashed: baselines on held-out tasks';
  return (
    <div className="key-curves" data-region="curves">
      <SeriesChart
        slot={1}
        title="Training accuracy (rollouts)"
        note={`share of this iteration's training rollouts solved · ${dashed}`}
        testId="chart-accuracy"
        yLabel="solved"
        domain={[0, 1]}
        yFormat={percent}
        lines={[{ key: 'accuracy', name: 'training accuracy', colour: '#2f9e44' }]}
        {...(accRefs ? { refs: accRefs } : {})}
      />
      <SeriesChart
        slot={0}
        title="Mean reward"
        note="R per trajectory, averaged over the batch"
        testId="chart-reward"
        yLabel="R"
        includeZero
        lines={[{ key: 'meanReward', name: 'reward', colour: 'var(--accent)' }]}
      />
      <SeriesChart
        slot={2}
        title={`Cost per task (${unit})`}
        note="tool calls + the orchestrator's own turns"
        testId="chart-cost"
        yLabel={unit}
        includeZero
        lines={[{ key: 'meanCostUSD', name: 'cost', colour: '#e8590c' }]}
        {...(costRefs ? { refs: costRefs } : {})}
      />
    </div>
  );
}

/** Latency, tool usage and the update's diagnostics over iterations. */
export function DiagnosticsCharts() {
  const epochs = useLab((s) => s.train.epochs);
  return (
    <div className="charts-grid">
      <SeriesChart
        slot={3}
        title="Latency per task (s)"
        note="sum of call latencies + own turns"
        testId="chart-latency"
        yLabel="s"
        includeZero
        lines={[{ key: 'meanLatencyS', name: 'latency', colour: '#7048e8' }]}
      />
      <UsageChart slot={4} />
      <SeriesChart
        slot={5}
        title="KL · entropy · clip fraction"
        note={`${epochs === 1 ? '(μ = 1: the ratio is 1, so the clip fraction stays 0 and the surrogate is minus the mean advantage, small next to the advantages)' : 'of the update'} · a gap: no update that iteration (every group filtered)`}
        testId="chart-diagnostics"
        yLabel="value"
        includeZero
        missing="no update"
        lines={[
          { key: 'kl', name: 'KL (k3, nats)', colour: '#c2255c' },
          { key: 'entropy', name: 'entropy (nats)', colour: '#1098ad' },
          { key: 'clipFrac', name: 'clip fraction (0–1)', colour: '#f59f00' },
        ]}
      />
    </div>
  );
}
