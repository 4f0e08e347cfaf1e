// Why an episode failed, read from its trace: it ran out of turns before its last submit; or the
// first step it committed wrongly had a right attempt that a more confident wrong one outvoted (the
// world commits a step's most confident answer, and LLM confidence is weak); or that step had no
// right attempt at all (the orchestrator answering alone counts as an attempt). Evaluation tallies
// these per policy, so a preference that pads its calls with weaker answerers shows where its
// accuracy went. Two simplifications: the first wrong step is blamed, though on a record-store task
// a wrong lookup that no write depends on does not fail it by itself; and an episode out of turns
// counts as that even when a step it had committed was already wrong.

import type { TraceEntry } from '../sim/episode';

export type FailureKind = 'solved' | 'out-of-turns' | 'outvoted' | 'no-right-attempt';

/** Shares of all episodes (solved ones included in the denominator) that failed each way. */
export interface FailureShares {
  outOfTurns: number;
  outvoted: number;
  noRightAttempt: number;
}

export function failureKind(outcome: number, answered: number, trace: readonly TraceEntry[]): FailureKind {
  if (outcome) return 'solved';
  if (!answered) return 'out-of-turns';
  let rightSeen = false;
  for (const e of trace) {
    if (e.action === 'call' && e.correct === true) rightSeen = true;
    if (e.action !== 'submit') continue;
    if (e.committedCorrect === false) return rightSeen ? 'outvoted' : 'no-right-attempt';
    rightSeen = false;
  }
  // Every committed step right and yet judged wrong: the judge only fails a task through a wrong step.
  throw new Error('failureKind: an answered task judged wrong with no wrong committed step');
}

/** Counts episode failures by kind; `shares()` divides by every episode added. */
export class FailureTally {
  private n = 0;
  private readonly counts = { outOfTurns: 0, outvoted: 0, noRightAttempt: 0 };
  add(kind: FailureKind): void {
    this.n++;
    if (kind === 'out-of-turns') this.counts.outOfTurns++;
    else if (kind === 'outvoted') this.counts.outvoted++;
    else if (kind === 'no-right-attempt') this.counts.noRightAttempt++;
  }
  shares(): FailureShares {
    const n = Math.max(1, this.n);
    return { outOfTurns: this.counts.outOfTurns / n, outvoted: this.counts.outvoted / n, noRightAttempt: this.counts.noRightAttempt / n };
  }
}
