// The lessons: each sets the lab up, points at one part of the screen, asks for one thing, sees
// it done (check), and then explains what happened with the numbers on screen at that moment —
// the lab's own live numbers (the worker's trade-off view, the slow motion's phase facts, the
// side-by-side runs), never hard-coded ones. The paper's figures are quoted as the paper's.

import { INSTRUCTION_PRESETS } from '../../core/instructionPresets';
import type { Preference } from '../../core/preference';
import { formatCost } from '../../core/sim/catalog';
import { smoothedEnd } from '../../store/series';
import { PAPER_TABLE1 } from '../../core/eval/paperTable1';
import { useCompare, type CompareState } from '../../store/compareStore';
import { useLab, type LabState } from '../../store/labStore';
import { REWARD_MODE_LABELS } from '../../core/grpo/rewardModes';
import type { LessonRun } from '../../store/lessonStore';
import { useView } from '../../store/viewStore';
import type { PhaseReport, TradeoffPoint } from '../../worker/protocol';
import { count } from '../../core/count';

/** Table 1's headline, from the paper's figures the lab is calibrated to: the orchestrator against GPT-5 with basic tools. */
function paperLine(): string {
  const [o, g] = ['orchestrator', 'tools+gpt-5'].map((p) => PAPER_TABLE1.find((r) => r.policy === p)) as [typeof PAPER_TABLE1[number], typeof PAPER_TABLE1[number]];
  return `${o.label} ${o.accuracy.hle}% on HLE against ${g.label} ${g.accuracy.hle}%, at ${o.costCents}¢ a query against ${g.costCents}¢ (HLE and FRAMES), ${Math.round((100 * o.costCents) / g.costCents)}% of the cost`;
}

export interface LessonContext { lab: LabState; compare: CompareState; run: LessonRun }
/** Not done yet (with an optional hint on what is missing), or done with the explanation. */
export type LessonCheck = { done: false; hint?: string } | { done: true; explanation: string };

export interface Lesson {
  id: string;
  title: string;
  /** What the lesson is about, in one sentence. */
  idea: string;
  /** The data-region it spotlights. */
  region: string;
  /** The one thing to do. */
  task: string;
  setup(): Promise<void> | void;
  check(c: LessonContext): LessonCheck;
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const num = (x: number | undefined, d = 3) => (x === undefined ? '?' : x.toFixed(d));
const samePref = (a: Preference, b: Preference) => JSON.stringify(a) === JSON.stringify(b);
const not: LessonCheck = { done: false };

/** The facts of phase k of the slow-motion iteration on screen, if it has run. */
const phase = (lab: LabState, k: number): PhaseReport | undefined => lab.phases.find((p) => p.index === k);

/** Leaves any slow-motion iteration, pauses, and shows the slow-motion tab. */
async function freshSlowMotion(): Promise<void> {
  const lab = useLab.getState();
  if (lab.running) lab.pause();
  await lab.closePhases();
  useView.getState().showTab('Slow motion');
}

/** The shipped pretrained policy (trained with random P), loaded again unless it is in, untouched (Undo brings back the one it replaces). */
async function pretrained(): Promise<void> {
  const lab = useLab.getState();
  if (lab.running) lab.pause();
  if (lab.policyOrigin !== 'pretrained' || lab.iteration > 0) await lab.loadPretrained();
}

/** The comparison on screen when the side-by-side lesson started (an older one does not count). */
let comparisonAtStart: unknown = null;

function describe(p: TradeoffPoint, lab: LabState): string {
  return `${pct(p.accuracy)} at ${formatCost(lab.catalog, p.cost)} per task`;
}

/** "the cheapest ($0.0190) got R = 1.987 and the dearest ($0.0395) R = 1.000", from phase 5's facts. */
function cheapestAndDearest(f: Record<string, number>, lab: LabState): string {
  return `the cheapest (${formatCost(lab.catalog, f.cheapestCost ?? 0)}) got R = ${num(f.cheapestR)} and the dearest (${formatCost(lab.catalog, f.dearestCost ?? 0)}) R = ${num(f.dearestR)}`;
}

function topTools(p: TradeoffPoint): string {
  const calls = Object.entries(p.calls ?? {}).filter(([, n]) => n >= 0.05).sort((a, b) => b[1] - a[1]).slice(0, 3);
  return calls.length ? calls.map(([id, n]) => `${id} ${n.toFixed(2)}`).join(', ') : 'no tool at all';
}

export const LESSONS: readonly Lesson[] = [
  {
    id: 'why',
    title: 'Why orchestrate?',
    idea: 'A small trained router against always calling the biggest model and against the cheapest tool.',
    region: 'tradeoff',
    task: 'Move the "Cost weight" slider (or press an instruction preset) and watch the ★ move in the trade-off view.',
    setup: pretrained,
    check({ lab, run }) {
      const o = [...run.observations].reverse().find((x) => !samePref(x.preference, run.preference));
      const t = lab.tradeoff;
      if (!o || !t) return not;
      const find = (label: string) => t.baselines.find((b) => b.label === label);
      const gpt = find('always:gpt-5'), tools = find('tools+gpt-5'), cheap = find('cheapest');
      if (!gpt || !tools || !cheap) return { done: true, explanation: `At your new P the policy scores ${describe(o.point, lab)}. (This catalog has no GPT-5 baselines to compare with.)` };
      const share = tools.cost > 0 ? o.point.cost / tools.cost : 0;
      return {
        done: true,
        explanation: `At your P (outcome ${o.preference.outcome}, cost ${o.preference.cost}) the trained policy scores ${describe(o.point, lab)} on the held-out tasks. Always calling GPT-5: ${describe(gpt, lab)}${gpt.accuracy < tools.accuracy / 2 ? ' — GPT-5 alone on every step, and steps that need fresh facts or exact arithmetic defeat it without search or code' : ''}. GPT-5 with basic tools: ${describe(tools, lab)}. The cheapest tool alone: ${describe(cheap, lab)}. So the router reaches ${o.point.accuracy >= tools.accuracy ? 'more than' : `${pct(o.point.accuracy / Math.max(1e-9, tools.accuracy))} of`} GPT-5-with-tools' accuracy at ${pct(share)} of its cost: it calls the strong model only where the cheap tools fail. The paper (Table 1) found the same shape at full scale: ${paperLine()}.`,
      };
    },
  },
  {
    id: 'gate',
    title: 'Outcome gating: failures get R = 0',
    idea: 'The reward is multiplied by the outcome, so no saving makes a failure worth anything.',
    region: 'slowmo',
    task: 'Press "Slow motion", then "Next phase" until phase 5, "Gate and weight: R".',
    setup: freshSlowMotion,
    check({ lab }) {
      const f = phase(lab, 5)?.facts;
      if (!f) return not;
      const g = f.trajectories ?? 0;
      if (!f.successes) return { done: true, explanation: `All ${g} trajectories of this group failed, so every R is 0: the group has nothing to compare and phase 6 will filter it out. Failing cheaply earns nothing.` };
      return {
        done: true,
        explanation: `In this real group ${f.failed} of ${g} trajectories failed, and each got R = 0 whatever it cost: a cheap failure is worth no more than a dear one, so the policy cannot learn to save money by giving up. ${f.successes === 1 ? `The one success, at ${formatCost(lab.catalog, f.cheapestCost ?? 0)}, got R = ${num(f.cheapestR)}: only a trajectory that solved the task is scored by your preference.` : `Of the ${f.successes} successes, ${cheapestAndDearest(f, lab)}: among the trajectories that solved the task, your preference decides.`}`,
      };
    },
  },
  {
    id: 'normalise',
    title: 'Min–max normalisation and P·M̃',
    idea: 'Why a constant dimension is zeroed, and what the official code’s sign bug would have rewarded.',
    region: 'slowmo',
    task: 'Step through slow motion to phase 5 and compare the last two columns: the paper’s R and the official code’s.',
    async setup() {
      // The official code's column is shown beside the paper's reward only in the paper's reward mode.
      const was = useLab.getState().train.reward;
      if (was !== 'toolorchestra') {
        useLab.getState().setTrain({ reward: 'toolorchestra' });
        useLab.getState().notify('info', `This lesson switched the reward from "${REWARD_MODE_LABELS[was]}" to the paper's (Settings → Training → reward mode): the official code's column is shown beside the paper's reward only.`);
        await useLab.getState().flushSettings();
      }
      await freshSlowMotion();
    },
    check({ lab }) {
      const n = phase(lab, 4)?.facts, f = phase(lab, 5)?.facts;
      if (!n || !f) return not;
      if ((f.successes ?? 0) < 2 || f.cheapestCost === f.dearestCost) return { done: false, hint: `This group has ${f.successes ?? 0} success${f.successes === 1 ? '' : 'es'} at ${f.successes ? 'one' : 'no'} cost: press Slow motion again for a group with two successes at different costs.` };
      return {
        done: true,
        explanation: `Phase 4 zeroed ${n.constantDims} of the ${n.dims} dimensions of M (the tools nobody in the group called among them): where every trajectory of the group has the same value there is nothing to compare, and (M − min)/(max − min) would divide by 0. Phase 5 took P·M̃ over the rest: of the successes, ${cheapestAndDearest(f, lab)}. The official code puts +cost in the numerator: it would give them ${num(f.officialCheapestR)} and ${num(f.officialDearestR)} — ${(f.officialDearestR ?? 0) > (f.officialCheapestR ?? 0) ? 'paying the policy to spend' : 'here the other terms hide it, but every cost term pushes towards spending'}.`,
      };
    },
  },
  {
    id: 'advantage',
    title: 'The group-relative advantage',
    idea: 'The group’s mean is the baseline, the std sets the scale, and homogeneous groups are dropped.',
    region: 'slowmo',
    task: 'Step through slow motion to phase 6, "Advantage: A".',
    setup: freshSlowMotion,
    check({ lab }) {
      const f = phase(lab, 6)?.facts;
      if (!f) return not;
      return {
        done: true,
        explanation: `No value network: the group's own mean R = ${num(f.mean)} is the baseline. ${f.filtered ? `This group's rewards hardly differ (std ${num(f.std)} < ${lab.train.advantage.filterStd}), so it was filtered: A = 0 for all, nothing to learn.` : `Trajectories above it got A > 0 (up to ${num(f.aMax, 2)}), those below A < 0 (down to ${num(f.aMin, 2)}); dividing by the std (${num(f.std)}) puts A on the same scale whatever the scale of R.`} In the whole batch ${f.filteredGroups} of ${f.groups} groups were filtered${lab.train.advantage.filterStd === null ? ' (the filter is off)' : ` (reward std below ${lab.train.advantage.filterStd})`} — all G attempts scored alike, so dividing by a tiny std would only amplify noise.`,
      };
    },
  },
  {
    id: 'preferences',
    title: 'Preference following',
    idea: 'One policy, trained with random P, follows whatever P you set — without retraining.',
    region: 'prefs',
    task: 'Press the instruction preset "Avoid API calls", wait for the ★ to move, then press "Budget".',
    setup: pretrained,
    check({ lab, run }) {
      const want = (name: string) => INSTRUCTION_PRESETS.find((p) => p.name === name)?.preference(lab.catalog);
      const seen = (name: string) => { const p = want(name); return p ? [...run.observations].reverse().find((o) => samePref(o.preference, p)) : undefined; };
      const api = seen('Avoid API calls'), budget = seen('Budget');
      if (!api || !budget) return { done: false, ...(api ? { hint: 'Now press "Budget".' } : budget ? { hint: 'Now press "Avoid API calls".' } : {}) };
      return {
        done: true,
        explanation: `The same weights, two preference vectors. "Avoid API calls": ${describe(api.point, lab)}, ${pct(api.point.apiShare)} of calls to paid APIs; it calls ${topTools(api.point)} per task. "Budget": ${describe(budget.point, lab)}, ${pct(budget.point.apiShare)} to paid APIs; it calls ${topTools(budget.point)}. P is an input of the policy: trained with a random P per task (the paper's way), it learned to read it.`,
      };
    },
  },
  {
    id: 'side-by-side',
    title: 'Weighted sum against the normalised reward',
    idea: 'A plain weighted sum (the outcome minus fixed costs per call and per token, plus a bonus for speed) against the paper’s normalised reward, trained side by side on the same seed.',
    region: 'compare',
    task: 'In "Compare runs", choose "paper reward vs weighted sum" and press Start; let both runs pass 60 iterations.',
    setup() {
      comparisonAtStart = useCompare.getState().runs;
      useView.getState().showTab('Compare runs');
    },
    check({ compare, lab }) {
      const [a, b] = compare.runs;
      if (compare.runs === comparisonAtStart || compare.presetId !== 'reward' || !a || !b) return not;
      const n = Math.min(a.points.length, b.points.length);
      if (n < 60 && (compare.running || n < 20)) return { done: false, hint: n ? `${n} iterations so far…` : undefined } as LessonCheck;
      const tail = (xs: typeof a.points, k: 'accuracy' | 'meanCostUSD') => smoothedEnd(xs.slice(0, n).map((p) => p[k]));
      return {
        done: true,
        explanation: `After ${n} iterations on the same seed and tasks (mean of the last 10): ${a.label} solves ${pct(tail(a.points, 'accuracy'))} at ${formatCost(lab.catalog, tail(a.points, 'meanCostUSD'))} per task; ${b.label} ${pct(tail(b.points, 'accuracy'))} at ${formatCost(lab.catalog, tail(b.points, 'meanCostUSD'))}. The weighted sum adds raw costs to the outcome: −0.0001 per token over thousands of tokens can outweigh the +1 for solving, ${tail(b.points, 'meanCostUSD') < tail(a.points, 'meanCostUSD') ? 'so its policy learns to call fewer tools — here it already spends less' : 'which pushes its policy to call fewer tools (not yet visible in this run)'}. The paper's reward normalises every dimension within the group and gates on the outcome: only successes are compared, so cost can never beat solving.`,
      };
    },
  },
  {
    id: 'epochs',
    title: 'Why the surrogate loss looks flat',
    idea: 'With one epoch the ratio is exactly 1; μ > 1 moves it, and the clip stops it.',
    region: 'slowmo',
    task: 'μ is now 4. Step through slow motion to phase 7, "Update: ratio, clip, KL", and compare epoch 1 with epoch 4.',
    async setup() {
      // The phases on screen go first: an older iteration's update (μ = 2) must not count.
      await freshSlowMotion();
      useLab.getState().setTrain({ epochs: 4 });
      await useLab.getState().flushSettings();
    },
    check({ lab }) {
      const f = phase(lab, 7)?.facts;
      if (!f) return not;
      if (!f.epochs) return { done: false, hint: 'Every group of this iteration was filtered, so nothing trained: press Slow motion again.' };
      if (f.epochs < 2 || f.epochs !== lab.train.epochs) return { done: false, hint: `This iteration ran ${count(f.epochs, 'epoch')}, not μ = ${lab.train.epochs}: press Slow motion again (μ applies from the next iteration).` };
      return {
        done: true,
        explanation: `Epoch 1 is on-policy: the ratio π_θ/π_old ran from ${num(f.ratioMin1, 4)} to ${num(f.ratioMax1, 4)}, the clip fraction was ${pct(f.clip1 ?? 0)} and the surrogate ${num(f.loss1, 5)} — about 0 by construction, yet its gradient is not 0. That is why the loss chart looks flat with μ = 1 while the policy learns. By epoch ${f.epochs} the ratio spread to ${num(f.ratioMinLast, 4)}…${num(f.ratioMaxLast, 4)} and ${pct(f.clipLast ?? 0)} of the decisions hit the clip, which stops one batch from pushing the policy too far. (The lab's default μ is 2; set it back under Settings.)`,
      };
    },
  },
];

export const lessonById = (id: string): Lesson | undefined => LESSONS.find((l) => l.id === id);

export function checkLesson(run: LessonRun): LessonCheck {
  const lesson = lessonById(run.id);
  return lesson ? lesson.check({ lab: useLab.getState(), compare: useCompare.getState(), run }) : not;
}
