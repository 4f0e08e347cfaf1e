// Issue 33 in the core and the store: names from outside looked up as own keys (a tool
// "constructor" once weighed Object.prototype.constructor in P), reserved tool ids refused naming the
// rule, bounded text, a manifest out of the network's order refused naming the entry, the #policy=
// checksum (and links made before it), and what storage may hold (probe cache, lesson progress).
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkArtifact, pairMismatch, weightsFingerprint } from '../src/core/io/artifactCheck';
import { decodePolicyParam, decodeShareFile, encodePolicyParam, encodeShareFile } from '../src/core/io/shareBundle';
import { ownGet, reservedNameError } from '../src/core/names';
import { parsePreference, preferenceVector } from '../src/core/preference';
import { parseCatalog } from '../src/core/sim/catalogSchema';
import { presetByName, presetCatalog } from '../src/core/sim/presets';
import { suiteByName } from '../src/core/sim/suites';
import { storedTrainConfig } from '../src/cli/trainSettings';
import { readUrl } from '../src/store/urlState';

type Manifest = {
  weightsManifest: { paths: string[]; weights: { name: string; shape: number[]; dtype: string }[] }[];
  userDefinedMetadata: { catalog: unknown; training: Record<string, unknown> };
};
const shipped = {
  json: JSON.parse(readFileSync('public/pretrained/orchestrator.json', 'utf8')) as Manifest,
  weights: new Uint8Array(readFileSync('public/pretrained/orchestrator.weights.bin')),
};

describe('names from outside are looked up as own keys', () => {
  it('P over a catalog with a tool "constructor" weighs that tool 0, not Object (the NaN reward of issue 33)', () => {
    const c = presetCatalog('seed-004'); // three tools: a catalog as an older lab accepted it, built without the check
    c.tools[0] = { ...c.tools[0]!, id: 'constructor' };
    c.tools[1] = { ...c.tools[1]!, id: 'tostring' };
    // Tools in catalog order, then outcome, cost, latency; no tool is weighted.
    expect(preferenceVector({ outcome: 1, cost: 0.5, latency: 0, tools: {} }, c)).toEqual([0, 0, 0, 1, 0.5, 0]);
    const weighed = { outcome: 1, cost: 0, latency: 0.25, tools: { tostring: 0.75 } };
    expect(preferenceVector(weighed, c)).toEqual([0, 0.75, 0, 1, 0, 0.25]);
  });

  it('ownGet finds only what the object itself holds', () => {
    const o: Record<string, number> = { a: 1 };
    expect(ownGet(o, 'a')).toBe(1);
    for (const k of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'prototype']) {
      expect(ownGet(o, k), k).toBeUndefined();
    }
  });

  it('presets and suites are found by their own names only', () => {
    for (const k of ['__proto__', 'constructor', 'toString', 'valueOf', 'prototype']) {
      expect(presetByName(k), k).toBeUndefined();
      expect(() => presetCatalog(k), k).toThrow(`unknown catalog preset "${k}" (known: toolorchestra, seed-004)`);
      expect(() => suiteByName(k), k).toThrow(`unknown suite "${k}" (known: hle, frames, tau2)`);
    }
    expect(presetCatalog('seed-004').tools).toHaveLength(3);
    expect(suiteByName('frames').name).toBe('frames');
  });

  it('a link ?preset=__proto__ keeps the default catalog and names what it ignored', () => {
    const r = readUrl('?preset=__proto__&B=4');
    expect(r.invalid).toEqual(['preset']);
    expect(r.refusals).toEqual(['preset = __proto__ (allowed: toolorchestra, seed-004)']);
    expect(r.config.preset).toBe('toolorchestra');
    expect(r.config.catalog.tools.map((t) => t.id)).toEqual(presetCatalog('toolorchestra').tools.map((t) => t.id));
    expect(r.config.train.batchTasks).toBe(4);
  });
});

describe('tool ids: the reserved names and the 64-character limit are refused, each naming its rule', () => {
  const withTool = (edit: (t: Record<string, unknown>) => void) => {
    const c = presetCatalog('toolorchestra') as unknown as { tools: Record<string, unknown>[] };
    edit(c.tools[2] as Record<string, unknown>);
    return parseCatalog(c);
  };
  it('__proto__, constructor, prototype, outcome, cost and latency', () => {
    for (const id of ['constructor', 'prototype', 'outcome', 'cost', 'latency']) {
      const r = withTool((t) => { t.id = id; });
      expect(r.ok, id).toBe(false);
      if (!r.ok) {
        expect(r.error).toBe(`invalid catalog: tools[2].id: "${id}" is reserved: `
          + 'no tool id may be __proto__, constructor, prototype, outcome, cost or latency '
          + '(names every object has, and the preference\'s own keys)');
      }
    }
    // "__proto__" is refused by the characters allowed already (it starts with "_"); the rule names it too.
    expect(reservedNameError('__proto__')).toMatch(/^"__proto__" is reserved/);
    expect(withTool((t) => { t.id = '__proto__'; }).ok).toBe(false);
    expect(reservedNameError('gpt-5')).toBeNull();
  });

  it('an id of 65 characters is refused saying the limit; 64 is accepted', () => {
    const r = withTool((t) => { t.id = 'a'.repeat(65); });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error).toBe('invalid catalog: tools[2].id: must be 1 to 64 lowercase letters, digits, ".", "_" or "-", '
        + 'starting with a letter or digit');
    }
    expect(withTool((t) => { t.id = 'a'.repeat(64); }).ok).toBe(true);
  });

  it('text is bounded (a 200 MB description went into every checkpoint): descriptions 2,000, names 200', () => {
    const long = withTool((t) => { t.description = 'x'.repeat(2001); });
    expect(long.ok).toBe(false);
    if (!long.ok) expect(long.error).toBe('invalid catalog: tools[2].description: must be at most 2,000 characters');
    expect(withTool((t) => { t.description = 'x'.repeat(2000); }).ok).toBe(true);
    const c = presetCatalog('toolorchestra');
    const named = parseCatalog({ ...c, name: 'n'.repeat(201) });
    expect(named.ok ? '' : named.error).toBe('invalid catalog: name: must be at most 200 characters');
  });

  it('a preference file naming "constructor" is refused (no tool has that name)', () => {
    const r = parsePreference(JSON.parse('{"outcome":1,"constructor":0.5}'), presetCatalog('toolorchestra'));
    expect(r.ok ? '' : r.error).toMatch(/"constructor" is neither outcome, cost, latency nor a tool/);
  });
});

describe('a weights manifest in any order but the network\'s is refused, naming the entry', () => {
  const reordered = (i: number, j: number): Manifest => {
    const m = structuredClone(shipped.json);
    const w = m.weightsManifest[0]!.weights;
    [w[i], w[j]] = [w[j]!, w[i]!];
    return m;
  };
  it('two entries swapped: refused (the file import, the CLI and #policy= all run this check)', () => {
    expect(checkArtifact(shipped.json, shipped.weights).ok).toBe(true);
    const r = checkArtifact(reordered(0, 1), shipped.weights);
    expect(r.ok ? '' : r.error).toBe('invalid orchestrator artifact: '
      + 'weightsManifest[0].weights[0] is "scorer/l0/tool", where a policy\'s own order has "scorer/l0/state": '
      + 'the weights are read in the manifest\'s order, '
      + 'so a reordered manifest would load each weight from another\'s bytes');
    // Two entries of the same shape (the two output biases, [1] each) swapped: refused as well.
    const names = shipped.json.weightsManifest[0]!.weights.map((w) => w.name);
    const a = names.indexOf('scorer/out/bias'), b = names.indexOf('submit/out/bias');
    const same = checkArtifact(reordered(a, b), shipped.weights);
    expect(same.ok ? '' : same.error).toContain(`weightsManifest[0].weights[${a}] is "submit/out/bias"`);
    const file = encodeShareFile('?B=4', reordered(0, 1), shipped.weights);
    expect(() => decodeShareFile(file)).toThrow(/weightsManifest\[0\]\.weights\[0\] is "scorer\/l0\/tool"/);
  });
});

describe('#policy= carries a checksum', () => {
  const catalog = shipped.json.userDefinedMetadata.catalog;
  const value = encodePolicyParam(shipped.json, shipped.weights);
  const [version, head, body, sum] = value.split('.') as [string, string, string, string];

  it('is version 2 with four parts; it reads back, checked', () => {
    expect(version).toBe('2');
    expect(sum).toMatch(/^[0-9a-f]{8}$/);
    // FNV-1a of "header.weights", computed here over the characters.
    expect(sum).toBe(weightsFingerprint(new TextEncoder().encode(`${head}.${body}`)));
    expect(decodePolicyParam(value, catalog).unchecked).toBe(false);
  });

  it('one character flipped, in the weights or in the header, is refused as a damaged file is', () => {
    const flip = (s: string, at: number) => `${s.slice(0, at)}${s[at] === 'A' ? 'B' : 'A'}${s.slice(at + 1)}`;
    const damaged = [
      `2.${head}.${flip(body, body.length >> 1)}.${sum}`,
      `2.${flip(head, 10)}.${body}.${sum}`,
      `2.${head}.${body}.${flip(sum, 0)}`,
    ];
    for (const bad of damaged) {
      expect(() => decodePolicyParam(bad, catalog)).toThrow(new RegExp('the link\'s policy does not match its checksum '
        + '\\(it says [0-9a-fA-F]{8}, its content gives [0-9a-f]{8}\\): the link was altered or damaged on the way'));
    }
    const threeParts = `2.${head}.${body}`;
    expect(() => decodePolicyParam(threeParts, catalog))
      .toThrow(/not "version\.header\.weights\.checksum" \(3 parts\)/);
  });

  it('a link made before the checksum (version 1) is read, marked unchecked, with the same weights', () => {
    const old = decodePolicyParam(`1.${head}.${body}`, catalog);
    expect(old.unchecked).toBe(true);
    expect(Array.from(old.weights)).toEqual(Array.from(decodePolicyParam(value, catalog).weights));
  });
});

describe('what a stored run or a chosen pair of files may hold', () => {
  it('a stored run of 2³² iterations (past --iterations\' maximum, 2³² − 1) is refused naming the maximum', () => {
    const t = shipped.json.userDefinedMetadata.training;
    const catalog = presetCatalog('toolorchestra');
    expect('config' in storedTrainConfig({ ...t, iterations: 4294967295 }, catalog)).toBe(true);
    expect(storedTrainConfig({ ...t, iterations: 4294967296 }, catalog)).toEqual({
      error: '"iterations" must be a whole number of iterations done, at most 4294967295 '
        + '(the most a run may have; got 4294967296)',
    });
  });

  it('weights of another run are said to be no pair with the manifest, not blamed on the file\'s name', () => {
    expect(pairMismatch('orchestrator.weights.0123abcd.bin', 'orchestrator.weights.89abcdef.bin')).toBe(
      'orchestrator.json names its weights "orchestrator.weights.0123abcd.bin", and the weights file chosen is '
      + '"orchestrator.weights.89abcdef.bin": the two files are not one pair '
      + '(they come from different runs or checkpoints); choose the weights file that orchestrator.json names');
    expect(pairMismatch('orchestrator.weights.0123abcd.bin', 'orchestrator.weights.0123abcd.bin')).toBeNull();
    // The lab's export names no fingerprint.
    expect(pairMismatch('orchestrator.weights.bin', 'orchestrator.weights.89abcdef.bin')).toBeNull();
  });
});

describe('what this browser\'s storage may hold (another page of the origin can write it)', () => {
  const store = new Map<string, string>();
  const fake = {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
  };
  afterEach(() => { vi.unstubAllGlobals(); vi.resetModules(); store.clear(); });

  it('a probe report whose choice is no backend ("__proto__") is ignored; a valid one is used', async () => {
    vi.stubGlobal('localStorage', fake);
    const report = { version: '0.2.0', adapter: 'x', sizeKey: 'N128', choice: 'wasm', results: [], totalMs: 1 };
    const reports = [
      { ...report, sizeKey: 'A', choice: '__proto__' },
      { ...report, sizeKey: 'B', choice: 'constructor' },
      { ...report, sizeKey: 'C' },
    ];
    const stored = reports.map((r) => ({ ...r, measuredAt: '', cached: false }));
    store.set('orchestra-lab:backend-probe', JSON.stringify(stored));
    const { cachedProbe } = await import('../src/store/probeCache');
    expect(cachedProbe('A')).toBeUndefined();
    expect(cachedProbe('B')).toBeUndefined();
    expect(cachedProbe('C')?.choice).toBe('wasm');
  });

  it('lesson progress keeps short ids once each, at most 64 (200,000 once showed "200000 of 7 complete")', async () => {
    vi.stubGlobal('localStorage', fake);
    const junk = [...Array.from({ length: 200_000 }, (_, i) => `x${i}`), 'why', 'why', 42, '__proto__', 'a'.repeat(65)];
    store.set('orchestra-lab.lessons.v1', JSON.stringify(junk));
    const { useLessons } = await import('../src/store/lessonStore');
    const completed = useLessons.getState().completed;
    expect(completed).toHaveLength(64);
    expect(completed).not.toContain('__proto__');
    expect(new Set(completed).size).toBe(completed.length);
  });
});
