// The settings slice: the configuration the link opened with (it lives in the URL: urlState.ts), the
// controls that change it, each change written to the address bar at once and sent to the worker after
// a short debounce (LabEnv.configure), and the settings the worker accepted (workerSettings).

import { INSTRUCTION_PRESETS } from '../core/instructionPresets';
import { parseCatalog } from '../core/sim/catalogSchema';
import { presetCatalog } from '../core/sim/presets';
import type { LabSettings } from '../worker/protocol';
import { catalogErrorText } from './catalogErrorText';
import type { LabEnv, LabSlice, LabState, SettingsSlice } from './labState';
import { withoutTopic } from './notices';
import { openedLink } from './openedLink';
import { linkTooLong, urlConfigOf } from './urlState';

/** The end of a refused catalog edit's notice. */
const CATALOG_REFUSED = ' — the catalog was not changed.';
/** A control's change waits this long for the next before the worker gets the settings. */
const CONFIGURE_DEBOUNCE_MS = 120;

/** The page's settings, as the worker takes them. */
export const settingsOf = (s: LabState): LabSettings =>
  ({ catalog: s.catalog, train: s.train, delayMs: s.delayMs, evalTasks: s.evalTasks, evalSuite: s.evalSuite });

/** After the worker swapped in a policy of another shape (an import, Restore best, Undo): it runs the page's now. */
export const adoptShape = (s: LabState): Pick<LabState, 'workerSettings'> => ({ workerSettings: s.workerSettings
  && { ...s.workerSettings, train: { ...s.workerSettings.train, policy: s.train.policy } } });

export const createSettingsSlice = (env: LabEnv): LabSlice<SettingsSlice> => (set, get) => {
  let configureTimer: ReturnType<typeof setTimeout> | null = null;
  const configureSoon = () => {
    env.syncUrl();
    if (configureTimer) clearTimeout(configureTimer);
    configureTimer = setTimeout(() => void env.configure().catch(env.fail), CONFIGURE_DEBOUNCE_MS);
  };
  return {
    ...openedLink().config,
    delayMs: 0,
    workerSettings: null,
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
      await env.configure().catch(env.fail);
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
    shareLink() {
      env.syncUrl();
      const tooLong = linkTooLong(urlConfigOf(get()));
      if (tooLong) throw new Error(`No link copied: ${tooLong}.`);
      return location.href;
    },
  };
};
