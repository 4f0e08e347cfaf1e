import { useMemo, useState } from 'react';
import { COMPARE_PRESETS, comparePreset } from '../core/lab/comparePresets';
import { smoothedEnd, SMOOTH_WINDOW } from '../store/series';
import { formatCost, type Catalog } from '../core/sim/catalog';
import { useCompare, type CompareRunSeries } from '../store/compareStore';
import { useLab } from '../store/labStore';
import { COMPARE_DEFAULT_ITERATIONS, COMPARE_MAX_ITERATIONS } from '../worker/compareProtocol';
import type { MetricPoint } from '../worker/protocol';
import { NumberField } from './NumberField';
import { PairedChart, type PairedSeries } from './charts/PairedChart';
import { count } from '../core/count';

/** Each run's colour and dash: blue solid, orange dashed (apart in hue, in lightness and in pattern). */
const LOOKS = [{ colour: '#1c7ed6' }, { colour: '#e8590c', dash: '7 4' }] as const;

/** The controls on one row (no stylesheet of its own). */
const CONTROLS = { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '0.4rem 0.8rem' } as const;
const PERCENT: [number, number] = [0, 100];
const percent = (v: number): string => `${v.toFixed(1)}%`;
const cost = (v: number): string => v.toPrecision(3);

type Key = 'accuracy' | 'meanReward' | 'meanCostUSD';

const seriesOf = (runs: readonly CompareRunSeries[], key: Key, scale = 1): PairedSeries[] =>
  runs.map((r, k) => ({ label: r.label, ...LOOKS[k % LOOKS.length], iterations: r.points.map((p) => p.iteration), values: r.points.map((p) => p[key] * scale) }));

/** The end of a run's smoothed line. */
const lastMean = (points: readonly MetricPoint[], key: Key): number => smoothedEnd(points.map((p) => p[key]));

/** One plain-text line with each run's final smoothed accuracy and cost. */
function compareSummary(runs: readonly CompareRunSeries[], catalog: Pick<Catalog, 'currency'>): string {
  const n = Math.min(...runs.map((r) => r.points.length));
  const each = runs.map((r) => `${r.label}: accuracy ${(100 * lastMean(r.points, 'accuracy')).toFixed(1)}%, cost ${formatCost(catalog, lastMean(r.points, 'meanCostUSD'))} per task`);
  return `After ${count(n, 'iteration')} (mean of the last ${Math.min(n, SMOOTH_WINDOW)}) — ${each.join('; ')}.`;
}

/**
 * Two configurations trained side by side on the same seed, the same tasks at every iteration and
 * the same starting policy, in their own worker; their accuracy, reward and cost overlaid.
 */
export function CompareRuns() {
  const { presetId, runs, running, stopping, iterations, error, backend, msPerPair, stopped, note, start, stop } = useCompare();
  const catalog = useLab((s) => s.catalog);
  const seed = useLab((s) => s.train.seed);
  const labBackend = useLab((s) => s.backendInfo?.name ?? null);
  const mainRunning = useLab((s) => s.running);
  const [picked, setPicked] = useState(presetId ?? 'reward');
  const [count, setCount] = useState(COMPARE_DEFAULT_ITERATIONS);
  const preset = comparePreset(picked);
  const shown = comparePreset(presetId ?? '');
  const unit = catalog.currency === 'USD' ? '$' : 'u';
  const done = runs[0]?.points.length ?? 0;
  const charts = useMemo(() => ({
    accuracy: seriesOf(runs, 'accuracy', 100),
    reward: seriesOf(runs, 'meanReward'),
    cost: seriesOf(runs, 'meanCostUSD'),
  }), [runs]);
  return (
    <div className="compare-runs" data-testid="compare-runs">
      <p className="small">
        Two configurations trained side by side: the same seed ({seed}), the same tasks and preferences at every iteration, and the same
        freshly initialised policy, so any gap between the curves comes from the one setting that differs. They train in their own
        worker{labBackend ? ` on ${labBackend}, the backend the lab uses` : ''}; starting pauses the main run, and starting the main run stops it, since both would share the CPU.
      </p>
      <div className="compare-controls" style={CONTROLS}>
        <label className="small">
          Comparison{' '}
          <select aria-label="Comparison" value={picked} onChange={(e) => setPicked(e.target.value)} disabled={running}>
            {COMPARE_PRESETS.map((p) => <option key={p.id} value={p.id}>{p.title}</option>)}
          </select>
        </label>
        <NumberField label="Iterations" value={count} onChange={setCount} min={1} max={COMPARE_MAX_ITERATIONS} step={10} integer />
        {running
          ? <button type="button" onClick={stop} disabled={stopping}>{stopping ? 'Stopping…' : 'Stop'}</button>
          : <button type="button" onClick={() => start(picked, count)}>Start comparison</button>}
        {(running || done > 0) && (
          <span className="small" data-testid="compare-progress" aria-live="polite">
            iteration {done} / {iterations}{backend ? ` · ${backend}` : ''}{backend && labBackend && backend !== labBackend ? ` (the lab uses ${labBackend})` : ''}
            {running && done === 0 ? ' · building the task pool and both runs…' : ''}
          </span>
        )}
      </div>
      {preset && <p className="small"><strong>What to look for:</strong> {preset.lookFor}</p>}
      {preset && <p className="small muted">{preset.sides.map((s) => s.label).join(' vs ')}; everything else as set in the lab.</p>}
      {running && mainRunning && <p className="small" role="status">The main run started: the comparison stops after the pair of iterations in flight (both would share the CPU).</p>}
      {error && <p className="small field-error" role="alert">{error}</p>}
      {note && <p className="small" role="note" data-testid="compare-note">{note}</p>}
      {runs.length > 0 && (
        <>
          {shown && shown.id !== picked && <p className="small muted">Showing the last comparison: {shown.title}.</p>}
          <div className="charts-grid">
            <PairedChart title="Accuracy" note="share of rollouts solved, %" testId="compare-accuracy" yLabel="%" series={charts.accuracy} domain={PERCENT} format={percent} />
            <PairedChart title="Mean reward" note="each run's own reward (scales may differ)" testId="compare-reward" yLabel="R" series={charts.reward} />
            <PairedChart title={`Cost per task (${unit})`} note="tool calls + own turns" testId="compare-cost" yLabel={unit} series={charts.cost} format={cost} />
          </div>
        </>
      )}
      {!running && done > 0 && (
        <p className="small" data-testid="compare-summary">
          {compareSummary(runs, catalog)}
          {stopped ? ' Stopped early.' : ''}
          {msPerPair ? ` ${(msPerPair / 1000).toFixed(2)} s per pair of iterations${backend ? ` on ${backend}` : ''}.` : ''}
        </p>
      )}
    </div>
  );
}
