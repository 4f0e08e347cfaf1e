// The lab kept in this browser, so a reload does not drop a trained policy back to the shipped one:
// the page's copy of the policy (the export's orchestrator.json and float32 weights, with its
// iteration), the settings as the link writes them, and every iteration of the curves. In IndexedDB
// (one record, replaced on each save). tfjs's own indexeddb:// handler lives in tfjs-core, which only
// the worker loads; the page owns the copy, the settings and the curves, so it writes them itself.

import type { MetricPoint } from '../worker/protocol';

export interface SavedLab {
  version: 1;
  savedAt: number;
  /** The settings as writeUrl writes them ('' = the defaults). */
  query: string;
  iteration: number;
  json: object;
  weights: ArrayBuffer;
  history: MetricPoint[];
}

const DB = 'orchestra-lab';
const STORE = 'saved';
const KEY = 'current';

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    if (typeof indexedDB === 'undefined') { reject(new Error('this browser offers no IndexedDB')); return; }
    const r = indexedDB.open(DB, 1);
    r.onupgradeneeded = () => { r.result.createObjectStore(STORE); };
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error ?? new Error('IndexedDB could not be opened'));
    r.onblocked = () => reject(new Error('IndexedDB is blocked by another tab'));
  });
}

async function run<T>(mode: IDBTransactionMode, f: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const req = f(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(req.result);
      tx.onerror = () => reject(tx.error ?? req.error ?? new Error('IndexedDB transaction failed'));
      tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
    });
  } finally {
    db.close();
  }
}

export const saveLab = async (s: SavedLab): Promise<void> => { await run('readwrite', (st) => st.put(s, KEY)); };
export const forgetLab = async (): Promise<void> => { await run('readwrite', (st) => st.delete(KEY)); };

/** The saved lab, or null when there is none; a record of another shape (damaged, another version) counts as none. */
export async function loadLab(): Promise<SavedLab | null> {
  const x = (await run('readonly', (st) => st.get(KEY))) as Partial<SavedLab> | undefined;
  if (!x || x.version !== 1 || typeof x.query !== 'string' || !Number.isInteger(x.iteration) || (x.iteration as number) < 0
    || !(x.weights instanceof ArrayBuffer) || typeof x.json !== 'object' || x.json === null || !Array.isArray(x.history)) return null;
  return x as SavedLab;
}
