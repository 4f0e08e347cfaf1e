// The eight phases of a GRPO iteration, by name (phases.ts runs them). Kept apart from phases.ts,
// which needs tfjs, so that the page can name the phases without loading tfjs.

export const PHASE_NAMES = [
  'Sample tasks and preferences',
  'Roll out G trajectories per task',
  'Measure M',
  'Normalise',
  'Gate and weight: R',
  'Advantage: A',
  'Update: ratio, clip, KL',
  'New probabilities',
] as const;
export type PhaseName = (typeof PHASE_NAMES)[number];
