// ToolScale-lite: generates verifiable multi-step tasks from a catalog and a seed. Each task has
// ordered typed steps with difficulties and noisy hints, a random subset of available tools, a
// golden path that proves it solvable, and (agentic tasks) a record store checked by DB state.
// Filters drop tasks no available tool path solves and tasks the orchestrator solves alone.

import { canDo, expectedCallCost, type Catalog } from './catalog';
import { DEFAULT_SIM, successProbability, type SimConfig } from './callModel';
import { applyWrites, type StoreRecord } from './recordStore';
import { hashInts, SeqRng } from './rng';
import { DOMAINS, type Domain } from './stepTypes';
import { DIFFICULTY, PROMPT_TOKENS, TEMPLATES, type StepDraft } from './taskTemplates';

/** A drafted step with its difficulty and the noisy hint the orchestrator sees of it. */
export interface TaskStep extends StepDraft {
  difficulty: number;
  /** What the orchestrator sees of the difficulty: difficulty + noise. */
  hint: number;
}

export interface GoldenStep {
  /** Tool id, or null when the orchestrator solves the step itself. */
  tool: string | null;
  p: number;
}

export interface Task {
  id: string;
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
  /** Chance that each enabled tool is available to a task (the paper randomises tool sets). */
  availability?: number;
  domains?: readonly Domain[];
  sim?: SimConfig;
  /** Keep a task only if its golden path succeeds with at least this probability. */
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
const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/** The golden path: per step, the cheapest available tool with p ≥ 0.8, else the most likely one. */
export function goldenPath(task: Pick<Task, 'steps' | 'available' | 'promptTokens'>, catalog: Catalog, sim: SimConfig): GoldenStep[] {
  const tools = catalog.tools.filter((t) => t.enabled && task.available.includes(t.id));
  return task.steps.map((s) => {
    const options = tools
      .filter((t) => canDo(t, s.type))
      .map((t) => ({ tool: t.id, p: successProbability(t.skill[s.type], s.difficulty, sim.discrimination), cost: expectedCallCost(t, task.promptTokens) }));
    const good = options.filter((o) => o.p >= GOLDEN_STEP_THRESHOLD).sort((x, y) => x.cost - y.cost);
    const pick = good[0] ?? options.sort((x, y) => y.p - x.p)[0];
    if (!pick) return { tool: null, p: successProbability(catalog.orchestrator.skill[s.type], s.difficulty, sim.discrimination) };
    return { tool: pick.tool, p: pick.p };
  });
}

function noToolProbability(steps: readonly TaskStep[], catalog: Catalog, sim: SimConfig): number {
  return steps.reduce((acc, s) => acc * successProbability(catalog.orchestrator.skill[s.type], s.difficulty, sim.discrimination), 1);
}

/** The store after the golden path: every write with its correct value. */
export function goldenStore(task: Pick<Task, 'steps' | 'store'>): StoreRecord[] | undefined {
  if (!task.store) return undefined;
  return applyWrites(task.store, task.steps.flatMap((s) => (s.write ? [s.write] : [])));
}

function draftTask(rng: SeqRng, id: string, domain: Domain, catalog: Catalog, opts: Required<Omit<GenerateOptions, 'domains' | 'seed' | 'count'>>): Task {
  const draft = TEMPLATES[domain](rng);
  const steps: TaskStep[] = draft.steps.map((s) => {
    const [mean, sd] = DIFFICULTY[domain][s.type] ?? [1, 0.8];
    const difficulty = round3(rng.normal(mean, sd));
    return { ...s, difficulty, hint: round3(difficulty + rng.normal(0, opts.hintNoise)) };
  });
  const enabled = catalog.tools.filter((t) => t.enabled).map((t) => t.id);
  let available = enabled.filter(() => rng.next() < opts.availability);
  if (available.length === 0 && enabled.length > 0) available = [rng.pick(enabled)];
  const base = { id, domain, question: draft.question, promptTokens: PROMPT_TOKENS[domain], steps, available };
  const task: Task = { ...base, ...(draft.store ? { store: draft.store } : {}), golden: { path: [], successProbability: 0 } };
  const path = goldenPath(task, catalog, opts.sim);
  const store = goldenStore(task);
  task.golden = { path, successProbability: round3(path.reduce((a, g) => a * g.p, 1)), ...(store ? { store } : {}) };
  return task;
}

/** Generates `count` tasks that pass the filters; the same seed and catalog give the same tasks. */
export function generateTasks(catalog: Catalog, options: GenerateOptions): { tasks: Task[]; stats: GenerateStats } {
  const opts = {
    availability: options.availability ?? 0.75,
    sim: options.sim ?? DEFAULT_SIM,
    minSolveProbability: options.minSolveProbability ?? 0.5,
    maxNoToolProbability: options.maxNoToolProbability ?? 0.3,
    hintNoise: options.hintNoise ?? 0.3,
  };
  const domains = options.domains ?? DOMAINS;
  const stats: GenerateStats = { generated: 0, kept: 0, droppedUnsolvable: 0, droppedNoTool: 0 };
  const tasks: Task[] = [];
  const maxAttempts = options.count * 50 + 100;
  for (let k = 0; tasks.length < options.count && k < maxAttempts; k++) {
    const rng = new SeqRng(hashInts(options.seed, k));
    const domain = domains[k % domains.length] as Domain;
    const task = draftTask(rng, `t${options.seed}-${k}`, domain, catalog, opts);
    stats.generated++;
    if (task.golden.path.reduce((a, g) => a * g.p, 1) < opts.minSolveProbability) stats.droppedUnsolvable++;
    else if (noToolProbability(task.steps, catalog, opts.sim) >= opts.maxNoToolProbability) stats.droppedNoTool++;
    else tasks.push(task);
  }
  stats.kept = tasks.length;
  if (tasks.length < options.count) {
    throw new Error(`only ${tasks.length} of ${options.count} tasks pass the filters after ${stats.generated} tries: the catalog cannot solve enough tasks (dropped ${stats.droppedUnsolvable} unsolvable, ${stats.droppedNoTool} solvable without tools)`);
  }
  return { tasks, stats };
}
