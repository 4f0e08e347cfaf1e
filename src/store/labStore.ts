// The page's state (zustand) and its actions. The configuration lives in the URL (urlState.ts);
// every action that changes it sends the settings to the worker, which owns training and
// evaluation. This file only holds results and routes intent — no training maths here.

import { catalogErrorText } from './catalogErrorText';
import { create } from 'zustand';
import { DEFAULT_TRAIN } from '../core/grpo/config';
import { noCurves } from './chartRuns';
import { runActions } from './runActions';
import { parseCatalog } from '../core/sim/catalogSchema';
import { presetCatalog } from '../core/sim/presets';
import { LabWorkerClient, WorkerStoppedError } from '../worker/client';
import { workerWatch } from './workerWatch';
import type { LabSettings } from '../worker/protocol';
import { INSTRUCTION_PRESETS } from '../core/instructionPresets';
import { metricsCsv, MetricLog } from './series';
import { linkTooLong, readUrl, readView, urlConfigOf, writeUrl } from './urlState';
import { saveFile } from './saveFile';
import { backendActions } from './backendActions';
import { teachActions } from './teachActions';
import { policyFileActions } from './policyFileActions';
import { shareActions } from './shareActions';
import { withoutPolicyParam } from '../core/io/shareBundle';
import { describeSettingsChange } from './settingsChange';
import { keepInBrowser } from './keepInBrowser';
import { forgetLab } from './browserSave';
import { withNotice, withoutTopic } from './notices';
import { errorText, keptText } from './workerText';

/** The end of a refused catalog edit's notice. */
const CATALOG_REFUSED = ' — the catalog was not changed.';
export type { Notice, NoticeTopic } from './notices';
export type { LabState } from './labState';
import type { LabState } from './labState';


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
    if (!(e instanceof WorkerStoppedError)) get().notify('error', errorText(e));
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
    c.onPush((p) => { if (p.type === 'weights') keeper.onCopy({ json: p.json, weights: p.weights, iteration: p.iteration }); });
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
  const keeper = keepInBrowser(set, get, {
    async applySettings(query) {
      set({ ...readUrl(query).config });
      syncUrl();
      await configureNow();
    },
    importAt: (json, weights, at) => get().importWeights(new Blob([JSON.stringify(json)]), new Blob([weights]), true, 'savedPolicy', at),
    // The lab as a first visit shows it; the policy it replaces is kept for Undo.
    async startFresh() {
      await forgetLab().catch(() => undefined);
      set({ ...readUrl('').config });
      syncUrl();
      await configureNow();
      if (!(await get().loadPretrained())) await get().reset();
    },
  });

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
      get().notify('error', `Not applied: ${(e as Error).message}. The lab goes on with the settings it had.`, 'settings');
      return;
    }
    const before = accepted;
    accepted = settings;
    const said = before && describeSettingsChange(before, settings, get().iteration);
    if (said) get().notify('info', said, 'settings');
    const changed = r.type === 'configured' ? r.changed : [];
    if (changed.includes('phases')) get().dropPhases(); // the worker closed a slow-motion iteration the new settings no longer fit
    // A new network (width, depth or seed changed): its counter starts at 0, with curves of its own;
    // a trained policy it replaced is kept for Undo, with its curves.
    if (changed.includes('policy')) set({ ...(changed.includes('undo') ? run.keepForUndo() : noCurves()), iteration: 0,
      policyOrigin: 'random', tradeoffStale: true });
    if (r.type === 'configured') set({ bestIteration: r.bestIteration, undoLabel: r.undo });
    if (r.type === 'configured' && changed.includes('undo') && r.undo) get().notify('info',
      `A new network for the new shape or seed: ${keptText(r.undo)} is kept — Undo brings it back.`, 'policy');
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
  /** The link's fragment as the page opened (share code takes #policy= out of the address bar). */
  const openedHash = typeof location === 'undefined' ? '' : location.hash;
  const initial = readUrl(typeof location === 'undefined' ? '' : location.search,
    typeof location === 'undefined' ? '' : withoutPolicyParam(location.hash)); // a link's #policy= is share.bootPolicy's
  return {
    ...initial.config,
    ...teach,
    delayMs: 0,
    backendInfo: null,
    backendSwitch: null,
    bestIteration: null,
    undoLabel: null,
    workerActivity: { code: 'starting' },
    running: false,
    iteration: 0,
    savedPoint: null,
    browserSaved: null,
    itPerS: 0,
    series: [],
    history: new MetricLog(),
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
        const linked = await share.bootPolicy();
        // A link that carries a fragment (#catalog=, #policy=) or settings the lab ignored is someone's
        // lab: this browser's saved one is not put back over it.
        const ownLink = openedHash.length <= 1 && !initial.invalid.length && !initial.unknown.length;
        if (!linked && !(ownLink && (await keeper.restore())) && t.width === 64 && t.depth === 2) await get().loadPretrained();
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
        get().notify('error', `${catalogErrorText(r.error, candidate)}${CATALOG_REFUSED}`, 'catalog');
        return false;
      }
      const ids = new Set(r.value.tools.map((t) => t.id));
      const p = get().train.preference;
      // An edit that applies ends any refusal on show: it is about an entry no longer there.
      set((s) => ({ catalog: r.value, train: { ...s.train,
        preference: { ...p, tools: Object.fromEntries(Object.entries(p.tools).filter(([id]) => ids.has(id))) } },
        notices: withoutTopic(s.notices, 'catalog') }));
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
      const series = get().history.points; // every iteration (the charts' series is thinned past its cap)
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
    notify(kind, text, topic, action) {
      set((s) => ({ notices: withNotice(s.notices, { id: noticeId++, kind, text, ...(topic ? { topic } : {}), ...(action ? { action } : {}) }) }));
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
