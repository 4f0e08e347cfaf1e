// A diverging update, and slow motion's word on a spent learning-rate schedule, name the iterations the page
// counts: after a change of settings that keeps the policy (or an import, or a restore) a new trainer counts
// its own iterations from 0, and the session reports the lab's count as it does in the metrics.
import { beforeAll, describe, expect, it } from 'vitest';
import { readUrl } from '../src/store/urlState';
import type { LabSettings } from '../src/worker/protocol';
import { LabSession } from '../src/worker/session';
import { useCpu } from './tfSetup';

beforeAll(async () => { await useCpu(); });

function settings(learningRate: number, lrTo0 = 0): LabSettings {
  const { config } = readUrl('?seed=3');
  const train = {
    ...config.train, learningRate, poolSize: 40, batchSize: 2, groupSize: 2, policy: { ...config.train.policy, width: 8, depth: 1 },
    // No homogeneity filter, so that the update runs even when every group of this tiny batch is homogeneous.
    advantage: { ...config.train.advantage, filterStd: null }, lrDecay: lrTo0 > 0 ? { start: 0, end: lrTo0 } : null,
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

  it('slow motion says where the schedule reached 0 in the lab\'s count, not the new trainer\'s', async () => {
    const session = new LabSession();
    session.configure(settings(0.001, 3));
    for (let i = 0; i < 4; i++) await session.step();
    // A new trainer from iteration 4 (another learning rate), whose own schedule is shifted to end at 3 − 4 = −1.
    session.configure(settings(0.002, 3));
    let report;
    for (let k = 1; k <= 7; k++) report = (await session.nextPhase()).report;
    expect(report?.index).toBe(7);
    expect(report?.iteration).toBe(5);
    expect(report?.summary).toContain('its schedule reached 0 at iteration 3)');
  }, 60_000);
});
