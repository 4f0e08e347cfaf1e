// The typed message protocol between the page and the training worker. Every request carries an
// id and every reply names the id it answers (the client drops replies nobody waits for). The
// run loop's pushes (metrics, status, trade-off) carry the run id they belong to, so the page
// ignores pushes from a run that was reset or replaced. The worker says what happened in codes and
// numbers (RunStop, WorkerActivity, KeptPolicy, …); the page writes the words (store/workerText.ts).

import type { TrainConfig } from '../core/grpo/config';
import type { Divergence, GroupSample, Histogram, IterationMetrics } from '../core/grpo/metrics';
import type { Collapse } from '../core/lab/collapseGuard';
import type { Catalog } from '../core/sim/catalog';
import type { GenerateStats, Task } from '../core/sim/tasks';
import type { Preference } from '../core/preference';
import type { Row as PaperRow } from '../core/eval/reproduce';
import type { FailureShares } from '../core/eval/failures';
import type { RoleCalls } from '../core/eval/roles';
import type { ProbeSize } from '../core/bench/probeSize';
import type { PhaseReport } from '../core/lab/phaseReport';

export type { PhaseReport };

export type { ProbeSize };

/** One row of the "Paper vs lab" table: paper and lab values side by side (core/eval/reproduce.ts). */
export type { PaperRow };

/** The tfjs backends the lab can run on, in fallback order. */
export const BACKEND_NAMES = ['webgpu', 'webgl', 'wasm', 'cpu'] as const;
export type BackendName = (typeof BACKEND_NAMES)[number];

/** The backend speed probe's whole budget (worker/backend.ts). */
export const PROBE_BUDGET_MS = 2000;

/** One backend's line in the speed probe (core/bench/speedProbe.ts). */
export interface BackendProbeResult {
  name: BackendName;
  /** e.g. "webgpu (software adapter)". */
  label: string;
  /** measured: itPerS is the estimate; bound: the probe stopped early, itPerS is an upper bound; the rest carry no figure. */
  status: 'measured' | 'bound' | 'timed out' | 'unavailable' | 'skipped';
  itPerS?: number;
  detail?: string;
  /** Time spent on this backend (start-up + probe). */
  ms: number;
}

/** The auto choice: what was measured, for which adapter, size and lab version (the page caches it). */
export interface BackendProbeReport {
  version: string;
  adapter: string;
  /** The training size it was measured at (B·G episodes, tools, width × depth, μ). */
  sizeKey: string;
  choice: BackendName;
  results: BackendProbeResult[];
  totalMs: number;
  measuredAt: string;
  /** True when this report came from the page's cache rather than a measurement now. */
  cached: boolean;
  /** No backend finished within the budget (or the fastest would not start again): `choice` follows unmeasuredOrder (core/bench/probeSize.ts); not cached. */
  inconclusive?: boolean;
}

export interface BackendInfo {
  name: BackendName;
  /** auto: chosen by the speed probe; forced: picked by `?backend=` or the selector. */
  mode: 'auto' | 'forced';
  probe?: BackendProbeReport;
  /** Adapter description (WebGPU) or the backend's own name. */
  adapter: string;
  /** True for a software WebGPU adapter (SwiftShader), and for wasm / cpu. */
  software: boolean;
  /** Why backends earlier in the chain were skipped. */
  notes: string[];
}

/** One iteration's scalars, as charted (the group and histogram travel separately, latest only). */
export type MetricPoint = Omit<IterationMetrics, 'group' | 'advantageHistogram'>;

export function toMetricPoint(m: IterationMetrics): MetricPoint {
  const { group: _g, advantageHistogram: _h, ...rest } = m;
  return rest;
}

export interface TradeoffPoint {
  label: string;
  family: string;
  cost: number;
  accuracy: number;
  latencyS: number;
  /** Share of its calls that went to paid APIs (closed models, web search). */
  apiShare: number;
  /** Mean calls per task of each tool (the operating point only). */
  calls?: Record<string, number>;
  /** How its failed tasks failed (the operating point only; core/eval/failures.ts). */
  failures?: FailureShares;
  /** Each model's calls per task by role: writes queries, writes programs, answers (the operating point only; core/eval/roles.ts). */
  roles?: RoleCalls;
}

/** What the trade-off view can put on its x-axis (accuracy is always the y-axis). */
export type TradeoffAxis = 'cost' | 'latencyS' | 'apiShare';

export interface Tradeoff {
  /** Baselines on the held-out set (computed once per catalog). */
  baselines: TradeoffPoint[];
  /** Vertices of the baselines' non-decreasing convex hull along each x-axis (the hindsight baseline left out: it sees the draws). */
  frontiers: Record<TradeoffAxis, TradeoffPoint[]>;
  /** The policy swept over the preference sweep. */
  sweep: TradeoffPoint[];
  /** The policy at the sliders' P. */
  current: TradeoffPoint;
  aiq: { orchestrator: number; cascade: number; range: [number, number] };
  /**
   * RouteLLM's APGR and CPT(50%), CPT(80%) of the policy swept over P (core/eval/frontier.ts), between the weak and the
   * strong reference (the cheapest baseline and the most accurate one, by label); null where they leave no gap.
   */
  routing: { apgr: number | null; cpt50: number | null; cpt80: number | null; weak: string; strong: string } | null;
  /** Iteration the policy was at when evaluated. */
  iteration: number;
  /** The P the operating point (`current`) was evaluated at. */
  preference: Preference;
  evalTasks: number;
  evalSuite: string;
}

/** Why an iteration stopped a run (or ended a Step or slow motion's update in trouble). */
export type RunStop =
  /** The update produced NaN/±Infinity: the weights from before it came back, and Adam restarts. */
  | { code: 'diverged'; divergence: Divergence }
  /** The collapse guard fired; `pausedWithBest`: a running loop paused, and Restore best puts back that iteration. */
  | { code: 'collapsed'; collapse: Collapse; pausedWithBest?: number | null }
  /** The policy's probabilities were not finite (the weights stay as they are); `detail`: which ones. */
  | { code: 'nonFinite'; detail: string }
  /** The backend broke and was started afresh, from the weights of `restoredIteration` (null: a fresh policy). */
  | { code: 'backendRebuilt'; cause: string; backend: string; restoredIteration: number | null }
  /** Any other failure of the iteration, as its error says. */
  | { code: 'failed'; error: string };

/** Why a run paused that is no failure: the learning-rate schedule reached 0 at iteration `end`. */
export type RunNotice = { code: 'lrEnded'; end: number };

/** What the worker is doing now. */
export type WorkerActivity =
  | { code: 'training' | 'stepping' | 'resetting' | 'finishing' | 'evaluating' | 'encoding' | 'idle' }
  | { code: 'slowMotion'; phase: number; of: number };

/** What replaced a policy that Undo keeps (a worker's action, or one the page asked for with an import). */
export type Replacement = 'reset' | 'restoreBest' | 'undo' | 'newNetwork' | 'import' | 'restart' | 'savedPolicy'
  | 'shippedPolicy' | 'sharedLab' | 'linkPolicy' | 'previousPolicy';

/** A policy the worker keeps: this run's best (Restore best), or the one a replacement replaced (Undo). */
export type KeptPolicy = { code: 'best'; iteration: number } | UndoLabel;
export type UndoLabel = { code: 'before'; replacedBy: Replacement; iteration: number };

/** A request refused for a reason the page words (the error's message says it too, without the page's controls). */
export type Refusal = { code: 'brokenPolicy'; why: string };

export interface LabSettings {
  catalog: Catalog;
  /** Training; train.preference is the sliders' P (evaluation; also training when train.preferenceMode = 'fixed'). */
  train: TrainConfig;
  /** Delay between iterations while running, ms (0 = as fast as possible). */
  delayMs: number;
  /** Size of the held-out set the trade-off view is measured on. */
  evalTasks: number;
  /** Its distribution: 'toolscale' (the training pool's, filtered) or a benchmark suite (hle, frames, tau2). */
  evalSuite: string;
}

export type Request =
  | { id: number; type: 'init'; backend?: BackendName; probeSize: ProbeSize; cachedProbe?: BackendProbeReport }
  | { id: number; type: 'chooseBackend'; probeSize: ProbeSize; cachedProbe?: BackendProbeReport }
  | { id: number; type: 'configure'; settings: LabSettings }
  | { id: number; type: 'start'; runId: number }
  | { id: number; type: 'pause' }
  | { id: number; type: 'step'; runId: number }
  | { id: number; type: 'reset'; runId: number }
  | { id: number; type: 'evaluate'; preference: Preference; sweep: boolean }
  | { id: number; type: 'export' }
  /** "Share with policy": the share file for these settings and, when its weights could fit `linkBudget` characters, the link's #policy= value. */
  | { id: number; type: 'sharePolicy'; settings: string; linkBudget: number }
  | {
    id: number; type: 'import'; json: unknown; weights: ArrayBuffer;
    /** What replaces the current policy, for the Undo label ('import' when not given). */
    replacedBy?: Replacement;
    /** The iteration it goes on from (a worker started afresh from the page's copy); else it counts from 0. */
    resumeAt?: number;
  }
  | { id: number; type: 'setBackend'; backend: BackendName }
  | { id: number; type: 'probe' }
  | { id: number; type: 'restoreBest'; runId: number }
  | { id: number; type: 'undo'; runId: number }
  | { id: number; type: 'paper'; preference: Preference; count: number }
  /** Slow motion: run the next phase of the open iteration (opening one); `close` ends it instead. */
  | { id: number; type: 'phase'; runId: number }
  | { id: number; type: 'closePhases'; runId: number }
  | { id: number; type: 'generate'; catalog: Catalog; seed: number; count: number; availability: number };

export type Reply =
  | { id: number; type: 'ready'; backend: BackendInfo }
  | { id: number; type: 'ok' }
  | { id: number; type: 'configured'; changed: string[]; bestIteration: number | null; undo: UndoLabel | null }
  | { id: number; type: 'stepped'; point: MetricPoint }
  | { id: number; type: 'tradeoff'; tradeoff: Tradeoff }
  | { id: number; type: 'exported'; json: object; weights: ArrayBuffer }
  | { id: number; type: 'shared'; file: string; param: string | null; floats: number }
  /**
   * kept: the policy replaced was kept for Undo (not when it was a fresh, untrained network: the slot keeps what it
   * had); recordedIterations: the iterations its file says it was trained for (null: it says none).
   */
  | { id: number; type: 'imported'; catalogName: string; recordedIterations: number | null; width: number;
    depth: number; bestIteration: number | null; undo: UndoLabel | null; kept: boolean }
  | { id: number; type: 'resetDone'; kept: boolean }
  /** seed: Undo's, the lab's seed when its policy was kept (Restore best keeps the seed). */
  /** `kept`: the policy it replaced is now what Undo brings back (Restore best keeps it; an Undo keeps the one it undid). */
  | { id: number; type: 'restored'; restored: KeptPolicy; width: number; depth: number; seed?: number; kept?: boolean }
  | { id: number; type: 'tasks'; tasks: Task[]; stats: GenerateStats }
  | { id: number; type: 'probed'; probabilities: number[] }
  | { id: number; type: 'paper'; rows: PaperRow[]; iteration: number; count: number }
  | { id: number; type: 'phase'; report: PhaseReport; done: boolean }
  | { id: number; type: 'error'; message: string; refusal?: Refusal };

/** Pushed by the worker while a run goes on (id 0: not a reply). */
export type Push =
  | { id: 0; type: 'metrics'; runId: number; points: MetricPoint[]; histogram: Histogram; group: GroupSample }
  | { id: 0; type: 'status'; runId: number; running: boolean; iteration: number; itPerS: number; stop?: RunStop;
    notice?: RunNotice; bestIteration?: number | null; undo?: UndoLabel | null }
  | { id: 0; type: 'tradeoff'; runId: number; tradeoff: Tradeoff }
  /** What the worker is doing now (training, a Step, idle, …), whatever the run. */
  | { id: 0; type: 'activity'; activity: WorkerActivity }
  /** A sign of life, every HEARTBEAT_MS: the page (store/workerWatch.ts) restarts a worker that stops sending any. */
  | { id: 0; type: 'alive' }
  /** The policy as Export writes it, and its iteration: the page's copy, a new worker goes on from it (weightsCopy). */
  | { id: 0; type: 'weights'; json: object; weights: ArrayBuffer; iteration: number };

/** How often the worker says it is alive. */
export const HEARTBEAT_MS = 1000;
