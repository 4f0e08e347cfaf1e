// Every code the workers and the core send has its words (store/workerText.ts), with its numbers in
// them: each table is keyed by the codes, so a code added to the protocol without words here fails to
// compile. The expected sentences are written by hand.

import { describe, expect, it } from 'vitest';
import {
  activityText, compareProblemText, divergedText, errorText, importedText, keptText, noticeText, restoredText, stopText,
  type PageActivity,
} from '../src/store/workerText';
import { RefusedError } from '../src/worker/client';
import { BrokenPolicyError, errorReply } from '../src/worker/runStops';
import type { CompareProblem } from '../src/worker/compareProtocol';
import type { Replacement, RunStop } from '../src/worker/protocol';

type Cases<U extends { code: string }> = { [C in U['code']]: [U & { code: C }, string][] };

const ACTIVITIES: Cases<PageActivity> = {
  training: [[{ code: 'training' }, 'training']],
  stepping: [[{ code: 'stepping' }, 'one GRPO iteration (Step)']],
  resetting: [[{ code: 'resetting' }, 'resetting the policy']],
  finishing: [[{ code: 'finishing' }, 'finishing the iteration in flight']],
  evaluating: [[{ code: 'evaluating' }, 'evaluating the trade-off view']],
  encoding: [[{ code: 'encoding' }, 'encoding the share file']],
  idle: [[{ code: 'idle' }, 'idle']],
  slowMotion: [[{ code: 'slowMotion', phase: 3, of: 8 }, 'slow motion: phase 3 of 8']],
  starting: [[{ code: 'starting' }, 'starting']],
  restarting: [[{ code: 'restarting' }, 'stopped: starting afresh']],
  stopped: [[{ code: 'stopped' }, 'stopped: reload the page']],
};

const collapse = { iteration: 42, entropy: 0.0123, smoothedReward: 0.1234, bestReward: 0.8766, bestIteration: 17 };
const COLLAPSED = 'Training stopped: the policy collapsed at iteration 42: its entropy is 0.012 (it always takes the same '
  + 'action) and its smoothed reward fell to 0.123 from 0.877 at iteration 17';

const STOPS: Cases<RunStop> = {
  diverged: [
    [{ code: 'diverged', divergence: { iteration: 12, nonFiniteWeights: 345 } }, 'Training stopped: iteration 12: the '
      + 'update produced 345 non-finite weights; the last finite weights were restored and Adam was reset. Try a lower '
      + 'learning rate or a smaller gradient-norm clip.'],
    [{ code: 'diverged', divergence: { iteration: 3, nonFiniteWeights: 1 } }, 'Training stopped: iteration 3: the '
      + 'update produced 1 non-finite weight; the last finite weights were restored and Adam was reset. Try a lower '
      + 'learning rate or a smaller gradient-norm clip.'],
    [{ code: 'diverged', divergence: { iteration: 7, nonFiniteWeights: 0 } }, 'Training stopped: iteration 7: the update '
      + 'produced a non-finite loss; the last finite weights were restored and Adam was reset. Try a lower learning rate '
      + 'or a smaller gradient-norm clip.'],
  ],
  collapsed: [
    [{ code: 'collapsed', collapse }, COLLAPSED],
    [{ code: 'collapsed', collapse, pausedWithBest: 17 }, `${COLLAPSED}. Paused so the run does not wipe out the policy: `
      + '"Restore best policy" puts back iteration 17\'s weights. Try a lower learning rate.'],
  ],
  nonFinite: [[{ code: 'nonFinite', detail: "the policy's action probabilities are not finite (slot 3: log π = NaN)" },
    "Training stopped: the policy's action probabilities are not finite (slot 3: log π = NaN). The weights were left as "
    + 'they are; press Reset or import another policy.']],
  backendRebuilt: [
    [{ code: 'backendRebuilt', cause: 'the backend is broken', backend: 'webgl', restoredIteration: 480 }, 'Training '
      + 'stopped: The iteration failed: the backend is broken. The webgl backend was started afresh and the weights of '
      + 'iteration 480 (the last ones read back finite) were restored'],
    [{ code: 'backendRebuilt', cause: 'context lost', backend: 'webgpu', restoredIteration: null }, 'Training stopped: '
      + 'The iteration failed: context lost. The webgpu backend was started afresh and no finite weights had been read '
      + 'back yet, so the policy starts fresh'],
  ],
  failed: [[{ code: 'failed', error: 'out of memory' }, 'Training stopped: The iteration failed: out of memory']],
};

const REPLACED: Record<Replacement, string> = {
  reset: 'the policy before Reset (iteration 5)',
  restoreBest: 'the policy before Restore best (iteration 5)',
  undo: 'the policy before the undo (iteration 5)',
  newNetwork: 'the policy before the new network (iteration 5)',
  import: 'the policy before the import (iteration 5)',
  restart: 'the policy before the restart (iteration 5)',
  savedPolicy: 'the policy before your saved policy (iteration 5)',
  shippedPolicy: 'the policy before loading the shipped policy (iteration 5)',
  sharedLab: 'the policy before the shared lab (iteration 5)',
  linkPolicy: "the policy before the link's policy (iteration 5)",
  previousPolicy: 'the policy before putting the previous policy back (iteration 5)',
};

const COMPARE: Cases<CompareProblem> = {
  noPreset: [[{ code: 'noPreset', presetId: 'lr-x' }, 'there is no comparison preset "lr-x"']],
  noBackend: [[{ code: 'noBackend', error: 'no adapter' }, 'the comparison could not start tfjs: no adapter']],
  stoppedAt: [[{ code: 'stoppedAt', iteration: 31, of: 120, seed: 3, error: 'boom' },
    'the comparison stopped at iteration 31 of 120 of seed 3: boom']],
  notStarted: [[{ code: 'notStarted', error: 'empty pool' }, 'the comparison could not start: empty pool']],
  failed: [[{ code: 'failed', error: 'worker gone' }, 'worker gone']],
};

const cases = <U extends { code: string }>(table: Cases<U>) => Object.values(table).flat() as [U, string][];

describe('the words for the workers\' codes', () => {
  it.each(cases(ACTIVITIES))('activity %j', (a, text) => expect(activityText(a)).toBe(text));

  it.each(cases(STOPS))('run stop %j', (stop, text) => expect(stopText(stop)).toBe(text));

  it('the learning rate\'s end, in the words the guards spec looks for', () => {
    expect(noticeText({ code: 'lrEnded', end: 250 })).toBe('The learning rate reached 0 at iteration 250, the end of '
      + 'its schedule: from there on an iteration (a Start, a Step or a slow-motion update) does not change the weights, '
      + 'and a run pauses. Raise "lr → 0 by iteration" (or set it to 0 for a constant rate) to train on.');
  });

  it.each(Object.entries(REPLACED) as [Replacement, string][])('undo label after %s', (replacedBy, text) => {
    expect(keptText({ code: 'before', replacedBy, iteration: 5 })).toBe(text);
    expect(restoredText({ code: 'before', replacedBy, iteration: 5 })).toBe(`Brought back ${text}`);
  });

  it('the best policy kept, and what Restore best says of it', () => {
    const best = { code: 'best', iteration: 64 } as const;
    expect(keptText(best)).toBe('the best policy of this run (the one that played iteration 64)');
    expect(restoredText(best)).toBe('Restored the best policy of this run (the one that played iteration 64); Adam\'s '
      + 'moments restart');
    expect(restoredText(best, true)).toBe('Restored the best policy of this run (the one that played iteration 64); '
      + 'Adam\'s moments restart (Undo brings back the policy it replaced)');
  });

  it('an imported policy, with and without the iterations its file records', () => {
    const r = { width: 128, depth: 3, catalogName: 'toolorchestra', recordedIterations: 1 };
    expect(importedText(r)).toBe('policy 128×3 trained on catalog "toolorchestra" for 1 iteration (its file says so; '
      + 'the lab counts its own from 0)');
    expect(importedText({ ...r, recordedIterations: 900 })).toContain('for 900 iterations');
    expect(importedText({ ...r, recordedIterations: null })).toBe('policy 128×3 trained on catalog "toolorchestra"');
  });

  it('a refused export in the page\'s words; any other error as its message', () => {
    const refused = new RefusedError('export refused: the current policy is broken (NaN logits)',
      { code: 'brokenPolicy', why: 'NaN logits' });
    expect(errorText(refused)).toBe('export refused: the current policy is broken (NaN logits); press Reset or import '
      + 'a policy');
    expect(errorText(new Error('the lab is not configured yet'))).toBe('the lab is not configured yet');
  });

  it('a broken policy\'s export travels as a refusal: the worker\'s reply carries it, the page words it', () => {
    const reply = errorReply(7, new BrokenPolicyError('NaN logits'));
    expect(reply).toEqual({ id: 7, type: 'error', message: 'export refused: the current policy is broken (NaN logits)',
      refusal: { code: 'brokenPolicy', why: 'NaN logits' } });
    // As the client rejects it (client.ts: a reply with a refusal becomes a RefusedError).
    expect(errorText(new RefusedError(reply.message, reply.refusal as NonNullable<typeof reply.refusal>)))
      .toBe('export refused: the current policy is broken (NaN logits); press Reset or import a policy');
    const other = errorReply(8, new Error('the lab is not configured yet'));
    expect(other).toEqual({ id: 8, type: 'error', message: 'the lab is not configured yet' });
  });

  it('the divergence alone, as the CLI and slow motion\'s update phase say it', () => {
    expect(divergedText({ iteration: 3, nonFiniteWeights: 1 })).toBe('iteration 3: the update produced 1 non-finite '
      + 'weight; the last finite weights were restored and Adam was reset. Try a lower learning rate or a smaller '
      + 'gradient-norm clip.');
  });

  it.each(cases(COMPARE))('comparison problem %j', (p, text) => expect(compareProblemText(p)).toBe(text));
});
