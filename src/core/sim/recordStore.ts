// The small record store of agentic tasks (τ²-like customer service). `act` steps write fields;
// a task's outcome is judged by comparing the final store with the store the golden path
// produces (DB-state verification, as in ToolScale / τ²).

export type FieldValue = string | number;

export interface StoreRecord {
  id: string;
  fields: Record<string, FieldValue>;
}

/** One write an `act` step performs: the correct value, and the value a failed act writes instead. */
export interface StoreWrite {
  record: string;
  field: string;
  value: FieldValue;
  wrong: FieldValue;
}

/** Returns a new store with the writes applied in order (unknown records are ignored). */
export function applyWrites(store: readonly StoreRecord[], writes: readonly { record: string; field: string; value: FieldValue }[]): StoreRecord[] {
  const next = store.map((r) => ({ id: r.id, fields: { ...r.fields } }));
  for (const w of writes) {
    const rec = next.find((r) => r.id === w.record);
    if (rec) rec.fields[w.field] = w.value;
  }
  return next;
}

/** True when both stores hold the same records with the same field values. */
export function storesEqual(a: readonly StoreRecord[], b: readonly StoreRecord[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const ra = a[i] as StoreRecord;
    const rb = b.find((r) => r.id === ra.id);
    if (!rb) return false;
    const ka = Object.keys(ra.fields);
    if (ka.length !== Object.keys(rb.fields).length) return false;
    for (const k of ka) if (ra.fields[k] !== rb.fields[k]) return false;
  }
  return true;
}

/**
 * The store after the submitted steps of an agentic task: each step with a write writes its
 * correct value only when the step and every lookup it uses were committed right, else the
 * plausible wrong value.
 */
export function storeAfterSteps(
  store: readonly StoreRecord[], steps: readonly { write?: StoreWrite; uses?: number[] }[], submitted: number, right: (step: number) => boolean,
): StoreRecord[] {
  const writes = [];
  for (let s = 0; s < submitted; s++) {
    const w = steps[s]?.write;
    if (!w) continue;
    const ok = right(s) && (steps[s]?.uses ?? []).every(right);
    writes.push({ record: w.record, field: w.field, value: ok ? w.value : w.wrong });
  }
  return applyWrites(store, writes);
}
