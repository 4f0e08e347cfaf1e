// The lab kept in this browser, so a reload does not drop a trained policy back to the shipped one:
// the page's copy of the policy (the export's orchestrator.json and float32 weights, with its
// iteration), the settings as the link writes them, and every iteration of the curves. In IndexedDB,
// one record per tab (`tab:<id>`, tabIdentity.ts): two tabs never write over each other's lab. A
// reload puts back its own tab's; a new tab the newest any tab kept. An index lists the records with
// their save times; the newest KEEP_TABS of this version are kept. A record the page cannot read is
// moved aside (`aside:<time>`, the newest KEEP_ASIDE kept), never written over; a newer lab's is left
// where it is. (tfjs's own indexeddb:// handler lives in tfjs-core, which only the worker loads: the
// page writes these itself.)

import { readStoredLab, SAVED_VERSION, type SavedLab, type StoredLab } from './savedLab';

const DB = 'orchestra-lab';
const STORE = 'saved';
/** Where every lab before the per-tab records kept its one record: read as a tab's. */
const LEGACY_KEY = 'current';
const INDEX_KEY = 'index';
/** The labs of this many tabs are kept (the newest); older ones of this version are deleted. */
export const KEEP_TABS = 6;
/** Records set aside are kept up to this many (the newest): each holds a whole lab. */
const KEEP_ASIDE = 3;

export const tabKey = (tab: string): string => `tab:${tab}`;
/** Save times of the tabs' records, by key. */
type Index = Record<string, number>;

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

/** Runs `f` in one transaction over the store; resolves with its result once the transaction has committed. */
async function run<T>(mode: IDBTransactionMode, f: (s: IDBObjectStore) => Promise<T>): Promise<T> {
  const db = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      let result: T;
      f(tx.objectStore(STORE)).then((r) => { result = r; }, (e: unknown) => {
        try { tx.abort(); } catch { /* already ended */ }
        reject(e);
      });
      tx.oncomplete = () => resolve(result);
      tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
      tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
    });
  } finally {
    db.close();
  }
}

/** One request's result, inside a transaction (chained requests keep it alive). */
const ask = <T>(r: IDBRequest<T>): Promise<T> => new Promise((resolve, reject) => {
  r.onsuccess = () => resolve(r.result);
  r.onerror = () => reject(r.error ?? new Error('IndexedDB request failed'));
});

async function readIndex(st: IDBObjectStore): Promise<Index> {
  const x = await ask(st.get(INDEX_KEY)) as unknown;
  const out: Index = {};
  if (x !== null && typeof x === 'object') {
    for (const [k, v] of Object.entries(x)) if (k.startsWith('tab:') && typeof v === 'number' && Number.isFinite(v)) out[k] = v;
  }
  return out;
}

/** A stored record, read and checked (savedLab.ts), with the key it is under. */
export type FoundLab = StoredLab & { key: string; ownTab: boolean };

/** This tab's record, else the newest any tab kept (or the one record of an earlier version of the lab); null when none. */
export async function findLab(tab: string): Promise<FoundLab | null> {
  return run('readonly', async (st) => {
    const own = await ask(st.get(tabKey(tab))) as unknown;
    if (own !== undefined) return { ...readStoredLab(own), key: tabKey(tab), ownTab: true };
    const newest = Object.entries(await readIndex(st)).sort((a, b) => b[1] - a[1]);
    for (const [key] of newest) {
      const x = await ask(st.get(key)) as unknown;
      if (x !== undefined) return { ...readStoredLab(x), key, ownTab: false };
    }
    const legacy = await ask(st.get(LEGACY_KEY)) as unknown;
    return legacy === undefined ? null : { ...readStoredLab(legacy), key: LEGACY_KEY, ownTab: false };
  });
}

/**
 * Keeps this tab's lab (replacing its own record only), and lets the labs of other tabs beyond the
 * newest KEEP_TABS go: only records of this version are deleted, never a newer lab's (it leaves the
 * index, not the store) or one set aside.
 */
export async function saveLab(tab: string, lab: SavedLab): Promise<void> {
  await run('readwrite', async (st) => {
    const key = tabKey(tab);
    await ask(st.put(lab, key));
    const index = { ...(await readIndex(st)), [key]: lab.savedAt };
    const old = Object.entries(index).sort((a, b) => b[1] - a[1]).slice(KEEP_TABS).map(([k]) => k);
    for (const k of old) {
      const x = await ask(st.get(k)) as { version?: unknown } | undefined;
      if (x?.version === SAVED_VERSION) await ask(st.delete(k));
      delete index[k];
    }
    await ask(st.put(index, INDEX_KEY));
  });
}

/** Deletes this tab's lab ("Start fresh": the next save starts it again). */
export async function forgetLab(tab: string): Promise<void> {
  await run('readwrite', async (st) => {
    await ask(st.delete(tabKey(tab)));
    const index = await readIndex(st);
    delete index[tabKey(tab)];
    await ask(st.put(index, INDEX_KEY));
  });
}

/** Moves the record under `key` aside, as it is (`aside:<time>`); returns where it now is. */
export async function setAside(key: string): Promise<string> {
  return run('readwrite', async (st) => {
    const x = await ask(st.get(key)) as unknown;
    const to = `aside:${new Date().toISOString()}`;
    if (x !== undefined) await ask(st.put(x, to));
    await ask(st.delete(key));
    // The oldest set aside go once there are more than KEEP_ASIDE (their keys sort by time).
    const aside = (await ask(st.getAllKeys())).filter((k): k is string => typeof k === 'string' && k.startsWith('aside:')).sort();
    for (const k of aside.slice(0, Math.max(0, aside.length - KEEP_ASIDE))) await ask(st.delete(k));
    const index = await readIndex(st);
    delete index[key];
    await ask(st.put(index, INDEX_KEY));
    return to;
  });
}

/** The record under `key` as JSON text (an ArrayBuffer as base64), to download; null when it is gone. */
export async function recordText(key: string): Promise<string | null> {
  const x = await run('readonly', (st) => ask(st.get(key)) as Promise<unknown>);
  if (x === undefined) return null;
  return JSON.stringify(x, (_k, v: unknown) => (v instanceof ArrayBuffer
    ? { base64: btoa(Array.from(new Uint8Array(v), (b) => String.fromCharCode(b)).join('')) } : v), 1);
}

