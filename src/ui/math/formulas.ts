// The three formulas of the lab as TeX, with a plain-text reading and one line for a student.
// Kept apart from the components so that test/symbolLinking.test.ts can check, without a DOM,
// that each parses, links the symbols it should, and renders nothing a strict CSP would block.
// Sources: src/core/grpo/rewardModes.ts (each reward's TeX and words), advantage.ts (groupAdvantages),
// loss.ts (lossFromLogits) with the trainer's token-mean weights 1/|D|.

import { REWARD_MODE_INFO, REWARD_MODES, type RewardMode, type RewardModeInfo } from '../../core/grpo/rewardModes';
import type { SymName } from './symbolLinking';

/** `\htmlData{sym=R}{R}`: a TeX fragment tagged with the symbol it stands for. */
export const sym = (name: SymName, tex: string): string => `\\htmlData{sym=${name}}{${tex}}`;

export interface FormulaSpec {
  id: 'reward' | 'advantage' | 'objective';
  title: string;
  tex: string;
  /** What a screen reader says for the whole formula. */
  reading: string;
  /** One line for a student. */
  explain: string;
  /** The linked symbols listed in the formula's "where" line. */
  syms: SymName[];
}

// A symbol's subscript goes inside its tag, so that the highlight covers "R_i", not "R" alone.
const G = sym('G', 'G');
const R = (sub = '') => sym('R', `R${sub}`);
const A = (sub: string) => sym('A', `A_${sub}`);
const mean = sym('mean', '\\operatorname{mean}');
const std = sym('std', '\\operatorname{std}');
const group = `${R('_1')},\\dots,${R(`_{${G}}`)}`;
const r = sym('ratio', 'r_t');

// No \begin{cases}: its tall brace is an SVG with a style attribute, which the CSP blocks.
const advantage = String.raw`\begin{aligned}
${A('i')} &= \frac{${R('_i')} - ${mean}(${group})}{${std}(${group}) + \epsilon} \\
${A('i')} &= 0 \quad \text{if } ${std}(${group}) < \sigma_{\min} \ \ \text{(group filtered out)}
\end{aligned}`;

const meanOnlyAdvantage = String.raw`\begin{aligned}
${A('i')} &= ${R('_i')} - ${mean}(${group}) \quad \text{(no std division: Dr. GRPO)} \\
${A('i')} &= 0 \quad \text{if } ${std}(${group}) < \sigma_{\min} \ \ \text{(group filtered out)}
\end{aligned}`;

const objective = String.raw`\begin{aligned}
\mathcal{L}(\theta) &= \frac{1}{|\mathcal{D}|}\sum_{t\in\mathcal{D}} \Big[\max\big(-${A('t')}\,${r},\ ` +
  String.raw`-${A('t')}\,${sym('clip', '\\operatorname{clip}')}(${r},\,1-\varepsilon_{\text{low}},\,1+\varepsilon_{\text{high}})\big) \\
&\qquad + \beta\,${sym('kl', '\\mathrm{KL}_t')} - c_{\text{ent}}\,${sym('entropy', '\\mathcal{H}_t')}\Big] \\
${r} &= \frac{\pi_\theta(a_t \mid s_t)}{\pi_{\text{old}}(a_t \mid s_t)},\qquad
\rho_t = \frac{\pi_{\text{ref}}(a_t \mid s_t)}{\pi_\theta(a_t \mid s_t)} \\
${sym('kl', '\\mathrm{KL}_t')} &= \min\!\big(10,\ \rho_t - \ln\rho_t - 1\big),\qquad
${sym('entropy', '\\mathcal{H}_t')} = -\sum_a \pi_\theta(a \mid s_t)\ln\pi_\theta(a \mid s_t)
\end{aligned}`;

/**
 * The reward of `mode` in the panel (rewardModes.ts holds its title, TeX, reading and explanation); a mode
 * without a formula of its own shows the paper's, its title naming the mode training uses.
 */
function rewardSpec(mode: RewardMode): FormulaSpec {
  const info = REWARD_MODE_INFO[mode];
  const shown = info.panel ? info : REWARD_MODE_INFO.toolorchestra;
  const panel = shown.panel as NonNullable<RewardModeInfo['panel']>;
  return {
    id: 'reward',
    title: info.panel ? panel.title : `Reward (the paper's; training now uses the ${info.label} reward)`,
    tex: panel.tex(sym),
    reading: panel.reading,
    explain: shown.explanation,
    syms: ['R', 'P', 'M'],
  };
}

const ADVANTAGE_SPEC: FormulaSpec = {
  id: 'advantage',
  title: 'Group-relative advantage',
  tex: advantage,
  reading:
    'A i equals R i minus the mean of R 1 to R G, divided by their standard deviation plus epsilon; ' +
    'A i is 0 when that standard deviation is below the filter threshold sigma min.',
  explain:
    'Each try is judged against its own group: above the group mean is good (A > 0), below is bad; a group whose ' +
      'tries all scored alike teaches nothing and is skipped (std is the sample one; the lab then clips A to ±3 by ' +
      'default).',
  syms: ['A', 'mean', 'std', 'G'],
};

const MEAN_ONLY_SPEC: FormulaSpec = {
  ...ADVANTAGE_SPEC,
  title: 'Group-relative advantage (no std division)',
  tex: meanOnlyAdvantage,
  reading: 'A i equals R i minus the mean of R 1 to R G; A i is 0 when their standard deviation is below the filter threshold sigma min.',
  explain:
    'Each try is judged against its own group: above the group mean is good (A > 0), below is bad. Without the ' +
      'division by the std (Dr. GRPO), a group whose tries scored nearly alike pushes only as hard as its ' +
      'differences, and a group whose tries all scored alike is still skipped.',
};

const OBJECTIVE_SPEC: FormulaSpec = {
  id: 'objective',
  title: 'GRPO objective (the loss minimised)',
  tex: objective,
  reading:
    'L of theta equals the mean over all decisions t of: the maximum of minus A t times r t and minus A t times r t ' +
      'clipped to 1 minus epsilon low, 1 plus epsilon high; ' +
    'plus beta times KL t, minus the entropy coefficient times the entropy H t; ' +
    'where r t is pi theta over pi old of the action taken, KL t is the k3 estimate rho minus log rho minus 1 capped at 10 with rho = pi ref over pi theta, ' +
    'and H t is the entropy of the policy at that decision.',
  explain:
    'Make decisions with A > 0 more likely and the others less, but stop pushing once r leaves [1−ε_low, 1+ε_high]; ' +
      'β keeps the policy near a reference, the entropy bonus keeps it exploring; the mean runs over every decision ' +
      'D of the groups that train (token-mean; with the dual clip c on, a term with A < 0 is also capped at −A·c).',
  syms: ['ratio', 'clip', 'kl', 'entropy'],
};

/**
 * The formulas as the lab trains now: the reward of the selected mode (the paper's for the modes without a formula
 * here, named in the title), the advantage with or without the std division.
 */
export function formulasFor(opts: { reward: RewardMode; normalizeStd: boolean }): FormulaSpec[] {
  return [rewardSpec(opts.reward), opts.normalizeStd ? ADVANTAGE_SPEC : MEAN_ONLY_SPEC, OBJECTIVE_SPEC];
}

/** Every formula the panel can show (the tests check each parses and links its symbols). */
export const ALL_FORMULAS: readonly FormulaSpec[] = [
  ...REWARD_MODES.filter((m) => REWARD_MODE_INFO[m].panel).map(rewardSpec), ADVANTAGE_SPEC, MEAN_ONLY_SPEC, OBJECTIVE_SPEC,
];

/** The paper's formulas (the lab's defaults). */
export const FORMULAS: readonly FormulaSpec[] = formulasFor({ reward: 'toolorchestra', normalizeStd: true });

/** The KaTeX options every formula is rendered with (HTML only: the wrapper carries the reading). */
export const KATEX_OPTIONS = {
  throwOnError: false,
  output: 'html',
  strict: false,
  trust: (ctx: { command: string }) => ctx.command === '\\htmlData',
} as const;
