// The keep slice keeps the lab in this browser across a reload: each copy of the policy the worker
// sends is saved with the settings and the curves (browserSave.ts), at most every SAVE_EVERY_MS while
// training and at once otherwise; at boot a saved lab is put back (policy at its iteration, settings,
// curves) with a notice that offers "Start fresh". A link that carries other settings wins, and the
// notice says the saved lab is still there. Storage that refuses (quota, a private window) is said once.

import type { KeepSlice, LabEnv, LabSlice, LabState, WeightsCopy } from './labState';
import { forgetLab, loadLab, saveLab, type SavedLab } from './browserSave';
import { errorMessage } from '../core/errorMessage';
import { bytesBlob, jsonBlob } from './policyBlobs';
import { appendBounded } from './series';
import { readUrl, urlConfigOf, writeUrl } from './urlState';


const SAVE_EVERY_MS = 5000;
/** Past this many iterations of curves a save clones more on the page's thread: it comes less often, in proportion. */
const POINTS_PER_INTERVAL = 5000;

/** The settings as a saved lab records them (no view parameters: classroom mode is not a setting). */
const savedQuery = (s: LabState): string => writeUrl(urlConfigOf(s));

export const createKeepSlice = (env: LabEnv): LabSlice<KeepSlice> => (set, get) => {
  let last = -Infinity, timer: ReturnType<typeof setTimeout> | null = null, pending: WeightsCopy | null = null;
  let refused = false, saving = false;

  const save = async (copy: WeightsCopy) => {
    const s = get();
    const record: SavedLab = {
      version: 1, savedAt: Date.now(), query: savedQuery(s), iteration: copy.iteration, json: copy.json,
      weights: copy.weights.slice(0), // the copy stays the page's
      history: s.history.points.filter((p) => p.iteration <= copy.iteration),
    };
    saving = true;
    try {
      await saveLab(record);
      set({ browserSaved: { iteration: copy.iteration, at: record.savedAt } });
      refused = false;
    } catch (e) {
      if (!refused) {
        get().notify('warn', `This browser did not keep the lab (${errorMessage(e)}): a reload would `
          + 'start from the shipped policy. Export weights keeps this one.', 'storage');
      }
      refused = true;
    } finally {
      saving = false;
      last = performance.now();
    }
    if (pending) { const next = pending; pending = null; await save(next); }
  };

  /** Applies settings read from a link to the page and the worker. */
  const applySettings = async (query: string) => {
    set({ ...readUrl(query).config });
    env.syncUrl();
    await env.configure();
  };

  /** The lab as a first visit shows it; the policy it replaces is kept for Undo. */
  const startFresh = async () => {
    await forgetLab().catch(() => undefined);
    await applySettings('');
    if (!(await get().loadPretrained())) await get().reset();
  };

  /** A new copy of the policy from the worker: saved now, or when SAVE_EVERY_MS have passed while training. */
  env.onPush((p) => {
    if (p.type !== 'weights') return;
    const copy = { json: p.json, weights: p.weights, iteration: p.iteration };
    if (saving) { pending = copy; return; }
    const every = SAVE_EVERY_MS * Math.max(1, get().history.points.length / POINTS_PER_INTERVAL);
    const wait = get().running ? last + every - performance.now() : 0;
    if (timer) clearTimeout(timer);
    if (wait <= 0) { void save(copy); return; }
    timer = setTimeout(() => { timer = null; void save(copy); }, wait);
  });

  return {
    browserSaved: null,
    async restoreSaved() {
      let saved: SavedLab | null;
      try { saved = await loadLab(); } catch { return false; } // no storage here: nothing to restore
      if (!saved) return false;
      const here = savedQuery(get());
      const defaults = writeUrl(readUrl('').config);
      if (here !== saved.query && here !== defaults) {
        get().notify('info', `This browser keeps a lab trained for ${saved.iteration} iterations under other settings; `
          + "this link's settings are on show.", 'storage');
        return false;
      }
      if (here !== saved.query) await applySettings(saved.query);
      // Quietly: the notice below says what happened; the policy goes on from its iteration.
      const imported = await get().importWeights(jsonBlob(saved.json), bytesBlob(saved.weights),
        true, 'savedPolicy', saved.iteration);
      if (!imported) return false;
      const history = saved.history;
      set((s) => {
        s.history.append(history);
        return { series: appendBounded([], history), iteration: saved.iteration, policyOrigin: 'saved' };
      });
      const when = new Date(saved.savedAt).toLocaleString();
      get().notify('info', `Restored from this browser: the policy of iteration ${saved.iteration} (saved ${when}), its `
        + 'settings and curves.', 'policy', { label: 'Start fresh', run: () => void startFresh() });
      return true;
    },
  };
};
