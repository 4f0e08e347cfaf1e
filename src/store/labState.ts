// The page's state as one type, composed from its slices' types (zustand's slices pattern: each
// *Slice.ts makes its part), and LabEnv, the one object the slices share (labEnv.ts makes it). Its
// own module, so that the store (labStore.ts), the slices, labEnv.ts and workerWatch.ts all import it
// and none imports the store: no import cycle among them.

import type { StateCreator } from 'zustand';
import type { TrainConfig } from '../core/grpo/config';
import type { GroupSample, Histogram } from '../core/grpo/metrics';
import type { GenerateStats, Task } from '../core/sim/tasks';
import type { Preference } from '../core/preference';
import type { LabWorkerClient } from '../worker/client';
import type {
  BackendInfo, BackendName, LabSettings, MetricPoint, PaperRow, PhaseReport, Push, Replacement, Tradeoff, UndoLabel,
} from '../worker/protocol';
import type { ChartRuns } from './chartRuns';
import type { PageActivity } from './workerText';
import type { MetricLog } from './series';
import type { UrlConfig } from './urlState';
import type { Notice, NoticeAction, NoticeTopic } from './notices';

/** zustand's set for the lab's state, as the slices' helpers take it. */
export type SetLab = (partial: Partial<LabState> | ((s: LabState) => Partial<LabState>)) => void;

/** One slice of the lab's state: its part, made with the whole store's set and get. */
export type LabSlice<Part> = StateCreator<LabState, [], [], Part>;

/** The policy as Export writes it, and the lab's iteration it was copied at. */
export interface WeightsCopy { json: object; weights: ArrayBuffer; iteration: number }

/** What the slices share that is no state: the worker and the page around them. */
export interface LabEnv {
  /** The training worker's client: started on first use, and afresh after one stopped (workerWatch.ts). */
  worker(): LabWorkerClient;
  /** Hands `listener` every push of this worker and of any started after it. */
  onPush(listener: (p: Push) => void): void;
  /** The latest copy of the policy the worker sent (null before the first): what a new worker goes on from. */
  lastCopy(): WeightsCopy | null;
  /** Says why a request failed, as a notice (not for a stopped worker: its watch says that, once). */
  fail(e: unknown): void;
  /** Writes the configuration into the address bar (classroom mode stays in the link). */
  syncUrl(): void;
  /** Sends the page's settings to the worker now, then re-evaluates; refused, the page goes back to workerSettings. */
  configure(): Promise<void>;
  /** Settles once boot (or a worker's restart) is done: an action clicked before waits for it. */
  booted(): Promise<void>;
  /** Makes the actions that wait for booted() wait until `work` has settled (boot; a restart). */
  holdActions(work: () => Promise<void>): Promise<void>;
  /** The charts' runs: the run id each command and push carries, and the curves kept for Undo (chartRuns.ts). */
  readonly runs: ChartRuns;
}

/** The settings: the URL's configuration and the controls' changes, sent to the worker (settingsSlice.ts). */
export interface SettingsSlice extends UrlConfig {
  delayMs: number;
  /** The settings the worker last accepted (what it runs); null before boot configured it. */
  workerSettings: LabSettings | null;
  setPreference(p: Preference): void;
  applyInstruction(name: string): void;
  setTrain(patch: Partial<TrainConfig>): void;
  setDelay(ms: number): void;
  /** Sends settings still waiting for their debounce now, and resolves once the worker has applied them. */
  flushSettings(): Promise<void>;
  /** Shows the trade-off view on another held-out distribution (the training one or a benchmark suite). */
  setEvalSuite(name: string): void;
  setCatalog(candidate: unknown): boolean;
  setPreset(name: string): void;
  shareLink(): string;
}

/** The run controls and the curves they move (runSlice.ts). */
export interface RunSlice {
  running: boolean;
  iteration: number;
  itPerS: number;
  series: MetricPoint[];
  /** Every iteration of the shown run, for the metrics export (the series above is thinned for the charts). */
  history: MetricLog;
  histogram: Histogram | null;
  group: GroupSample | null;
  /**
   * The last metric point of the curves at the last export or share (null: none). A policy whose curves
   * have gone past it (trained after it, or another policy trained here) would be lost by leaving the page.
   */
  savedPoint: MetricPoint | null;
  /** The iteration whose weights "Restore best policy" puts back, and what Undo would bring back (null: none). */
  bestIteration: number | null;
  undoLabel: UndoLabel | null;
  /** What the worker is doing now, as it says it (training, idle, …; the words: workerText.ts). */
  workerActivity: PageActivity;
  start(): void;
  pause(): void;
  toggleRun(): void;
  stepOnce(): Promise<void>;
  reset(): Promise<void>;
  restoreBest(): Promise<void>;
  undo(): Promise<void>;
  exportMetrics(kind: 'csv' | 'json'): void;
}

/** The backend tfjs runs on in the worker (backendSlice.ts). */
export interface BackendSlice {
  backendInfo: BackendInfo | null;
  /** What a backend start or switch in progress is doing (shown at once in the badge), or null. */
  backendSwitch: string | null;
  /** Starts tfjs in the worker: the forced backend, else the cached measurement for this size, else a fresh probe. */
  startBackend(): Promise<void>;
  /** Forces a backend, or 'auto' (the cached measurement; `remeasure` runs the probe again). */
  setBackend(name: BackendName | 'auto', remeasure?: boolean): Promise<void>;
}

/**
 * Where the policy now training came from (the first screen says which one it continues); 'loading': the page
 * is starting and its first policy (the shipped one, or a link's) is on its way.
 */
export type PolicyOrigin = 'loading' | 'random' | 'scratch' | 'pretrained' | 'imported' | 'restored' | 'saved';

/** The first screen's ways to train and GRPO in slow motion (teachSlice.ts). */
export interface TeachSlice {
  policyOrigin: PolicyOrigin;
  /** The iterations the file of an imported (or the shipped) policy records it was trained for, null where it says none. */
  importedIterations: number | null;
  /** The phases run so far of the slow-motion iteration on screen (the last one is the current phase). */
  phases: PhaseReport[];
  /** True while the worker runs a phase. */
  phaseBusy: boolean;
  /** A fresh random policy from the seed, curves cleared, training started. */
  trainFromScratch(): Promise<void>;
  /** The shipped pretrained policy (loaded again if another one replaced it), curves cleared, training started. */
  continueFromPretrained(): Promise<void>;
  /** Slow motion: the next phase of the open iteration (opening one). */
  nextPhase(): Promise<void>;
  /** Leaves slow motion: an iteration whose update ran is finished and charted, else dropped. */
  closePhases(): Promise<void>;
  /** Forgets the phases on screen (the worker closed their iteration); a reply still in flight is ignored. */
  dropPhases(): void;
}

/** How a policy comes in (policyFileSlice.ts). */
export interface ImportOptions {
  /** No notice of its own (the caller says what happened). */
  quiet?: boolean;
  /** What replaces the policy, in the Undo label (default 'import'). */
  replacedBy?: Replacement;
  /** The iteration it goes on from (default 0). */
  resumeAt?: number;
  /** Its curves, put on the charts with it (a lab kept in this browser). */
  curves?: readonly MetricPoint[];
  /** Takes a refusal's reason instead of the "Import refused" notice; `damaged`: the files were refused (not a worker that stopped). */
  onRefused?: (why: string, damaged: boolean) => void;
}

/** The policy as files (policyFileSlice.ts). */
export interface PolicyFileSlice {
  exportWeights(): Promise<void>;
  /** The policy for other tools: orchestrator.safetensors, input-spec.json and forward.py (core/io/portable.ts). */
  exportPortable(): Promise<void>;
  /** Imports a policy (validated in the worker); false when it was refused, which changes nothing. */
  importWeights(json: File | Blob, weights: File | Blob, options?: ImportOptions): Promise<boolean>;
  loadPretrained(): Promise<boolean>;
}

export interface PolicyShare {
  /** The share file's text (always made). */
  file: string;
  /** The link with the policy in its fragment, or null when it does not fit (the note says why). */
  link: string | null;
  /** What was made, in a sentence (with the link's size). */
  note: string;
}

/** Sharing a lab with its policy (shareSlice.ts). */
export interface ShareSlice {
  /** Bundles the settings and the policy: the file always, a link when it fits; throws if the policy cannot export. */
  shareWithPolicy(): Promise<PolicyShare>;
  saveShareFile(text: string): void;
  /** Imports an `orchestra-lab-share.json`: its settings, then its policy; on any refusal both stay as they were. */
  importShareFile(file: Blob): Promise<boolean>;
  /** At boot, after the link's settings: imports its `#policy=` (true when it did), then takes it off the address. */
  bootPolicy(): Promise<boolean>;
}

/** The lab kept in this browser (keepSlice.ts). */
export interface KeepSlice {
  /** The iteration this browser last kept, and when; null before the first save. */
  browserSaved: { iteration: number; at: number } | null;
  /**
   * At boot: puts this browser's saved lab back when `allowed` (the page's link is the lab's own) and its settings
   * match; true when it did. A lab of this tab's that is not put back is kept: the tab then saves beside it.
   */
  restoreSaved(allowed: boolean): Promise<boolean>;
}

/** The trade-off view and the "Paper vs lab" table (evalSlice.ts). */
export interface EvalSlice {
  tradeoff: Tradeoff | null;
  /**
   * The policy changed (Reset, an import, a restore) since `tradeoff` was evaluated: its operating point is the old
   * policy's until the next evaluation.
   */
  tradeoffStale: boolean;
  evaluating: boolean;
  /** Re-evaluates the operating point at the sliders' P, and with `sweep` the whole preference sweep. */
  evaluate(sweep: boolean): Promise<void>;
  /** The latest "Paper vs lab" table and whether one is being computed. */
  paper: { rows: PaperRow[]; iteration: number; count: number } | null;
  paperBusy: boolean;
  /** Computes the "Paper vs lab" table for the current policy at the sliders' P. */
  computePaper(count?: number): Promise<void>;
  /** The policy's action probabilities on the fixed probe batch (tests and researchers). */
  probe(): Promise<number[]>;
}

/** The data browser's generated tasks (dataSlice.ts). */
export interface DataSlice {
  tasks: Task[];
  stats: GenerateStats | null;
  selected: number;
  dataSeed: number;
  regenerate(): Promise<void>;
  select(i: number): void;
  setDataSeed(seed: number): void;
}

/** The page's notices (noticeSlice.ts; their rules: notices.ts). */
export interface NoticeSlice {
  notices: Notice[];
  notify(kind: Notice['kind'], text: string, topic?: NoticeTopic, action?: NoticeAction): void;
  dismiss(id: number): void;
}

/** The page's start (bootSlice.ts). */
export interface BootSlice {
  boot(): Promise<void>;
}

export type LabState = SettingsSlice & RunSlice & BackendSlice & TeachSlice & PolicyFileSlice & ShareSlice & KeepSlice
  & EvalSlice & DataSlice & NoticeSlice & BootSlice;
