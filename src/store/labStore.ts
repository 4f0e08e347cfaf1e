// The page's state (zustand) and its actions. The configuration lives in the URL (urlState.ts);
// every action that changes it sends the settings to the worker, which owns training and
// evaluation. This file only holds results and routes intent — no training maths here.

import { catalogErrorText } from './catalogErrorText';
import { create } from 'zustand';
import { DEFAULT_TRAIN, type TrainConfig } from '../core/grpo/config';
import type { GroupSample, Histogram } from '../core/grpo/metrics';
import { NO_CURVES } from './chartRuns';
import { runActions } from './runActions';
import { parseCatalog } from '../core/sim/catalogSchema';
import { presetCatalog } from '../core/sim/presets';
import type { GenerateStats, Task } from '../core/sim/tasks';
import type { Preference } from '../core/preference';
import { LabWorkerClient, WorkerStoppedError } from '../worker/client';
import { workerWatch } from './workerWatch';
import type { BackendInfo, BackendName, LabSettings, MetricPoint, PaperRow, Tradeoff } from '../worker/protocol';
import { INSTRUCTION_PRESETS } from '../core/instructionPresets';
import { metricsCsv } from './series';
import { linkTooLong, readUrl, readView, urlConfigOf, writeUrl, type UrlConfig } from './urlState';
import { saveFile } from './saveFile';
import { backendActions } from './backendActions';
import { teachActions, type TeachState } from './teachActions';
import { policyFileActions } from './policyFileActions';
import { shareActions, type ShareActions } from './shareActions';
import { withoutPolicyParam } from '../core/io/shareBundle';

/** The end of a refused catalog edit's notice (one is shown at a time). */
const CATALOG_REFUSED = ' — the catalog was not changed.';
/** The notices without a catalog edit's refusal: one is on show at a time, and an edit that applies ends it. */
const withoutCatalogRefusal = (notices: LabState['notices']): LabState['notices'] => notices.filter((n) => !n.text.endsWith(CATALOG_REFUSED));

/** `aboutPolicy`: true of the current policy only (cleared when Reset replaces it). */
export interface Notice { id: number; kind: 'info' | 'warn' | 'error'; text: string; aboutPolicy?: boolean }

export interface LabState extends UrlConfig, ShareActions, TeachState {
  delayMs: number;
  backendInfo: BackendInfo | null;
  /** The iteration whose weights "Restore best policy" puts back, and what Undo would bring back (null: none). */
  bestIteration: number | null;
  undoLabel: string | null;
  /** What the worker is doing now, as it says it ("training", "idle", …). */
  workerActivity: string;
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
  itPerS: number;
  series: MetricPoint[];
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
  /** `replacedBy`: what replaces the current policy, in the Undo label (default "the import"). */
  importWeights(json: File | Blob, weights: File | Blob, quiet?: boolean, replacedBy?: string): Promise<boolean>;
  loadPretrained(): Promise<boolean>;
  exportMetrics(kind: 'csv' | 'json'): void;
  shareLink(): string;
  /** The policy's action probabilities on the fixed probe batch (tests and researchers). */
  probe(): Promise<number[]>;
  /** Computes the "Paper vs lab" table for the current policy at the sliders' P. */
  computePaper(count?: number): Promise<void>;
  notify(kind: Notice['kind'], text: string, aboutPolicy?: boolean): void;
  dismiss(id: number): void;
  regenerate(): Promise<void>;
  select(i: number): void;
  setDataSeed(seed: number): void;
}

/** Called when the user starts the main run (a comparison stops then: both would share the cores). */
const startListeners: (() => void)[] = [];
export const onRunStart = (f: () => void): void => { startListeners.push(f); };

let client: LabWorkerClient | null = null;
let noticeId = 1;
let configureTimer: ReturnType<typeof setTimeout> | null = null;
let evalGeneration = 0;
/** The settings the worker last accepted (what it is running). */
let accepted: LabSettings | null = null;
/**
 * Settles when boot has measured the backends, configured the worker and loaded the starting
 * policy. A training action clicked before (the buttons are there at once) waits for it instead
 * of reaching an unconfigured worker, and is not overwritten by boot's pretrained policy.
 */
let markBooted: () => void = () => undefined;
let booted = new Promise<void>((resolve) => { markBooted = resolve; });

function settingsOf(s: LabState): LabSettings {
  return { catalog: s.catalog, train: s.train, delayMs: s.delayMs, evalTasks: s.evalTasks, evalSuite: s.evalSuite };
}

export const useLab = create<LabState>((set, get) => {
  const syncUrl = () => {
    const s = get();
    const q = writeUrl(urlConfigOf(s), readView(location.search)); // classroom mode stays in the link
    history.replaceState(null, '', `${location.pathname}${q}`);
  };
  // A request the stopped worker could not answer: the watch says what happened, once (workerWatch.ts).
  const fail = (e: unknown) => {
    if (!(e instanceof WorkerStoppedError)) get().notify('error', (e as Error).message ?? String(e));
  };
  const worker = (): LabWorkerClient => (client ??= newClient());
  const newClient = (): LabWorkerClient => {
    const c: LabWorkerClient = new LabWorkerClient({
      silenceLimitMs: () => watch.silenceLimitMs(),
      onStopped: (why) => watch.stopped(c, why),
      onError: (text) => get().notify('error', text),
    });
    c.onPush(run.onPush);
    c.onPush(watch.onPush);
    return c;
  };
  /** After the worker swapped in a policy of another shape: what it runs now has that shape. */
  const adoptShape = () => { if (accepted) accepted = { ...accepted, train: { ...accepted.train, policy: get().train.policy } }; };
  const run = runActions(set, get, worker, {
    fail,
    booted: () => booted,
    onStart: () => { for (const f of startListeners) f(); },
    adoptShape: () => { adoptShape(); syncUrl(); },
    configure: () => configureNow(),
  });
  const backend = backendActions(set, get, worker, { syncUrl, fail });
  const watch = workerWatch(set, get, {
    worker,
    forget: (stopped) => { if (client === stopped) client = null; },
    startBackend: () => backend.start(),
    settings: () => accepted ?? settingsOf(get()),
    evaluate: (sweep) => evaluate(sweep),
    async reboot(work) {
      booted = new Promise<void>((resolve) => { markBooted = resolve; });
      try { await work(); } finally { markBooted(); }
    },
  });
  const policyFiles = policyFileActions(set, get, worker, {
    fail,
    copy: () => watch.copy(),
    syncUrl,
    evaluate: (sweep) => evaluate(sweep),
    adoptShape,
    replaceCurves: run.replaceCurves,
  });
  const teach = teachActions(set, get, worker, { runId: run.currentRun, fail, booted: () => booted });
  const share = shareActions(set, get, worker, { syncUrl, configure: () => configureNow() });

  /** Sends the settings now, then re-evaluates the operating point (and the sweep if the policy or tasks changed). */
  const configureNow = async () => {
    const settings = settingsOf(get());
    let r;
    try {
      r = await worker().request({ type: 'configure', settings });
    } catch (e) {
      // Refused by the worker: the page goes back to what the worker runs, so the two never disagree.
      if (accepted) {
        set({ catalog: accepted.catalog, train: accepted.train, delayMs: accepted.delayMs, evalTasks: accepted.evalTasks, evalSuite: accepted.evalSuite });
        syncUrl();
      }
      get().notify('error', `Not applied: ${(e as Error).message}. The lab goes on with the settings it had.`);
      return;
    }
    accepted = settings;
    const changed = r.type === 'configured' ? r.changed : [];
    if (changed.includes('phases')) get().dropPhases(); // the worker closed a slow-motion iteration the new settings no longer fit
    // A new network (width, depth or seed changed): its counter starts at 0, with curves of its own;
    // a trained policy it replaced is kept for Undo, with its curves.
    if (changed.includes('policy')) set({ ...(changed.includes('undo') ? run.keepForUndo() : NO_CURVES), iteration: 0, policyOrigin: 'random', tradeoffStale: true });
    if (r.type === 'configured') set({ bestIteration: r.bestIteration, undoLabel: r.undo });
    if (r.type === 'configured' && changed.includes('undo') && r.undo) get().notify('info', `A new network for the new shape or seed: ${r.undo} is kept — Undo brings it back.`);
    await evaluate(changed.some((c) => c === 'policy' || c === 'tasks' || c === 'baselines'));
  };
  const configureSoon = () => {
    syncUrl();
    if (configureTimer) clearTimeout(configureTimer);
    configureTimer = setTimeout(() => void configureNow().catch(fail), 120);
  };
  const evaluate = async (sweep: boolean) => {
    const mine = ++evalGeneration;
    set({ evaluating: true });
    try {
      const r = await worker().request({ type: 'evaluate', preference: get().train.preference, sweep });
      if (mine === evalGeneration && r.type === 'tradeoff') set({ tradeoff: r.tradeoff, tradeoffStale: false });
    } finally {
      if (mine === evalGeneration) set({ evaluating: false });
    }
  };
  const initial = readUrl(typeof location === 'undefined' ? '' : location.search, typeof location === 'undefined' ? '' : withoutPolicyParam(location.hash)); // a link's #policy= is share.bootPolicy's
  return {
    ...initial.config,
    ...teach,
    delayMs: 0,
    backendInfo: null,
    backendSwitch: null,
    bestIteration: null,
    undoLabel: null,
    workerActivity: 'starting',
    running: false,
    iteration: 0,
    savedPoint: null,
    itPerS: 0,
    series: [],
    histogram: null,
    group: null,
    tradeoff: null,
    tradeoffStale: false,
    paper: null,
    paperBusy: false,
    evaluating: false,
    notices: initial.invalid.length || initial.unknown.length
      ? [{ id: noticeId++, kind: 'warn', text: [
        ...(initial.invalid.length ? [`Ignored invalid link settings (${initial.refusals.join('; ')}); using the defaults for those.`] : []),
        ...(initial.unknown.length ? [`Ignored link parameters the lab does not know (${initial.unknown.join(', ')}).`] : []),
      ].join(' ') }]
      : [],
    tasks: [],
    stats: null,
    selected: 0,
    dataSeed: 1,

    async boot() {
      try {
        await backend.start();
        try {
          await worker().request({ type: 'configure', settings: settingsOf(get()) });
        } catch (e) {
          // A link whose sizes the lab refuses (e.g. past the memory bound): say why, boot with the default sizes.
          const d = structuredClone(DEFAULT_TRAIN);
          set((s) => ({ train: { ...s.train, batchTasks: d.batchTasks, groupSize: d.groupSize, sim: d.sim, policy: d.policy } }));
          syncUrl();
          get().notify('error', `The link's settings were not applied: ${(e as Error).message.replace(/\.$/, '')}. Using the default sizes instead.`);
          await worker().request({ type: 'configure', settings: settingsOf(get()) });
        }
        accepted = settingsOf(get());
        const t = get().train.policy;
        if (!(await share.bootPolicy()) && t.width === 64 && t.depth === 2) await get().loadPretrained();
        if (get().policyOrigin === 'loading') set({ policyOrigin: 'random' }); // no shipped policy for this size, or it could not load
        markBooted();
        await evaluate(true);
      } catch (e) {
        fail(e);
      } finally {
        if (get().policyOrigin === 'loading') set({ policyOrigin: 'random' });
        markBooted(); // a failed boot says why; the actions then say what they meet
      }
      void get().regenerate();
    },
    ...run.controls,
    setPreference(p) {
      set((s) => ({ train: { ...s.train, preference: p } }));
      configureSoon();
    },
    applyInstruction(name) {
      const preset = INSTRUCTION_PRESETS.find((x) => x.name === name);
      if (preset) get().setPreference(preset.preference(get().catalog));
    },
    setTrain(patch) {
      set((s) => ({ train: { ...s.train, ...patch } }));
      configureSoon();
    },
    setDelay(ms) {
      set({ delayMs: ms });
      configureSoon();
    },
    async flushSettings() {
      if (!configureTimer) return;
      clearTimeout(configureTimer);
      configureTimer = null;
      await configureNow().catch(fail);
    },
    setEvalSuite(name) {
      set({ evalSuite: name, tradeoff: null });
      configureSoon();
    },
    setCatalog(candidate) {
      const r = parseCatalog(candidate);
      if (!r.ok) {
        // One refusal at a time: a newer one replaces the last instead of stacking up banners.
        set((s) => ({ notices: withoutCatalogRefusal(s.notices) }));
        get().notify('error', `${catalogErrorText(r.error, candidate)}${CATALOG_REFUSED}`);
        return false;
      }
      const ids = new Set(r.value.tools.map((t) => t.id));
      const p = get().train.preference;
      // An edit that applies ends any refusal on show: it is about an entry no longer there.
      set((s) => ({ catalog: r.value, train: { ...s.train, preference: { ...p, tools: Object.fromEntries(Object.entries(p.tools).filter(([id]) => ids.has(id))) } }, notices: withoutCatalogRefusal(s.notices) }));
      configureSoon();
      void get().regenerate();
      return true;
    },
    setPreset(name) {
      set({ preset: name });
      get().setCatalog(presetCatalog(name));
    },
    setBackend: backend.setBackend,
    ...share.actions,
    ...policyFiles,
    exportMetrics(kind) {
      const series = get().series;
      if (kind === 'csv') saveFile('orchestra-lab-metrics.csv', metricsCsv(series), 'text/csv');
      else saveFile('orchestra-lab-metrics.json', JSON.stringify(series), 'application/json');
    },
    async probe() {
      const r = await worker().request({ type: 'probe' });
      return r.type === 'probed' ? r.probabilities : [];
    },
    async computePaper(count = 200) {
      set({ paperBusy: true });
      try {
        const r = await worker().request({ type: 'paper', preference: get().train.preference, count });
        if (r.type === 'paper') set({ paper: { rows: r.rows, iteration: r.iteration, count: r.count } });
      } catch (e) {
        set({ paper: { rows: [], iteration: get().iteration, count } }); // shown empty with Recompute, not retried in a loop
        fail(e);
      } finally {
        set({ paperBusy: false });
      }
    },
    shareLink() {
      syncUrl();
      const tooLong = linkTooLong(urlConfigOf(get()));
      if (tooLong) throw new Error(`No link copied: ${tooLong}.`);
      return location.href;
    },
    notify(kind, text, aboutPolicy = false) {
      // The same notice again (e.g. Start pressed past the schedule's end) moves to the end instead of stacking.
      set((s) => ({ notices: [...s.notices.filter((n) => n.kind !== kind || n.text !== text).slice(-4), { id: noticeId++, kind, text, ...(aboutPolicy ? { aboutPolicy } : {}) }] }));
    },
    dismiss(id) {
      set((s) => ({ notices: s.notices.filter((n) => n.id !== id) }));
    },
    async regenerate() {
      const { catalog, dataSeed } = get();
      try {
        const r = await worker().request({ type: 'generate', catalog, seed: dataSeed, count: 120, availability: 0.75 });
        if (r.type === 'tasks' && get().catalog === catalog && get().dataSeed === dataSeed) set({ tasks: r.tasks, stats: r.stats });
      } catch (e) {
        fail(e);
      }
    },
    select(i) {
      set({ selected: i });
    },
    setDataSeed(seed) {
      set({ dataSeed: seed, selected: 0 });
      void get().regenerate();
    },
  };
});
