// The reward modes' one record (core/grpo/rewardModes.ts): every mode has every field, and the slow
// motion's phase report, the formula panel, the group inspector and the preference panel take their
// words from it (no other source file spells a mode's formula or explanation).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TRAIN, type TrainConfig } from '../src/core/grpo/config';
import { runNextPhase } from '../src/core/grpo/phases';
import { REWARD_MODE_INFO, REWARD_MODE_LABELS, REWARD_MODES, rewardWithNumbers } from '../src/core/grpo/rewardModes';
import { GrpoTrainer } from '../src/core/grpo/trainer';
import { phaseReport } from '../src/core/lab/phaseReport';
import { DEFAULT_SIM } from '../src/core/sim/callModel';
import { presetCatalog } from '../src/core/sim/presets';
import { generateTasks } from '../src/core/sim/tasks';
import { formulasFor } from '../src/ui/math/formulas';
import { useCpu } from './tfSetup';

beforeAll(async () => { await useCpu(); });

const SRC = join(import.meta.dirname, '..', 'src');
const sources = (dir: string): string[] => readdirSync(dir).flatMap((f) => {
  const p = join(dir, f);
  return statSync(p).isDirectory() ? sources(p) : /\.tsx?$/.test(f) ? [p] : [];
});

describe('reward modes', () => {
  it('every mode has a label, what M measures, a formula, an explanation and each flag', () => {
    expect(Object.keys(REWARD_MODE_INFO).sort()).toEqual([...REWARD_MODES].sort());
    for (const mode of REWARD_MODES) {
      const m = REWARD_MODE_INFO[mode];
      for (const k of ['label', 'measures', 'formula', 'explanation'] as const) {
        expect(typeof m[k], `${mode}.${k}`).toBe('string');
        expect(m[k].length, `${mode}.${k}`).toBeGreaterThan(3);
      }
      expect(m.formula.startsWith('R = '), mode).toBe(true);
      for (const k of ['readsPreference', 'gated', 'shares', 'normalises'] as const) {
        expect(typeof m[k], `${mode}.${k}`).toBe('boolean');
      }
      expect(m.substitute === null || typeof m.substitute === 'function', mode).toBe(true);
      for (const k of ['title', 'reading'] as const) if (m.panel) expect(m.panel[k].length, k).toBeGreaterThan(3);
      expect(REWARD_MODE_LABELS[mode]).toBe(m.label);
    }
    expect(new Set(REWARD_MODES.map((m) => REWARD_MODE_INFO[m].label)).size).toBe(REWARD_MODES.length);
    // The paper's formula is the panel's fallback, so it must have one.
    expect(REWARD_MODE_INFO.toolorchestra.panel).not.toBeNull();
  });

  it('the formula panel shows the mode\'s title and explanation, or the paper\'s formula titled with the mode', () => {
    for (const mode of REWARD_MODES) {
      const [spec] = formulasFor({ reward: mode, normalizeStd: true });
      const m = REWARD_MODE_INFO[mode];
      if (m.panel) {
        expect(spec?.title).toBe(m.panel.title);
        expect(spec?.explain).toBe(m.explanation);
        expect(spec?.reading).toBe(m.panel.reading);
      } else {
        expect(spec?.title).toContain(m.label);
        expect(spec?.explain).toBe(REWARD_MODE_INFO.toolorchestra.explanation);
      }
    }
  });

  it('the slow motion\'s phases 3 and 5 say what M measures, R\'s formula and its explanation', async () => {
    const catalog = presetCatalog('toolorchestra');
    const pool = generateTasks(catalog, { seed: 4, count: 60 }).tasks;
    for (const mode of REWARD_MODES) {
      const cfg: TrainConfig = {
        ...DEFAULT_TRAIN, reward: mode, batchTasks: 2, groupSize: 3,
        policy: { width: 8, depth: 1, seed: 2 }, sim: { ...DEFAULT_SIM, maxTurns: 6 },
      };
      const t = new GrpoTrainer(catalog, cfg, pool);
      const s = t.begin({ observe: true });
      const summaries: string[] = [];
      while (s.next < 5 && await runNextPhase(s)) summaries.push(phaseReport(s).summary);
      const m = REWARD_MODE_INFO[mode];
      expect(summaries[2]).toContain(`M = [${m.measures}…`);
      expect(summaries[4]).toContain(m.formula);
      expect(summaries[4]).toContain(m.explanation);
      expect(summaries[4]?.includes('with P = ['), mode).toBe(m.readsPreference);
      t.dispose();
    }
  });

  it('the group inspector writes a success\'s numbers into the formula (worked out by hand)', () => {
    const dims = ['a', 'b', 'outcome', '−cost', '−latency'];
    // P = [0, 1, 0.5, 0.5, 0] and M̃ = [0.3, 1, 1, 0.25, 0]: non-zero terms 1·1 [b], 0.5·1 [outcome], 0.5·0.25 [−cost].
    const P = [0, 1, 0.5, 0.5, 0], mNorm = [0.3, 1, 1, 0.25, 0];
    // Paper: R = 1 + 0.5 + 0.125 = 1.625. Success first: ΣP = 2, R = 1 + 1.5·1.625/2 = 2.21875.
    expect(rewardWithNumbers('toolorchestra', { outcome: 1, reward: 1.625, mNorm }, P, dims))
      .toBe('R = 1 · (1·1.000[b] + 0.5·1.000[outcome] + 0.5·0.250[−cost]) = 1.625');
    expect(rewardWithNumbers('success-first', { outcome: 1, reward: 2.21875, mNorm }, P, dims))
      .toBe('R = 1 · (1 + 1.5 · (1·1.000[b] + 0.5·1.000[outcome] + 0.5·0.250[−cost]) / 2) = 2.219');
    expect(rewardWithNumbers('toolorchestra', { outcome: 0, reward: 0, mNorm }, P, dims))
      .toBe('R = 0 (failed: the outcome gate zeroes the reward)');
    // The weighted sum gates nothing: a failure with 2 calls of 500 tokens, slow, scores 0 − 0.02 − 0.1 + 0.1 = −0.02.
    expect(rewardWithNumbers('weighted', { outcome: 0, reward: -0.02, mNorm }, P, dims))
      .toBe(`R = -0.020 (${REWARD_MODE_INFO.weighted.label} reward)`);
  });

  it('no other source file spells a mode\'s formula or explanation; the five that explain modes read them', () => {
    const home = join(SRC, 'core', 'grpo', 'rewardModes.ts');
    // ("R = outcome", the outcome-only formula, is too short to be told from other sentences.)
    const texts = REWARD_MODES.flatMap((m) => [REWARD_MODE_INFO[m].formula, REWARD_MODE_INFO[m].explanation])
      .filter((t) => t.length > 20);
    for (const file of sources(SRC).filter((f) => f !== home)) {
      const text = readFileSync(file, 'utf8');
      for (const t of texts) expect(text.includes(t), `${file} spells "${t.slice(0, 40)}…"`).toBe(false);
    }
    const readers = [
      'core/grpo/reward.ts', 'core/lab/phaseReport.ts', 'ui/math/formulas.ts',
      'ui/GroupInspector.tsx', 'ui/PreferencePanel.tsx',
    ];
    for (const r of readers) {
      const text = readFileSync(join(SRC, r), 'utf8');
      expect(text, r).toMatch(/from '[./]*(core\/)?grpo\/rewardModes'|from '\.\/rewardModes'/);
      for (const m of REWARD_MODES) {
        expect(text.includes(`'${REWARD_MODE_INFO[m].label}'`), `${r}: ${m}'s label`).toBe(false);
      }
    }
  });
});
