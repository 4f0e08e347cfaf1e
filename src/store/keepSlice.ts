// The keep slice keeps the lab in this browser across a reload: each copy of the policy the worker
// sends is saved with the settings and the curves (browserSave.ts, one record per tab), at most every
// SAVE_EVERY_MS while training and at once otherwise. Nothing is saved until boot is done, so a lab
// is put back whole (policy at its iteration, settings, curves) before any save can write a part of
// it. A link that carries other settings (or a lab of its own) wins: the saved lab stays, and the tab
// saves beside it. A record the page cannot read, or a newer lab's, is said in words and never written
// over. Storage that refuses (quota, a private window) is said once.

import type { KeepSlice, LabEnv, LabSlice, LabState, WeightsCopy } from './labState';
import { findLab, forgetLab, recordText, saveLab, setAside, type FoundLab } from './browserSave';
import { SAVED_VERSION, type SavedLab } from './savedLab';
import { claimTabId, renewTabId } from './tabIdentity';
import { errorMessage } from '../core/errorMessage';
import { bytesBlob, jsonBlob } from './policyBlobs';
import { saveFile } from './saveFile';
import { readUrl, urlConfigOf, writeUrl } from './urlState';

const SAVE_EVERY_MS = 5000;
/** Past this many iterations of curves a save clones more on the page's thread: it comes less often, in proportion. */
const POINTS_PER_INTERVAL = 5000;

/** The settings as a saved lab records them (no view parameters: classroom mode is not a setting). */
const savedQuery = (s: LabState): string => writeUrl(urlConfigOf(s));

/** "of iteration 6, saved 07/12/2026, 18:40:02" as far as a record says. */
const whatWasSaved = (f: { iteration: number | null; savedAt: number | null }): string =>
  [f.iteration !== null ? `trained for ${f.iteration} iterations` : null,
    f.savedAt !== null ? `saved ${new Date(f.savedAt).toLocaleString()}` : null].filter(Boolean).join(', ');

export const createKeepSlice = (env: LabEnv): LabSlice<KeepSlice> => (set, get) => {
  let last = -Infinity, timer: ReturnType<typeof setTimeout> | null = null, latest: WeightsCopy | null = null;
  let refused = false, saving = false;
  let tab = claimTabId();

  const save = async (copy: WeightsCopy) => {
    const s = get();
    const record: SavedLab = {
      version: SAVED_VERSION, savedAt: Date.now(), query: savedQuery(s), iteration: copy.iteration, json: copy.json,
      weights: copy.weights.slice(0), // the copy stays the page's
      history: s.history.points.filter((p) => p.iteration <= copy.iteration),
    };
    saving = true;
    try {
      await saveLab(await tab, record);
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
    schedule();
  };

  /** Saves the latest copy now, or when SAVE_EVERY_MS have passed since the last save while training. */
  const schedule = () => {
    const copy = latest;
    if (!copy || saving) return; // a save in flight takes the latest copy after it
    const every = SAVE_EVERY_MS * Math.max(1, get().history.points.length / POINTS_PER_INTERVAL);
    const wait = get().running ? last + every - performance.now() : 0;
    if (timer) clearTimeout(timer);
    timer = null;
    if (wait > 0) { timer = setTimeout(schedule, wait); return; }
    latest = null;
    void save(copy);
  };

  /** A new copy of the policy from the worker: kept once boot is done (a saved lab is back whole by then). */
  env.onPush((p) => {
    if (p.type !== 'weights') return;
    latest = { json: p.json, weights: p.weights, iteration: p.iteration };
    void env.booted().then(schedule);
  });

  /** Applies settings read from a link to the page and the worker. */
  const applySettings = async (query: string) => {
    set({ ...readUrl(query).config });
    env.syncUrl();
    await env.configure();
  };

  /** The lab as a first visit shows it; the policy it replaces is kept for Undo. */
  const startFresh = async () => {
    await forgetLab(await tab).catch(() => undefined);
    await applySettings('');
    if (!(await get().loadPretrained())) await get().reset();
  };

  /** "Download it": the record as it is stored, for the user to keep or send with a bug report. */
  const offerDownload = (key: string) => ({ label: 'Download it', run: () => void recordText(key).then((text) => {
    if (text !== null) saveFile('orchestra-lab-saved-record.json', text, 'application/json');
  }) });

  /** A record this page cannot use: moved aside as it is (never written over) and said in words. */
  const putAside = async (found: FoundLab, what: string) => {
    let where: string;
    try { where = await setAside(found.key); } catch (e) {
      get().notify('warn', `${what} It could not be moved aside (${errorMessage(e)}).`, 'storage');
      return;
    }
    get().notify('warn', `${what} It was set aside in this browser as it was, not written over, and the lab `
      + 'starts afresh; this tab keeps its own lab from now on.', 'storage', offerDownload(where));
  };

  /** This tab's own record, not put back, stays as it is: the tab saves under a new id from now on. */
  const keepBeside = (found: FoundLab) => { if (found.ownTab) tab = renewTabId(); };

  /** Puts a saved lab back whole: its settings, its policy at its iteration, its curves; said in a notice. */
  const putBack = async (found: FoundLab & { kind: 'lab' }): Promise<boolean> => {
    const { lab, droppedPoints } = found;
    if (savedQuery(get()) !== lab.query) await applySettings(lab.query);
    // Quietly: the notice below says what happened; the policy goes on from its iteration, with its curves.
    let why = '', damaged = false;
    const imported = await get().importWeights(jsonBlob(lab.json), bytesBlob(lab.weights), { quiet: true,
      replacedBy: 'savedPolicy', resumeAt: lab.iteration, curves: lab.history,
      onRefused: (w, d) => { why = w.replace(/\.$/, ''); damaged = d; } });
    if (!imported && damaged) {
      await putAside(found, `The lab saved in this browser (${whatWasSaved(lab)}) could not be put back: its policy `
        + `did not load (${why}).`);
      return false;
    }
    if (!imported) {
      // Not the record's fault (the worker stopped): it stays for the next reload.
      keepBeside(found);
      get().notify('warn', `The lab saved in this browser (${whatWasSaved(lab)}) could not be put back now (${why}); `
        + 'it is kept as it was: a reload tries again.', 'storage');
      return false;
    }
    set({ policyOrigin: 'saved' });
    const total = droppedPoints + lab.history.length;
    const dropped = droppedPoints ? ` ${droppedPoints} of its ${total} curve points could not be read and were left `
      + `out; the other ${lab.history.length} are back.` : '';
    const whose = found.ownTab ? '' : ' It is the newest lab this browser keeps; this tab keeps its own from now on.';
    get().notify('info', `Restored from this browser: the policy of iteration ${lab.iteration} (saved `
      + `${new Date(lab.savedAt).toLocaleString()}), its settings and curves.${dropped}${whose}`, 'policy',
    { label: 'Start fresh', run: () => void startFresh() });
    return true;
  };

  return {
    browserSaved: null,
    async restoreSaved(allowed) {
      let found: FoundLab | null;
      try { found = await findLab(await tab); } catch { return false; } // no storage here: nothing to restore
      if (!found) return false;
      if (!allowed) {
        keepBeside(found); // the link's lab is on show and is saved beside this tab's own, which stays as it was
        return false;
      }
      if (found.kind === 'newer') {
        // Left where it is, for the newer lab; this tab keeps its own beside it.
        keepBeside(found);
        get().notify('warn', `This browser keeps a lab saved by a newer version of Orchestra Lab (its record is version `
          + `${found.version}; this page reads version ${SAVED_VERSION})${found.iteration !== null ? `, ${whatWasSaved(found)}` : ''}. `
          + 'This page leaves it as it is and keeps its own lab beside it: open the newer version of the lab to get it back.',
        'storage');
        return false;
      }
      if (found.kind === 'unreadable') {
        const said = whatWasSaved(found);
        await putAside(found, `This browser held a saved lab${said ? ` (${said})` : ''} that this page cannot read: ${found.why}.`);
        return false;
      }
      const here = savedQuery(get());
      if (here !== found.lab.query && here !== writeUrl(readUrl('').config)) {
        keepBeside(found); // kept as it was, and a click away
        const lab = found;
        get().notify('info', `This browser keeps a lab trained for ${found.lab.iteration} iterations under other `
          + "settings; this link's settings are on show.", 'storage', { label: 'Open it', run: () => void putBack(lab) });
        return false;
      }
      return putBack(found);
    },
  };
};
