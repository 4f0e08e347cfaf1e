// Runs side by side (zustand): a comparison preset (core/lab/comparePresets.ts) trained in its
// own worker (worker/compare.worker.ts) on the lab's current settings and backend over several
// seeds from the lab's, each side's metric series per seed, and Start / Stop. Starting pauses the
// main run: both would share the CPU.

import { errorMessage } from '../core/errorMessage';
import { create } from 'zustand';
import { comparePreset } from '../core/lab/comparePresets';
import { comparisonSeeds } from '../core/lab/seedSpread';
import {
  COMPARE_DEFAULT_ITERATIONS, COMPARE_DEFAULT_SEEDS, COMPARE_MAX_ITERATIONS, COMPARE_MAX_SEEDS, COMPARE_MIN_SEEDS,
  type ComparePush, type CompareRequest,
} from '../worker/compareProtocol';
import type { BackendName, MetricPoint } from '../worker/protocol';
import { onRunStart, useLab } from './labStore';
import { compareProblemText } from './workerText';

export interface CompareRunSeries {
  label: string;
  /** One series per seed, in the order of `CompareState.seeds`. */
  seeds: MetricPoint[][];
  /** The first seed's series (the lab's own seed): what one run on its own would show. */
  points: MetricPoint[];
}

export interface CompareState {
  presetId: string | null;
  /** The two sides, in the preset's order. */
  runs: CompareRunSeries[];
  /** The training seeds both sides run (the lab's seed and the ones after it). */
  seeds: number[];
  running: boolean;
  /** Stop was pressed; the pair of iterations in flight finishes, then `running` turns false. */
  stopping: boolean;
  /** Iterations per seed the current (or last) comparison was asked to run. */
  iterations: number;
  error: string | null;
  /** The backend the compare worker runs on (null until it has started). */
  backend: BackendName | null;
  /** Mean wall time of one pair of iterations (both sides of one seed) once a comparison has ended, ms. */
  msPerPair: number | null;
  /** True when the last comparison was stopped before its last iteration. */
  stopped: boolean;
  /** Why the comparison runs fewer iterations than asked (the learning-rate schedule ends first), or null. */
  note: string | null;
  start(presetId: string, iterations?: number, seeds?: number): void;
  stop(): void;
}

let worker: Worker | null = null;
let runId = 0;

export const useCompare = create<CompareState>((set, get) => {
  const fail = (message: string) => set({ running: false, stopping: false, error: message });

  const onPush = (p: ComparePush) => {
    if (p.runId !== runId) return; // a run that was replaced
    if (p.type === 'started') set({ backend: p.backend });
    else if (p.type === 'points') {
      set((s) => ({
        runs: s.runs.map((r, side) => {
          const seeds = r.seeds.map((pts, k) => [...pts, ...(p.points[side]?.[k] ?? [])]);
          return { ...r, seeds, points: seeds[0] ?? [] };
        }),
      }));
    } else if (p.type === 'done') set({ running: false, stopping: false, msPerPair: p.msPerPair, stopped: p.stopped });
    else fail(`Comparison failed: ${compareProblemText(p.problem)}`);
  };

  /** The worker, started on first use; a worker that failed is dropped and the next Start makes a new one. */
  const compareWorker = (): Worker => {
    if (worker) return worker;
    const w = new Worker(new URL('../worker/compare.worker.ts', import.meta.url), { type: 'module' });
    w.addEventListener('message', (ev: MessageEvent<ComparePush>) => onPush(ev.data));
    w.addEventListener('error', (ev) => {
      ev.preventDefault();
      if (worker === w) worker = null;
      w.terminate();
      if (get().running) fail(`The comparison worker failed: ${ev.message || 'it could not be loaded'}`);
    });
    w.addEventListener('messageerror', () => { if (get().running) fail('The comparison worker sent a message the page could not read.'); });
    worker = w;
    return w;
  };

  return {
    presetId: null,
    runs: [],
    seeds: [],
    running: false,
    stopping: false,
    iterations: COMPARE_DEFAULT_ITERATIONS,
    error: null,
    backend: null,
    msPerPair: null,
    stopped: false,
    note: null,

    start(presetId, iterations = COMPARE_DEFAULT_ITERATIONS, seedCount = COMPARE_DEFAULT_SEEDS) {
      const preset = comparePreset(presetId);
      const n = Math.round(iterations);
      const k = Math.round(seedCount);
      runId++;
      const refuse = (error: string) =>
        set({ presetId, runs: [], seeds: [], running: false, stopping: false, note: null, error });
      if (!preset) return refuse(`There is no comparison preset "${presetId}".`);
      if (!(n >= 1 && n <= COMPARE_MAX_ITERATIONS)) {
        return refuse(`Iterations must be between 1 and ${COMPARE_MAX_ITERATIONS} (got ${iterations}).`);
      }
      if (!(k >= COMPARE_MIN_SEEDS && k <= COMPARE_MAX_SEEDS)) {
        return refuse(`Seeds must be between ${COMPARE_MIN_SEEDS} and ${COMPARE_MAX_SEEDS} (got ${seedCount}).`);
      }
      const lab = useLab.getState();
      if (lab.running) lab.pause();
      // Both runs follow the lab's learning-rate schedule from their first iteration; past its end the rate is 0 and neither would change.
      const end = lab.train.lrDecay?.end;
      const count = end !== undefined && end < n ? end : n;
      const note = count < n ? `The learning rate reaches 0 at iteration ${end} (Settings → Training → "lr → 0 by ` +
        `iteration"), so each seed runs ${count} iterations, not ${n}: past that neither side would change.` : null;
      const empty = (): MetricPoint[][] => Array.from({ length: k }, () => []);
      const runs = preset.sides.map((s) => ({ label: s.label, seeds: empty(), points: [] }));
      const seeds = comparisonSeeds(lab.train, k);
      set({ presetId, runs, seeds, running: true, stopping: false, iterations: count, error: null, msPerPair: null, stopped: false,
        note });
      const req: CompareRequest = {
        type: 'start', runId, presetId, iterations: count, seeds: k,
        catalog: lab.catalog, train: lab.train,
        backend: lab.backendInfo?.name ?? null,
      };
      try {
        compareWorker().postMessage(req);
      } catch (e) {
        fail(`The comparison worker could not start: ${errorMessage(e)}`);
      }
    },

    stop() {
      if (!get().running || get().stopping) return;
      if (!worker) return set({ running: false });
      worker.postMessage({ type: 'stop', runId } satisfies CompareRequest);
      set({ stopping: true });
    },
  };
});

// The other way round: starting the main run stops a comparison (both would share the two cores).
onRunStart(() => useCompare.getState().stop());
