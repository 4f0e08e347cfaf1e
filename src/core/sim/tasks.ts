// ToolScale-lite: generates verifiable multi-step tasks from a catalog, a seed and a suite. Each
// task has ordered typed steps with difficulties, noisy hints and whether they need a tool, a key
// that fixes its per-item latents, a random subset of available tools, a golden path, and
// (agentic tasks) a record store checked by DB state. For the training pool, filters drop tasks
// no available tool solves at pass@8 and tasks the orchestrator solves alone; the benchmark
// suites are not filtered (suites.ts).

import { canAnswer, expectedCallCost, type Catalog } from './catalog';
import { callLogit, DEFAULT_SIM, itemLogit, knowledgeBound, latentKey, sigmoid, spreadOf, stepLatent, type SimConfig } from './callModel';
import { applyWrites, type StoreRecord } from './recordStore';
import { hashInts, hashString, SeqRng } from './rng';
import type { Domain, StepType } from './stepTypes';
import { suiteByName, type Suite } from './suites';
import { DIFFICULTY, NEEDS_TOOL, PROMPT_TOKENS, TEMPLATES, type StepDraft } from './taskTemplates';

/** A drafted step with its difficulty, the noisy hint the orchestrator sees of it, and whether it needs a tool. */
export interface TaskStep extends StepDraft {
  difficulty: number;
  /** What the orchestrator sees of the difficulty: difficulty + noise. */
  hint: number;
  /** A model has almost no chance on it until a tool's result is in its context (visible to the orchestrator). */
  needsTool: boolean;
}

export interface GoldenStep {
  /** Tool id, or null when the orchestrator solves the step itself. */
  tool: string | null;
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
  /** Ids of the tools this task may use (a random subset of the enabled ones). */
  available: string[];
  store?: StoreRecord[];
  golden: { path: GoldenStep[]; successProbability: number; store?: StoreRecord[] };
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
  /** Keep a task only if its best tools solve every step within 8 tries with at least this probability (training pool). */
  minSolveProbability?: number;
  /** Drop a task the orchestrator solves with no tool with at least this probability. */
  maxNoToolProbability?: number;
  hintNoise?: number;
}

export interface GenerateStats {
  generated: number;
  kept: number;
  droppedUnsolvable: number;
  droppedNoTool: number;
}

export const GOLDEN_STEP_THRESHOLD = 0.8;
/** ToolScale keeps a task that some model solves at pass@8. */
export const FILTER_TRIES = 8;
const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/**
 * The chance of one call of `toolId` (or the orchestrator, `toolId` = its id) on step k of a task
 * before any tool result is in the context: σ(a·(skill − d) + s·v − penalty). The same success
 * model as the env's, with the same latent.
 */
export function firstCallProbability(
  task: Pick<Task, 'key' | 'steps'>, k: number, who: { id: string; skill: Partial<Record<StepType, number>>; kind: 'basic' | 'specialist' | 'generalist' | 'driver'; offline?: StepType[] }, sim: SimConfig,
): number {
  const s = task.steps[k];
  const skill = s ? who.skill[s.type] : undefined;
  if (!s || skill === undefined) return 0;
  const v = stepLatent(task.key, k, latentKey(who.id), sim.sharedFactor);
  const item = itemLogit(skill, s.difficulty, spreadOf(who.kind, s.type, sim), v, sim.discrimination);
  const bound = knowledgeBound(who.kind === 'driver' ? 'driver' : { kind: who.kind, ...(who.offline ? { offline: who.offline } : {}) }, s.type);
  return sigmoid(callLogit(item, bound, s.needsTool, 0, sim));
}

/** The golden path: per step, the cheapest available tool with p ≥ 0.8, else the most likely one. */
export function goldenPath(task: Pick<Task, 'key' | 'steps' | 'available' | 'promptTokens'>, catalog: Catalog, sim: SimConfig): GoldenStep[] {
  const tools = catalog.tools.filter((t) => t.enabled && task.available.includes(t.id));
  return task.steps.map((s, k) => {
    const options = tools
      .filter((t) => canAnswer(t, s.type))
      .map((t) => ({ tool: t.id, p: firstCallProbability(task, k, t, sim), cost: expectedCallCost(t, task.promptTokens) }));
    const good = options.filter((o) => o.p >= GOLDEN_STEP_THRESHOLD).sort((x, y) => x.cost - y.cost);
    const pick = good[0] ?? options.sort((x, y) => y.p - x.p)[0];
    const self = firstCallProbability(task, k, { ...catalog.orchestrator, kind: 'driver' }, sim);
    if (!pick || (pick.p < GOLDEN_STEP_THRESHOLD && self > pick.p)) return { tool: null, p: round3(self) };
    return { tool: pick.tool, p: round3(pick.p) };
  });
}

/** Chance that the best available tool of every step gets it right within `tries` calls. */
function passAtK(task: Task, catalog: Catalog, sim: SimConfig, tries: number): number {
  return task.steps.reduce((acc, s, k) => {
    let best = 0;
    for (const t of catalog.tools) if (t.enabled && task.available.includes(t.id) && canAnswer(t, s.type)) best = Math.max(best, firstCallProbability(task, k, t, sim));
    return acc * (1 - (1 - best) ** tries);
  }, 1);
}

function noToolProbability(task: Task, catalog: Catalog, sim: SimConfig): number {
  return task.steps.reduce((acc, _s, k) => acc * firstCallProbability(task, k, { ...catalog.orchestrator, kind: 'driver' }, sim), 1);
}

/** The store after the golden path: every write with its correct value. */
export function goldenStore(task: Pick<Task, 'steps' | 'store'>): StoreRecord[] | undefined {
  if (!task.store) return undefined;
  return applyWrites(task.store, task.steps.flatMap((s) => (s.write ? [s.write] : [])));
}

type DraftOptions = Required<Omit<GenerateOptions, 'domains' | 'seed' | 'count' | 'suite'>>;

function draftTask(rng: SeqRng, id: string, key: number, suite: Suite, domain: Domain, catalog: Catalog, opts: DraftOptions): Task {
  const draft = TEMPLATES[domain](rng);
  const level = suite.levels ? (suite.levels[rng.int(suite.levels.length)] as number) : 0;
  const kept = suite.dropTypes ? draft.steps.filter((s) => !suite.dropTypes?.includes(s.type)) : draft.steps;
  const steps: TaskStep[] = kept.map((s) => {
    const [mean, sd] = DIFFICULTY[domain][s.type] ?? [1, 0.8];
    const difficulty = round3(rng.normal(mean + level + (suite.shift[s.type] ?? 0), sd));
    const hint = round3(difficulty + rng.normal(0, opts.hintNoise));
    const needsTool = rng.next() < (suite.needsTool[s.type] ?? NEEDS_TOOL[domain][s.type] ?? 0);
    return { ...s, difficulty, hint, needsTool };
  });
  const enabled = catalog.tools.filter((t) => t.enabled).map((t) => t.id);
  let available = enabled.filter(() => rng.next() < opts.availability);
  if (available.length === 0 && enabled.length > 0) available = [rng.pick(enabled)];
  const base = { id, key, suite: suite.name, domain, question: draft.question, promptTokens: PROMPT_TOKENS[domain], steps, available };
  const task: Task = { ...base, ...(draft.store ? { store: draft.store } : {}), golden: { path: [], successProbability: 0 } };
  const path = goldenPath(task, catalog, opts.sim);
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
    if (!suite.filtered) tasks.push(task);
    else if (passAtK(task, catalog, opts.sim, FILTER_TRIES) < opts.minSolveProbability) stats.droppedUnsolvable++;
    else if (noToolProbability(task, catalog, opts.sim) >= opts.maxNoToolProbability) stats.droppedNoTool++;
    else tasks.push(task);
  }
  stats.kept = tasks.length;
  if (tasks.length < options.count) {
    throw new Error(`only ${tasks.length} of ${options.count} tasks pass the filters after ${stats.generated} tries: the catalog cannot solve enough tasks (dropped ${stats.droppedUnsolvable} unsolvable, ${stats.droppedNoTool} solvable without tools)`);
  }
  return { tasks, stats };
}
