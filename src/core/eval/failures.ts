// Why an episode failed, read from its trace: out of turns before its last commit; or the first unit
// it committed wrongly had a step that needed a tool and no tool result for it ("missing evidence");
// or it had what it needed and the answer was still wrong. Evaluation tallies these per policy, so
// it shows where a policy's accuracy went. Simplification: out of turns wins over an earlier wrong
// unit; on a record-store task a wrong lookup no write depends on is blamed.

import type { TraceEntry } from '../sim/episode';

export type FailureKind = 'solved' | 'out-of-turns' | 'missing-evidence' | 'wrong-answer';

/** Shares of all episodes (solved ones included in the denominator) that failed each way. */
export interface FailureShares {
  outOfTurns: number;
  missingEvidence: number;
  wrongAnswer: number;
}

export function failureKind(outcome: number, answered: number, trace: readonly TraceEntry[]): FailureKind {
  if (outcome) return 'solved';
  if (!answered) return 'out-of-turns';
  for (const e of trace) {
    if ((e.action === 'answer' || e.action === 'submit') && e.committedCorrect === false) return e.missingEvidence ? 'missing-evidence' : 'wrong-answer';
  }
  // Every commit right and yet judged wrong: the judge only fails a task through a wrong step.
  throw new Error('failureKind: an answered task judged wrong with no wrong commit');
}

/** Counts episode failures by kind; `shares()` divides by every episode added. */
export class FailureTally {
  private n = 0;
  private readonly counts = { outOfTurns: 0, missingEvidence: 0, wrongAnswer: 0 };
  add(kind: FailureKind): void {
    this.n++;
    if (kind === 'out-of-turns') this.counts.outOfTurns++;
    else if (kind === 'missing-evidence') this.counts.missingEvidence++;
    else if (kind === 'wrong-answer') this.counts.wrongAnswer++;
  }
  shares(): FailureShares {
    const n = Math.max(1, this.n);
    return { outOfTurns: this.counts.outOfTurns / n, missingEvidence: this.counts.missingEvidence / n, wrongAnswer: this.counts.wrongAnswer / n };
  }
}
