// Compare runs: two configurations (a preset) trained side by side over several seeds in their own
// worker, each side's accuracy, reward and cost as a mean line over a band of its seeds, progress
// per seed, and, once the runs end, the conclusion computed from them (CompareConclusion).

import { useMemo, useState } from 'react';
import { COMPARE_PRESETS, comparePreset } from '../core/lab/comparePresets';
import { useCompare, type CompareRunSeries } from '../store/compareStore';
import { useLab } from '../store/labStore';
import {
  COMPARE_DEFAULT_ITERATIONS, COMPARE_DEFAULT_SEEDS, COMPARE_MAX_ITERATIONS, COMPARE_MAX_SEEDS, COMPARE_MIN_SEEDS,
} from '../worker/compareProtocol';
import { NumberField } from './NumberField';
import { CompareConclusion } from './CompareConclusion';
import { PairedChart, type PairedSeries } from './charts/PairedChart';

/** Each side's colour and dash: blue solid, orange dashed (apart in hue, in lightness and in pattern). */
const LOOKS = [{ colour: '#1c7ed6' }, { colour: '#e8590c', dash: '7 4' }] as const;

/** The controls on one row (no stylesheet of its own). */
const CONTROLS = { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '0.4rem 0.8rem' } as const;
const PERCENT: [number, number] = [0, 100];
const percent = (v: number): string => `${v.toFixed(1)}%`;
const cost = (v: number): string => v.toPrecision(3);

type Key = 'accuracy' | 'meanReward' | 'meanCostUSD';

const seriesOf = (runs: readonly CompareRunSeries[], key: Key, scale = 1): PairedSeries[] =>
  runs.map((r, k) => ({
    label: r.label,
    ...LOOKS[k % LOOKS.length],
    iterations: r.points.map((p) => p.iteration),
    seeds: r.seeds.map((s) => s.map((p) => p[key] * scale)),
  }));

/** Each seed's iterations so far: the fewer of its two sides'. */
const doneBySeed = (runs: readonly CompareRunSeries[], seeds: number): number[] =>
  Array.from({ length: seeds }, (_, k) => Math.min(...runs.map((r) => r.seeds[k]?.length ?? 0)));

/**
 * Two configurations trained side by side over several seeds: per seed, the same tasks at every
 * iteration and the same starting policy on both sides; their accuracy, reward and cost overlaid.
 */
export function CompareRuns() {
  const compare = useCompare();
  const { presetId, runs, seeds, running, stopping, iterations, error, backend, msPerPair, stopped, note } = compare;
  const catalog = useLab((s) => s.catalog);
  const seed = useLab((s) => s.train.seed);
  const labBackend = useLab((s) => s.backendInfo?.name ?? null);
  const mainRunning = useLab((s) => s.running);
  const [picked, setPicked] = useState(presetId ?? 'reward');
  const [count, setCount] = useState(COMPARE_DEFAULT_ITERATIONS);
  const [seedCount, setSeedCount] = useState(COMPARE_DEFAULT_SEEDS);
  const preset = comparePreset(picked);
  const shown = comparePreset(presetId ?? '');
  const unit = catalog.currency === 'USD' ? '$' : 'u';
  const done = doneBySeed(runs, seeds.length);
  const any = done.some((d) => d > 0);
  const charts = useMemo(() => ({
    accuracy: seriesOf(runs, 'accuracy', 100),
    reward: seriesOf(runs, 'meanReward'),
    cost: seriesOf(runs, 'meanCostUSD'),
  }), [runs]);
  const on = backend ? ` on ${backend}` : '';
  const timing = msPerPair ? ` ${(msPerPair / 1000).toFixed(2)} s per pair of iterations${on}.` : '';
  const planned = Array.from({ length: seedCount }, (_, k) => seed + k);
  return (
    <div className="compare-runs" data-testid="compare-runs">
      <p className="small">
        Two configurations, each trained over {seedCount} seeds ({planned.join(', ')}; the lab’s seed and the ones
        after it). For each seed both sides start from the same freshly initialised policy and see the same tasks and
        preferences at every iteration; the seeds differ in both, so their spread shows how large a gap the draw alone
        makes. They train in their own worker{labBackend ? ` on ${labBackend}, the backend the lab uses` : ''};
        starting pauses the main run, and starting the main run stops it, since both would share the CPU.
      </p>
      <div className="compare-controls" style={CONTROLS}>
        <label className="small">
          Comparison{' '}
          <select aria-label="Comparison" value={picked} onChange={(e) => setPicked(e.target.value)} disabled={running}>
            {COMPARE_PRESETS.map((p) => <option key={p.id} value={p.id}>{p.title}</option>)}
          </select>
        </label>
        <NumberField label="Iterations per seed" value={count} onChange={setCount}
          min={1} max={COMPARE_MAX_ITERATIONS} step={10} integer />
        <NumberField label="Seeds" value={seedCount} onChange={setSeedCount}
          min={COMPARE_MIN_SEEDS} max={COMPARE_MAX_SEEDS} step={1} integer />
        {running
          ? <button type="button" onClick={compare.stop} disabled={stopping}>{stopping ? 'Stopping…' : 'Stop'}
          </button>
          : <button type="button" onClick={() => compare.start(picked, count, seedCount)}>Start comparison</button>}
      </div>
      {(running || any) && (
        <p className="small" data-testid="compare-progress" aria-live="polite">
          {seeds.map((s, k) => (
            <span key={s} data-seed={s}>{k > 0 ? ' · ' : ''}seed {s}: {done[k]}/{iterations}</span>
          ))}
          {backend ? ` · ${backend}` : ''}
          {backend && labBackend && backend !== labBackend ? ` (the lab uses ${labBackend})` : ''}
          {running && !any ? ' · building the task pools and the runs…' : ''}
        </p>
      )}
      {preset && <p className="small"><strong>The question:</strong> {preset.question}</p>}
      {preset && <p className="small"><strong>Why they could differ:</strong> {preset.mechanism}</p>}
      {preset && (
        <p className="small muted">
          {preset.sides.map((s) => s.label).join(' vs ')}; everything else as set in the lab. The answer is computed
          from the runs once they end.
        </p>
      )}
      {running && mainRunning && (
        <p className="small" role="status">
          The main run started: the comparison stops after the pair of iterations in flight (both would share the CPU).
        </p>
      )}
      {error && <p className="small field-error" role="alert">{error}</p>}
      {note && <p className="small" role="note" data-testid="compare-note">{note}</p>}
      {runs.length > 0 && (
        <>
          {shown && shown.id !== picked && <p className="small muted">Showing the last comparison: {shown.title}.</p>}
          <div className="charts-grid">
            <PairedChart title="Accuracy" note="share of rollouts solved, %" testId="compare-accuracy" yLabel="%"
              series={charts.accuracy} domain={PERCENT} format={percent} />
            <PairedChart title="Mean reward" note="each side's own reward (scales may differ)" testId="compare-reward"
              yLabel="R" series={charts.reward} />
            <PairedChart title={`Cost per task (${unit})`} note="tool calls + own turns" testId="compare-cost"
              yLabel={unit} series={charts.cost} format={cost} />
          </div>
        </>
      )}
      {!running && any && (
        <>
          <CompareConclusion runs={runs} seeds={seeds} catalog={catalog} />
          <p className="small muted" data-testid="compare-summary">
            {seeds.length} seeds × {Math.min(...done)} iterations per side
            {stopped ? ` (stopped early, of ${iterations} asked)` : ''}.
            {timing}
          </p>
        </>
      )}
    </div>
  );
}
