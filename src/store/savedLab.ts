// What a lab kept in this browser holds, and the check of a stored record before anything of it is
// used: a record is read as this version's lab (its bad curve points dropped and counted), as a
// newer lab's (left as it is: a newer page reads it), or as unreadable, with the reason in words.
// Pure (no IndexedDB), so the check is tested in Node; browserSave.ts stores and moves the records.

import { z } from 'zod';
import { isIterationCount, MAX_ITERATIONS } from '../core/grpo/config';
import type { MetricPoint } from '../worker/protocol';

// No code generation (the page's Content-Security-Policy forbids it), as in catalogSchema.ts.
z.config({ jitless: true });

/** The version of the record this page writes; a record of a higher one is a newer lab's. */
export const SAVED_VERSION = 1;

export interface SavedLab {
  version: typeof SAVED_VERSION;
  savedAt: number;
  /** The settings as writeUrl writes them ('' = the defaults). */
  query: string;
  iteration: number;
  json: object;
  weights: ArrayBuffer;
  history: MetricPoint[];
}

/** A stored record, as the page can take it. */
export type StoredLab =
  | { kind: 'lab'; lab: SavedLab; droppedPoints: number }
  | { kind: 'newer'; version: number; iteration: number | null; savedAt: number | null }
  | { kind: 'unreadable'; why: string; iteration: number | null; savedAt: number | null };

/** Longest settings query a record may hold (a link's own bound is far below). */
const MAX_QUERY_CHARS = 100_000;

// A number as a chart or the CSV reads it: NaN is allowed (an iteration without an update has none of its values).
const num = z.custom<number>((v) => typeof v === 'number');
const counts = z.record(z.string(), num);
/** One iteration's point: every field the charts, the CSV and the run's health read, each of its type. */
const pointSchema = z.looseObject({
  iteration: z.number().int().min(1),
  meanReward: num, accuracy: num, meanCostUSD: num, meanLatencyS: num, rewardStd: num, meanAbsAdvantage: num,
  kl: num, entropy: num, clipFrac: num, filteredFrac: num, loss: num, gradNorm: num, learningRate: num,
  meanTurns: num, wallMs: num, rolloutTurns: num,
  callsPerTask: counts,
  timings: z.looseObject({ rolloutMs: num, rewardMs: num, updateMs: num }),
  decisions: z.looseObject({ rollout: num, rolloutPairs: num, trained: num, trainedPairs: num }),
});

const finiteOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * The curve points of a record that hold up: each of the point's shape, of an iteration from 1 to
 * the record's, each after the one before (a point that goes back is dropped, not the ones before it).
 */
export function goodPoints(history: readonly unknown[], iteration: number): MetricPoint[] {
  const out: MetricPoint[] = [];
  for (const p of history) {
    const r = pointSchema.safeParse(p);
    if (!r.success || r.data.iteration > iteration) continue;
    if (out.length && (out[out.length - 1] as MetricPoint).iteration >= r.data.iteration) continue;
    out.push(r.data as unknown as MetricPoint);
  }
  return out;
}

/** What a stored value is: this version's lab, a newer lab's, or unreadable (and why, in words). */
export function readStoredLab(x: unknown): StoredLab {
  if (x === null || typeof x !== 'object' || Array.isArray(x)) {
    return { kind: 'unreadable', why: `it is ${x === null ? 'null' : Array.isArray(x) ? 'a list' : `a ${typeof x}`}, not a saved lab`,
      iteration: null, savedAt: null };
  }
  const r = x as Record<string, unknown>;
  const iteration = finiteOrNull(r.iteration), savedAt = finiteOrNull(r.savedAt);
  const unreadable = (why: string): StoredLab => ({ kind: 'unreadable', why, iteration, savedAt });
  const v = r.version;
  if (typeof v === 'number' && Number.isInteger(v) && v > SAVED_VERSION) return { kind: 'newer', version: v, iteration, savedAt };
  if (v !== SAVED_VERSION) return unreadable(`its version is ${JSON.stringify(v) ?? 'missing'} (this page reads version ${SAVED_VERSION})`);
  if (savedAt === null) return unreadable('its save time is missing');
  if (typeof r.query !== 'string' || r.query.length > MAX_QUERY_CHARS) return unreadable('its settings are missing or too long');
  if (!isIterationCount(iteration)) {
    return unreadable(`its iteration ${JSON.stringify(r.iteration) ?? '(missing)'} is not a whole number from 0 to ${MAX_ITERATIONS}`);
  }
  if (r.json === null || typeof r.json !== 'object' || Array.isArray(r.json)) return unreadable('its policy manifest is missing');
  if (!(r.weights instanceof ArrayBuffer) || r.weights.byteLength === 0 || r.weights.byteLength % 4 !== 0) {
    return unreadable('its weights are missing or not whole float32 numbers');
  }
  if (!Array.isArray(r.history)) return unreadable('its curves are not a list of iterations');
  const history = goodPoints(r.history, iteration);
  const lab: SavedLab = { version: SAVED_VERSION, savedAt, query: r.query, iteration, json: r.json, weights: r.weights, history };
  return { kind: 'lab', lab, droppedPoints: r.history.length - history.length };
}
