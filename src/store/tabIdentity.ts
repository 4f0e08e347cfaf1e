// Which tab this page is, for the lab kept in this browser (browserSave.ts keeps one per tab): an id
// in sessionStorage, which a reload keeps and a new tab starts without, held by a Web Lock while the
// page lives. A duplicated tab copies sessionStorage, so an id another live page holds is not taken:
// the new page waits a moment for it (a reload's page lets go of it as it unloads), then takes a new one.

const KEY = 'orchestra-lab-tab';
/** How long a page waits for its id's lock: the page it reloads lets go within this. */
const WAIT_MS = 1500;

const newId = (): string => (typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID()
  : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`);

/** Holds the lock named after `id` for the page's life; false when another page holds it past `waitMs`. */
function hold(id: string, waitMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), waitMs);
    navigator.locks.request(`orchestra-lab-tab:${id}`, { signal: stop.signal }, () => {
      clearTimeout(timer);
      resolve(true);
      return new Promise<never>(() => undefined); // held until the page goes
    }).catch(() => resolve(false));
  });
}

/** This tab's id (the same across its reloads, another in any other live tab). */
export async function claimTabId(): Promise<string> {
  let id: string | null = null;
  try { id = sessionStorage.getItem(KEY); } catch { /* no storage: a new id each time */ }
  if (!id || !/^[\w-]{1,64}$/.test(id)) id = newId();
  if (typeof navigator !== 'undefined' && navigator.locks && !(await hold(id, WAIT_MS))) return renewTabId();
  try { sessionStorage.setItem(KEY, id); } catch { /* as above */ }
  return id;
}

/** A new id for this tab (its old one names a record it must not write over). */
export async function renewTabId(): Promise<string> {
  const id = newId();
  if (typeof navigator !== 'undefined' && navigator.locks) await hold(id, WAIT_MS);
  try { sessionStorage.setItem(KEY, id); } catch { /* no storage */ }
  return id;
}
