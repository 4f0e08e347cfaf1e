// A value on screen linked to a formula symbol: `<SymValue sym="R">0.734</SymValue>`. Hovering or
// focusing it lights the symbol in the formulas, and the reverse (useSymbolLinking, symbolLinking.ts).

import type { ReactNode } from 'react';
import './math.css';
import { symbolLabel } from './symbolLinking';

export interface SymValueProps {
  /** The symbol's data-sym name (R, A, P, M, mean, std, ratio, clip, kl, entropy, G). */
  sym: string;
  children: ReactNode;
  /** What a screen reader announces before the value; default the symbol's reading. */
  label?: string;
}

export function SymValue({ sym, children, label }: SymValueProps) {
  return (
    <span className="sym-value" data-sym-value={sym} tabIndex={0} role="group" aria-label={label ?? symbolLabel(sym)}>
      {children}
    </span>
  );
}
