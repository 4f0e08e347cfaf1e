// A TeX formula rendered by KaTeX into a ref: katex.render builds DOM nodes and sets their styles
// through the CSSOM, which the page's `style-src 'self'` allows (an innerHTML string with style
// attributes would be blocked). The wrapper is role="math" with a plain-text reading; KaTeX's drawing
// is aria-hidden, so its linked symbols (`\htmlData{sym=…}`) light on hover only: from the keyboard, a
// symbol is reached through its values on screen (SymValue), which light it in turn. KaTeX and its
// style sheet are fetched when the first formula is shown, not with the page (they were a third of
// its script). A formula wider than its column (a phone's 320 px) is drawn smaller to fit, down to
// MIN_SCALE; past that it scrolls.

import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { KATEX_OPTIONS } from './formulas';
import './math.css';

type Katex = typeof import('katex').default;
let katexLoad: Promise<Katex> | null = null;
/** KaTeX with its style sheet, fetched once, by the first formula shown (a failed fetch is tried again by the next). */
const loadKatex = (): Promise<Katex> => (katexLoad ??= Promise.all([import('katex'), import('katex/dist/katex.min.css')])
  .then(([m]) => m.default, (e: unknown) => {
    katexLoad = null;
    throw e;
  }));

export interface FormulaProps {
  /** The TeX source; symbols to link are wrapped as `\htmlData{sym=R}{R}`. */
  tex: string;
  /** Plain-text reading of the whole formula (the wrapper's aria-label). */
  label: string;
  /** Display (block) mode; default true. */
  display?: boolean;
}

/** The smallest a formula is drawn to fit its column (of its size: about 11 px for text at 16 px). */
const MIN_SCALE = 0.5;

/** Draws `inner` at its size, or smaller, as far as MIN_SCALE, so that its content fits its width. */
function fitWidth(inner: HTMLElement): void {
  inner.style.fontSize = '';
  const have = inner.clientWidth; // the column inside the wrapper's padding
  // Not all of KaTeX's spacing follows the font size: a second and third look close the gap.
  let scale = 1;
  for (let k = 0; k < 3 && have > 0 && scale > MIN_SCALE && inner.scrollWidth > have; k++) {
    scale = Math.max(MIN_SCALE, (scale * have) / inner.scrollWidth);
    inner.style.fontSize = `${scale.toFixed(3)}em`;
  }
}

export function Formula({ tex, label, display = true }: FormulaProps) {
  const ref = useRef<HTMLDivElement>(null);
  const outerRef = useRef<HTMLDivElement>(null);
  /** How many times KaTeX has drawn this formula: the fit below runs again after each. */
  const [drawn, setDrawn] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    let live = true;
    el.textContent = label; // the formula in words until KaTeX has drawn it (or if it cannot)
    loadKatex().then((katex) => {
      if (!live) return;
      try {
        katex.render(tex, el, { ...KATEX_OPTIONS, displayMode: display });
      } catch {
        el.textContent = label;
        return;
      }
      setDrawn((n) => n + 1);
    }, () => undefined); // not fetched: the words stay
    return () => { live = false; };
  }, [tex, display, label]);
  useLayoutEffect(() => {
    const outer = outerRef.current, inner = ref.current;
    if (!outer || !inner || typeof ResizeObserver === 'undefined') return;
    let width = -1;
    let frame = 0;
    const observer = new ResizeObserver(() => {
      if (outer.clientWidth === width) return; // only a change of the column's width refits
      width = outer.clientWidth;
      // In the next frame: a refit changes the wrapper's height, which this observer would see in its own callback.
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => fitWidth(inner));
    });
    observer.observe(outer);
    // KaTeX's fonts are wider than the fallback it is first drawn in: fit again once they are in.
    const refit = () => fitWidth(inner);
    const fonts = typeof document !== 'undefined' ? document.fonts : undefined;
    fonts?.addEventListener('loadingdone', refit);
    void fonts?.ready.then(refit);
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
      fonts?.removeEventListener('loadingdone', refit);
    };
  }, [tex, display, drawn]);
  return (
    <div className="math-formula" role="math" aria-label={label} ref={outerRef}>
      <div ref={ref} />
    </div>
  );
}
