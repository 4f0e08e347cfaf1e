// Every reward mode in one record: its id (links, files, the CLI), its label, what M's tool dimensions
// hold, its formula and explanation in words and in TeX, and the flags reward.ts's arithmetic and the
// refusals read. The slow motion, the group inspector, the formula panel, the preference panel and the
// CLI take their text from here, so a new mode is described in this file only (its arithmetic: reward.ts).

export const REWARD_MODES = [
  'toolorchestra', 'success-first', 'toolorchestra-official', 'weighted', 'outcome',
] as const;
export type RewardMode = (typeof REWARD_MODES)[number];

/**
 * Under success-first, what matching P is worth at most beside the 1 a success scores: 1.5. At 1 the shipped
 * recipe's policy bought accuracy above GPT-5 with tools' at 45–46% of its cost at the default P; at 2 it fell 5
 * points below it; 1.5 sits between (docs/REPRODUCTION.md has the runs). Any weight keeps every success above
 * every failure.
 */
export const PREFERENCE_PART = 1.5;

/** Tags a TeX fragment with the symbol it stands for (the formula panel links R, P, M and G); identity elsewhere. */
export type TexTag = (symbol: 'R' | 'P' | 'M' | 'G', tex: string) => string;

export interface RewardModeInfo {
  /** In words, for menus (the id stays in links, files and the CLI). */
  label: string;
  /** What M's tool dimensions hold under this mode (M = [those…, outcome, −cost, −latency]). */
  measures: string;
  /** R in one line of plain text. */
  formula: string;
  /** What R rewards, for a student: the formula panel's line and the slow motion's "Gate and weight". */
  explanation: string;
  /** Whether R reads P (when not, P changes nothing in training, though the policy still reads it). */
  readsPreference: boolean;
  /** Whether a failed trajectory gets R = 0. */
  gated: boolean;
  /** Whether M's tool dimensions are each tool's share of the calls rather than its count. */
  shares: boolean;
  /** Whether R is made only of terms min-max normalised over the group (then a group of one scores 0). */
  normalises: boolean;
  /** A success's R with its numbers put in, from Σ P_k·M̃_k written out and Σ P (null: R alone is shown). */
  substitute: ((sum: string, totalP: number) => string) | null;
  /** The formula panel's title, TeX (symbols through `tag`) and screen-reader reading; null: it shows the paper's. */
  panel: { title: string; tex: (tag: TexTag) => string; reading: string } | null;
}

/** M̃_k = M_k min-max normalised over the group, the two modes' shared line. */
function normalisedTex(tag: TexTag): string {
  const M = (tex: string) => tag('M', tex);
  const G = tag('G', 'G');
  const minG = `\\min_{g\\le ${G}}`;
  const maxG = `\\max_{g\\le ${G}}`;
  const Mk = (g: string) => `${M('M_k')}(\\tau${g})`;
  const span = `${maxG} ${Mk('_g')} - ${minG} ${Mk('_g')}`;
  const frac = `\\frac{${Mk('')} - ${minG} ${Mk('_g')}}{${span}}`;
  return `${M('\\tilde{M}_k')}(\\tau) &= ${frac}` + String.raw`\ \ (0 \text{ if constant})`;
}

const NORMALISED_READING = 'where M tilde k is M k min-max normalised over the G rollouts of the group, '
  + '0 when constant, ';

export const REWARD_MODE_INFO: Readonly<Record<RewardMode, Readonly<RewardModeInfo>>> = {
  toolorchestra: {
    label: 'paper (normalised, gated)',
    measures: 'calls per tool',
    formula: 'R = outcome · Σ P_k·M̃_k',
    explanation: 'A failed try scores 0; a successful one scores your preferences P times its measurements M, each '
      + 'rescaled to 0…1 within its group of G tries, so only the differences between tries count.',
    readsPreference: true, gated: true, shares: false, normalises: true,
    substitute: (sum) => `1 · (${sum})`,
    panel: {
      title: 'Reward',
      tex: (tag) => [
        String.raw`\begin{aligned}`,
        String.raw`${tag('R', 'R')}(\tau) &= \mathbf{1}\big[\text{outcome}(\tau)\big]\cdot`
          + String.raw`\sum_{k} ${tag('P', 'P_k')}\,${tag('M', '\\tilde{M}_k')}(\tau) \\`,
        String.raw`${normalisedTex(tag)} \\`,
        String.raw`${tag('M', 'M')}(\tau) &= \big[\,\text{calls}_1,\dots,\text{calls}_n,\ \text{outcome},\ `
          + String.raw`-\text{cost},\ -\text{latency}\,\big]`,
        String.raw`\end{aligned}`,
      ].join('\n'),
      reading: 'R of tau equals the indicator that tau succeeded, times the sum over k of P k times M tilde k of tau, '
        + NORMALISED_READING + 'and M is calls per tool, outcome, minus cost, minus latency.',
    },
  },
  'success-first': {
    label: 'success first (shares of calls)',
    measures: "each tool's share of the trajectory's calls",
    formula: `R = outcome · (1 + ${PREFERENCE_PART} · Σ P_k·M̃_k / Σ P_k)`,
    explanation: `A failed try scores 0; a successful one scores 1 for succeeding plus up to ${PREFERENCE_PART} for how `
      + 'well it matches your preferences P, so every success beats every failure. A tool counts by its share of the calls, so '
      + "padding with calls of a preferred tool does not pay. (The paper's reward has no 1 and counts calls.)",
    readsPreference: true, gated: true, shares: true, normalises: false,
    substitute: (sum, totalP) => `1 · (1 + ${PREFERENCE_PART} · (${sum}) / ${+totalP.toFixed(4)})`,
    panel: {
      title: 'Reward (success first)',
      tex: (tag) => [
        String.raw`\begin{aligned}`,
        String.raw`${tag('R', 'R')}(\tau) &= \mathbf{1}\big[\text{outcome}(\tau)\big]\cdot\Big(1 + `
          + String.raw`${PREFERENCE_PART}\,\frac{\sum_{k} ${tag('P', 'P_k')}\,${tag('M', '\\tilde{M}_k')}(\tau)}`
          + String.raw`{\sum_k ${tag('P', 'P_k')}}\Big) \\`,
        String.raw`${normalisedTex(tag)} \\`,
        String.raw`${tag('M', 'M')}(\tau) &= \big[\,\text{share}_1,\dots,\text{share}_n,\ \text{outcome},\ `
          + String.raw`-\text{cost},\ -\text{latency}\,\big] \\`,
        String.raw`\text{share}_j &= \text{calls}_j \,/\, \text{all calls of } \tau`,
        String.raw`\end{aligned}`,
      ].join('\n'),
      reading: `R of tau equals the indicator that tau succeeded, times 1 plus ${PREFERENCE_PART} times the sum over k `
        + 'of P k times M tilde k of tau divided by the sum of P, ' + NORMALISED_READING
        + "and M is each tool's share of the calls, outcome, minus cost, minus latency.",
    },
  },
  'toolorchestra-official': {
    label: 'official code as written',
    measures: 'calls per tool',
    formula: "R = outcome · Σ P_k·M̃_k as NVlabs/ToolOrchestra's training code computes it",
    explanation: 'Its sign bug puts +cost and +latency in the numerators, which rewards spending; it counts the '
      + 'outcome, cost and latency terms twice (its per-tool loop runs over them too) and takes a tool\'s range over '
      + 'its callers only. A failed try still scores 0.',
    readsPreference: true, gated: true, shares: false, normalises: true,
    substitute: null,
    panel: null,
  },
  weighted: {
    label: 'weighted sum (fixed costs)',
    measures: 'calls per tool',
    formula: 'R = w_o·outcome + w_e·(−c_call·calls − c_token·tokens) + w_p·(fast ? bonus_fast : bonus_slow)',
    explanation: 'A plain weighted sum: the outcome, minus fixed per-call and per-token costs, plus a bonus if '
      + 'solved within the latency target (a smaller one if not). Not normalised within the group, and P is not read.',
    readsPreference: false, gated: false, shares: false, normalises: false,
    substitute: null,
    panel: null,
  },
  outcome: {
    label: 'outcome only (0/1)',
    measures: 'calls per tool',
    formula: 'R = outcome',
    explanation: 'The ablation without cost or preference: a solved task scores 1, a failed one 0.',
    readsPreference: false, gated: true, shares: false, normalises: false,
    substitute: null,
    panel: null,
  },
};

/** Each mode in words, for menus. */
export const REWARD_MODE_LABELS: Readonly<Record<RewardMode, string>> = Object.fromEntries(
  REWARD_MODES.map((m) => [m, REWARD_MODE_INFO[m].label]),
) as Record<RewardMode, string>;

/** Whether a mode's reward is only terms min-max normalised over the group (a group of one scores every try 0). */
export const normalisesOverGroup = (mode: RewardMode): boolean => REWARD_MODE_INFO[mode].normalises;

/** Whether M's tool dimensions are shares of the trajectory's calls rather than counts. */
export const measuresShares = (mode: RewardMode): boolean => REWARD_MODE_INFO[mode].shares;

/** What G = 1 does under `mode`, in words (the lab's note beside the field, the CLI's refusal). */
export function groupOfOneNote(mode: RewardMode): string {
  return normalisesOverGroup(mode)
    ? `G = 1: the ${REWARD_MODE_LABELS[mode]} reward min-max normalises each dimension over the group, and over a `
      + 'group of one every dimension is 0 — so every reward is 0, every advantage 0, and nothing is learned. '
      + 'Use G ≥ 2 (or the weighted or outcome-only reward).'
    : 'G = 1: a group of one has no baseline, so A = R/(1 + 10⁻⁶) ≥ 0 pushes up every solved try and nothing down — '
      + 'GRPO becomes REINFORCE without a baseline, and a trained policy usually gets worse. '
      + 'Use G ≥ 2 to compare tries.';
}

/**
 * One trajectory's R with its numbers put in (the group inspector): the non-zero terms P_k·M̃_k of a
 * success in the mode's formula, or R alone with the mode named. `dims` names M's dimensions.
 */
export function rewardWithNumbers(mode: RewardMode, t: { outcome: number; reward: number; mNorm: readonly number[] },
  preference: readonly number[], dims: readonly string[]): string {
  const info = REWARD_MODE_INFO[mode];
  if (!t.outcome && info.gated) return 'R = 0 (failed: the outcome gate zeroes the reward)';
  if (!t.outcome || !info.substitute) return `R = ${t.reward.toFixed(3)} (${info.label} reward)`;
  const terms = t.mNorm.map((m, k) => ({ p: preference[k] as number, m, dim: dims[k] as string }))
    .filter((x) => x.p !== 0 && x.m !== 0);
  const sum = terms.length ? terms.map((x) => `${x.p}·${x.m.toFixed(3)}[${x.dim}]`).join(' + ')
    : 'no non-zero P_k · M_norm,k terms';
  return `R = ${info.substitute(sum, preference.reduce((a, x) => a + x, 0))} = ${t.reward.toFixed(3)}`;
}
