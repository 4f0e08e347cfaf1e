// A diverging update names the iteration the page counts: after a change of settings that keeps the policy
// (or an import, or a restore) a new trainer counts its own iterations from 0, and the session reports
// the lab's count in the divergence as it does in the metrics.
import { beforeAll, describe, expect, it } from 'vitest';
import { readUrl } from '../src/store/urlState';
import type { LabSettings } from '../src/worker/protocol';
import { LabSession } from '../src/worker/session';
import { useCpu } from './tfSetup';

beforeAll(async () => { await useCpu(); });

function settings(learningRate: number): LabSettings {
  const { config } = readUrl('?seed=3');
  const train = {
    ...config.train, learningRate, poolSize: 40, batchSize: 2, groupSize: 2, policy: { ...config.train.policy, width: 8, depth: 1 },
    // No homogeneity filter, so that the update runs even when every group of this tiny batch is homogeneous.
    advantage: { ...config.train.advantage, filterStd: null },
  };
  return { catalog: config.catalog, train, delayMs: 0, evalTasks: 10, evalSuite: 'toolscale' };
}

describe('a divergence in the lab', () => {
  it('is reported at the lab\'s iteration, not the trainer\'s own count', async () => {
    const session = new LabSession();
    session.configure(settings(0.001));
    for (let i = 0; i < 3; i++) await session.step();
    expect(session.iteration).toBe(3);
    // A NaN learning rate: the settings change keeps the policy, so a new trainer goes on from iteration 3.
    session.configure(settings(Number.NaN));
    const m = await session.step();
    expect(m?.iteration).toBe(4);
    expect(m?.diverged?.iteration).toBe(4);
  }, 60_000);
});
