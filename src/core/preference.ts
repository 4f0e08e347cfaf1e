// The user's preference vector P over [tools…, outcome, cost, latency], each entry in [0, 1]
// (ToolOrchestra §3.2). Shared by the reward (grpo) and by evaluation. On files and the CLI it is
// written {"<tool id>": p, …, "outcome": p, "cost": p, "latency": p}; unnamed tools weigh 0.

import type { Catalog } from './sim/catalog';
import { ownGet } from './names';

export interface Preference {
  outcome: number;
  cost: number;
  latency: number;
  /** Tool id → weight; missing ids weigh 0. */
  tools: Record<string, number>;
}

export const ACCURACY_FIRST: Readonly<Preference> = { outcome: 1, cost: 0, latency: 0, tools: {} };

/**
 * The lab's default P, for a user who states no preference: the answer first, then cost and time
 * alike. The lab's sliders start here, and the paper's tables are read at it.
 */
export const DEFAULT_PREFERENCE: Readonly<Preference> = { outcome: 1, cost: 0.5, latency: 0.5, tools: {} };

/** How the tables name the default P. */
export const DEFAULT_PREFERENCE_LABEL = 'Default (outcome 1, cost 0.5, latency 0.5)';

/** P in one line, e.g. "outcome 1 · cost 0.5 · latency 0 · local-search 1" (tools only where weighted). */
export function describePreference(p: Preference): string {
  const tools = Object.entries(p.tools).filter(([, w]) => w !== 0).map(([id, w]) => `${id} ${w}`);
  return [`outcome ${p.outcome}`, `cost ${p.cost}`, `latency ${p.latency}`, ...tools].join(' · ');
}

/** A value as a message quotes it: JSON, except a number JSON cannot write (1e400 parses to Infinity, which JSON writes as null). */
const shown = (v: unknown): string => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : JSON.stringify(v));

export type ParsedPreference = { ok: true; value: Preference } | { ok: false; error: string };

/** Why a stored Preference ({outcome, cost, latency, tools: {id: w}}, as artifacts keep it) is invalid, or null. */
export function storedPreferenceError(p: unknown): string | null {
  const inUnit = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1;
  if (typeof p !== 'object' || p === null) return 'expected {"outcome", "cost", "latency", "tools"}';
  const o = p as Record<string, unknown>;
  for (const k of ['outcome', 'cost', 'latency']) if (!inUnit(o[k])) return `"${k}" must be a number in [0, 1] (got ${shown(o[k])})`;
  if (typeof o.tools !== 'object' || o.tools === null || Array.isArray(o.tools)) return '"tools" must be an object of tool id → weight';
  for (const [k, v] of Object.entries(o.tools as Record<string, unknown>)) if (!inUnit(v)) return `tool "${k}" must weigh a number in [0, 1] (got ${shown(v)})`;
  return null;
}

/** Validates a preference object against a catalog: every value a number in [0, 1], every key known. */
export function parsePreference(input: unknown, catalog: Catalog): ParsedPreference {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, error: 'invalid preference: expected an object like {"outcome": 1, "cost": 0.5, "latency": 0}' };
  }
  const pref: Preference = { outcome: 0, cost: 0, latency: 0, tools: {} };
  const ids = new Set(catalog.tools.map((t) => t.id));
  for (const [k, v] of Object.entries(input as Record<string, unknown>)) {
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1) {
      return { ok: false, error: `invalid preference: "${k}" must be a number in [0, 1] (got ${shown(v)})` };
    }
    if (k === 'outcome' || k === 'cost' || k === 'latency') pref[k] = v;
    else if (ids.has(k)) pref.tools[k] = v;
    else return { ok: false, error: `invalid preference: "${k}" is neither outcome, cost, latency nor a tool of catalog "${catalog.name}"` };
  }
  return { ok: true, value: pref };
}

/** The weights in catalog tool order, then outcome, cost, latency — the order of M(τ). */
export function preferenceVector(p: Preference, catalog: Catalog): number[] {
  return [...catalog.tools.map((t) => ownGet(p.tools, t.id) ?? 0), p.outcome, p.cost, p.latency];
}

/**
 * A random P, as the paper samples an (instruction, P) pair per training example: half the time
 * one of the instruction presets (instructionPresets.ts, e.g. outcome 0 with weights on the local
 * tools), otherwise every weight is 0 with some chance, else uniform on [0, 1].
 */
export function samplePreference(next: () => number, catalog: Catalog, presets: readonly ((c: Catalog) => Preference)[] = []): Preference {
  if (presets.length > 0 && next() < 0.5) return (presets[Math.floor(next() * presets.length)] as (c: Catalog) => Preference)(catalog);
  const w = (pZero: number): number => (next() < pZero ? 0 : Math.round(next() * 100) / 100);
  const tools: Record<string, number> = {};
  for (const t of catalog.tools) {
    const v = w(0.9);
    if (v > 0) tools[t.id] = v;
  }
  return { outcome: w(0.1), cost: w(0.3), latency: w(0.5), tools };
}
