// The whole configuration in the URL, through one typed table of properties (as TensorFlow
// Playground does): each property knows its query key, how to read it and how to write it.
// An invalid value falls back to its default and is named in the notice; nothing else is lost.

import { DEFAULT_TRAIN, LAB_LR_DECAY, MIN_LEARNING_RATE, type TrainConfig } from '../core/grpo/config';
import { REWARD_MODES } from '../core/grpo/rewardModes';
import type { Catalog } from '../core/sim/catalog';
import { parseCatalog } from '../core/sim/catalogSchema';
import LZString from 'lz-string'; // CommonJS: the default import works in Vite, vitest and Node's ESM loader alike
import { PRESET_NAMES, presetByName, presetCatalog } from '../core/sim/presets';
import { DEFAULT_PREFERENCE, type Preference } from '../core/preference';
import { parseDecimal } from '../core/decimal';
import { BACKEND_NAMES, type BackendName } from '../worker/protocol';

export interface UrlConfig {
  preset: string;
  catalog: Catalog;
  /** The training configuration; its `preference` is the sliders' P, the link's `P`. */
  train: TrainConfig;
  backend: BackendName | null;
  /** Held-out tasks of the trade-off view. */
  evalTasks: number;
  /** Which held-out distribution it shows: the training distribution ('toolscale') or a benchmark suite. */
  evalSuite: string;
}

/** Just the link's part of a larger state (the lab store's). */
export function urlConfigOf(s: UrlConfig): UrlConfig {
  return { preset: s.preset, catalog: s.catalog, train: s.train, backend: s.backend, evalTasks: s.evalTasks, evalSuite: s.evalSuite };
}

export const EVAL_SUITES: readonly { name: string; label: string }[] = [
  { name: 'toolscale', label: 'ToolScale-lite (training distribution)' },
  { name: 'hle', label: 'HLE-like' },
  { name: 'frames', label: 'FRAMES-like' },
  { name: 'tau2', label: 'τ²-like' },
];

export const DEFAULT_EVAL_TASKS = 250;

/** The lab's training defaults: the core's, with the lab's learning-rate schedule. */
const LAB_DEFAULT_TRAIN: TrainConfig = { ...structuredClone(DEFAULT_TRAIN), lrDecay: { ...LAB_LR_DECAY } };

export function defaultConfig(): UrlConfig {
  return { preset: 'toolorchestra', catalog: presetCatalog('toolorchestra'), train: structuredClone(LAB_DEFAULT_TRAIN),
    backend: null, evalTasks: DEFAULT_EVAL_TASKS, evalSuite: 'toolscale' };
}

const num = (lo: number, hi: number, int = false) => (s: string): number | undefined => {
  const v = parseDecimal(s);
  return Number.isFinite(v) && v >= lo && v <= hi && (!int || Number.isInteger(v)) ? v : undefined;
};

/** `fragment`: kept after the `#` (never sent to a server, so it may be long; see MAX_FRAGMENT_CHARS). */
/** `allowed`: what a valid value is, for the notice that names a refused one. */
type Prop = { key: string; read(c: UrlConfig, raw: string): boolean; write(c: UrlConfig): string | null; fragment?: boolean; allowed?: string };

/**
 * A link's state past the `#` stays on the reader's machine (servers answer 431 to long queries),
 * compressed with lz-string. Past this size a link is refused: chat apps and mail clients cut
 * longer ones, and the catalog then travels better as a file.
 */
export const MAX_FRAGMENT_CHARS = 32_000;
/** The query stays far below the 8 KB that servers accept in a request line. */
export const MAX_QUERY_CHARS = 2_000;

/** A numeric field of the training config at `path`. */
function trainNum(key: string, get: (t: TrainConfig) => number, set: (t: TrainConfig, v: number) => void, lo: number, hi: number, int = false): Prop {
  const parse = num(lo, hi, int);
  return {
    key,
    allowed: `${int ? 'an integer' : 'a number'} from ${lo} to ${hi}`,
    read(c, raw) { const v = parse(raw); if (v === undefined) return false; set(c.train, v); return true; },
    write(c) { const v = get(c.train); return v === get(LAB_DEFAULT_TRAIN) ? null : String(v); },
  };
}

function encodePreference(p: Preference): string {
  return [`o${p.outcome}`, `c${p.cost}`, `l${p.latency}`, ...Object.entries(p.tools).filter(([, w]) => w > 0).map(([id, w]) => `${id}:${w}`)].join(',');
}

function decodePreference(raw: string, catalog: Catalog): Preference | undefined {
  const p: Preference = { outcome: 0, cost: 0, latency: 0, tools: {} };
  const w = num(0, 1);
  for (const part of raw.split(',')) {
    const m = /^([ocl])([\d.]+)$/.exec(part);
    if (m) { const v = w(m[2] as string); if (v === undefined) return undefined;
      p[m[1] === 'o' ? 'outcome' : m[1] === 'c' ? 'cost' : 'latency'] = v; continue; }
    const [id, val] = part.split(':');
    const v = w(val ?? '');
    if (!id || v === undefined || !catalog.tools.some((t) => t.id === id)) return undefined;
    p.tools[id] = v;
  }
  return p;
}

const fromB64 = (s: string) => new TextDecoder().decode(Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)));

const PROPS: Prop[] = [
  {
    key: 'preset',
    allowed: PRESET_NAMES.join(', '),
    read(c, raw) { if (!presetByName(raw)) return false; c.preset = raw; c.catalog = presetCatalog(raw); return true; },
    write(c) { return c.preset === 'toolorchestra' ? null : c.preset; },
  },
  {
    key: 'catalog',
    fragment: true,
    read(c, raw) {
      // lz-string in the fragment; older links carried base64 JSON in the query.
      const text = LZString.decompressFromEncodedURIComponent(raw) || (() => { try { return fromB64(raw); } catch { return ''; } })();
      try { const r = parseCatalog(JSON.parse(text)); if (!r.ok) return false; c.catalog = r.value; return true; } catch { return false; }
    },
    write(c) { return JSON.stringify(c.catalog) === JSON.stringify(presetByName(c.preset)) ? null
      : LZString.compressToEncodedURIComponent(JSON.stringify(c.catalog)); },
  },
  {
    key: 'P',
    read(c, raw) { const p = decodePreference(raw, c.catalog); if (!p) return false; c.train.preference = p; return true; },
    write(c) { const s = encodePreference(c.train.preference); return s === encodePreference(DEFAULT_PREFERENCE) ? null : s; },
  },
  trainNum('seed', (t) => t.seed, (t, v) => { t.seed = v; t.policy.seed = v; }, 0, 2 ** 31, true),
  trainNum('B', (t) => t.batchTasks, (t, v) => { t.batchTasks = v; }, 1, 256, true),
  trainNum('G', (t) => t.groupSize, (t, v) => { t.groupSize = v; }, 1, 64, true),
  trainNum('lr', (t) => t.learningRate, (t, v) => { t.learningRate = v; }, MIN_LEARNING_RATE, 1),
  // The learning rate falls linearly to 0 at this iteration (lrDecay from 0; absent: constant).
  trainNum('lrTo0', (t) => t.lrDecay?.end ?? 0, (t, v) => { t.lrDecay = v > 0 ? { start: 0, end: v } : null; }, 0, 1_000_000, true),
  trainNum('epsLow', (t) => t.epsLow, (t, v) => { t.epsLow = v; }, 0, 1),
  trainNum('epsHigh', (t) => t.epsHigh, (t, v) => { t.epsHigh = v; }, 0, 5),
  trainNum('beta', (t) => t.beta, (t, v) => { t.beta = v; }, 0, 10),
  trainNum('entropy', (t) => t.entropyCoef, (t, v) => { t.entropyCoef = v; }, 0, 10),
  {
    key: 'dualclip',
    allowed: 'a number above 1, up to 1000',
    read(c, raw) { const v = num(1.000001, 1000)(raw); if (v === undefined) return false; c.train.dualClip = v; return true; },
    write(c) { return c.train.dualClip === null ? null : String(c.train.dualClip); },
  },
  trainNum('mu', (t) => t.epochs, (t, v) => { t.epochs = v; }, 1, 16, true),
  trainNum('T', (t) => t.sim.maxTurns, (t, v) => { t.sim = { ...t.sim, maxTurns: v }; }, 4, 50, true),
  trainNum('width', (t) => t.policy.width, (t, v) => { t.policy = { ...t.policy, width: v }; }, 4, 512, true),
  trainNum('depth', (t) => t.policy.depth, (t, v) => { t.policy = { ...t.policy, depth: v }; }, 1, 8, true),
  trainNum('clip', (t) => t.advantage.clip ?? 0, (t, v) => { t.advantage = { ...t.advantage, clip: v > 0 ? v : null }; }, 0, 100),
  trainNum('filter', (t) => t.advantage.filterStd ?? 0, (t, v) => { t.advantage = { ...t.advantage, filterStd: v > 0 ? v : null }; }, 0, 10),
  {
    key: 'reward',
    allowed: REWARD_MODES.join(', '),
    read(c, raw) { if (!(REWARD_MODES as readonly string[]).includes(raw)) return false; c.train.reward = raw as TrainConfig['reward']; return true; },
    write(c) { return c.train.reward === DEFAULT_TRAIN.reward ? null : c.train.reward; },
  },
  {
    key: 'agg',
    allowed: 'token-mean, seq-mean-token-mean',
    read(c, raw) { if (raw !== 'token-mean' && raw !== 'seq-mean-token-mean') return false; c.train.aggregation = raw; return true; },
    write(c) { return c.train.aggregation === DEFAULT_TRAIN.aggregation ? null : c.train.aggregation; },
  },
  {
    key: 'std',
    allowed: '0 or 1',
    read(c, raw) { if (raw !== '0' && raw !== '1') return false; c.train.advantage = { ...c.train.advantage, normalizeStd: raw === '1' }; return true; },
    write(c) { return c.train.advantage.normalizeStd ? null : '0'; },
  },
  {
    key: 'mode',
    allowed: 'fixed, random',
    read(c, raw) { if (raw !== 'fixed' && raw !== 'random') return false; c.train.preferenceMode = raw; return true; },
    write(c) { return c.train.preferenceMode === DEFAULT_TRAIN.preferenceMode ? null : c.train.preferenceMode; },
  },
  {
    key: 'eval',
    allowed: 'an integer from 20 to 2000',
    read(c, raw) { const v = num(20, 2000, true)(raw); if (v === undefined) return false; c.evalTasks = v; return true; },
    write(c) { return c.evalTasks === DEFAULT_EVAL_TASKS ? null : String(c.evalTasks); },
  },
  {
    key: 'suite',
    allowed: EVAL_SUITES.map((x) => x.name).join(', '),
    read(c, raw) { if (!EVAL_SUITES.some((x) => x.name === raw)) return false; c.evalSuite = raw; return true; },
    write(c) { return c.evalSuite === 'toolscale' ? null : c.evalSuite; },
  },
  {
    key: 'backend',
    allowed: BACKEND_NAMES.join(', '),
    read(c, raw) { if (!(BACKEND_NAMES as readonly string[]).includes(raw)) return false; c.backend = raw as BackendName; return true; },
    write(c) { return c.backend; },
  },
];

/**
 * The link's settings over the defaults. `invalid` names the parameters refused (each keeps its
 * default) and `refusals` says for each what it was and what is allowed, e.g. "B = 4096 (allowed: an
 * integer from 1 to 256)"; `unknown` names parameters the lab does not know.
 */
export function readUrl(search: string, hash = ''): { config: UrlConfig; invalid: string[]; refusals: string[]; unknown: string[] } {
  if (!hash && search.includes('#')) [search, hash] = [search.slice(0, search.indexOf('#')), search.slice(search.indexOf('#'))];
  const q = new URLSearchParams(search);
  const f = new URLSearchParams(hash.replace(/^#/, ''));
  const c = defaultConfig();
  const invalid: string[] = [];
  const refusals: string[] = [];
  for (const prop of PROPS) {
    const raw = f.get(prop.key) ?? q.get(prop.key);
    if (raw === null) continue;
    let ok: boolean;
    try {
      ok = prop.read(c, raw);
    } catch {
      ok = false; // a reader that throws on odd input must not stop the page from booting
    }
    if (!ok) {
      invalid.push(prop.key);
      const shown = raw.length > 24 ? `${raw.slice(0, 24)}…` : raw;
      refusals.push(prop.allowed ? `${prop.key} = ${shown} (allowed: ${prop.allowed})` : prop.key);
    }
  }
  // Parameters the lab does not know (a typo, another page's): named apart from values it refused.
  const known = new Set([...PROPS.map((p) => p.key), ...VIEW_KEYS]);
  const unknown = [...new Set([...q.keys(), ...f.keys()])].filter((k) => !known.has(k));
  return { config: c, invalid, refusals, unknown };
}

/** How the page is shown (not what it trains): classroom mode and the controls a teacher hid (viewStore.ts). */
export const VIEW_KEYS = ['classroom', 'hide'] as const;
/** `hide`: the controls hidden in classroom mode; null when the link does not say (the defaults apply). */
export interface ViewParams { classroom: boolean; hide: string[] | null }

/** The view parameters of a link's query (`hide=none`: hide nothing). */
export function readView(search: string): ViewParams {
  const q = new URLSearchParams(search.split('#')[0]);
  const raw = q.get('hide');
  return { classroom: q.get('classroom') === '1', hide: raw === null ? null : raw.split(',').map((x) => x.trim()).filter((x) => x && x !== 'none') };
}

/**
 * `query` with its view parameters replaced by `view`'s, which come first: classroom=1 and the hidden
 * controls (`hide=none`: the teacher chose to hide nothing; no `hide` at all means the defaults).
 */
export function withView(query: URLSearchParams, view: ViewParams | undefined): URLSearchParams {
  const q = new URLSearchParams();
  if (view?.classroom) q.set('classroom', '1');
  if (view?.classroom && view.hide) q.set('hide', view.hide.length ? view.hide.join(',') : 'none');
  for (const [k, v] of query) if (!(VIEW_KEYS as readonly string[]).includes(k)) q.append(k, v);
  return q;
}

/**
 * A query (or fragment) as text, its commas left as they are: a comma is allowed in a query
 * (RFC 3986, a sub-delimiter) and reads back the same, and `hide=seed,backend` is a link a teacher
 * can read, where URLSearchParams writes `hide=seed%2Cbackend`.
 */
export const queryString = (q: URLSearchParams): string => q.toString().replace(/%2C/gi, ',');

/** The query string and fragment for a configuration (defaults are left out): "?B=4#catalog=…"; `view` adds classroom mode. */
export function writeUrl(c: UrlConfig, view?: ViewParams): string {
  const q = withView(new URLSearchParams(), view), f = new URLSearchParams();
  for (const prop of PROPS) {
    const v = prop.write(c);
    if (v !== null) (prop.fragment ? f : q).set(prop.key, v);
  }
  const qs = queryString(q), fs = queryString(f);
  return `${qs ? `?${qs}` : ''}${fs ? `#${fs}` : ''}`;
}

/** Null when a link of this configuration can be shared, else why not (with the sizes). */
export function linkTooLong(c: UrlConfig): string | null {
  const link = writeUrl(c);
  const hashAt = link.indexOf('#');
  const query = hashAt < 0 ? link : link.slice(0, hashAt), fragment = hashAt < 0 ? '' : link.slice(hashAt);
  if (query.length > MAX_QUERY_CHARS) return `the link's settings take ${query.length} characters (limit ${MAX_QUERY_CHARS})`;
  if (fragment.length > MAX_FRAGMENT_CHARS) return `the catalog takes ${(fragment.length / 1000).toFixed(1)} KB even ` +
    `compressed (a link carries at most ${MAX_FRAGMENT_CHARS / 1000} KB); export the catalog or the policy as a file ` +
    `instead`;
  return null;
}
