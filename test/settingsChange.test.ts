// A settings change speaks: each changed setting named with both values and when it takes effect;
// and the recipe line states reward, advantage, lr and schedule, B × G, epochs and P.
import { describe, expect, it } from 'vitest';
import { DEFAULT_TRAIN } from '../src/core/grpo/config';
import { presetCatalog } from '../src/core/sim/presets';
import { DEFAULT_PREFERENCE } from '../src/core/preference';
import { describeSettingsChange, recipeLine } from '../src/store/settingsChange';
import type { LabSettings } from '../src/worker/protocol';

const base: LabSettings = {
  catalog: presetCatalog('toolorchestra'), train: DEFAULT_TRAIN,
  delayMs: 0, evalTasks: 200, evalSuite: 'toolscale',
};
const withTrain = (t: Partial<typeof DEFAULT_TRAIN>): LabSettings => ({ ...base, train: { ...DEFAULT_TRAIN, ...t } });

describe('describeSettingsChange', () => {
  it('names the setting, both values and the next iteration', () => {
    expect(describeSettingsChange(base, withTrain({ reward: 'weighted', learningRate: 0.0005 }), 112)).toBe(
      'Settings changed: learning rate 0.0015 → 0.0005; reward mode "paper (normalised, gated)" → "weighted sum '
      + '(fixed costs)". Training uses it from the next iteration (113).');
  });
  it('says when a change builds a new network or a new pool, and when it leaves training alone', () => {
    expect(describeSettingsChange(base, withTrain({ policy: { ...DEFAULT_TRAIN.policy, width: 32 } }), 5)).toBe(
      'Settings changed: network width 64 → 32. A new network: the iteration count starts again at 0.');
    expect(describeSettingsChange(base, withTrain({ poolSize: 500 }), 0)).toBe(
      'Settings changed: training pool size 2000 → 500. Training uses it from the next iteration (1), on a new training pool.');
    expect(describeSettingsChange(base, { ...base, evalTasks: 400 }, 9)).toBe(
      'Settings changed: held-out tasks 200 → 400. The held-out measurement and the run use it now; training is unchanged.');
    expect(describeSettingsChange(base, withTrain({ lrDecay: { start: 0, end: 2000 } }), 0)).toContain(
      'learning-rate schedule off → to 0 from 0 to 2000');
  });
  it('is silent when nothing that it names changed (the sliders speak for themselves)', () => {
    expect(describeSettingsChange(base, withTrain({ preference: { ...DEFAULT_PREFERENCE, cost: 1 } }), 3)).toBeNull();
    expect(describeSettingsChange(base, { ...base }, 3)).toBeNull();
  });
});

describe('recipeLine', () => {
  it('states the recipe in one line', () => {
    expect(recipeLine(DEFAULT_TRAIN)).toBe('reward paper (normalised, gated) · advantage (R − mean)/std · lr 0.0015 '
      + 'constant · B × G = 16 × 8 · μ = 2 · P from the sliders');
    expect(recipeLine({ ...DEFAULT_TRAIN, reward: 'success-first', advantage: { ...DEFAULT_TRAIN.advantage, normalizeStd: false },
      lrDecay: { start: 0, end: 2000 }, preferenceMode: 'random' })).toBe('reward success first (shares of calls) · advantage '
      + 'R − mean · lr 0.0015 → 0 by iteration 2000 · B × G = 16 × 8 · μ = 2 · P random per task');
  });
});
