// The words for what the workers and the core report in codes and numbers (worker/protocol.ts,
// compareProtocol.ts): why training stopped, what the worker is doing, which policy is kept, a
// refusal. The one place these sentences are written, and the one that names the page's controls;
// the CLI's divergence warning uses divergedText too. test/workerText.test.ts checks every code.

import { count } from '../core/count';
import type { Divergence } from '../core/grpo/metrics';
import type { Collapse } from '../core/lab/collapseGuard';
import { errorMessage } from '../core/errorMessage';
import type { RefusedError } from '../worker/client';
import type { CompareProblem } from '../worker/compareProtocol';
import type { KeptPolicy, Refusal, Replacement, Reply, RunNotice, RunStop, WorkerActivity } from '../worker/protocol';

/** What the page shows as the worker's activity: the worker's own, or the page's while none answers. */
export type PageActivity = WorkerActivity | { code: 'starting' | 'restarting' | 'stopped' };

const ACTIVITY: Record<Exclude<PageActivity['code'], 'slowMotion'>, string> = {
  training: 'training',
  stepping: 'one GRPO iteration (Step)',
  resetting: 'resetting the policy',
  finishing: 'finishing the iteration in flight',
  evaluating: 'evaluating the trade-off view',
  encoding: 'encoding the share file',
  idle: 'idle',
  starting: 'starting',
  restarting: 'stopped: starting afresh',
  stopped: 'stopped: reload the page',
};

export const activityText = (a: PageActivity): string =>
  (a.code === 'slowMotion' ? `slow motion: phase ${a.phase} of ${a.of}` : ACTIVITY[a.code]);

/** A diverged update: said in a run's stop, in slow motion's update phase and by the CLI. */
export const divergedText = (d: Divergence): string => `iteration ${d.iteration}: the update produced ${
  d.nonFiniteWeights > 0 ? count(d.nonFiniteWeights, 'non-finite weight') : 'a non-finite loss'}; the last finite ` +
  'weights were restored and Adam was reset. Try a lower learning rate or a smaller gradient-norm clip.';

const collapseText = (c: Collapse): string => `the policy collapsed at iteration ${c.iteration}: its entropy is ` +
  `${c.entropy.toFixed(3)} (it always takes the same action) and its smoothed reward fell to ` +
  `${c.smoothedReward.toFixed(3)} from ${c.bestReward.toFixed(3)} at iteration ${c.bestIteration}`;

/** Why the run paused on a collapse, and what brings the policy back. */
const pausedText = (best: number | null): string => '. Paused so the run does not wipe out the policy: "Restore ' +
  `best policy" puts back iteration ${best}'s weights. Try a lower learning rate.`;

const rebuiltText = (s: Extract<RunStop, { code: 'backendRebuilt' }>): string => `The iteration failed: ${s.cause}. ` +
  `The ${s.backend} backend was started afresh and ${s.restoredIteration !== null
    ? `the weights of iteration ${s.restoredIteration} (the last ones read back finite) were restored`
    : 'no finite weights had been read back yet, so the policy starts fresh'}`;

/** Why training stopped, as its notice says it. */
export function stopText(s: RunStop): string {
  const why = ((): string => {
    switch (s.code) {
      case 'diverged': return divergedText(s.divergence);
      case 'collapsed':
        return collapseText(s.collapse) + (s.pausedWithBest === undefined ? '' : pausedText(s.pausedWithBest));
      case 'nonFinite': return `${s.detail}. The weights were left as they are; press Reset or import another policy.`;
      case 'backendRebuilt': return rebuiltText(s);
      case 'failed': return `The iteration failed: ${s.error}`;
    }
  })();
  return `Training stopped: ${why}`;
}

/** A pause that is no failure. */
export const noticeText = (n: RunNotice): string => `The learning rate reached 0 at iteration ${n.end}, the end ` +
  'of its schedule: from there on an iteration (a Start, a Step or a slow-motion update) does not change the ' +
  'weights, and a run pauses. Raise "lr → 0 by iteration" (or set it to 0 for a constant rate) to train on.';

const REPLACED_BY: Record<Replacement, string> = {
  reset: 'Reset',
  restoreBest: 'Restore best',
  undo: 'the undo',
  newNetwork: 'the new network',
  import: 'the import',
  restart: 'the restart',
  savedPolicy: 'your saved policy',
  shippedPolicy: 'loading the shipped policy',
  sharedLab: 'the shared lab',
  linkPolicy: "the link's policy",
  previousPolicy: 'putting the previous policy back',
};

/** A kept policy, as Undo's title and the notices name it. */
export const keptText = (k: KeptPolicy): string => (k.code === 'best'
  ? `the best policy of this run (the one that played iteration ${k.iteration})`
  : `the policy before ${REPLACED_BY[k.replacedBy]} (iteration ${k.iteration})`);

/** What Restore best or Undo brought back; `kept`: Restore best kept the policy it replaced for Undo. */
export const restoredText = (k: KeptPolicy, kept = false): string => (k.code === 'best'
  ? `Restored ${keptText(k)}; Adam's moments restart${kept ? ' (Undo brings back the policy it replaced)' : ''}`
  : `Brought back ${keptText(k)}`);

/** An imported policy, as its notice names it. */
export const importedText = (r: Pick<Extract<Reply, { type: 'imported' }>, 'width' | 'depth' | 'catalogName'
  | 'recordedIterations'>): string => `policy ${r.width}×${r.depth} trained on catalog "${r.catalogName}"${
  r.recordedIterations !== null
    ? ` for ${count(r.recordedIterations, 'iteration')} (its file says so; the lab counts its own from 0)` : ''}`;

const refusalText = (r: Refusal): string =>
  `export refused: the current policy is broken (${r.why}); press Reset or import a policy`;

/** A failed request's error as the page says it: a refusal in the page's words, else the error's message. */
// A refusal is known by what it carries, not by its class: the CLI uses this module without the worker's client.
export const errorText = (e: unknown): string => {
  const refusal = (e as Partial<RefusedError> | undefined)?.refusal;
  return refusal ? refusalText(refusal) : errorMessage(e);
};

/** Why a comparison stopped. */
export function compareProblemText(p: CompareProblem): string {
  switch (p.code) {
    case 'noPreset': return `there is no comparison preset "${p.presetId}"`;
    case 'noBackend': return `the comparison could not start tfjs: ${p.error}`;
    case 'stoppedAt':
      return `the comparison stopped at iteration ${p.iteration} of ${p.of} of seed ${p.seed}: ${p.error}`;
    case 'notStarted': return `the comparison could not start: ${p.error}`;
    case 'failed': return p.error;
  }
}
