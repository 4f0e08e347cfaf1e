// The shipped recipe is one constant (core/grpo/recipe.ts): `train` given the recipe's options trains
// the configuration recipeConfig builds, and the lab's "Use that recipe" patch sets the same knobs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TRAIN } from '../src/core/grpo/config';
import { RECIPE_IN_WORDS, RECIPE_OPTIONS, recipeConfig, recipePatch, SHIPPED_RECIPE } from '../src/core/grpo/recipe';
import { cli, scratchDir } from './cliHelpers';

describe('the shipped recipe', () => {
  it('reads as docs/REPRODUCTION.md quotes it', () => {
    expect(`--seed ${SHIPPED_RECIPE.seed} --iterations ${SHIPPED_RECIPE.iterations} ${RECIPE_OPTIONS}`).toBe(
      '--seed 3 --iterations 3000 --random-preferences --reward success-first --advantage mean --lr 0.0015 '
      + '--entropy 0.03 --lr-decay 1');
    expect(RECIPE_IN_WORDS).toBe(
      'the success-first reward, the advantage without the std division, lr 0.0015 falling to 0 by iteration 3000');
  });

  it('the lab\'s patch keeps its other advantage options and decays over the whole run', () => {
    const patch = recipePatch({ advantage: { ...DEFAULT_TRAIN.advantage, clip: 2 } });
    expect(patch).toEqual({
      preferenceMode: 'random', reward: 'success-first', learningRate: 0.0015, entropyCoef: 0.03,
      advantage: { ...DEFAULT_TRAIN.advantage, clip: 2, normalizeStd: false }, lrDecay: { start: 0, end: 3000 },
    });
  });

  it('train with the recipe\'s options trains recipeConfig\'s configuration', () => {
    const out = join(scratchDir(), 'recipe');
    const small = ['--batch', '2', '--group', '2', '--pool', '40', '--width', '8', '--depth', '1'];
    const r = cli('train', '--seed', '3', '--iterations', '2', ...small, ...RECIPE_OPTIONS.split(' '), '--out', out);
    expect(r.code, r.err).toBe(0);
    const training = JSON.parse(readFileSync(join(out, 'orchestrator.json'), 'utf8')).userDefinedMetadata.training;
    const policy = { ...DEFAULT_TRAIN.policy, width: 8, depth: 1 };
    const base = { ...DEFAULT_TRAIN, batchTasks: 2, groupSize: 2, poolSize: 40, policy };
    // The recipe's success-first reward is recorded with its preference part's weight, 1.5, and the run's checkpoint
    // interval (the default, 100), which --resume keeps.
    expect(training).toEqual({ ...recipeConfig(2, 3, base), iterations: 2, backend: 'wasm', preferencePart: 1.5,
      checkpointEvery: 100 });
  }, 60_000);
});
