// Links: the configuration in the query, a large catalog compressed into the fragment, and a
// clear refusal past the sizes that servers and messengers accept.

import { describe, expect, it } from 'vitest';
import type { Catalog } from '../src/core/sim/catalog';
import { presetCatalog } from '../src/core/sim/presets';
import { SeqRng } from '../src/core/sim/rng';
import { defaultConfig, linkTooLong, MAX_FRAGMENT_CHARS, readUrl, queryString, readView, withView, writeUrl } from '../src/store/urlState';

/** The case: 64 tools (copies of GPT-5 with their own ids and prices). */
function bigCatalog(describe: (i: number) => string): Catalog {
  const base = presetCatalog('toolorchestra');
  const g = base.tools[0];
  if (!g) throw new Error('no tool');
  return { ...base, tools: Array.from({ length: 64 }, (_, i) => ({ ...structuredClone(g), id: `model-${i}`, description: describe(i), pricing: { ...g.pricing, inputPerM: 1 + i / 10 } })) };
}

describe('share links', () => {
  it('a 64-tool catalog travels compressed in the fragment; the query stays short; the link reads back exactly', () => {
    const c = { ...defaultConfig(), catalog: bigCatalog((i) => `model number ${i} (added in the lab)`), train: { ...defaultConfig().train, batchTasks: 4 } };
    const link = writeUrl(c);
    const [query, fragment] = [link.slice(0, link.indexOf('#')), link.slice(link.indexOf('#'))];
    const raw = JSON.stringify(c.catalog).length;
    console.log(`64-tool catalog: ${raw} characters of JSON → fragment ${fragment.length}; query ${query.length}`);
    expect(query).toBe('?B=4');
    expect(fragment.startsWith('#catalog=')).toBe(true);
    expect(fragment.length).toBeLessThan(raw / 3); // the query once carried it as base64 JSON: 4/3 of raw, and a 431 from the server
    expect(linkTooLong(c)).toBeNull();
    const back = readUrl(query, fragment);
    expect(back.invalid).toEqual([]);
    expect(back.config.catalog).toEqual(c.catalog);
    expect(readUrl(link).config.catalog).toEqual(c.catalog); // one string with both parts reads the same
  });

  it('carries the learning-rate schedule as lrTo0 (the iteration where the rate reaches 0), and only when there is one', () => {
    const back = readUrl('?lrTo0=1000');
    expect(back.invalid).toEqual([]);
    expect(back.config.train.lrDecay).toEqual({ start: 0, end: 1000 });
    expect(writeUrl(back.config)).toBe('?lrTo0=1000');
    expect(readUrl('?lrTo0=0').config.train.lrDecay).toBeNull();
    expect(writeUrl(defaultConfig())).not.toMatch(/lrTo0/);
    expect(readUrl('?lrTo0=-5').invalid).toEqual(['lrTo0']);
    expect(readUrl('?B=0x10&G=0b11&mu=1e1').invalid).toEqual(['B', 'G']); // decimal only, as the CLI: 0x10 is no 16 (1e1 is 10)
    expect(readUrl('?B=4096&reward=bogus').refusals).toEqual(['B = 4096 (allowed: an integer from 1 to 256)', 'reward = bogus (allowed: toolorchestra, success-first, toolorchestra-official, weighted, outcome)']);
    // A parameter the lab does not know is named apart from a refused value (and only once).
    expect(readUrl('?lr=abc&foo=1&foo=2', '#bar=3')).toMatchObject({ invalid: ['lr'], unknown: ['foo', 'bar'] });
    expect(readUrl('?lrTo0=2.5').invalid).toEqual(['lrTo0']);
  });

  it('refuses a link whose compressed catalog is past the limit, saying by how much and what to do instead', () => {
    const rng = new SeqRng(3);
    const noise = (n: number) => Array.from({ length: n }, () => 'abcdefghijklmnopqrstuvwxyz0123456789 '[rng.int(37)]).join('');
    const c = { ...defaultConfig(), catalog: bigCatalog(() => noise(1500)) };
    expect(writeUrl(c).length).toBeGreaterThan(MAX_FRAGMENT_CHARS);
    expect(linkTooLong(c)).toMatch(/^the catalog takes \d+\.\d KB even compressed \(a link carries at most 32 KB\); export the catalog or the policy as a file instead$/);
  });

  it('still reads the old links that carried the catalog as base64 JSON in the query', () => {
    const cat = { ...presetCatalog('toolorchestra'), name: 'old-link' };
    const b64 = Buffer.from(JSON.stringify(cat)).toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    const r = readUrl(`?catalog=${b64}`);
    expect(r.invalid).toEqual([]);
    expect(r.config.catalog.name).toBe('old-link');
  });
});

describe('classroom mode in the link', () => {
  it('keeps classroom and the hidden controls beside the settings, tells "hide nothing" from "not said", and flags neither as invalid', () => {
    const c = defaultConfig();
    expect(readView('?classroom=1')).toEqual({ classroom: true, hide: null });
    expect(readView('?classroom=1&hide=none')).toEqual({ classroom: true, hide: [] });
    expect(readView('?B=4&classroom=1&hide=seed,backend')).toEqual({ classroom: true, hide: ['seed', 'backend'] });
    expect(writeUrl({ ...c, train: { ...c.train, batchTasks: 4 } }, { classroom: true, hide: [] })).toBe('?classroom=1&hide=none&B=4');
    expect(writeUrl(c, { classroom: true, hide: ['seed'] })).toBe('?classroom=1&hide=seed');
    expect(writeUrl(c, { classroom: false, hide: ['seed'] })).toBe('');
    expect(readUrl('?classroom=1&hide=seed&B=4').invalid).toEqual([]);
  });

  it('turning classroom mode on or off in the address bar replaces only the view parameters, which come first', () => {
    const q = new URLSearchParams('B=4&classroom=1&hide=seed&lr=0.001');
    // Written with its comma readable (queryString), as a teacher would type it, and read back the same.
    expect(queryString(withView(q, { classroom: true, hide: ['seed', 'backend'] }))).toBe('classroom=1&hide=seed,backend&B=4&lr=0.001');
    expect(readView('?classroom=1&hide=seed,backend')).toEqual(readView('?classroom=1&hide=seed%2Cbackend'));
    expect(withView(q, { classroom: true, hide: [] }).toString()).toBe('classroom=1&hide=none&B=4&lr=0.001');
    expect(withView(q, { classroom: false, hide: [] }).toString()).toBe('B=4&lr=0.001');
    expect(readView(`?${withView(q, { classroom: true, hide: ['seed', 'backend'] })}`)).toEqual({ classroom: true, hide: ['seed', 'backend'] });
  });
});
