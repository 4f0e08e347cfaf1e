// The pure part of symbol linking (src/ui/math/symbolLinking.ts) and the formulas' TeX
// (src/ui/math/formulas.ts), without a DOM: the selector that lights a symbol, which symbol an
// event target belongs to, and that every formula parses, links its symbols and renders no SVG
// with a style attribute (which the page's `style-src 'self'` would block).

import katex from 'katex';
import { describe, expect, it } from 'vitest';
import { ALL_FORMULAS, FORMULAS, formulasFor, KATEX_OPTIONS, sym } from '../src/ui/math/formulas';
import { REWARD_MODES } from '../src/core/grpo/rewardModes';
import { hotSelector, hotSyms, SYMBOL_LABELS, symbolLabel, symOf, type SymName } from '../src/ui/math/symbolLinking';

/** A stand-in for an element whose nearest [data-sym] / [data-sym-value] ancestor has `attrs`. */
const target = (attrs: Record<string, string> | null) => ({
  closest: (selector: string) => {
    expect(selector).toBe('[data-sym], [data-sym-value]');
    return attrs ? { getAttribute: (name: string) => attrs[name] ?? null } : null;
  },
});

describe('hotSelector', () => {
  it('matches a symbol in formulas and its values on screen', () => {
    expect(hotSelector('R')).toBe('[data-sym="R"], [data-sym-value="R"]');
    expect(hotSelector('entropy')).toBe('[data-sym="entropy"], [data-sym-value="entropy"]');
  });
  it('escapes quotes, backslashes and line breaks so a name cannot break out of the attribute', () => {
    expect(hotSelector('a"]b')).toBe('[data-sym="a\\"]b"], [data-sym-value="a\\"]b"]');
    expect(hotSelector('a\\b')).toBe('[data-sym="a\\\\b"], [data-sym-value="a\\\\b"]');
    expect(hotSelector('a\nb')).toBe('[data-sym="a\\a b"], [data-sym-value="a\\a b"]');
  });
});

describe('symOf', () => {
  it('reads data-sym of a formula symbol and data-sym-value of a value', () => {
    expect(symOf(target({ 'data-sym': 'R' }))).toBe('R');
    expect(symOf(target({ 'data-sym-value': 'kl' }))).toBe('kl');
  });
  it('is null for targets outside any symbol, non-elements and empty names', () => {
    expect(symOf(target(null))).toBeNull();
    expect(symOf(null)).toBeNull();
    expect(symOf({})).toBeNull();
    expect(symOf({ nodeType: 3 })).toBeNull();
    expect(symOf(target({ 'data-sym': '' }))).toBeNull();
  });
});

describe('hotSyms', () => {
  it('lights the hovered and the focused symbol, once each', () => {
    expect(hotSyms({ hover: null, focus: null })).toEqual([]);
    expect(hotSyms({ hover: 'R', focus: null })).toEqual(['R']);
    expect(hotSyms({ hover: null, focus: 'A' })).toEqual(['A']);
    expect(hotSyms({ hover: 'R', focus: 'A' })).toEqual(['R', 'A']);
    expect(hotSyms({ hover: 'R', focus: 'R' })).toEqual(['R']);
  });
});

describe('symbolLabel', () => {
  it('reads each linked symbol in words and falls back to the name', () => {
    expect(symbolLabel('R')).toBe('reward R');
    expect(symbolLabel('toString')).toBe('toString');
    expect(symbolLabel('nope')).toBe('nope');
  });
});

describe('the formulas', () => {
  const all = Object.keys(SYMBOL_LABELS) as SymName[];
  const rendered = ALL_FORMULAS.map((f) => ({ f, html: katex.renderToString(f.tex, { ...KATEX_OPTIONS, throwOnError: true, displayMode: true }) }));
  const linked = (html: string) => new Set([...html.matchAll(/data-sym="([^"]+)"/g)].map((m) => m[1]));

  it('tags a symbol with \\htmlData', () => {
    expect(sym('R', 'R')).toBe('\\htmlData{sym=R}{R}');
  });
  it('parse, and link every symbol of their "where" line', () => {
    for (const { f, html } of rendered) {
      expect(html, f.id).not.toContain('katex-error');
      for (const s of f.syms) expect(linked(html).has(s), `${f.id}: ${s}`).toBe(true);
      expect(f.reading.length).toBeGreaterThan(20);
    }
  });
  it('link all eleven symbols between them, and only those', () => {
    const seen = new Set(rendered.flatMap(({ html }) => [...linked(html)]));
    expect([...seen].sort()).toEqual([...all].sort());
    expect(FORMULAS.flatMap((f) => f.syms).sort()).toEqual([...all].sort());
    // Whatever the reward mode and the std division, the panel shows one reward, one advantage and the objective, linking all eleven.
    for (const reward of REWARD_MODES) for (const normalizeStd of [true, false]) {
      const shown = formulasFor({ reward, normalizeStd });
      expect(shown.map((f) => f.id)).toEqual(['reward', 'advantage', 'objective']);
      expect(shown.flatMap((f) => f.syms).sort()).toEqual([...all].sort());
      expect(shown[0]!.tex.includes('share'), reward).toBe(reward === 'success-first');
      expect(shown[1]!.tex.includes('+ \\epsilon'), String(normalizeStd)).toBe(normalizeStd);
    }
  });
  it('carry no SVG style attribute and no MathML (KaTeX sets other styles through the CSSOM)', () => {
    for (const { f, html } of rendered) {
      expect(/<svg[^>]*\sstyle=/.test(html), f.id).toBe(false);
      expect(html, f.id).not.toContain('<math');
    }
  });
  it('need the trust of \\htmlData only', () => {
    expect(KATEX_OPTIONS.trust({ command: '\\htmlData' })).toBe(true);
    expect(KATEX_OPTIONS.trust({ command: '\\href' })).toBe(false);
    const untrusted = katex.renderToString(FORMULAS[0]!.tex, { ...KATEX_OPTIONS, trust: false });
    expect(linked(untrusted).size).toBe(0);
  });
});
