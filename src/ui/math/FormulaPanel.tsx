// The three formulas a student meets in the lab — the reward, the group-relative advantage and the
// GRPO objective as loss.ts computes it — each with one line of explanation and a "where" line of
// linked symbols: hovering or focusing a symbol in a formula lights its value, and the reverse.
// `values` (optional) fills the "where" line, e.g. { R: '0.734', G: '8' }; a symbol without a
// value shows what it means instead.

import { Formula } from './Formula';
import { FORMULAS, type FormulaSpec } from './formulas';
import './math.css';
import type { SymName } from './symbolLinking';
import { SymValue } from './SymValue';

/** How a symbol is written in the "where" line, and what it means when there is no value yet. */
const WHERE: Record<SymName, { short: string; meaning: string }> = {
  R: { short: 'R', meaning: 'reward of a try' },
  P: { short: 'P', meaning: 'your preference weights' },
  M: { short: 'M', meaning: 'what a try measured' },
  A: { short: 'A', meaning: 'advantage of a try' },
  mean: { short: 'mean', meaning: "the group's average reward" },
  std: { short: 'std', meaning: "the group's reward spread" },
  G: { short: 'G', meaning: 'tries per task (group size)' },
  ratio: { short: 'r', meaning: 'new ÷ old probability of a decision' },
  clip: { short: 'clip', meaning: 'keeps r inside [1−ε_low, 1+ε_high]' },
  kl: { short: 'KL', meaning: 'distance to the reference policy' },
  entropy: { short: 'H', meaning: 'how random the policy still is' },
};

export interface FormulaPanelProps {
  /** Live values by symbol name (R, A, P, M, mean, std, ratio, clip, kl, entropy, G), already formatted. */
  values?: Partial<Record<string, string>>;
  /** The formulas to show (formulasFor: the selected reward mode and advantage); the paper's by default. */
  formulas?: readonly FormulaSpec[];
}

export function FormulaPanel({ values, formulas = FORMULAS }: FormulaPanelProps) {
  return (
    <div className="math-panel">
      {formulas.map((f) => (
        <figure key={f.id} className="math-card">
          <figcaption>
            <strong>{f.title}.</strong> {f.explain}
          </figcaption>
          <Formula tex={f.tex} label={f.reading} />
          <p className="math-where">
            <span className="math-where-lead">where</span>
            {f.syms.map((s) => {
              const value = values?.[s];
              const { short, meaning } = WHERE[s];
              return (
                <SymValue key={s} sym={s}>
                  {value !== undefined ? `${short} = ${value}` : `${short}: ${meaning}`}
                </SymValue>
              );
            })}
          </p>
        </figure>
      ))}
    </div>
  );
}
