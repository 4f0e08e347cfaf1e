import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { groupAdvantages } from '../src/core/grpo/advantage';
import { DEFAULT_WEIGHTED, groupRewards, normaliseGroup, officialRewards, toolorchestraRewards, weightedReward, type TrajectoryStats } from '../src/core/grpo/reward';

// Two tools (a, b), then outcome, cost, latency: P = [p_a, p_b, p_outcome, p_cost, p_latency].
const traj = (calls: [number, number], outcome: number, costUSD: number, latencyS: number, tokens = 0): TrajectoryStats => ({ calls, outcome, costUSD, latencyS, tokens });
const plain = { normalizeStd: true, clip: null, filterStd: null };

describe('advantage', () => {
  it('rewards [1, 0, 0, 0] → [1.5, −0.5, −0.5, −0.5] with the sample std', () => {
    // mean 0.25; sample std = √((0.75² + 3·0.25²)/3) = √0.25 = 0.5; 0.75/0.5 = 1.5, −0.25/0.5 = −0.5.
    const a = groupAdvantages([1, 0, 0, 0], plain);
    [1.5, -0.5, -0.5, -0.5].forEach((x, i) => expect(a.advantages[i]).toBeCloseTo(x, 5));
    expect(a.std).toBeCloseTo(0.5, 12);
  });
  it('mean only (Dr. GRPO), clip ±3 and the homogeneity filter', () => {
    expect(groupAdvantages([1, 0, 0, 0], { ...plain, normalizeStd: false }).advantages).toEqual([0.75, -0.25, -0.25, -0.25]);
    // [1, 0×9]: mean 0.1, std = √((0.81 + 9·0.01)/9) = √0.1 ≈ 0.3162; 0.9/0.3162 ≈ 2.846 < 3, so use 1 among 20:
    // mean 0.05, std = √((0.9025 + 19·0.0025)/19) = √0.05 ≈ 0.2236; 0.95/0.2236 ≈ 4.249 → clipped to 3.
    const many = [1, ...new Array(19).fill(0)];
    expect(groupAdvantages(many, { ...plain, clip: 3 }).advantages[0]).toBe(3);
    expect(groupAdvantages(many, plain).advantages[0]).toBeCloseTo(0.95 / Math.sqrt(0.05), 4);
    const flat = groupAdvantages([0.5, 0.52, 0.49, 0.5], { ...plain, filterStd: 0.1 });
    expect(flat.filtered).toBe(true);
    expect(flat.advantages).toEqual([0, 0, 0, 0]);
  });
  it('an all-failed group gives all-zero rewards and advantages and no NaN', () => {
    const g = [traj([1, 0], 0, 0.2, 10), traj([0, 2], 0, 0.1, 5), traj([3, 1], 0, 0.4, 30)];
    const r = toolorchestraRewards(g, [0, 0, 1, 1, 1]);
    expect(r.rewards).toEqual([0, 0, 0]);
    const a = groupAdvantages(r.rewards, plain);
    expect(a.advantages).toEqual([0, 0, 0]);
    expect(a.advantages.every(Number.isFinite)).toBe(true);
  });
});

describe('toolorchestra reward', () => {
  it('the cheaper of two successful trajectories gets the higher reward under a cost preference (the official code’s sign bug fails this)', () => {
    // Costs 0.10 and 0.30, both solved, same calls and latency. −cost: −0.1 (max) and −0.3 (min),
    // so the cheap one normalises to 1, the dear one to 0. Outcome and latency are constant → 0.
    // P = [0, 0, 1, 1, 0]: R_cheap = 0 + 1·1 = 1, R_dear = 0.
    // The buggy code normalises +cost with −cost's bounds: (0.1 − (−0.3))/0.2 = 2 vs (0.3 + 0.3)/0.2 = 3 → dear wins.
    const g = [traj([1, 0], 1, 0.1, 10), traj([1, 0], 1, 0.3, 10)];
    const r = toolorchestraRewards(g, [0, 0, 1, 1, 0]);
    expect(r.rewards).toEqual([1, 0]);
    expect(r.mNorm[0]).toEqual([0, 0, 0, 1, 0]);
  });
  it('a constant dimension contributes 0', () => {
    expect(normaliseGroup([[2, 1, 5], [2, 0, 7]])).toEqual([[0, 1, 0], [0, 0, 1]]);
    const g = [traj([2, 0], 1, 0.2, 10), traj([2, 0], 1, 0.2, 10)];
    expect(toolorchestraRewards(g, [1, 1, 1, 1, 1]).rewards).toEqual([0, 0]);
  });
  it('a tool preference raises the reward of trajectories that use that tool', () => {
    // Tool a called 0, 1, 2 times; all solved, same cost and latency. a's counts normalise to 0, 0.5, 1.
    const g = [traj([0, 1], 1, 0.1, 5), traj([1, 1], 1, 0.1, 5), traj([2, 1], 1, 0.1, 5)];
    expect(toolorchestraRewards(g, [1, 0, 1, 0, 0]).rewards).toEqual([0, 0.5, 1]);
    expect(toolorchestraRewards(g, [0, 0, 1, 0, 0]).rewards).toEqual([0, 0, 0]);
  });
  it('failures are gated to 0 and normalisation spans the whole group', () => {
    // outcome dims: 1, 0, 1 → 1, 0, 1. −cost: −0.1, −0.5 (failure), −0.3 → (x + 0.5)/0.4: 1, 0, 0.5.
    // P = [0, 0, 1, 0.5, 0]: R = [1 + 0.5, 0 (failed), 1 + 0.25] = [1.5, 0, 1.25].
    const g = [traj([0, 0], 1, 0.1, 1), traj([0, 0], 0, 0.5, 1), traj([0, 0], 1, 0.3, 1)];
    expect(toolorchestraRewards(g, [0, 0, 1, 0.5, 0]).rewards).toEqual([1.5, 0, 1.25]);
  });
});

describe('success-first reward (shares of calls, a success worth 1 plus up to 1.5 for how well it matches P)', () => {
  it('pays a preferred tool by its share of the calls, not by how many calls pad it', () => {
    // Tool a (preferred) and b. Calls [1, 1], [3, 1], [1, 0]: a's shares 1/2, 3/4, 1 → normalised 0, 0.5, 1.
    // b's shares 1/2, 1/4, 0 → 1, 0.5, 0 (weight 0). All solved, same cost and latency (constant → 0).
    // P = [1, 0, 0, 0, 0], ΣP = 1: R = 1 + 1.5·a's normalised share = [1, 1.75, 2.5]. The one call of a alone
    // scores highest; counting calls, the paper's reward ranks the padded [3, 1] first: counts 1, 3, 1 → 0, 1, 0.
    const g = [traj([1, 1], 1, 0.1, 5), traj([3, 1], 1, 0.1, 5), traj([1, 0], 1, 0.1, 5)];
    const r = groupRewards('success-first', g, [1, 0, 0, 0, 0]);
    expect(r.mRaw.map((m) => m.slice(0, 2))).toEqual([[0.5, 0.5], [0.75, 0.25], [1, 0]]);
    expect(r.rewards).toEqual([1, 1.75, 2.5]);
    expect(toolorchestraRewards(g, [1, 0, 0, 0, 0]).rewards).toEqual([0, 1, 0]);
  });
  it('every success outscores every failure, also where the outcome weight is 0 (the paper’s App. F example)', () => {
    // Tool a preferred, outcome weight 0. Trajectory 1 solves with no call of a (share 0); trajectory 2
    // fails with only calls of a; trajectory 3 solves with half its calls to a.
    // a's shares 0, 1, 0.5 → normalised 0, 1, 0.5. ΣP = 1.
    // success-first: [1 + 0, 0 (failed), 1 + 1.5·0.5]; the paper's: [0, 0, 0.5] (a success without a's calls is worth a failure).
    const g = [traj([0, 2], 1, 0.1, 5), traj([2, 0], 0, 0.1, 5), traj([1, 1], 1, 0.1, 5)];
    expect(groupRewards('success-first', g, [1, 0, 0, 0, 0]).rewards).toEqual([1, 0, 1.75]);
    expect(toolorchestraRewards(g, [1, 0, 0, 0, 0]).rewards).toEqual([0, 0, 0.5]);
  });
  it('the preference part is 1.5·P·M_norm over ΣP: at most 1.5, and a success never scores below 1', () => {
    // Same calls; outcome 1, 0, 1 → 1, 0, 1; −cost −0.1, −0.5, −0.3 → 1, 0, 0.5.
    // P = [0, 0, 1, 0.5, 0], ΣP = 1.5: R = [1 + 1.5·(1 + 0.5)/1.5, 0, 1 + 1.5·(1 + 0.25)/1.5] = [2.5, 0, 2.25].
    const g = [traj([0, 0], 1, 0.1, 1), traj([0, 0], 0, 0.5, 1), traj([0, 0], 1, 0.3, 1)];
    const r = groupRewards('success-first', g, [0, 0, 1, 0.5, 0]).rewards;
    expect(r[0]).toBeCloseTo(2.5, 12);
    expect(r[1]).toBe(0);
    expect(r[2]).toBeCloseTo(2.25, 12);
    // P all 0: R = outcome. A trajectory without a call has every share 0.
    const none = groupRewards('success-first', [traj([0, 0], 1, 0, 0), traj([1, 0], 0, 0.1, 1)], [0, 0, 0, 0, 0]);
    expect(none.rewards).toEqual([1, 0]);
    expect(none.mRaw.map((m) => m.slice(0, 2))).toEqual([[0, 0], [1, 0]]);
  });
});

describe('weighted and outcome rewards', () => {
  it('follows the seed note’s formula', () => {
    // solved, 3 calls, 2000 tokens, 12 s ≤ 30 s: 1 + (−0.03 − 0.2) + 0.5 = 1.27.
    expect(weightedReward(traj([2, 1], 1, 0.1, 12, 2000), DEFAULT_WEIGHTED)).toBeCloseTo(1.27, 12);
    // failed: 0 + (−0.01 − 0.05) + 0.1 = 0.04.
    expect(weightedReward(traj([1, 0], 0, 0.1, 12, 500), DEFAULT_WEIGHTED)).toBeCloseTo(0.04, 12);
    expect(groupRewards('outcome', [traj([1, 0], 1, 1, 1), traj([0, 0], 0, 0, 0)], [0, 0, 1, 0, 0]).rewards).toEqual([1, 0]);
  });
});

describe('the three reward columns of the reference groups (outputs of the official ToolOrchestra code)', () => {
  interface RefGroup { tools: string[]; preference: Record<string, number>; trajectories: { calls: Record<string, number>; outcome: number; costUSD: number; latencyS: number }[]; rewardsPaperIntent: number[]; rewardsOfficialCode: number[]; rewardsOfficialSignFixedOnly: number[] }
  const groups = (JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'verl-reference.json'), 'utf8')) as { rewardGroups: RefGroup[] }).rewardGroups;
  const asStats = (g: RefGroup) => g.trajectories.map((t) => ({ calls: g.tools.map((id) => t.calls[id] ?? 0), outcome: t.outcome, costUSD: t.costUSD, latencyS: t.latencyS, tokens: 0 }));
  const prefOf = (g: RefGroup) => [...g.tools.map((id) => g.preference[id] ?? 0), g.preference.outcome ?? 0, g.preference.cost ?? 0, g.preference.latency ?? 0];
  const near = (got: readonly number[], want: readonly number[]) => want.forEach((w, i) => expect(Math.abs((got[i] as number) - w), `rollout ${i}: ${got[i]} vs ${w}`).toBeLessThan(1e-5 * Math.max(1, Math.abs(w))));
  it('the paper’s intent: the lab’s toolorchestra reward', () => {
    for (const g of groups) near(groupRewards('toolorchestra', asStats(g), prefOf(g)).rewards, g.rewardsPaperIntent);
  });
  it('the official code as written: toolorchestra-official', () => {
    for (const g of groups) near(groupRewards('toolorchestra-official', asStats(g), prefOf(g)).rewards, g.rewardsOfficialCode);
  });
  it('the official code with only the sign fixed', () => {
    for (const g of groups) near(officialRewards(asStats(g), prefOf(g), { fixSign: true }), g.rewardsOfficialSignFixedOnly);
  });
  it('what the bug does: at P(outcome 1, cost 1) the official reward ranks the dearest success first, the paper’s the cheapest', () => {
    const g = groups[2] as RefGroup;
    const stats = asStats(g);
    const dearest = stats.reduce((b, t, i) => (t.costUSD > (stats[b] as typeof t).costUSD ? i : b), 0);
    const cheapest = stats.reduce((b, t, i) => (t.costUSD < (stats[b] as typeof t).costUSD ? i : b), 0);
    const official = officialRewards(stats, prefOf(g));
    const intent = groupRewards('toolorchestra', stats, prefOf(g)).rewards;
    expect(official[dearest]).toBeGreaterThan(official[cheapest] as number);
    expect(intent[cheapest]).toBeGreaterThan(intent[dearest] as number);
  });
});
