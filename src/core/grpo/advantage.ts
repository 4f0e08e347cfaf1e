// Group-relative advantage: A = (R − mean_group R)/(std_group R + 1e-6) with the sample std
// (n − 1), as in the official ToolOrchestra code and veRL. Options: mean only (Dr. GRPO), clip to
// ±c (the paper's code clips to ±3), and the homogeneity filter that drops groups whose reward
// std is below a threshold (0.1 in the paper). Every decision of a trajectory gets its A.

export interface AdvantageOptions {
  /** Divide by the group's std (false: Dr. GRPO, mean only). */
  normalizeStd: boolean;
  /** Clip A to [−clip, clip]; null = no clip. */
  clip: number | null;
  /** Drop groups with reward std below this; null = keep all. */
  filterStd: number | null;
}

export const DEFAULT_ADVANTAGE: Readonly<AdvantageOptions> = { normalizeStd: true, clip: 3, filterStd: 0.1 };
export const ADV_EPS = 1e-6;

export interface GroupAdvantage {
  advantages: number[];
  /** Before the ±clip: (R − mean)/(std + ε), or R − mean without the std division (0 when filtered). */
  raw: number[];
  mean: number;
  std: number;
  /** True when the homogeneity filter dropped the group (its advantages are 0 and it is not trained on). */
  filtered: boolean;
}

export function sampleStd(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const m = xs.reduce((a, x) => a + x, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) * (x - m), 0) / (xs.length - 1));
}

/**
 * A group's advantages. A group of one has no baseline: as veRL does, its mean is taken as 0 and
 * its std as 1, so A = r/(1 + 1e-6) (the trainer says the group baseline is then meaningless).
 */
export function groupAdvantages(rewards: readonly number[], opts: AdvantageOptions = DEFAULT_ADVANTAGE): GroupAdvantage {
  const n = rewards.length;
  const single = n === 1;
  const mean = single ? 0 : n ? rewards.reduce((a, x) => a + x, 0) / n : 0;
  const std = single ? 1 : sampleStd(rewards);
  const filtered = opts.filterStd !== null && std < opts.filterStd;
  const raw = rewards.map((r) => (filtered ? 0 : opts.normalizeStd ? (r - mean) / (std + ADV_EPS) : r - mean));
  const advantages = raw.map((a) => (opts.clip !== null ? Math.max(-opts.clip, Math.min(opts.clip, a)) : a));
  return { advantages, raw, mean, std, filtered };
}
