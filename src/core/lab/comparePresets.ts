// The comparisons a teacher runs side by side (pairedRuns.ts): two configurations that differ in
// one knob, trained on the same seed, tasks and starting policy. Each preset names the knob, says
// in one line what to look for, and gives the two labelled patches applied to the lab's settings.
// Patches change training knobs only (reward, advantage, learning rate): never the policy's shape,
// the batch, the simulation or the task pool, which both runs must share.
// What each "look for" line says was measured (Node wasm, default settings, 150 iterations, mean of
// the last 10): paper reward 58.9% at $0.054 against the weighted sum 0.4% at $0.0004; std division
// 58.9% at $0.054 against mean only 58.4% at $0.068; the official code's +cost 58.0% at $0.371
// (6.8× the cost); learning rate 1.5e-3 58.9% against 1.5e-4 18.0%.

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
  /** One line: what the overlaid curves should show. */
  lookFor: string;
  sides: readonly [CompareSide, CompareSide];
}

export const COMPARE_PRESETS: readonly ComparePreset[] = [
  {
    id: 'reward',
    title: 'Paper reward vs weighted sum',
    lookFor: 'The weighted sum charges −0.0001 per token, and one model call moves thousands of tokens, so its penalty outweighs the +1 for solving: that run learns to stop calling tools (cost near 0, accuracy near 0), while the paper’s reward, normalised within each group, lifts accuracy. The rewards have different scales: compare accuracy and cost, not the reward’s height.',
    sides: [
      { label: 'paper reward (normalised)', patch: { reward: 'toolorchestra' } },
      { label: 'weighted sum (fixed costs)', patch: { reward: 'weighted' } },
    ],
  },
  {
    id: 'std',
    title: 'Divide by the group std or not (Dr. GRPO)',
    lookFor: 'Adam largely undoes an overall scale of the advantages, so what differs is mostly how groups are weighted against each other: with std division every kept group pushes equally, mean-only (Dr. GRPO) pushes in proportion to its reward spread. Expect curves that stay close; look at the early slope and at cost.',
    sides: [
      { label: 'A = (R − mean)/std', patch: { advantage: { normalizeStd: true } } },
      { label: 'A = R − mean (Dr. GRPO)', patch: { advantage: { normalizeStd: false } } },
    ],
  },
  {
    id: 'official',
    title: 'Paper reward vs the official code’s',
    lookFor: 'The official code puts +cost where the paper has −cost, so among a group’s successes it rewards the more expensive rollout: accuracy rises about as fast, but its cost per task climbs to several times the paper’s.',
    sides: [
      { label: 'paper reward (−cost)', patch: { reward: 'toolorchestra' } },
      { label: 'official code (+cost sign bug)', patch: { reward: 'toolorchestra-official' } },
    ],
  },
  {
    id: 'lr',
    title: 'Learning rate 1.5e-3 (the default) vs 1.5e-4',
    lookFor: 'Ten times the step size: the larger rate lifts accuracy within tens of iterations while the smaller one stays near the starting policy for longer and is still behind at the end (a rate too large would overshoot and wobble instead).',
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
