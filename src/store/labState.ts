// The page's state as one type, and the setter every action module is given: its own module, so
// that the store (labStore.ts) and its action modules (*Actions.ts, workerWatch.ts, keepInBrowser.ts)
// all import it and none imports the store: no import cycle among them.

import type { TrainConfig } from '../core/grpo/config';
import type { GroupSample, Histogram } from '../core/grpo/metrics';
import type { GenerateStats, Task } from '../core/sim/tasks';
import type { Preference } from '../core/preference';
import type { BackendInfo, BackendName, MetricPoint, PaperRow, PhaseReport, Replacement, Tradeoff, UndoLabel } from '../worker/protocol';
import type { PageActivity } from './workerText';
import type { MetricLog } from './series';
import type { UrlConfig } from './urlState';
import type { Notice, NoticeAction, NoticeTopic } from './notices';

/** zustand's set for the lab's state, as every action module takes it. */
export type SetLab = (partial: Partial<LabState> | ((s: LabState) => Partial<LabState>)) => void;

export interface PolicyShare {
  /** The share file's text (always made). */
  file: string;
  /** The link with the policy in its fragment, or null when it does not fit (the note says why). */
  link: string | null;
  /** What was made, in a sentence (with the link's size). */
  note: string;
}

export interface ShareActions {
  /** Bundles the settings and the current policy: the file always, a link when it fits. Throws when the policy cannot be exported. */
  shareWithPolicy(): Promise<PolicyShare>;
  saveShareFile(text: string): void;
  /** Imports an `orchestra-lab-share.json`: its settings, then its policy; on any refusal both stay as they were. */
  importShareFile(file: Blob): Promise<boolean>;
}

/** Where the policy now training came from (the first screen says which one it continues). */
/** 'loading': the page is starting and its first policy (the shipped one, or a link's) is on its way. */
export type PolicyOrigin = 'loading' | 'random' | 'scratch' | 'pretrained' | 'imported' | 'restored' | 'saved';

export interface TeachState {
  policyOrigin: PolicyOrigin;
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

export interface LabState extends UrlConfig, ShareActions, TeachState {
  delayMs: number;
  backendInfo: BackendInfo | null;
  /** The iteration whose weights "Restore best policy" puts back, and what Undo would bring back (null: none). */
  bestIteration: number | null;
  undoLabel: UndoLabel | null;
  /** What the worker is doing now, as it says it (training, idle, …; the words: workerText.ts). */
  workerActivity: PageActivity;
  restoreBest(): Promise<void>;
  undo(): Promise<void>;
  /** What a backend start or switch in progress is doing (shown at once in the badge), or null. */
  backendSwitch: string | null;
  running: boolean;
  iteration: number;
  /**
   * The last metric point of the curves at the last export or share (null: none). A policy whose curves
   * have gone past it (trained after it, or another policy trained here) would be lost by leaving the page.
   */
  savedPoint: MetricPoint | null;
  /** The iteration this browser last kept (keepInBrowser.ts), and when; null before the first save. */
  browserSaved: { iteration: number; at: number } | null;
  itPerS: number;
  series: MetricPoint[];
  /** Every iteration of the shown run, for the metrics export (the series above is thinned for the charts). */
  history: MetricLog;
  histogram: Histogram | null;
  group: GroupSample | null;
  tradeoff: Tradeoff | null;
  /** The policy changed (Reset, an import, a restore) since `tradeoff` was evaluated: its operating point is the old policy's until the next evaluation. */
  tradeoffStale: boolean;
  /** The latest "Paper vs lab" table and whether one is being computed. */
  paper: { rows: PaperRow[]; iteration: number; count: number } | null;
  paperBusy: boolean;
  evaluating: boolean;
  notices: Notice[];
  tasks: Task[];
  stats: GenerateStats | null;
  selected: number;
  dataSeed: number;
  boot(): Promise<void>;
  start(): void;
  pause(): void;
  toggleRun(): void;
  stepOnce(): Promise<void>;
  reset(): Promise<void>;
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
  /** Forces a backend, or 'auto' (the cached measurement; `remeasure` runs the probe again). */
  setBackend(name: BackendName | 'auto', remeasure?: boolean): Promise<void>;
  exportWeights(): Promise<void>;
  /** `replacedBy`: what replaces the current policy, in the Undo label (default 'import'); `resumeAt`: the iteration it goes on from. */
  importWeights(json: File | Blob, weights: File | Blob, quiet?: boolean, replacedBy?: Replacement, resumeAt?: number): Promise<boolean>;
  loadPretrained(): Promise<boolean>;
  exportMetrics(kind: 'csv' | 'json'): void;
  shareLink(): string;
  /** The policy's action probabilities on the fixed probe batch (tests and researchers). */
  probe(): Promise<number[]>;
  /** Computes the "Paper vs lab" table for the current policy at the sliders' P. */
  computePaper(count?: number): Promise<void>;
  notify(kind: Notice['kind'], text: string, topic?: NoticeTopic, action?: NoticeAction): void;
  dismiss(id: number): void;
  regenerate(): Promise<void>;
  select(i: number): void;
  setDataSeed(seed: number): void;
}
