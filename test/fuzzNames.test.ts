// Fuzzing every place a name from outside is looked up (issue 33) with the names every object
// already has and the reserved ones, plain and in seeded random variations: catalog ids, presets,
// suites, preference keys, the link's fields, storage, weights manifests, reward inputs. Each is
// refused with a message naming what it was, or read as an ordinary name — never found as an
// inherited property, never a crash, never a NaN, and Object.prototype is left as it was.
import { readFileSync } from 'node:fs';
import LZString from 'lz-string';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { parseRewardInput } from '../src/cli/commands/reward';
import { REWARD_MODES } from '../src/core/grpo/rewardModes';
import { loadCatalog } from '../src/cli/io';
import { checkArtifact } from '../src/core/io/artifactCheck';
import { decodePolicyParam, decodeShareFile, encodePolicyParam, encodeShareFile } from '../src/core/io/shareBundle';
import { RESERVED_NAMES } from '../src/core/names';
import { parsePreference, preferenceVector, storedPreferenceError } from '../src/core/preference';
import { parseCatalog } from '../src/core/sim/catalogSchema';
import { presetByName, presetCatalog } from '../src/core/sim/presets';
import { SeqRng } from '../src/core/sim/rng';
import { suiteByName } from '../src/core/sim/suites';
import { generateTasks } from '../src/core/sim/tasks';
import { readUrl, writeUrl } from '../src/store/urlState';

const rng = new SeqRng(33);
const INHERITED = Object.getOwnPropertyNames(Object.prototype); // constructor, __proto__, toString, hasOwnProperty, …
const BASE = [...new Set([...RESERVED_NAMES, ...INHERITED, 'prototype', 'tostring', 'valueof'])];
const vary = (s: string): string => {
  switch (rng.int(6)) {
    case 0: return s.toLowerCase();
    case 1: return s.toUpperCase();
    case 2: return `${s}-${rng.int(10)}`;
    case 3: return ` ${s}`;
    case 4: return `${s}.`;
    default: return s;
  }
};
/** Every base name, then 300 seeded variations of them. */
const NAMES = [...BASE, ...Array.from({ length: 300 }, () => vary(BASE[rng.int(BASE.length)] as string))];
const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();
const catalog = presetCatalog('toolorchestra');
const shipped = {
  json: JSON.parse(readFileSync('public/pretrained/orchestrator.json', 'utf8')) as {
    weightsManifest: { paths: string[]; weights: { name: string; shape: number[]; dtype: string }[] }[];
    userDefinedMetadata: Record<string, unknown>;
  },
  weights: new Uint8Array(readFileSync('public/pretrained/orchestrator.weights.bin')),
};
/** A JSON object with `name` as an own key (JSON.parse makes "__proto__" an own key, as a file would). */
const withKey = (name: string, value: unknown, rest: Record<string, unknown> = {}): Record<string, unknown> => {
  const pairs = [...Object.entries(rest), [name, value] as const]
    .map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
  return JSON.parse(`{${pairs.join(',')}}`);
};
const reserved = (name: string): boolean => (RESERVED_NAMES as readonly string[]).includes(name);

afterAll(() => {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

describe(`fuzz: ${NAMES.length} reserved and inherited names at every door`, () => {
  it('catalog ids: refused naming the rule, or an ordinary id whose P weight is a number (0 unless weighed)', () => {
    for (const name of NAMES) {
      for (const where of ['tool', 'orchestrator'] as const) {
        const c = structuredClone(catalog) as unknown as { orchestrator: { id: string }; tools: { id: string }[] };
        if (where === 'tool') (c.tools[3] as { id: string }).id = name;
        else c.orchestrator.id = name;
        const r = parseCatalog(c);
        if (!r.ok) {
          expect(r.error, name).toMatch(
            where === 'tool' ? /^invalid catalog: tools\[3\]\.id: / : /^invalid catalog: orchestrator\.id: /,
          );
          if (reserved(name)) expect(r.error).toMatch(/reserved|lowercase letters/);
          continue;
        }
        expect(reserved(name), name).toBe(false);
        const v = preferenceVector({ outcome: 1, cost: 0, latency: 0, tools: {} }, r.value);
        expect(v.every((x) => typeof x === 'number' && Number.isFinite(x)), name).toBe(true);
        expect(v.slice(0, -3).every((x) => x === 0), name).toBe(true);
      }
    }
  });

  it('presets and suites (the lab, a link, the CLI): none of these names is one', () => {
    for (const name of NAMES) {
      expect(presetByName(name), name).toBeUndefined();
      expect(() => presetCatalog(name), name).toThrow(/unknown catalog preset/);
      expect(() => loadCatalog(name), name).toThrow(/unknown catalog preset|cannot read catalog file/);
      expect(() => suiteByName(name), name).toThrow(/unknown suite/);
      expect(() => generateTasks(catalog, { seed: 1, count: 2, suite: name }), name).toThrow(/unknown suite/);
    }
  });

  it('preference keys (a file, a stored run, the reward input): refused with a message, or finite weights', () => {
    for (const name of NAMES) {
      const p = parsePreference(withKey(name, 0.5, { outcome: 1 }), catalog);
      if (p.ok) {
        expect(['outcome', 'cost', 'latency']).toContain(name);
        for (const x of preferenceVector(p.value, catalog)) expect(x >= 0 && x <= 1, name).toBe(true);
      } else expect(p.error, name).toMatch(/^invalid preference: /);
      const stored = storedPreferenceError({ outcome: 1, cost: 0, latency: 0, tools: withKey(name, 0.5) });
      expect(stored === null || typeof stored === 'string').toBe(true);
      const reward = parseRewardInput({
        tools: [name, 'b'],
        preference: withKey(name, 0.5, { outcome: 1 }),
        trajectories: [
          { calls: withKey(name, 1), outcome: 1, costUSD: 0.1, latencyS: 1 },
          { calls: { b: 1 }, outcome: 0, costUSD: 0.2, latencyS: 2 },
        ],
      });
      const refused = reward.ok ? '' : reward.error;
      if (reserved(name)) expect(refused, name).toMatch(/^invalid reward input: tools\[0\]: ".+" is reserved/);
      else if (!reward.ok) expect(reward.error, name).toMatch(/^invalid reward input: /);
    }
  });

  it('the link\'s fields (every key, P, a #catalog=, unknown keys): defaults kept, and what was ignored named', () => {
    const keys = ['preset', 'suite', 'backend', 'reward', 'agg', 'mode', 'std', 'P', 'B', 'seed', 'width', 'eval'];
    for (const name of NAMES) {
      const enc = encodeURIComponent(name);
      for (const key of keys) {
        const r = readUrl(`?${key}=${enc}`);
        // "outcome" is a reward mode: read as itself.
        if (key === 'reward' && (REWARD_MODES as readonly string[]).includes(name)) {
          expect(r.invalid).toEqual([]);
          expect(writeUrl(r.config)).toBe(`?reward=${name}`);
          continue;
        }
        expect(r.invalid, `${key}=${name}`).toEqual([key]);
        expect(writeUrl(r.config), `${key}=${name}`).toBe('');
      }
      expect(readUrl(`?P=o1,${enc}:0.5`).invalid, name).toEqual(['P']);
      const c = structuredClone(catalog) as unknown as { tools: { id: string }[] };
      (c.tools[0] as { id: string }).id = name;
      const r = readUrl('', `#catalog=${LZString.compressToEncodedURIComponent(JSON.stringify(c))}`);
      if (parseCatalog(c).ok) expect(r.invalid).toEqual([]);
      else expect(r.invalid, name).toEqual(['catalog']);
      // A parameter of that name is named as unknown, not taken for a known one.
      expect(readUrl(`?${enc}=1`).unknown, name).toEqual([name]);
    }
  });

  it('weights manifests (a file, a share file, #policy=): a weight of such a name is refused naming it', () => {
    for (const name of NAMES) {
      const j = structuredClone(shipped.json);
      (j.weightsManifest[0]!.weights[rng.int(j.weightsManifest[0]!.weights.length)] as { name: string }).name = name;
      const r = checkArtifact(j, shipped.weights);
      expect(r.ok, name).toBe(false);
      const unexpected =
        /^invalid orchestrator artifact: the manifest lists \d+ weights; a 64×2 policy has \d+ \(unexpected ".*"\)$/;
      if (!r.ok) expect(r.error, name).toMatch(unexpected);
      // The share file and the link carry the same manifest (encoding takes a moment: the plain names only).
      if (BASE.includes(name)) {
        expect(() => decodeShareFile(encodeShareFile('?B=4', j, shipped.weights)), name).toThrow(/unexpected/);
        const link = decodePolicyParam(encodePolicyParam(j, shipped.weights), shipped.json.userDefinedMetadata.catalog);
        expect(checkArtifact(link.artifact, link.weights).ok, name).toBe(false);
      }
      const pathed = structuredClone(shipped.json);
      pathed.weightsManifest[0]!.paths = [name];
      // A weights path is only a name here: the CLI checks what it reads (cliHardened.test.ts).
      expect(checkArtifact(pathed, shipped.weights).ok, name).toBe(true);
    }
  });

  it('storage (the probe cache, lesson progress): such an entry is ignored, the page reads the rest', async () => {
    const store = new Map<string, string>();
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    });
    try {
      const report = (choice: string, sizeKey: string) =>
        ({ version: '0.2.0', adapter: 'a', sizeKey, choice, results: [], totalMs: 1, measuredAt: '', cached: false });
      const reports = [...NAMES.map((n) => report(n, n)), report('wasm', 'ok')];
      store.set('orchestra-lab:backend-probe', JSON.stringify(reports));
      store.set('orchestra-lab.lessons.v1', JSON.stringify(NAMES));
      const { cachedProbe } = await import('../src/store/probeCache');
      for (const name of NAMES) expect(cachedProbe(name), name).toBeUndefined();
      expect(cachedProbe('ok')?.choice).toBe('wasm');
      const { useLessons } = await import('../src/store/lessonStore');
      for (const id of useLessons.getState().completed) expect(/^[a-z0-9-]{1,64}$/.test(id), id).toBe(true);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
