// The comparisons a teacher runs side by side (pairedRuns.ts): two configurations that differ in
// one knob, trained over several seeds on the same tasks and starting policy per seed. Each preset
// names the knob, asks its question and says why the two could differ, never what the runs show:
// the conclusion is computed from the runs (seedSpread.ts). Patches change training knobs only
// (reward, advantage, learning rate), never the policy, batch, simulation or pool both sides share.

import type { TrainConfig } from '../grpo/config';
import type { AdvantageOptions } from '../grpo/advantage';
import type { WeightedCoefficients } from '../grpo/reward';

/** A change to a configuration; `advantage` and `weighted` are merged key by key. */
export type ConfigPatch = Partial<Omit<TrainConfig, 'advantage' | 'weighted'>> & {
  advantage?: Partial<AdvantageOptions>;
  weighted?: Partial<WeightedCoefficients>;
};

export interface CompareSide {
  /** Shown in the legend and the summary, e.g. "paper reward". */
  label: string;
  patch: ConfigPatch;
}

export interface ComparePreset {
  id: string;
  title: string;
  /** What the comparison asks, in one sentence. */
  question: string;
  /** Why the two could differ: the mechanism, not an outcome (the runs give that). */
  mechanism: string;
  sides: readonly [CompareSide, CompareSide];
}

export const COMPARE_PRESETS: readonly ComparePreset[] = [
  {
    id: 'reward',
    title: 'Paper reward vs weighted sum',
    question:
      'Does a fixed weighted sum of outcome and costs teach the same use of tools as the paper’s normalised' +
      ' reward?',
    mechanism:
      'The weighted sum charges −0.0001 per token, and one model call moves thousands of tokens, so its ' +
      'cost penalty can outweigh the +1 for solving; the paper’s reward normalises each term within the ' +
      'group and gates on the outcome, so among a group’s rollouts cost never beats solving. The rewards ' +
      'have different scales: compare accuracy and cost, not the reward’s height.',
    sides: [
      { label: 'paper reward (normalised)', patch: { reward: 'toolorchestra' } },
      { label: 'weighted sum (fixed costs)', patch: { reward: 'weighted' } },
    ],
  },
  {
    id: 'std',
    title: 'Divide by the group std or not (Dr. GRPO)',
    question:
      'Does dividing the advantages by the group’s standard deviation change how fast or how cheaply the ' +
      'policy learns?',
    mechanism:
      'Adam largely undoes an overall scale of the advantages, so what differs is mostly how groups are ' +
      'weighted against each other: with std division every kept group pushes equally, mean-only (Dr. GRPO)' +
      ' pushes in proportion to its reward spread.',
    sides: [
      { label: 'A = (R − mean)/std', patch: { advantage: { normalizeStd: true } } },
      { label: 'A = R − mean (Dr. GRPO)', patch: { advantage: { normalizeStd: false } } },
    ],
  },
  {
    id: 'official',
    title: 'Paper reward vs the official code’s',
    question: 'Does the official code’s sign on the cost term change what the policy spends?',
    mechanism:
      'The official code puts +cost where the paper has −cost, so among a group’s successes it rewards the ' +
      'more expensive rollout; the outcome term is the same on both sides.',
    sides: [
      { label: 'paper reward (−cost)', patch: { reward: 'toolorchestra' } },
      { label: 'official code (+cost sign bug)', patch: { reward: 'toolorchestra-official' } },
    ],
  },
  {
    id: 'lr',
    title: 'Learning rate 1.5e-3 (the default) vs 1.5e-4',
    question:
      'Does ten times the step size (1.5e-3 against 1.5e-4) change how far the policy gets in the same ' +
      'iterations?',
    mechanism:
      'Each update moves the weights about ten times less with the smaller rate, so it can stay nearer the ' +
      'starting policy for longer; a rate too large would overshoot and wobble instead.',
    sides: [
      { label: 'learning rate 1.5e-3', patch: { learningRate: 1.5e-3 } },
      { label: 'learning rate 1.5e-4', patch: { learningRate: 1.5e-4 } },
    ],
  },
];

export function comparePreset(id: string): ComparePreset | undefined {
  return COMPARE_PRESETS.find((p) => p.id === id);
}

/** `base` with `patch` applied (nested options merged, nothing shared with `base` mutated). */
export function applyPatch(base: TrainConfig, patch: ConfigPatch): TrainConfig {
  const { advantage, weighted, ...flat } = patch;
  return {
    ...base,
    ...flat,
    advantage: { ...base.advantage, ...advantage },
    weighted: { ...base.weighted, ...weighted },
  };
}

/** The two configurations of a preset on the lab's settings. */
export function presetConfigs(preset: ComparePreset, base: TrainConfig): [TrainConfig, TrainConfig] {
  return [applyPatch(base, preset.sides[0].patch), applyPatch(base, preset.sides[1].patch)];
}
