// Symbol linking between formulas and values. A symbol in a KaTeX formula carries `data-sym="R"`
// (from `\htmlData{sym=R}{R}`), a live value on screen carries `data-sym-value="R"` (<SymValue>).
// Hovering or focusing either lights both: class `sym-hot` on every element of that symbol. One
// document-level delegated listener set does it (useSymbolLinking, called once by the app); the
// pure parts (selector, which symbol a target belongs to, which symbols are lit) are unit-tested
// without a DOM in test/symbolLinking.test.ts.

import { useEffect } from 'react';

/** The symbols the formulas link, and how each is read aloud. */
export const SYMBOL_LABELS = {
  R: 'reward R',
  A: 'advantage A',
  P: 'preference vector P',
  M: 'measurement vector M',
  mean: 'group mean',
  std: 'group standard deviation',
  ratio: 'probability ratio r',
  clip: 'clip to the trust region',
  kl: 'KL penalty to the reference policy',
  entropy: 'entropy bonus',
  G: 'group size G',
} as const;

export type SymName = keyof typeof SYMBOL_LABELS;

export const HOT_CLASS = 'sym-hot';

/** Plain-text reading of a symbol (the name itself when it is not one of SYMBOL_LABELS). */
export function symbolLabel(sym: string): string {
  return Object.hasOwn(SYMBOL_LABELS, sym) ? SYMBOL_LABELS[sym as SymName] : sym;
}

/** A CSS string literal's content: backslash, quote and line breaks escaped. */
function cssString(s: string): string {
  return s.replace(/[\\"]/g, '\\$&').replace(/\r\n|[\n\r\f]/g, '\\a ');
}

/** Every element of symbol `sym`: its occurrences in formulas and its values on screen. */
export function hotSelector(sym: string): string {
  const v = cssString(sym);
  return `[data-sym="${v}"], [data-sym-value="${v}"]`;
}

/** The least of a DOM element that symOf needs (so that it is testable without a DOM). */
export interface SymTarget {
  closest(selector: string): { getAttribute(name: string): string | null } | null;
}

/** The symbol an event target belongs to (its own or its nearest ancestor's), or null. */
export function symOf(target: unknown): string | null {
  if (!target || typeof (target as Partial<SymTarget>).closest !== 'function') return null;
  const el = (target as SymTarget).closest('[data-sym], [data-sym-value]');
  if (!el) return null;
  return el.getAttribute('data-sym') || el.getAttribute('data-sym-value') || null;
}

/** What is hovered and what is focused (both light up; they may differ). */
export interface HotState {
  hover: string | null;
  focus: string | null;
}

/** The symbols to light for a state, without repeats. */
export function hotSyms(s: HotState): string[] {
  const out: string[] = [];
  for (const sym of [s.hover, s.focus]) if (sym && !out.includes(sym)) out.push(sym);
  return out;
}

/**
 * Installs the delegated listeners (pointerover/pointerout/focusin/focusout on the document) for
 * as long as the calling component is mounted. Call once, near the root of the app.
 */
export function useSymbolLinking(): void {
  useEffect(() => {
    const state: HotState = { hover: null, focus: null };
    let lit: Element[] = [];
    const paint = () => {
      for (const el of lit) el.classList.remove(HOT_CLASS);
      lit = [];
      for (const sym of hotSyms(state)) {
        for (const el of document.querySelectorAll(hotSelector(sym))) {
          el.classList.add(HOT_CLASS);
          lit.push(el);
        }
      }
    };
    const set = (key: keyof HotState, sym: string | null) => {
      if (state[key] === sym) return;
      state[key] = sym;
      paint();
    };
    const onOver = (e: Event) => set('hover', symOf(e.target));
    // Leaving for another element of the same symbol keeps it lit; pointerover handles the rest.
    const onOut = (e: PointerEvent) => set('hover', symOf(e.relatedTarget));
    const onFocusIn = (e: FocusEvent) => set('focus', symOf(e.target));
    const onFocusOut = (e: FocusEvent) => set('focus', symOf(e.relatedTarget));
    document.addEventListener('pointerover', onOver);
    document.addEventListener('pointerout', onOut);
    document.addEventListener('focusin', onFocusIn);
    document.addEventListener('focusout', onFocusOut);
    return () => {
      document.removeEventListener('pointerover', onOver);
      document.removeEventListener('pointerout', onOut);
      document.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('focusout', onFocusOut);
      for (const el of lit) el.classList.remove(HOT_CLASS);
    };
  }, []);
}
