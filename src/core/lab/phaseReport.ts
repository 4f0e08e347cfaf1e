// What each phase of an iteration computed, as the slow motion shows it: a sentence with the
// phase's numbers and small tables of the first group's values (the group a student follows from
// phase to phase), plus batch-wide counts. Pure: built from the IterationState that phases.ts
// filled in, so the page displays the numbers the update really used and derives none itself.

import { formatCost } from '../sim/catalog';
import type { Task } from '../sim/tasks';
import type { TraceEntry } from '../sim/episode';
import { ADV_EPS } from '../grpo/advantage';
import { learningRateAt } from '../grpo/config';
import { measureDims, officialRewards } from '../grpo/reward';
import { REWARD_MODE_INFO, type RewardMode } from '../grpo/rewardModes';
import { PHASE_NAMES, type PhaseName } from '../grpo/phaseNames';
import type { IterationState } from '../grpo/phases';
import type { Divergence } from '../grpo/metrics';
import { filteredInWords } from './filteredInWords';

/** The mean |A| over the trajectories that train (filtered groups left out): the scale the first epoch's surrogate is small against. */
function meanAbsAdvantage(groups: readonly { advantages: ArrayLike<number>; filtered: boolean }[]): number {
  let sum = 0, n = 0;
  for (const g of groups) {
    if (g.filtered) continue;
    for (let k = 0; k < g.advantages.length; k++) { sum += Math.abs(g.advantages[k] as number); n++; }
  }
  return n > 0 ? sum / n : 0;
}

export interface PhaseTable {
  caption: string;
  columns: string[];
  rows: string[][];
  /** Per column: the formula symbol whose value it holds (formulas light it up), or null. */
  symbols?: (string | null)[];
}

export interface PhaseReport {
  /** 1 … 8. */
  index: number;
  name: PhaseName;
  /** The iteration this phase belongs to (1-based, as the charts count). */
  iteration: number;
  /** The reward mode and std division this iteration runs with (the formulas beside the phases follow them, not later settings). */
  reward: RewardMode;
  normalizeStd: boolean;
  summary: string;
  tables: PhaseTable[];
  /** Phase 8: the action probabilities at the group's first decision, before and after the update. */
  bars?: { caption: string; items: { label: string; before: number; after: number }[] };
  /** The phase's key numbers by name, for the lessons to quote (e.g. failed, mean, std, clipLast). */
  facts: Record<string, number>;
  /** Phase 7: the update diverged (the page says so after the summary, in the words of its notices). */
  diverged?: Divergence;
}

const f = (x: number, d = 3) => (Number.isFinite(x) ? (Math.abs(x) < 5e-4 && x !== 0 ? x.toExponential(1) : x.toFixed(d)) : String(x));
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const short = (t: Task) => (t.question.length > 72 ? `${t.question.slice(0, 70)}…` : t.question);
/** A raw measure as phase 2 shows it: calls and outcomes as integers, seconds to 1 decimal, dollars to 4. */
const raw = (x: number) => (Number.isInteger(x) ? String(x) : Math.abs(x) >= 10 ? x.toFixed(1) : f(x, 4));

/** A difference to its significant figures: "0", "2.0e-5", "0.0300", "1.00". */
const sig = (x: number) => (x === 0 ? '0' : Math.abs(x) < 1e-3 ? x.toExponential(1) : x.toPrecision(3));

/** min and max written as M is, with as many more digits as it takes to tell them apart. */
export function distinct(lo: number, hi: number): [string, string] {
  let a = raw(lo), b = raw(hi);
  for (let p = 3; a === b && lo !== hi && p <= 15; p++) { a = lo.toPrecision(p); b = hi.toPrecision(p); }
  return [a, b];
}

/** A range that M̃ stretches to 0…1 although it is under 1% of the values' size, or invisible at 4 decimals. */
export function isTinyRange(lo: number, hi: number): boolean {
  return hi > lo && (hi - lo < 0.01 * Math.max(Math.abs(lo), Math.abs(hi)) || f(lo, 4) === f(hi, 4));
}

function tinyText(tiny: { name: string; lo: number; hi: number }[]): string {
  const list = tiny.map((d) => `${d.name} (max − min = ${sig(d.hi - d.lo)})`).join(', ');
  return `On ${list} the trajectories differ by less than 1% of the values, too little to matter, yet M̃ stretches `
    + 'that difference to the whole 0…1: the best of the group gets 1 and the worst 0, as if they were far apart. '
    + 'Min–max normalisation amplifies any difference a group leaves, however small.';
}

/** One turn of a trace in a few characters: "search gpt-5-mini→local-search ✓", "answer gpt-5 ✗", "submit ✓". */
export function traceStep(e: TraceEntry): string {
  const mark = (ok: boolean | undefined) => (ok ? '✓' : '✗');
  if (e.action === 'search' || e.action === 'code') return `${e.action} ${e.model ?? ''}→${e.tool ?? ''} ${mark(e.success)}`;
  return `${e.action === 'answer' ? `answer ${e.model ?? ''}` : 'submit'} ${mark(e.committedCorrect)}`;
}

/** Dimensions of M worth a column: those any trajectory of the group moved, and outcome, −cost, −latency. */
function shownDims(s: IterationState): number[] {
  const m = s.mRaw[s.shown] ?? [];
  const K = (m[0] ?? []).length;
  return Array.from({ length: K }, (_, k) => k).filter((k) => k >= K - 3 || m.some((row) => (row[k] ?? 0) !== 0));
}

function dimNames(s: IterationState): string[] {
  return measureDims(s.host.catalog.tools.map((t) => t.id));
}

function prefText(s: IterationState, row: readonly number[]): string {
  const names = dimNames(s);
  return row.map((x, k) => (x ? `${names[k]} ${x}` : null)).filter(Boolean).join(', ') || 'all 0';
}

/**
 * The report of the phase that ran last (index = s.next). `offset`: iterations the lab counted
 * before this trainer (the lab session keeps the count across a rebuilt trainer).
 */
export function phaseReport(s: IterationState, offset = 0): PhaseReport {
  const k = s.next;
  if (k < 1 || k > PHASE_NAMES.length) throw new Error(`no phase has run yet (next is ${k + 1})`);
  const iteration = offset + s.host.iteration + 1;
  const base = { index: k, name: PHASE_NAMES[k - 1] as PhaseName, iteration, reward: s.host.config.reward, normalizeStd: s.host.config.advantage.normalizeStd };
  const body = BUILD[k - 1]!(s, iteration);
  return { ...base, ...body, facts: body.facts ?? {} };
}

type Body = Pick<PhaseReport, 'summary' | 'tables' | 'bars' | 'diverged'> & { facts?: Record<string, number> };

const BUILD: ((s: IterationState, iteration: number) => Body)[] = [
  // 1. Sample tasks and preferences
  (s, iteration) => {
    const c = s.host.config;
    return {
      summary: `B = ${c.batchTasks} tasks drawn from the training pool of ${s.host.pool.length} (seed ${c.seed}, ` +
        `iteration ${iteration}); each will be tried G = ${c.groupSize} times, ${c.batchTasks * c.groupSize} ` +
        `episodes in all. P is ` +
        `${c.preferenceMode === 'random' ? 'drawn at random for each task' : "the sliders' preference, the same for every task"}. ` +
        'One group is followed through the next phases: the first whose G attempts neither all succeed nor all fail, ' +
        'where there is something to learn.',
      tables: [{ caption: 'The tasks and their preference vectors P',
        columns: ['group', 'domain', 'task', 'P (non-zero)'], symbols: [null, null, null, 'P'],
        rows: s.groupPrefs.map((p, b) => [String(b + 1), (s.tasks[b * c.groupSize] as Task).domain,
        short(s.tasks[b * c.groupSize] as Task), prefText(s, p)]) }],
    };
  },
  // 2. Roll out G trajectories per task
  (s) => {
    const { env, catalog, config: c } = s.host;
    const N = s.tasks.length, G = c.groupSize;
    let solved = 0, turns = 0;
    for (let i = 0; i < N; i++) { solved += env.outcome[i] as number; turns = Math.max(turns, env.turn[i] as number); }
    const rows = Array.from({ length: G }, (_, g) => {
      const i = s.shown * G + g;
      const trace = env.traces?.[i] ?? [];
      const path = trace.map((e) => traceStep(e)).join(' → ');
      return [String(g + 1), path || '—', env.outcome[i] ? 'solved' : 'failed',
        formatCost(catalog, env.cost[i] as number), `${((env.latencyMs[i] as number) / 1000).toFixed(1)} s`];
    });
    return {
      summary: `All ${N} episodes advanced in lockstep for ${turns} turns: one batched forward of the policy per ` +
        `turn, actions sampled from its probabilities. ${solved} of ${N} episodes solved their task ` +
        `(${pct(solved / N)}). Group ${s.shown + 1}'s ${G} attempts at "${short(s.tasks[s.shown * G] as Task)}":`,
      tables: [{ caption: `Group ${s.shown + 1}, turn by turn (search / code: a model writes a query or a program ` +
        `that a tool runs, ✓ when it found what its step needs; answer: one model answers the question with ` +
        `everything found, ✓ when right; submit: the orchestrator answers itself)`, columns: ['#', 'calls in order', 'outcome', 'cost', 'latency'], rows }],
      facts: { episodes: N, solved, turns },
    };
  },
  // 3. Measure M
  (s) => {
    const names = dimNames(s), dims = shownDims(s);
    return {
      summary: `Each trajectory is measured as a vector M = [${REWARD_MODE_INFO[s.host.config.reward].measures}…, `
        + `outcome, −cost, −latency] (${names.length} dimensions; the ${names.length - dims.length} tools nobody in `
        + 'the group called are left out below). Cost and latency enter with a minus sign, so more is worse.',
      tables: [{ caption: `Group ${s.shown + 1}: M(τ), raw`, columns: ['#', ...dims.map((k) => names[k] as string)],
        symbols: [null, ...dims.map(() => 'M')],
        rows: (s.mRaw[s.shown] ?? []).map((m, g) => [String(g + 1), ...dims.map((k) => raw(m[k] as number))]) }],
    };
  },
  // 4. Normalise
  (s) => {
    const names = dimNames(s), dims = shownDims(s);
    const m = s.mRaw[s.shown] ?? [];
    const lo = dims.map((k) => Math.min(...m.map((r) => r[k] as number)));
    const hi = dims.map((k) => Math.max(...m.map((r) => r[k] as number)));
    const shown = dims.map((_, i) => distinct(lo[i] as number, hi[i] as number));
    const constant = dims.filter((_, i) => hi[i] === lo[i]).map((k) => names[k]);
    const tiny = dims.map((k, i) => ({ name: names[k] as string, lo: lo[i] as number, hi: hi[i] as number }))
      .filter((d) => isTinyRange(d.lo, d.hi));
    return {
      // Counted over all of M's dimensions (the tools nobody in the group called are constant 0 too).
      facts: {
        constantDims: names.filter((_, k) => m.every((r) => r[k] === (m[0] as number[])[k])).length,
        dims: names.length, tinyDims: tiny.length,
      },
      summary: 'Each dimension is rescaled within the group: M̃ = (M − min)/(max − min), so the best trajectory of the '
        + 'group scores 1 and the worst 0 on it. '
        + (constant.length ? `Constant here, so zeroed (no trajectory is better than another on it): ${constant.join(', ')}.`
          : 'No dimension shown is constant in this group.')
        + (names.length > dims.length
          ? ` The ${names.length - dims.length} tools nobody called (left out of the tables) are constant at 0, so zeroed too.` : '')
        + (tiny.length ? ` ${tinyText(tiny)}` : ''),
      tables: [
        { caption: `Group ${s.shown + 1}: min, max and their difference per dimension (the divisor of M̃)`,
          columns: ['', ...dims.map((k) => names[k] as string)],
          rows: [['min', ...shown.map((x) => x[0])], ['max', ...shown.map((x) => x[1])],
            ['max − min', ...dims.map((_, i) => sig((hi[i] as number) - (lo[i] as number)))]] },
        { caption: `Group ${s.shown + 1}: M̃(τ), normalised`, columns: ['#', ...dims.map((k) => names[k] as string)],
          symbols: [null, ...dims.map(() => 'M')],
          rows: (s.mNorm[s.shown] ?? []).map((r, g) => [String(g + 1), ...dims.map((k) => f(r[k] as number, 2))]) },
      ],
    };
  },
  // 5. Gate and weight: R
  (s) => {
    const c = s.host.config, names = dimNames(s);
    const P = s.groupPrefs[s.shown] ?? [], stats = s.stats[s.shown] ?? [], R = s.rewards[s.shown] ?? [];
    const active = P.map((p, k) => (p ? k : -1)).filter((k) => k >= 0);
    const failed = stats.filter((t) => !t.outcome).length;
    const mode = REWARD_MODE_INFO[c.reward];
    const how = `${mode.formula}${mode.readsPreference ? `, with P = [${prefText(s, P)}]` : ''}. ${mode.explanation} `
      + `Failed here: ${failed} of ${stats.length}.`;
    // Beside the paper's R: what the official training code would have given the same group (its sign bug rewards spending).
    const official = c.reward === 'toolorchestra' ? officialRewards(stats, P) : null;
    const wins = stats.map((t, g) => ({ g, cost: t.costUSD })).filter((x) => stats[x.g]?.outcome).sort((a, b) => a.cost - b.cost);
    const cheap = wins[0], dear = wins[wins.length - 1];
    const facts: Record<string, number> = { failed, trajectories: stats.length, successes: wins.length, r1: R[0] as number };
    if (cheap && dear) {
      Object.assign(facts, { cheapestCost: cheap.cost, dearestCost: dear.cost, cheapestR: R[cheap.g] as number, dearestR: R[dear.g] as number });
      if (official) Object.assign(facts, { officialCheapestR: official[cheap.g] as number, officialDearestR: official[dear.g] as number });
    }
    return {
      facts,
      summary: how + (official ? " The last column is the official code's reward for the same group: for a success " +
        'R_official = Σ_j P_j·(n_j − min_j)/(max_j − min_j) + P_o + P_c·(2·c_max + c)/(c_max − c_min) + ' +
        'P_l·(2·l_max + l)/(l_max − l_min), with n_j its calls of tool j (ranged over the trajectories that called it), c and ' +
        'l its cost and latency, each term dropped where its range is 0 (P_o too when every try succeeded), and 0 for a failure. ' +
        'With +c where the paper has −c, the dearest success scores highest on cost; the c_max and l_max terms come twice ' +
        'because the per-tool loop runs over the outcome, cost and latency keys as well.' : ''),
      tables: [{ caption: `Group ${s.shown + 1}: the terms P_k·M̃_k and R`, columns: ['#', 'outcome', 'cost',
        ...active.map((k) => `P·M̃ ${names[k]}`), 'R', ...(official ? ['R, official code'] : [])], symbols: [null, null,
        null, ...active.map(() => null), 'R', ...(official ? [null] : [])],
        rows: R.map((r, g) => [String(g + 1), (stats[g]?.outcome ? '1' : '0'), formatCost(s.host.catalog, stats[g]?.costUSD ?? 0),
          ...active.map((k) => f((P[k] as number) * ((s.mNorm[s.shown] as number[][])[g] as number[])[k]!, 3)), f(r),
          ...(official ? [f(official[g] as number)] : [])]) }],
    };
  },
  // 6. Advantage: A
  (s) => {
    const o = s.host.config.advantage, a = s.advantages[s.shown]!, R = s.rewards[s.shown] ?? [];
    const filtered = s.advantages.filter((x) => x.filtered).length;
    return {
      facts: { a1: a.advantages[0] as number, mean: a.mean, std: a.std, filtered: a.filtered ? 1 : 0,
        filteredGroups: filtered, groups: s.advantages.length, aMax: Math.max(...a.advantages),
        aMin: Math.min(...a.advantages) },
      summary: `The group is its own baseline: mean R = ${f(a.mean)}, std = ${f(a.std)}. ${a.filtered
        ? `Std below ${o.filterStd}: the group is filtered, every A = 0 and it does not train.`
        : `A = (R − mean)${o.normalizeStd ? `/(std + ${ADV_EPS})` : ' (no std division)'}` +
          `${o.clip !== null ? `, clipped to ±${o.clip}` : ''}: better-than-siblings trajectories get A > 0.`} ` +
        filteredInWords(filtered, s.advantages.length, o.filterStd),
      tables: [o.normalizeStd
        ? { caption: `Group ${s.shown + 1}: R → A`, columns: ['#', 'R', 'R − mean', '(R − mean)/(std + ε)', 'A'], symbols: [null, 'R', null, null, 'A'],
          rows: R.map((r, g) => [String(g + 1), f(r), f(r - a.mean), f(a.raw[g] as number), f(a.advantages[g] as number)]) }
        : { caption: `Group ${s.shown + 1}: R → A`, columns: ['#', 'R', 'R − mean', 'A'], symbols: [null, 'R', null, 'A'],
          rows: R.map((r, g) => [String(g + 1), f(r), f(a.raw[g] as number), f(a.advantages[g] as number)]) }],
    };
  },
  // 7. Update: ratio, clip, KL
  (s, iteration) => {
    const c = s.host.config, u = s.update!;
    const M = s.host.buf.turns * s.host.buf.slots;
    const first = u.epochs[0], last = u.epochs[u.epochs.length - 1];
    // A trainer counts from 0 and its schedule is shifted by the lab's iterations before it: said in the lab's count.
    const before = iteration - (s.host.iteration + 1);
    const still = learningRateAt(c, s.host.iteration) === 0
      ? ` The learning rate is 0 at this iteration (its schedule reached 0 at iteration ${(c.lrDecay?.end ?? 0) + before}): the ` +
        `gradients are computed but the weights do not move, so the ratio stays 1 in every epoch.`
      : '';
    return {
      facts: first && last ? { epochs: u.epochs.length, ratioMin1: first.ratioMin, ratioMax1: first.ratioMax,
        clip1: first.clipFrac, loss1: first.loss, ratioMinLast: last.ratioMin, ratioMaxLast: last.ratioMax,
        clipLast: last.clipFrac, klLast: last.kl, entropyLast: last.entropy,
        trained: s.trainedDecisions, meanAbsA: meanAbsAdvantage(s.advantages) } : { epochs: 0 },
      summary: u.epochs.length === 0 ? 'Every group was filtered: no decision trains, the weights stay as they were.'
        : `${s.trainedDecisions} decisions train (of ${M} buffer rows: padding and filtered groups carry weight 0), ` +
          `for μ = ${c.epochs} epoch${c.epochs > 1 ? 's' : ''}. Epoch 1 is on-policy, so ratio = π_θ/π_old = 1 exactly, ` +
          `nothing is clipped and the surrogate is minus the advantage averaged over the ${c.aggregation === 'token-mean'
            ? 'decisions' : 'trajectories'} (the training trajectories' mean |A| ` +
          `is ${f(meanAbsAdvantage(s.advantages))}); from epoch 2 the ratio moves and leaves ` +
          `[${+(1 - c.epsLow).toFixed(4)}, ${+(1 + c.epsHigh).toFixed(4)}] where the clip stops the push.${still} ` +
          `KL ${c.beta > 0 ? `to the reference, β = ${c.beta}` : 'is 0: β = 0 (no reference model, as in the paper)'}.`,
      // The iteration as the lab counts it (a trainer counts from 0 after an import or a restore).
      ...(u.diverged ? { diverged: { ...u.diverged, iteration } } : {}),
      tables: [{ caption: 'Each epoch of the update',
        columns: ['epoch', 'ratio min … max', 'clip fraction', 'KL', 'surrogate', 'entropy', '‖g‖ before clip'],
        symbols: [null, 'ratio', 'clip', 'kl', null, 'entropy', null],
        rows: u.epochs.map((e, i) => [String(i + 1), `${f(e.ratioMin, 4)} … ${f(e.ratioMax, 4)}`, pct(e.clipFrac),
          f(e.kl, 5), f(e.loss, 5), f(e.entropy), f(e.gradNorm)]) }],
    };
  },
  // 8. New probabilities
  (s) => {
    const p = s.probs;
    if (!p?.after) return { summary: 'Not observed in this iteration.', tables: [] };
    const { buf, config: c } = s.host;
    // The policy's actions are the harness's slots (search:writer@tool, code:…, answer:model) and submit.
    const A = s.host.env.nActions, labels = [...s.host.env.slots.map((x) => x.id), 'submit'];
    const perTraj = Array.from({ length: c.groupSize }, () => ({ n: 0, before: 0, after: 0 }));
    p.rows.forEach((row, i) => {
      const g = (row % buf.slots) - s.shown * c.groupSize, a = buf.actions[row] as number;
      const t = perTraj[g]!;
      t.n++; t.before += Math.log(p.before[i * A + a] as number); t.after += Math.log(p.after![i * A + a] as number);
    });
    const advOf = (g: number) => s.adv[s.shown * c.groupSize + g] as number;
    const rows = perTraj.map((t, g) => [String(g + 1), f(advOf(g)), String(t.n),
      t.n ? pct(Math.exp(t.before / t.n)) : '—', t.n ? pct(Math.exp(t.after / t.n)) : '—',
      t.n ? `${(t.after - t.before) / t.n >= 0 ? '+' : ''}${f((t.after - t.before) / t.n, 4)}` : '—']);
    const first = labels.map((label, j) => ({ label, before: p.before[j] as number,
      after: p.after![j] as number })).filter((x) => x.before > 1e-4 || x.after > 1e-4);
    const moved = (sign: 1 | -1) => {
      const of = perTraj.filter((t, g) => t.n && sign * advOf(g) > 0);
      return { n: of.length, went: of.filter((t) => sign * (t.after - t.before) > 0).length };
    };
    const pos = moved(1), neg = moved(-1);
    const filtered = s.advantages[s.shown]?.filtered;
    const still = learningRateAt(c, s.host.iteration) === 0;
    const why = still || filtered ? null : whyNotAll(s, perTraj, advOf, pos.n - pos.went + neg.n - neg.went);
    const outcome = still ? 'the learning rate is 0 at this iteration, so nothing moved'
      : filtered ? 'this group was filtered (A = 0), so what moved here was moved by the other groups, which share the weights'
        : `${pos.went} of ${pos.n} with A > 0 rose and ${neg.went} of ${neg.n} with A < 0 fell`;
    return {
      facts: { positive: pos.n, rose: pos.went, negative: neg.n, fell: neg.went, ...(why?.facts ?? {}) },
      summary: 'After the update, the actions this group took are re-scored. Trajectories with A > 0 should have become '
        + `more likely, those with A < 0 less: ${outcome}.${why?.text ? ` ${why.text}` : ''} `
        + "The bars show the whole distribution at the group's first decision.",
      tables: [{ caption: `Group ${s.shown + 1}: π(taken action), geometric mean over each trajectory's decisions`,
        columns: ['#', 'A', 'decisions', 'π before', 'π after', 'Δ mean ln π'],
        symbols: [null, 'A', null, null, null, null], rows }],
      bars: { caption: `π(action) at the first decision of group ${s.shown + 1}, before → after`, items: first },
    };
  },
];

type Moves = { n: number; before: number; after: number }[];

/**
 * Why an update need not raise every A > 0 trajectory and lower every A < 0 one, in the numbers of
 * this iteration: the batch's gradient, the shared first decision, and the clip on each decision.
 */
function whyNotAll(s: IterationState, perTraj: Moves, advOf: (g: number) => number, against: number) {
  const p = s.probs!, { buf, config: c } = s.host, G = c.groupSize;
  const A = s.host.env.nActions;
  const mine = perTraj.reduce((a, t) => a + t.n, 0);
  const groups = s.advantages.filter((x) => !x.filtered).length;
  let clipped = 0;
  const first = new Map<number, number>();
  p.rows.forEach((row, i) => {
    const a = buf.actions[row] as number;
    const ratio = (p.after![i * A + a] as number) / (p.before[i * A + a] as number);
    const g = (row % buf.slots) - s.shown * G;
    // The clip stops a push only in the advantage's direction: up past 1 + ε_high, down past 1 − ε_low.
    if ((advOf(g) > 0 && ratio > 1 + c.epsHigh) || (advOf(g) < 0 && ratio < 1 - c.epsLow)) clipped++;
    if (Math.floor(row / buf.slots) === 0) first.set(g, a);
  });
  // A trajectory with A < 0 whose first action is also that of one with A > 0: at the group's shared
  // first state their pushes on that action oppose each other.
  const shared = [...first].filter(([g, a]) => advOf(g) < 0 && [...first].some(([h, b]) => b === a && advOf(h) > 0)).length;
  const last = s.update?.epochs[s.update.epochs.length - 1];
  const facts = { groupDecisions: mine, trainingGroups: groups, clippedHere: clipped, sharedFirst: shared };
  if (!against) return { facts, text: '' };
  const text = `${against === 1 ? 'One went' : `${against} went`} against its A, and the update allows it: it follows the gradient `
    + `of the whole batch, ${s.trainedDecisions} decisions from ${groups} group${groups === 1 ? '' : 's'} that train (this `
    + `group's ${mine} among them), through weights every group shares, so the other groups' pushes move these `
    + 'probabilities too.'
    + (shared ? ` ${shared === 1 ? 'One trajectory' : `${shared} trajectories`} with A < 0 began with the same action `
      + 'as one with A > 0, in the same first state: there their pushes on that action oppose and partly cancel.' : '')
    + ` ${clipped} of this group's ${mine} decisions moved past the clip (π after/π before above ${+(1 + c.epsHigh).toFixed(4)} `
    + `with A > 0, or below ${+(1 - c.epsLow).toFixed(4)} with A < 0), where it stops the push`
    + (last ? ` (the clip held ${pct(last.clipFrac)} of the batch's decisions in the last epoch).` : '.');
  return { facts, text };
}
