// The lessons: each sets the lab up, points at one part of the screen, asks for one thing, sees it
// done (check), and explains what happened with numbers that are on screen at that moment, as they
// are shown there (the first screen, the ★'s line, the slow-motion tables, the comparison's summary),
// never hard-coded ones. The paper's figures are quoted as the first screen quotes them.

import { INSTRUCTION_PRESETS } from '../../core/instructionPresets';
import type { Preference } from '../../core/preference';
import { formatCost, type Catalog } from '../../core/sim/catalog';
import { PAPER_TABLE1 } from '../../core/eval/paperTable1';
import { filteredInWords } from '../../core/lab/filteredInWords';
import { useCompare, type CompareState } from '../../store/compareStore';
import { conclusionLines } from '../../store/compareConclusion';
import { useLab, type LabState } from '../../store/labStore';
import type { LessonRun, Observation } from '../../store/lessonStore';
import { useView } from '../../store/viewStore';
import type { PhaseReport, TradeoffPoint } from '../../worker/protocol';
import { count } from '../../core/count';
import { headline, percentText as pct, shownValue, tableNumber as num } from '../shownNumbers';
import { defaultPreference, epochs, freshSlowMotion, gatedReward, paperReward, pretrained, type PutBack } from './lessonSetup';

export interface LessonContext { lab: LabState; compare: CompareState; run: LessonRun }
/** Not done yet (with an optional hint on what is missing), or done with the explanation. */
export type LessonCheck = { done: false; hint?: string } | { done: true; explanation: string };

/** What a lesson points at (CSS selectors): what must stay in view and uncovered, what it would rather not cover. */
export interface Subject { keep: string[]; spare?: string[] }

export interface Lesson {
  id: string;
  title: string;
  /** What the lesson is about, in one sentence. */
  idea: string;
  /** The data-region it spotlights. */
  region: string;
  /** The one thing to do. */
  task: string;
  /** Sets the lab up; returns how to put back a setting it changed, if it changed one. */
  setup(): Promise<PutBack | null | void> | void;
  check(c: LessonContext): LessonCheck;
  /** What it points at while its task is open, and once done (what its explanation quotes). */
  subject(done: boolean): Subject;
}

const samePref = (a: Preference, b: Preference) => JSON.stringify(a) === JSON.stringify(b);
const not: LessonCheck = { done: false };

const PLOT = '[data-testid="tradeoff"] .chart-fill';
const PREFS = '[data-region="prefs"]';
const POINT = '[data-testid="operating-point"]';
const FORMULAS = '[data-region="formulas"]';
const phaseBox = (k: number) => `[data-testid="phase-${k}"]`;
/** Slow motion while stepping: its buttons and the phase just run; done: the phase the explanation quotes. */
/** The slow-motion phase on screen now. */
export const CURRENT_PHASE = '.phase.current';
/** A slow-motion lesson's subject: the head and the current phase while it runs; once done, the phase it explains and
 * whichever phase the student steps on to (the box covers neither). */
const slowMotionSubject = (k: number) => (done: boolean): Subject => (done
  ? { keep: [phaseBox(k), CURRENT_PHASE], spare: [FORMULAS, '.slowmo-head'] }
  : { keep: ['.slowmo-head', CURRENT_PHASE], spare: [FORMULAS] });

/** The slow-motion button that starts a new iteration when one is open: Leave it, then "Slow motion". */
/**
 * How to get another group: finish this iteration, then start the next. (Leave, then Slow motion, replays the same
 * iteration: the same tasks and rollouts, so the same group.)
 */
const ANOTHER_GROUP = 'press "Next phase" until this iteration ends (phase 8), then "Slow motion" for the next iteration (another group)';

/** The facts of phase k of the slow-motion iteration on screen, if it has run. */
const phase = (lab: LabState, k: number): PhaseReport | undefined => lab.phases.find((p) => p.index === k);

/** The paper's headline as the first screen states it (Table 1: the orchestrator against GPT-5 with basic tools). */
function paperLine(): string {
  const [o, g] = ['orchestrator', 'tools+gpt-5'].map((p) => PAPER_TABLE1.find((r) => r.policy === p)!);
  return `${o!.label} solved ${o!.accuracy.hle}% of HLE against ${g!.accuracy.hle}% for GPT-5 with basic tools, `
    + `at about ${Math.round((100 * o!.costCents) / g!.costCents)}% of its cost`;
}

/** A point as the ★'s line shows it ("67.2% at $0.0477 … 12% API calls"). */
const pointLine = (p: TradeoffPoint, catalog: Catalog): string =>
  `${pct(p.accuracy)} at ${formatCost(catalog, p.cost)}, ${Math.round(100 * p.apiShare)}% API calls`;

/** The tools a point calls most, by name (the counts are not on screen). */
function topTools(p: TradeoffPoint): string {
  const calls = Object.entries(p.calls ?? {}).filter(([, n]) => n >= 0.05).sort((a, b) => b[1] - a[1]).slice(0, 3);
  return calls.length ? `mostly ${calls.map(([id]) => id).join(', ')}` : 'no tool at all';
}

/** "the cheapest ($0.0190) got R = 1.987 and the dearest ($0.0395) R = 1.000", as phase 5's table shows them. */
function cheapestAndDearest(f: Record<string, number>, lab: LabState): string {
  return `the cheapest (${formatCost(lab.catalog, f.cheapestCost ?? 0)}) got R = ${num(f.cheapestR)} `
    + `and the dearest (${formatCost(lab.catalog, f.dearestCost ?? 0)}) R = ${num(f.dearestR)}`;
}

/** The last observation at a preset's P, and where it stands among the observations. */
function lastAt(obs: readonly Observation[], p: Preference | undefined): { o: Observation; i: number } | null {
  for (let i = obs.length - 1; i >= 0; i--) {
    const o = obs[i] as Observation;
    if (p && samePref(o.preference, p)) return { o, i };
  }
  return null;
}

/** The comparison on screen when the side-by-side lesson started (an older one does not count). */
let comparisonAtStart: unknown = null;

export const LESSONS: readonly Lesson[] = [
  {
    id: 'why',
    title: 'Why orchestrate?',
    idea: 'A small trained router against always calling the biggest model and against the cheapest tool.',
    region: 'tradeoff',
    task: 'Move the "Cost weight" slider (or press an instruction preset) in step 1 and watch the ★ move in the '
      + 'trade-off view.',
    setup: pretrained,
    subject: (done) => ({ keep: done ? ['.first-screen .answer', PREFS, PLOT] : [PREFS, PLOT] }),
    check({ lab, run }) {
      const t = lab.tradeoff;
      const moved = run.observations.some((x) => !samePref(x.preference, run.preference));
      if (!moved || !t || lab.tradeoffStale) return not;
      const p = t.preference;
      const at = `outcome ${p.outcome.toFixed(2)}, cost ${p.cost.toFixed(2)}, latency ${p.latency.toFixed(2)}`;
      const h = headline(t, lab.catalog);
      if (!h) {
        return {
          done: true,
          explanation: `At your P (${at}) the policy solves ${pct(t.current.accuracy)} at `
            + `${formatCost(lab.catalog, t.current.cost)} per task (the ★'s line). This catalog has no GPT-5 `
            + 'baselines to compare with.',
        };
      }
      const [mine, theirs] = [shownValue(h.accuracy), shownValue(h.toolsAccuracy)];
      const solves = mine > theirs ? 'more tasks than' : mine === theirs ? 'as many tasks as' : 'fewer tasks than';
      const below = (label: string) => (t.baselines.find((x) => x.label === label)?.accuracy ?? 1) < t.current.accuracy;
      const others = below('always:gpt-5') && below('cheapest') ? 'both solve fewer tasks than the router'
        : 'are the dots to compare with';
      return {
        done: true,
        explanation: `At your P (${at}) the trained policy solves ${h.accuracy} of the held-out tasks `
          + `at ${h.cost} each (the ★); GPT-5 with basic tools solves ${h.toolsAccuracy} at ${h.toolsCost} — `
          + 'the numbers of the first paragraph. '
          + `So the router solves ${solves} GPT-5 with tools at ${h.costShare}% of its cost`
          + `${h.costShare < 100 ? ': it calls the strong model only where the cheap tools fail' : ''}. `
          + '"always GPT-5" (GPT-5 answering every step alone, without search or code) and "cheapest" (the cheapest '
          + `model alone) ${others}: hover a dot for its numbers. `
          + `The paper (Table 1) found the same shape at full scale: ${paperLine()}.`,
      };
    },
  },
  {
    id: 'gate',
    title: 'Outcome gating: failures get R = 0',
    idea: 'The reward is multiplied by the outcome, so no saving makes a failure worth anything.',
    region: 'slowmo',
    task: 'Press "Slow motion", then "Next phase" until phase 5, "Gate and weight: R".',
    async setup() {
      const back = await gatedReward('Lesson 2');
      await freshSlowMotion();
      return back;
    },
    subject: slowMotionSubject(5),
    check({ lab }) {
      const f = phase(lab, 5)?.facts;
      if (!f) return not;
      const g = f.trajectories ?? 0;
      if (!f.successes) {
        return {
          done: true,
          explanation: `All ${g} trajectories of this group failed, so every R is 0: the group has nothing to compare `
            + 'and phase 6 will filter it out. Failing cheaply earns nothing.',
        };
      }
      const scored = f.successes === 1
        ? `The one success, at ${formatCost(lab.catalog, f.cheapestCost ?? 0)}, got R = ${num(f.cheapestR)}: only a `
          + 'trajectory that solved the task is scored by your preference.'
        : `Of the ${f.successes} successes, ${cheapestAndDearest(f, lab)}: among the trajectories that solved `
          + 'the task, your preference decides.';
      return {
        done: true,
        explanation: `In this real group ${f.failed} of ${g} trajectories failed (outcome 0 in the table), and `
          + 'each got R = 0 whatever it cost: a cheap failure is worth no more than a dear one, so the policy cannot '
          + `learn to save money by giving up. ${scored}`,
      };
    },
  },
  {
    id: 'normalise',
    title: 'Min–max normalisation and P·M̃',
    idea: 'Why a constant dimension is zeroed, why a tiny difference becomes a large one, and what the official '
      + 'code’s sign bug would have rewarded.',
    region: 'slowmo',
    task: 'Step through slow motion to phase 5 and compare the last two columns: the paper’s R and the '
      + 'official code’s.',
    async setup() {
      // The official code's column is shown beside the paper's reward only in the paper's reward mode.
      const back = await paperReward('Lesson 3');
      await freshSlowMotion();
      return back;
    },
    subject: slowMotionSubject(5),
    check({ lab }) {
      const n = phase(lab, 4)?.facts, f = phase(lab, 5)?.facts;
      if (!n || !f) return not;
      const k = f.successes ?? 0;
      const cost = (x: number | undefined) => formatCost(lab.catalog, x ?? 0);
      if (k < 2 || cost(f.cheapestCost) === cost(f.dearestCost)) {
        return {
          done: false,
          hint: `This group has ${k} success${k === 1 ? '' : 'es'}${k >= 2 ? ' at one cost' : ''}: ${ANOTHER_GROUP}, `
            + 'until a group has two successes at different costs.',
        };
      }
      const official = (f.officialDearestR ?? 0) > (f.officialCheapestR ?? 0) ? 'paying the policy to spend'
        : 'here the other terms hide it, but every cost term pushes towards spending';
      return {
        done: true,
        explanation: 'Phase 4 zeroed every dimension of M on which the trajectories of this group all scored the same '
          + '(it names them, and the tools nobody called are among them): there is nothing to compare, and '
          + '(M − min)/(max − min) would divide by 0. '
          + ((n.tinyDims ?? 0) > 0
            ? `On ${n.tinyDims} dimension${n.tinyDims === 1 ? '' : 's'} the trajectories differed by less than 1% (phase 4's `
              + 'max − min row), yet M̃ spread them over the whole 0…1: min–max normalisation makes any difference the '
              + 'group leaves as large as the largest, however little it matters. '
            : 'Where trajectories differ by very little (phase 4 shows max − min beside each dimension), M̃ still '
              + 'spreads them over the whole 0…1: min–max normalisation makes any difference as large as the largest. ')
          + `Phase 5 took P·M̃ over the rest: of the successes, ${cheapestAndDearest(f, lab)}. `
          + 'The official code puts +cost in the numerator: its column gives them '
          + `${num(f.officialCheapestR)} and ${num(f.officialDearestR)} — ${official}.`,
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
    subject: slowMotionSubject(6),
    check({ lab }) {
      const f = phase(lab, 6)?.facts;
      if (!f) return not;
      const a = lab.train.advantage;
      const scale = a.normalizeStd
        ? `; dividing by the std (${num(f.std)}) puts A on the same scale whatever the scale of R`
        : '; this run does not divide by the std (Settings → Training), so A keeps the scale of R';
      const group = f.filtered
        ? `This group's rewards hardly differ (std ${num(f.std)}, below the filter's ${a.filterStd}), so it `
          + 'was filtered: A = 0 for all, nothing to learn.'
        : `Trajectories above it got A > 0 (up to ${num(f.aMax)}), those below A < 0 (down to ${num(f.aMin)})${scale}.`;
      return {
        done: true,
        explanation: `No value network: the group's own mean R = ${num(f.mean)} is the baseline. ${group} `
          + filteredInWords(f.filteredGroups ?? 0, f.groups ?? 0, a.filterStd)
          + (a.filterStd !== null && a.normalizeStd ? ' Dividing by the tiny std of such a group would only amplify noise.' : ''),
      };
    },
  },
  {
    id: 'preferences',
    title: 'Preference following',
    idea: 'One policy, trained with random P, follows whatever P you set — without retraining.',
    region: 'prefs',
    task: 'Press the instruction preset "Avoid API calls" (step 1), wait for the ★ to move, then press "Budget".',
    async setup() {
      await pretrained();
      await defaultPreference('Lesson 5');
    },
    subject: () => ({ keep: [PREFS, PLOT, POINT] }),
    check({ lab, run }) {
      const want = (name: string) => INSTRUCTION_PRESETS.find((p) => p.name === name)?.preference(lab.catalog);
      const api = lastAt(run.observations, want('Avoid API calls')), budget = lastAt(run.observations, want('Budget'));
      // Pressed in that order, and Budget's ★ is the one on screen.
      if (!api) return { done: false, ...(budget ? { hint: 'Press "Avoid API calls" first, then "Budget".' } : {}) };
      const on = lab.tradeoff;
      const shown = budget && budget.i > api.i && on && samePref(on.preference, budget.o.preference)
        && on.iteration === budget.o.iteration;
      if (!budget || !shown) {
        const at = pointLine(api.o.point, lab.catalog);
        return { done: false, hint: `"Avoid API calls" put the ★ at ${at}. Now press "Budget".` };
      }
      return {
        done: true,
        explanation: 'The same weights, two preference vectors. '
          + `"Avoid API calls": ${pointLine(api.o.point, lab.catalog)}; it calls ${topTools(api.o.point)}. `
          + `"Budget" (on screen now): ${pointLine(budget.o.point, lab.catalog)}; `
          + `it calls ${topTools(budget.o.point)}. `
          + "P is an input of the policy: trained with a random P per task (the paper's way), it learned to read it.",
      };
    },
  },
  {
    id: 'side-by-side',
    title: 'Weighted sum against the normalised reward',
    idea: 'A plain weighted sum (the outcome minus fixed costs per call and per token, plus a bonus for speed) against '
      + 'the paper’s normalised reward, trained side by side on the same seed.',
    region: 'compare',
    task: 'In "Compare runs", choose "paper reward vs weighted sum" and press "Start comparison"; after 60 iterations '
      + 'press "Stop" (or let it finish) and read the summary under the charts.',
    setup() {
      comparisonAtStart = useCompare.getState().runs;
      useView.getState().showTab('Compare runs');
    },
    subject: (done) => (done
      ? { keep: ['[data-testid="compare-runs"] .charts-grid', '[data-testid="compare-conclusion"]'] }
      : { keep: ['.compare-controls'], spare: ['[data-testid="compare-runs"]'] }),
    check({ compare, lab }) {
      const [a, b] = compare.runs;
      if (compare.runs === comparisonAtStart || compare.presetId !== 'reward' || !a || !b) return not;
      const n = Math.min(a.points.length, b.points.length);
      if (compare.running || n < 20) {
        return {
          done: false,
          hint: compare.running ? `${count(n, 'iteration')} so far: press "Stop" after 60.`
            : `Only ${count(n, 'iteration')}: start it again and let it pass 60.`,
        };
      }
      // As the conclusion under the charts shows them: each side's mean over seeds of its last iterations.
      const [acc, cost] = conclusionLines(a, b, lab.catalog);
      if (!acc || !cost) return not;
      const cheaper = cost.s.meanB < cost.s.meanA ? 'so its policy learns to call fewer tools — here it already spends less'
        : 'which pushes its policy to call fewer tools (not yet visible in this run)';
      return {
        done: true,
        explanation: `After ${count(acc.s.iterations, 'iteration')} on ${acc.s.seeds} seeds, the same tasks on both sides `
          + `(the conclusion under the charts): ${a.label} solves ${acc.m.value(acc.s.meanA)} at `
          + `${cost.m.value(cost.s.meanA)} per task; ${b.label} ${acc.m.value(acc.s.meanB)} at ${cost.m.value(cost.s.meanB)}. `
          + 'The weighted sum adds raw costs to the outcome: −0.0001 per token over thousands of tokens can outweigh '
          + `the +1 for solving, ${cheaper}. The paper's reward normalises every dimension within the group and `
          + 'gates on the outcome: only successes are compared, so cost can never beat solving.',
      };
    },
  },
  {
    id: 'epochs',
    title: 'Why the surrogate loss looks flat',
    idea: 'With one epoch the ratio is exactly 1; μ > 1 moves it, and the clip stops it.',
    region: 'slowmo',
    task: 'μ is now 4. Step through slow motion to phase 7, "Update: ratio, clip, KL", and compare epoch 1 '
      + 'with epoch 4.',
    async setup() {
      // The phases on screen go first: an older iteration's update (μ = 2) must not count.
      await freshSlowMotion();
      return epochs(4, 'Lesson 7');
    },
    subject: slowMotionSubject(7),
    check({ lab }) {
      const f = phase(lab, 7)?.facts;
      if (!f) return not;
      if (!f.epochs) {
        const why = 'Every group of this iteration was filtered, so nothing trained';
        return { done: false, hint: `${why}: ${ANOTHER_GROUP}.` };
      }
      if (f.epochs < 2 || f.epochs !== lab.train.epochs) {
        return {
          done: false,
          hint: `This iteration ran ${count(f.epochs, 'epoch')}, not μ = ${lab.train.epochs} (μ applies from the next `
            + `iteration): ${ANOTHER_GROUP}.`,
        };
      }
      return {
        done: true,
        explanation: `Epoch 1 is on-policy: the ratio π_θ/π_old ran from ${num(f.ratioMin1, 4)} to `
          + `${num(f.ratioMax1, 4)}, the clip fraction was ${pct(f.clip1 ?? 0)} and the surrogate ${num(f.loss1, 5)}: `
          + (lab.train.aggregation === 'token-mean'
            ? `at ratio 1 it is minus the advantage averaged over every decision, small against the advantages `
              + `themselves (their mean size |A| is ${num(f.meanAbsA, 3)}), since each group's mean is its baseline, and not `
              + 'exactly 0, since a trajectory with more decisions counts more. '
            : `at ratio 1 it is minus the trajectories' mean advantage (each trajectory weighs the same), about 0 against `
              + `the advantages themselves (their mean size |A| is ${num(f.meanAbsA, 3)}), since each group's advantages sum to 0. `)
          + 'Its gradient is not small: that is why the loss chart looks flat with μ = 1 '
          + `while the policy learns. By epoch ${f.epochs} the ratio spread to ${num(f.ratioMinLast, 4)} … `
          + `${num(f.ratioMaxLast, 4)} and ${pct(f.clipLast ?? 0)} of the decisions hit the clip, which stops one `
          + 'batch from pushing the policy too far.',
      };
    },
  },
];

export const lessonById = (id: string): Lesson | undefined => LESSONS.find((l) => l.id === id);

export function checkLesson(run: LessonRun): LessonCheck {
  const lesson = lessonById(run.id);
  return lesson ? lesson.check({ lab: useLab.getState(), compare: useCompare.getState(), run }) : not;
}
