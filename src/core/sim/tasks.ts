// ToolScale-lite: generates verifiable multi-step tasks from a catalog, a seed and a suite: ordered
// typed steps (difficulty, noisy hint, whether a tool is needed), a key fixing the item latents, how
// answers are committed, available tools, a golden path and (agentic tasks) a record store checked by
// DB state. The training pool also gives each task its own prices and turn budget and filters out
// tasks unsolvable at pass@8 or solved alone by the orchestrator; the suites are not filtered.

import { expectedCallCost, writeTokens, type Catalog, type ToolSpec, type WriterRole } from './catalog';
import { answerLogit, DEFAULT_SIM, evidenceLift, itemLogit, latentKey, sigmoid, spreadOf, stepLatent, toolReaches,
  writerLogit, type SimConfig } from './callModel';
import { SELF, slotsOf, writerRoleOf } from './slots';
import { applyWrites, type StoreRecord } from './recordStore';
import { counterUniform, hashInts, hashString, SeqRng } from './rng';
import type { Domain, StepType } from './stepTypes';
import { suiteByName, SUITES, TRAINING_SUITE, type Suite } from './suites';
import { ownGet } from '../names';
import { DIFFICULTY, NEEDS_TOOL, PROMPT_TOKENS, TEMPLATES, type StepDraft } from './taskTemplates';

/** A drafted step with its difficulty, the noisy hint the orchestrator sees of it, and whether it needs a tool. */
export interface TaskStep extends StepDraft {
  difficulty: number;
  /** What the orchestrator sees of the difficulty: difficulty + noise. */
  hint: number;
  /** A model has almost no chance on it until a tool's result for it is in its context (visible to the orchestrator). */
  needsTool: boolean;
}

/** One call of a task's golden path: a slot (slots.ts) on a step, and its chance (of a hit, or of the answer being right). */
export interface GoldenCall {
  slot: string;
  step: number;
  p: number;
}

export interface Task {
  id: string;
  /** Fixes the task's per-item latents: every episode of this task meets the same item. */
  key: number;
  /** The suite it was drawn from ('toolscale' = the training pool). */
  suite: string;
  domain: Domain;
  question: string;
  promptTokens: number;
  steps: TaskStep[];
  /**
   * How answers are committed: 'task' = one final answer for the whole question (its steps are what the
   * answer must get right, and what evidence is gathered for); 'step' = each step is committed in turn
   * (a record-store task's lookups and actions), with the same rule.
   */
  commits: 'task' | 'step';
  /** Ids of the tools this task may use (a random subset of the enabled ones). */
  available: string[];
  /** Training tasks: each tool's price multiplier at this task's provider (absent: list prices). */
  priceScale?: Record<string, number>;
  /** Training tasks: this task's turn budget (absent: the world's maxTurns). */
  maxTurns?: number;
  store?: StoreRecord[];
  golden: { path: GoldenCall[]; successProbability: number; store?: StoreRecord[] };
}

export interface GenerateOptions {
  seed: number;
  count: number;
  /** A benchmark suite (hle, frames, tau2); absent = the filtered training pool. */
  suite?: string;
  /** Chance that each enabled tool is available to a task (the paper randomises tool sets). */
  availability?: number;
  domains?: readonly Domain[];
  sim?: SimConfig;
  /** Keep a task only if its best plan solves it within 8 tries with at least this probability (training pool). */
  minSolveProbability?: number;
  /** Drop a task the orchestrator solves with no tool with at least this probability. */
  maxNoToolProbability?: number;
  hintNoise?: number;
  /** Each task draws every tool's price multiplier log-uniformly in [1/f, f] (a provider's list; training pool). 1 = list prices. */
  priceSpread?: number;
  /** Each task draws its turn budget log-uniformly from this range (training pool); absent = the world's maxTurns. */
  turnBudgets?: readonly [number, number];
}

export interface GenerateStats {
  generated: number;
  kept: number;
  droppedUnsolvable: number;
  droppedNoTool: number;
}

export const GOLDEN_THRESHOLD = 0.8;
/** ToolScale keeps a task that some model solves at pass@8. */
export const FILTER_TRIES = 8;
const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/** The steps each commit covers: one unit of all steps ('task'), or one per step ('step'). */
export function taskUnits(task: Pick<Task, 'steps' | 'commits'>): number[][] {
  const all = task.steps.map((_, k) => k);
  return task.commits === 'task' ? [all] : all.map((k) => [k]);
}

/** A tool's price multiplier for a task (1 where the task carries none). */
export function priceScaleOf(task: Pick<Task, 'priceScale'>, id: string): number {
  const p = task.priceScale;
  return p && Object.hasOwn(p, id) ? (p[id] as number) : 1;
}

type Who = { id: string; skill: Partial<Record<StepType, number>>; kind: ToolSpec['kind'] | 'driver' };

/** The item logit of `who` answering step k of a task (its latent included); −∞ where it cannot answer the step type. */
export function answerItem(task: Pick<Task, 'key' | 'steps'>, k: number, who: Who, sim: SimConfig): number {
  const s = task.steps[k];
  const skill = s ? who.skill[s.type] : undefined;
  if (!s || skill === undefined) return -Infinity;
  return itemLogit(skill, s.difficulty, spreadOf(who.kind, s.type, sim), stepLatent(task.key, k, latentKey(who.id), sim.sharedFactor), sim.discrimination);
}

/** Whether some available writer (a model, or the orchestrator itself) writes for what `tool` runs. */
function hasWriter(task: Pick<Task, 'available'>, tool: ToolSpec, catalog: Catalog): boolean {
  const role = tool.runs as WriterRole;
  return catalog.orchestrator.writes?.[role] !== undefined || catalog.tools.some((m) => m.enabled && m.kind !== 'basic'
    && m.writes?.[role] !== undefined && task.available.includes(m.id));
}

/** The largest first lift any available basic tool with an available writer brings to step k (0 when none reaches it). */
function bestLift(task: Pick<Task, 'steps' | 'available'>, k: number, catalog: Catalog, sim: SimConfig): { lift: number; tool: ToolSpec | null } {
  const s = task.steps[k] as TaskStep;
  let best = { lift: 0, tool: null as ToolSpec | null };
  for (const t of catalog.tools) {
    if (!t.enabled || t.kind !== 'basic' || !t.runs || !task.available.includes(t.id)
      || !toolReaches(t, s.type, s.needsTool) || !hasWriter(task, t, catalog)) continue;
    const lift = evidenceLift(t, s.type, 0, sim);
    if (lift > best.lift) best = { lift, tool: t };
  }
  return best;
}

/** The chance that `who` answers a unit right with `evidence[k]` gathered for each of its steps (latents included). */
export function unitProbability(task: Pick<Task, 'key' | 'steps'>, unit: readonly number[], who: Who, evidence: (k: number) => number, sim: SimConfig): number {
  let p = 1;
  for (const k of unit) {
    const s = task.steps[k] as TaskStep;
    const e = evidence(k);
    p *= sigmoid(answerLogit(answerItem(task, k, who, sim), e, s.needsTool, e > 0, sim));
  }
  return p;
}

const answerers = (task: Pick<Task, 'available'>, catalog: Catalog): ToolSpec[] =>
  catalog.tools.filter((t) => t.enabled && t.kind !== 'basic' && Object.keys(t.skill).length > 0 && task.available.includes(t.id));

/**
 * The golden path: per unit, one piece of evidence for each step a basic tool reaches (the cheapest
 * written slot whose hit chance is ≥ 0.8, else the likeliest), then the cheapest answerer whose chance
 * with that evidence is ≥ 0.8, else the likeliest (the orchestrator itself when it is likelier still).
 */
export function goldenPath(task: Pick<Task, 'key' | 'steps' | 'available' | 'promptTokens' | 'commits'>, catalog: Catalog, sim: SimConfig): GoldenCall[] {
  const path: GoldenCall[] = [];
  const slots = slotsOf(catalog);
  const driver = { ...catalog.orchestrator, kind: 'driver' as const };
  const self = catalog.orchestrator;
  for (const unit of taskUnits(task)) {
    const lifts = new Map<number, number>();
    for (const k of unit) {
      const s = task.steps[k] as TaskStep;
      const options = slots.filter((sl) => sl.role !== 'answer'
        && task.available.includes(catalog.tools[sl.tool]?.id ?? '') && (sl.model === SELF
        ? self.writes?.[writerRoleOf(sl.role) as WriterRole] !== undefined
        : task.available.includes(catalog.tools[sl.model]?.id ?? '')))
        .flatMap((sl) => {
          const tool = catalog.tools[sl.tool] as ToolSpec;
          if (!tool.enabled || !toolReaches(tool, s.type, s.needsTool) || evidenceLift(tool, s.type, 0, sim) <= 0) return [];
          const writer = sl.model === SELF ? { id: self.id, writes: self.writes } : (catalog.tools[sl.model] as ToolSpec);
          if (sl.model !== SELF && !(catalog.tools[sl.model] as ToolSpec).enabled) return [];
          const role = writerRoleOf(sl.role) as WriterRole;
          const w = writer.writes?.[role];
          if (w === undefined) return [];
          const pw = sigmoid(writerLogit(w, s.difficulty, stepLatent(task.key, k, latentKey(`${writer.id}#${role}`), sim.sharedFactor), sim));
          const ph = sigmoid(itemLogit(tool.skill[s.type] as number, s.difficulty, sim.basicSpread,
            stepLatent(task.key, k, latentKey(tool.id), 0), sim.discrimination));
          const cost = (sl.model === SELF ? 0 : expectedWriteCost(catalog.tools[sl.model] as ToolSpec, task.promptTokens, sim)) + expectedCallCost(tool, 0);
          return [{ slot: sl.id, p: pw * ph, cost, lift: evidenceLift(tool, s.type, 0, sim) }];
        });
      if (options.length === 0) continue;
      const good = options.filter((o) => o.p >= GOLDEN_THRESHOLD).sort((x, y) => x.cost - y.cost);
      const pick = good[0] ?? options.sort((x, y) => y.p - x.p)[0];
      if (!pick) continue;
      path.push({ slot: pick.slot, step: k, p: round3(pick.p) });
      lifts.set(k, pick.lift);
    }
    const evidence = (k: number) => lifts.get(k) ?? 0;
    const options = answerers(task, catalog).map((m) => ({ slot: `answer:${m.id}`,
      p: unitProbability(task, unit, m, evidence, sim), cost: expectedCallCost(m, task.promptTokens) }));
    const good = options.filter((o) => o.p >= GOLDEN_THRESHOLD).sort((x, y) => x.cost - y.cost);
    const pick = good[0] ?? options.sort((x, y) => y.p - x.p)[0];
    const pSelf = unitProbability(task, unit, driver, evidence, sim);
    path.push(!pick || (pick.p < GOLDEN_THRESHOLD && pSelf > pick.p) ? { slot: 'submit', step: unit[0] as number,
      p: round3(pSelf) } : { slot: pick.slot, step: unit[0] as number, p: round3(pick.p) });
  }
  return path;
}

/** The expected cost of a model writing one query or program for a task with this prompt. */
export function expectedWriteCost(model: ToolSpec, promptTokens: number, sim: SimConfig): number {
  return (model.pricing.inputPerM * promptTokens + model.pricing.outputPerM * writeTokens(model, sim.writerTokenShare)) / 1e6;
}

/** The chance of the task's best plan (every step's best evidence, the best answerer per unit: a model or the orchestrator itself), latents included. */
function bestPlanProbability(task: Task, catalog: Catalog, sim: SimConfig): number {
  const who: Who[] = [...answerers(task, catalog), { ...catalog.orchestrator, kind: 'driver' }];
  return taskUnits(task).reduce((acc, unit) => {
    const evidence = (k: number) => bestLift(task, k, catalog, sim).lift;
    let best = 0;
    for (const m of who) best = Math.max(best, unitProbability(task, unit, m, evidence, sim));
    return acc * best;
  }, 1);
}

function noToolProbability(task: Task, catalog: Catalog, sim: SimConfig): number {
  const driver = { ...catalog.orchestrator, kind: 'driver' as const };
  return taskUnits(task).reduce((acc, unit) => acc * unitProbability(task, unit, driver, () => 0, sim), 1);
}

/** The store after the golden path: every write with its correct value. */
export function goldenStore(task: Pick<Task, 'steps' | 'store'>): StoreRecord[] | undefined {
  if (!task.store) return undefined;
  return applyWrites(task.store, task.steps.flatMap((s) => (s.write ? [s.write] : [])));
}

/** How often a step of a type needs a tool (a fresh fact no model holds) in a suite and domain: public, unlike each step's draw. */
export function needsToolRate(suite: string, domain: Domain, type: StepType): number {
  const own = suite === TRAINING_SUITE.name ? undefined : ownGet(SUITES, suite)?.needsTool[type];
  return own ?? NEEDS_TOOL[domain][type] ?? 0;
}

type DraftOptions = Required<Omit<GenerateOptions, 'domains' | 'seed' | 'count' | 'suite' | 'turnBudgets'>> & Pick<GenerateOptions, 'turnBudgets'>;

function draftTask(rng: SeqRng, id: string, key: number, suite: Suite, domain: Domain, catalog: Catalog, opts: DraftOptions): Task {
  const draft = TEMPLATES[domain](rng);
  const level = suite.levels ? (suite.levels[rng.int(suite.levels.length)] as number) : 0;
  const kept = suite.dropTypes ? draft.steps.filter((s) => !suite.dropTypes?.includes(s.type)) : draft.steps;
  const steps: TaskStep[] = kept.map((s) => {
    const [mean, sd] = DIFFICULTY[domain][s.type] ?? [1, 0.8];
    const difficulty = round3(rng.normal(mean + level + (suite.shift[s.type] ?? 0), sd));
    const hint = round3(difficulty + rng.normal(0, opts.hintNoise));
    const needsTool = rng.next() < needsToolRate(suite.name, domain, s.type);
    return { ...s, difficulty, hint, needsTool };
  });
  // Per-task draws keyed by the tool's id, not its position: adding a tool changes no other tool's draws.
  const enabled = catalog.tools.filter((t) => t.enabled).map((t) => t.id);
  let available = enabled.filter((id) => counterUniform(key, hashString(id), 0xa7a1, 0, 6) < opts.availability);
  if (available.length === 0 && enabled.length > 0) available = [rng.pick(enabled)];
  const extra: Pick<Task, 'priceScale' | 'maxTurns'> = {};
  if (opts.priceSpread > 1) {
    const ln = Math.log(opts.priceSpread);
    extra.priceScale = Object.fromEntries(enabled.map((id) => [id, round3(Math.exp((2 * counterUniform(key, hashString(id), 0x9121, 0, 6) - 1) * ln))]));
  }
  if (opts.turnBudgets) {
    // Log-uniform, as the paper's budgets are spread (10 … 100): small budgets as common as large ones.
    const [lo, hi] = opts.turnBudgets;
    extra.maxTurns = Math.min(hi, Math.floor(lo * (hi / lo + 1 / lo) ** counterUniform(key, 0, 0x7b0d, 0, 6)));
  }
  const commits: Task['commits'] = domain === 'agentic' ? 'step' : 'task';
  const base = { id, key, suite: suite.name, domain, question: draft.question, promptTokens: PROMPT_TOKENS[domain], steps, commits, available, ...extra };
  return { ...base, ...(draft.store ? { store: draft.store } : {}), golden: { path: [], successProbability: 0 } };
}

/** Fills a kept task's golden path (the filters run first: a dropped task never needs one). */
function withGolden(task: Task, catalog: Catalog, sim: SimConfig): Task {
  const path = goldenPath(task, catalog, sim);
  const store = goldenStore(task);
  task.golden = { path, successProbability: round3(path.reduce((a, g) => a * g.p, 1)), ...(store ? { store } : {}) };
  return task;
}

/** Picks a domain by the suite's weights from a uniform u. */
function pickDomain(suite: Suite, u: number): Domain {
  const entries = Object.entries(suite.domains) as [Domain, number][];
  const total = entries.reduce((a, [, w]) => a + w, 0);
  let acc = 0;
  for (const [d, w] of entries) {
    acc += w / total;
    if (u < acc) return d;
  }
  return (entries[entries.length - 1] as [Domain, number])[0];
}

/**
 * Generates `count` tasks of a suite (default: the training pool, which passes the filters); the
 * same seed, suite and catalog give the same tasks.
 */
export function generateTasks(catalog: Catalog, options: GenerateOptions): { tasks: Task[]; stats: GenerateStats } {
  const suite = suiteByName(options.suite);
  const opts: DraftOptions = {
    availability: options.availability ?? 0.75,
    sim: options.sim ?? DEFAULT_SIM,
    minSolveProbability: options.minSolveProbability ?? 0.5,
    maxNoToolProbability: options.maxNoToolProbability ?? 0.3,
    hintNoise: options.hintNoise ?? 0.3,
    priceSpread: options.priceSpread ?? 1,
    ...(options.turnBudgets ? { turnBudgets: options.turnBudgets } : {}),
  };
  const domains = options.domains;
  const stats: GenerateStats = { generated: 0, kept: 0, droppedUnsolvable: 0, droppedNoTool: 0 };
  const tasks: Task[] = [];
  const maxAttempts = options.count * 50 + 100;
  const salt = suite.filtered ? 0 : hashString(suite.name);
  for (let k = 0; tasks.length < options.count && k < maxAttempts; k++) {
    const key = salt ? hashInts(options.seed, k, salt) : hashInts(options.seed, k);
    const rng = new SeqRng(key);
    const domain = domains ? (domains[k % domains.length] as Domain) : suite.filtered ? pickDomain(suite, (k % 6 + 0.5) / 6) : pickDomain(suite, rng.next());
    const id = suite.filtered ? `t${options.seed}-${k}` : `${suite.name}${options.seed}-${k}`;
    const task = draftTask(rng, id, key, suite, domain, catalog, opts);
    stats.generated++;
    if (!suite.filtered) tasks.push(withGolden(task, catalog, opts.sim));
    else if (1 - (1 - bestPlanProbability(task, catalog, opts.sim)) ** FILTER_TRIES < opts.minSolveProbability) stats.droppedUnsolvable++;
    else if (noToolProbability(task, catalog, opts.sim) >= opts.maxNoToolProbability) stats.droppedNoTool++;
    else tasks.push(withGolden(task, catalog, opts.sim));
  }
  stats.kept = tasks.length;
  if (tasks.length < options.count) {
    throw new Error(`only ${tasks.length} of ${options.count} tasks pass the filters after ${stats.generated} tries: ` +
      `the catalog cannot solve enough tasks (dropped ${stats.droppedUnsolvable} unsolvable, ${stats.droppedNoTool} ` +
      `solvable without tools)`);
  }
  return { tasks, stats };
}
