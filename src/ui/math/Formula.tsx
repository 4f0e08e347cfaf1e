// A TeX formula rendered by KaTeX into a ref: katex.render builds DOM nodes and sets their styles
// through the CSSOM, which the page's `style-src 'self'` allows (an innerHTML string with style
// attributes would be blocked). The wrapper is role="math" with a plain-text reading; each linked
// symbol (`\htmlData{sym=…}`) becomes focusable with its own label for symbol linking.

import katex from 'katex';
import 'katex/dist/katex.min.css';
import { useLayoutEffect, useRef } from 'react';
import { KATEX_OPTIONS } from './formulas';
import './math.css';
import { symbolLabel } from './symbolLinking';

export interface FormulaProps {
  /** The TeX source; symbols to link are wrapped as `\htmlData{sym=R}{R}`. */
  tex: string;
  /** Plain-text reading of the whole formula (the wrapper's aria-label). */
  label: string;
  /** Display (block) mode; default true. */
  display?: boolean;
}

export function Formula({ tex, label, display = true }: FormulaProps) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    katex.render(tex, el, { ...KATEX_OPTIONS, displayMode: display });
    for (const s of el.querySelectorAll<HTMLElement>('[data-sym]')) {
      s.tabIndex = 0;
      s.setAttribute('role', 'img');
      s.setAttribute('aria-label', symbolLabel(s.dataset.sym ?? ''));
    }
  }, [tex, display]);
  return (
    <div className="math-formula" role="math" aria-label={label}>
      <div ref={ref} />
    </div>
  );
}
