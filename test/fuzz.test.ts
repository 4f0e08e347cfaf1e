// Fuzzing the lab's front doors with seeded random and mutated inputs: the URL reader, and the
// catalog, preference and reward parsers. Each input must be refused with a message or accepted
// valid — never a crash, never an accepted value that breaks what comes after (a non-finite cost,
// a URL that does not read back as itself).

import { describe, expect, it } from 'vitest';
import { parseRewardInput } from '../src/cli/commands/reward';
import { groupRewards } from '../src/core/grpo/reward';
import { parsePreference, preferenceVector } from '../src/core/preference';
import { expectedCallCost, expectedLatencyMs } from '../src/core/sim/catalog';
import { parseCatalog } from '../src/core/sim/catalogSchema';
import { presetCatalog } from '../src/core/sim/presets';
import { SeqRng } from '../src/core/sim/rng';
import { readUrl, writeUrl } from '../src/store/urlState';

const rng = new SeqRng(20261203);
const pick = <T>(xs: readonly T[]): T => xs[rng.int(xs.length)] as T;
const WEIRD_NUMBERS = [0, -0, -1, 1, 0.5, 1e-320, 1e308, -1e308, Number.POSITIVE_INFINITY, Number.NaN, 2 ** 53, 3.7, 64, 65, 1000, 1e6];
const WEIRD_STRINGS = ['', ' ', '%', '100%', '%zz', '\u0000', 'null', 'NaN', '1e999', '-1', '0x10', '{"a":', '[]', 'ü', '🙂', 'a'.repeat(5000), '<script>', '../../etc', 'true'];

/** A random JSON-ish value, sometimes nested. */
function junk(depth = 0): unknown {
  switch (rng.int(depth > 2 ? 4 : 7)) {
    case 0: return pick(WEIRD_NUMBERS);
    case 1: return pick(WEIRD_STRINGS);
    case 2: return pick([true, false, null, undefined]);
    case 3: return rng.next() * 10 - 5;
    case 4: return Array.from({ length: rng.int(4) }, () => junk(depth + 1));
    case 5: return Object.fromEntries(Array.from({ length: rng.int(4) }, (_, i) => [pick(['id', 'x', 'outcome', 'cost', `k${i}`]), junk(depth + 1)]));
    default: return JSON.parse(JSON.stringify({ v: rng.next() })).v;
  }
}

/** A deep copy of `base` with one to three random edits: a field deleted, replaced by junk, or added. */
function mutate<T>(base: T): unknown {
  const copy = structuredClone(base) as unknown;
  for (let e = 0, n = 1 + rng.int(3); e < n; e++) {
    let node = copy as Record<string, unknown>;
    for (let d = 0; d < 4; d++) {
      const keys = Object.keys(node);
      if (!keys.length) break;
      const k = pick(keys);
      const child = node[k];
      if (child && typeof child === 'object' && rng.next() < 0.6) { node = child as Record<string, unknown>; continue; }
      const r = rng.next();
      if (r < 0.2) delete node[k];
      else if (r < 0.9) node[k] = junk();
      else node[`extra${e}`] = junk();
      break;
    }
  }
  return copy;
}

describe('fuzz: the URL reader', () => {
  const KEYS = ['preset', 'B', 'G', 'T', 'lr', 'mu', 'eps', 'beta', 'ent', 'P', 'backend', 'eval', 'suite', 'reward', 'mode', 'seed', 'width', 'depth', 'catalog', 'note', 'tfjsflags', 'zzz'];
  it('boots from 3000 random and mutated queries: never throws, every value it keeps is valid and reads back as itself', () => {
    const valid = writeUrl(readUrl('?B=4&G=6&lr=0.001&P=o1.c0.5&suite=frames&backend=wasm').config).slice(1).split('&');
    for (let i = 0; i < 3000; i++) {
      const parts = Array.from({ length: 1 + rng.int(5) }, () => (rng.next() < 0.3 ? pick(valid) : `${pick(KEYS)}=${encodeURIComponent(String(pick([...WEIRD_STRINGS, ...WEIRD_NUMBERS.map(String)])))}`));
      let q = `?${parts.join('&')}`;
      if (rng.next() < 0.3) q = q.replace(/%[0-9A-F]{2}/, '%'); // a stray %, as in ?note=100%
      const { config, invalid } = readUrl(q);
      expect(Array.isArray(invalid)).toBe(true);
      const t = config.train;
      for (const [v, lo, hi] of [[t.batchTasks, 1, 256], [t.groupSize, 1, 64], [t.sim.maxTurns, 2, 100], [t.policy.width, 1, 1024], [t.policy.depth, 1, 16]] as const) {
        expect(Number.isInteger(v) && v >= lo && v <= hi, `${q} → ${v}`).toBe(true);
      }
      expect(Number.isFinite(t.learningRate) && t.learningRate >= 0).toBe(true);
      const again = readUrl(writeUrl(config));
      expect(again.invalid, q).toEqual([]);
      expect(writeUrl(again.config)).toBe(writeUrl(config));
    }
  });
});

describe('fuzz: the parsers', () => {
  const catalog = presetCatalog('toolorchestra');

  it('catalogs: 1500 mutations of a preset are refused with a message naming a field, or accepted with finite costs and latencies', () => {
    let accepted = 0;
    for (let i = 0; i < 1500; i++) {
      const r = parseCatalog(mutate(catalog));
      if (!r.ok) {
        expect(r.error).toMatch(/^invalid catalog: .+/);
        continue;
      }
      accepted++;
      for (const t of r.value.tools) {
        expect(Number.isFinite(expectedCallCost(t, 1e6)), t.id).toBe(true);
        expect(Number.isFinite(expectedLatencyMs(t)), t.id).toBe(true);
      }
    }
    expect(accepted).toBeGreaterThan(0); // some mutations are harmless (a description, a kept value)
  });

  it('preferences: 2000 random objects are refused with a message or give a vector in [0, 1]', () => {
    for (let i = 0; i < 2000; i++) {
      const input = rng.next() < 0.5 ? junk() : mutate({ outcome: 1, cost: 0.5, latency: 0, 'gpt-5': 0.2 });
      const r = parsePreference(input, catalog);
      if (!r.ok) { expect(r.error).toMatch(/^invalid preference: .+/); continue; }
      for (const x of preferenceVector(r.value, catalog)) expect(x >= 0 && x <= 1).toBe(true);
    }
  });

  it('reward inputs: 2000 mutations of a valid group are refused naming a field, or scored with finite rewards', () => {
    const valid = { tools: ['a', 'b'], preference: { outcome: 1, cost: 0.5, a: 0.3 }, trajectories: [{ calls: { a: 1 }, outcome: 1, costUSD: 0.1, latencyS: 3 }, { calls: { b: 2 }, outcome: 0, costUSD: 0.02, latencyS: 9 }] };
    for (let i = 0; i < 2000; i++) {
      const r = parseRewardInput(mutate(valid));
      if (!r.ok) { expect(r.error).toMatch(/^invalid reward input: .+: .+/); continue; }
      const v = r.value;
      const pref = [...v.tools.map((id) => v.preference[id] ?? 0), v.preference.outcome ?? 0, v.preference.cost ?? 0, v.preference.latency ?? 0];
      const out = groupRewards(v.mode, v.trajectories.map((t) => ({ calls: v.tools.map((id) => t.calls[id] ?? 0), outcome: t.outcome, costUSD: t.costUSD, latencyS: t.latencyS, tokens: t.tokens ?? 0 })), pref);
      for (const x of out.rewards) expect(Number.isFinite(x)).toBe(true);
    }
  });
});
