// The batched environment: N orchestrator episodes advanced in lockstep (docs/DESIGN.md §2, §5).
// State is struct-of-arrays (one slot per episode) in typed arrays; each turn the caller hands
// one action per slot — call(tool j) = j, submit = nTools — and the env accounts outcome, cost
// (token-priced, the context growing with every turn's results, plus the driver's own turns),
// latency and calls per tool. A call succeeds with σ(item logit + context boost − penalty), the
// item logit carrying a latent fixed per (task, step, tool) (callModel.ts). Episode randomness
// is a counter-based draw keyed by (episode key, step, tool, attempt, channel), so episodes are
// reproducible and comparable across policies.

import { canAnswer, canDo, driverTurnCost, driverTurnLatencyMs, orchestratorDriver, type Catalog, type Driver } from './catalog';
import { briefTokens, callLogit, confidence, itemLogit, knowledgeBound, latentKey, sampleCall, sigmoid, spreadOf, stepLatent, type SimConfig } from './callModel';
import { storeAfterSteps, storesEqual, type StoreRecord } from './recordStore';
import { counterUniform } from './rng';
import { DOMAIN_INDEX, STEP_TYPE_INDEX, STEP_TYPES, type StepType } from './stepTypes';
import type { Task } from './tasks';
import { CH_CONFIDENCE, CH_LATENCY, CH_SUCCESS, CH_TOKENS, MAX_STEPS, type DrawFn, type LatentFn, type TraceEntry } from './episode';

export class BatchEnv {
  readonly nTools: number;
  readonly nActions: number;
  readonly submitAction: number;
  readonly capacity: number;
  /** Slots in use after the last reset. */
  size = 0;

  // Per-slot task data (set by reset).
  readonly tasks: (Task | null)[];
  readonly keys: Uint32Array;
  readonly nSteps: Int32Array;
  readonly domain: Int32Array;
  readonly promptTokens: Float64Array;
  /** [slot·MAX_STEPS + s] */
  readonly stepType: Int32Array;
  readonly difficulty: Float32Array;
  readonly hint: Float32Array;
  readonly needsTool: Uint8Array;
  /** The driver's item logit of answering step s itself. */
  readonly logitSelf: Float32Array;
  /** [(slot·MAX_STEPS + s)·nTools + j]: the tool's item logit a·(skill − d) + s·v; NaN where it cannot answer. */
  readonly logitTool: Float32Array;
  /** [slot·nTools + j]: tool available to this task and enabled. */
  readonly available: Uint8Array;

  // Per-slot episode state.
  readonly stepIdx: Int32Array;
  readonly turn: Int32Array;
  readonly done: Uint8Array;
  readonly answered: Uint8Array;
  readonly outcome: Uint8Array;
  readonly cost: Float64Array;
  readonly latencyMs: Float64Array;
  /** Tokens sent to and returned by tool calls. */
  readonly tokens: Float64Array;
  /** [slot·nTools + j] calls of tool j in the episode / on the current step. */
  readonly calls: Int32Array;
  readonly stepCalls: Int32Array;
  /** Answers on the current step (evidence-only calls are not answers). */
  readonly stepAttempts: Int32Array;
  /** Logit boost of the tool results in the current step's context (0 = none). */
  readonly boost: Float32Array;
  /** Tokens of context the next turn reads (prompt + every earlier turn's notes and results). */
  readonly context: Float64Array;
  /** The driver has already written its one-generation answer (Driver.answersAtOnce). */
  private readonly spokeAlone: Uint8Array;
  /** Highest confidence among the current step's attempts (−1: none yet) and whether it is right. */
  readonly bestConf: Float32Array;
  readonly bestCorrect: Uint8Array;
  readonly lastConf: Float32Array;
  /** [slot·MAX_STEPS + s] committed correctness of each submitted step. */
  readonly stepCorrect: Uint8Array;
  traces: TraceEntry[][] | null = null;

  /** Who writes the turns and answers steps submitted with no attempt (reset may change it). */
  driver: Driver;
  private readonly canAct: Uint8Array; // [j·STEP_TYPES.length + type]
  private readonly answerable: Uint8Array; // [j·STEP_TYPES.length + type]
  private readonly bound: Uint8Array; // [j·STEP_TYPES.length + type]: knowledge-bound (callModel.knowledgeBound)

  constructor(
    readonly catalog: Catalog,
    readonly sim: SimConfig,
    capacity: number,
    readonly draw: DrawFn = counterUniform,
    readonly latent: LatentFn = (key, step, toolKey) => stepLatent(key, step, toolKey, sim.sharedFactor),
  ) {
    const J = catalog.tools.length;
    this.nTools = J;
    this.nActions = J + 1;
    this.submitAction = J;
    this.capacity = capacity;
    const NS = capacity * MAX_STEPS;
    this.tasks = new Array<Task | null>(capacity).fill(null);
    this.keys = new Uint32Array(capacity);
    this.nSteps = new Int32Array(capacity);
    this.domain = new Int32Array(capacity);
    this.promptTokens = new Float64Array(capacity);
    this.stepType = new Int32Array(NS);
    this.difficulty = new Float32Array(NS);
    this.hint = new Float32Array(NS);
    this.needsTool = new Uint8Array(NS);
    this.logitSelf = new Float32Array(NS);
    this.logitTool = new Float32Array(NS * J);
    this.available = new Uint8Array(capacity * J);
    this.stepIdx = new Int32Array(capacity);
    this.turn = new Int32Array(capacity);
    this.done = new Uint8Array(capacity);
    this.answered = new Uint8Array(capacity);
    this.outcome = new Uint8Array(capacity);
    this.cost = new Float64Array(capacity);
    this.latencyMs = new Float64Array(capacity);
    this.tokens = new Float64Array(capacity);
    this.calls = new Int32Array(capacity * J);
    this.stepCalls = new Int32Array(capacity * J);
    this.stepAttempts = new Int32Array(capacity);
    this.boost = new Float32Array(capacity);
    this.context = new Float64Array(capacity);
    this.spokeAlone = new Uint8Array(capacity);
    this.bestConf = new Float32Array(capacity);
    this.bestCorrect = new Uint8Array(capacity);
    this.lastConf = new Float32Array(capacity);
    this.stepCorrect = new Uint8Array(NS);
    this.canAct = new Uint8Array(J * STEP_TYPES.length);
    this.answerable = new Uint8Array(J * STEP_TYPES.length);
    this.bound = new Uint8Array(J * STEP_TYPES.length);
    catalog.tools.forEach((t, j) => {
      STEP_TYPES.forEach((type, k) => {
        this.bound[j * STEP_TYPES.length + k] = knowledgeBound(t, type) ? 1 : 0;
        this.answerable[j * STEP_TYPES.length + k] = canAnswer(t, type) ? 1 : 0;
        this.canAct[j * STEP_TYPES.length + k] = canDo(t, type) ? 1 : 0;
      });
    });
    this.driver = orchestratorDriver(catalog.orchestrator);
  }

  /**
   * Starts one episode per task in slots 0…tasks.length−1; `keys` seed each episode's draws.
   * `trace`: true records a turn-by-turn trace of every slot, a number k of the first k slots.
   * `driver`: who drives these episodes (default: the catalog's orchestrator).
   */
  reset(tasks: readonly Task[], keys: ArrayLike<number>, opts: { trace?: boolean | number; driver?: Driver } = {}): void {
    if (tasks.length > this.capacity) throw new Error(`${tasks.length} tasks exceed the env capacity ${this.capacity}`);
    this.driver = opts.driver ?? orchestratorDriver(this.catalog.orchestrator);
    const driverKey = latentKey(this.driver.id);
    const toolKeys = this.catalog.tools.map((t) => latentKey(t.id));
    this.size = tasks.length;
    const traced = opts.trace === true ? tasks.length : opts.trace ? Math.min(opts.trace, tasks.length) : 0;
    this.traces = traced > 0 ? Array.from({ length: traced }, () => []) : null;
    this.done.fill(1);
    this.stepCalls.fill(0);
    this.calls.fill(0);
    this.stepCorrect.fill(0);
    this.logitTool.fill(NaN);
    for (let i = 0; i < tasks.length; i++) {
      const task = tasks[i] as Task;
      if (task.steps.length > MAX_STEPS) throw new Error(`task ${task.id} has ${task.steps.length} steps (max ${MAX_STEPS})`);
      this.tasks[i] = task;
      this.keys[i] = (keys[i] ?? 0) >>> 0;
      this.nSteps[i] = task.steps.length;
      this.domain[i] = DOMAIN_INDEX[task.domain];
      this.promptTokens[i] = task.promptTokens;
      // A group's rollouts hold the same task, whose draws depend on its key only: computed once.
      if (i > 0 && tasks[i - 1] === task) this.copyTaskRows(i - 1, i);
      else this.fillTaskRows(i, task, driverKey, toolKeys);
      this.stepIdx[i] = 0;
      this.turn[i] = 0;
      this.done[i] = 0;
      this.answered[i] = 0;
      this.outcome[i] = 0;
      this.cost[i] = 0;
      this.latencyMs[i] = 0;
      this.tokens[i] = 0;
      this.stepAttempts[i] = 0;
      this.boost[i] = 0;
      this.context[i] = task.promptTokens;
      this.spokeAlone[i] = 0;
      this.bestConf[i] = -1;
      this.bestCorrect[i] = 0;
      this.lastConf[i] = -1;
    }
    for (let i = tasks.length; i < this.capacity; i++) this.tasks[i] = null;
  }

  /** Slot i's task rows: tool availability, the steps, and each step's success logits (its hidden draws included). */
  private fillTaskRows(i: number, task: Task, driverKey: number, toolKeys: readonly number[]): void {
    const J = this.nTools, sim = this.sim, a = sim.discrimination;
    for (let j = 0; j < J; j++) {
      const t = this.catalog.tools[j];
      this.available[i * J + j] = t && t.enabled && task.available.includes(t.id) ? 1 : 0;
    }
    task.steps.forEach((s, k) => {
      const idx = i * MAX_STEPS + k;
      this.stepType[idx] = STEP_TYPE_INDEX[s.type];
      this.difficulty[idx] = s.difficulty;
      this.hint[idx] = s.hint;
      this.needsTool[idx] = s.needsTool ? 1 : 0;
      const self = this.driver.skill[s.type];
      this.logitSelf[idx] = self === undefined ? -Infinity : itemLogit(self, s.difficulty, sim.spread[s.type], this.latent(task.key, k, driverKey), a);
      for (let j = 0; j < J; j++) {
        const tool = this.catalog.tools[j];
        const skill = tool.skill[s.type];
        if (!this.available[i * J + j] || skill === undefined) continue;
        this.logitTool[idx * J + j] = itemLogit(skill, s.difficulty, spreadOf(tool.kind, s.type, sim), this.latent(task.key, k, toolKeys[j] as number), a);
      }
    });
  }

  /** Slot `to` gets the task rows of slot `from`, which holds the same task. */
  private copyTaskRows(from: number, to: number): void {
    const J = this.nTools, a = from * MAX_STEPS, b = to * MAX_STEPS;
    this.available.copyWithin(to * J, from * J, (from + 1) * J);
    for (const x of [this.stepType, this.difficulty, this.hint, this.needsTool, this.logitSelf]) x.copyWithin(b, a, a + MAX_STEPS);
    this.logitTool.copyWithin(b * J, a * J, (a + MAX_STEPS) * J);
  }

  /** Step type of the slot's current step. */
  currentType(slot: number): StepType {
    return STEP_TYPES[this.stepType[slot * MAX_STEPS + this.stepIdx[slot]]] as StepType;
  }

  /** Whether tool j may be called now by this slot. */
  allowed(slot: number, j: number): boolean {
    if (this.done[slot]) return false;
    const type = this.stepType[slot * MAX_STEPS + this.stepIdx[slot]];
    return this.available[slot * this.nTools + j] === 1 && this.canAct[j * STEP_TYPES.length + type] === 1;
  }

  /** Writes the action mask, [slot·nActions + a] = 1 when allowed; finished slots get all zeros. */
  writeMask(out: Uint8Array): void {
    const A = this.nActions;
    for (let i = 0; i < this.capacity; i++) {
      const live = i < this.size && !this.done[i];
      for (let j = 0; j < this.nTools; j++) out[i * A + j] = live && this.allowed(i, j) ? 1 : 0;
      out[i * A + this.submitAction] = live ? 1 : 0;
    }
  }

  allDone(): boolean {
    for (let i = 0; i < this.size; i++) if (!this.done[i]) return false;
    return true;
  }

  /** Advances every live slot by one turn. `actions[slot]` is a tool index or `submitAction`. */
  step(actions: ArrayLike<number>): void {
    for (let i = 0; i < this.size; i++) {
      if (this.done[i]) continue;
      const act = actions[i] as number;
      if (act === this.submitAction) this.submit(i);
      else if (act >= 0 && act < this.nTools && this.allowed(i, act)) this.call(i, act);
      else throw new Error(`slot ${i}: action ${act} is not allowed (tool unavailable or unable to do a ${this.currentType(i)} step)`);
    }
  }

  /** One driver turn: reads the context, writes `outTokens` (which join the context). */
  private driverTurn(i: number, outTokens: number): { inTokens: number; cost: number; latencyMs: number } {
    const inTokens = this.context[i];
    const cost = driverTurnCost(this.driver, inTokens, outTokens);
    const latencyMs = driverTurnLatencyMs(this.driver, outTokens);
    this.cost[i] += cost;
    this.latencyMs[i] += latencyMs;
    this.context[i] += outTokens;
    return { inTokens, cost, latencyMs };
  }

  /** The chance that tool j answers the slot's current step right if called now (or with another context boost). */
  callProbability(i: number, j: number, boost = this.boost[i]): number {
    const idx = i * MAX_STEPS + this.stepIdx[i];
    const item = this.logitTool[idx * this.nTools + j];
    return Number.isNaN(item) ? 0 : sigmoid(callLogit(item, this.isBound(j, this.stepType[idx]), this.needsTool[idx] === 1, boost, this.sim));
  }

  /** Whether tool j answers a step of type index `type` from its own knowledge. */
  isBound(j: number, type: number): boolean {
    return this.bound[j * STEP_TYPES.length + type] === 1;
  }

  /** The chance that the driver answers the slot's current step right if it submits with no attempt now (or with another boost). */
  selfProbability(i: number, boost = this.boost[i]): number {
    const idx = i * MAX_STEPS + this.stepIdx[i];
    return sigmoid(callLogit(this.logitSelf[idx], true, this.needsTool[idx] === 1, boost, this.sim));
  }

  /** Whether tool j can answer the slot's current step (not only bring context). */
  answers(i: number, j: number): boolean {
    return this.answerable[j * STEP_TYPES.length + this.stepType[i * MAX_STEPS + this.stepIdx[i]]] === 1;
  }

  private call(i: number, j: number): void {
    const J = this.nTools;
    const s = this.stepIdx[i];
    const key = this.keys[i];
    const tool = this.catalog.tools[j];
    const inTokens = briefTokens(this.promptTokens[i], this.turn[i], this.sim);
    const own = this.driverTurn(i, this.driver.turnTokens);
    const attempt = this.stepCalls[i * J + j];
    const d = sampleCall(tool, inTokens, this.draw(key, s, j, attempt, CH_TOKENS), this.draw(key, s, j, attempt, CH_LATENCY));
    this.cost[i] += d.cost;
    this.latencyMs[i] += d.latencyMs;
    this.tokens[i] += inTokens + d.outTokens;
    this.context[i] += d.outTokens;
    this.calls[i * J + j]++;
    this.stepCalls[i * J + j]++;
    const lift = tool.context?.[this.currentType(i)] ?? 0;
    const entry: TraceEntry = {
      turn: this.turn[i], step: s, action: 'call', tool: tool.id, inTokens, outTokens: d.outTokens,
      cost: d.cost + own.cost, latencyMs: d.latencyMs + own.latencyMs,
    };
    if (this.answers(i, j)) {
      const correct = this.draw(key, s, j, attempt, CH_SUCCESS) < this.callProbability(i, j);
      const conf = confidence(correct, tool.calibration, this.draw(key, s, j, attempt, CH_CONFIDENCE));
      this.stepAttempts[i]++;
      if (conf > this.bestConf[i]) {
        this.bestConf[i] = conf;
        this.bestCorrect[i] = correct ? 1 : 0;
      }
      this.lastConf[i] = conf;
      if (correct && lift > this.boost[i]) this.boost[i] = lift; // a right search result / program output informs later calls
      entry.correct = correct;
      entry.confidence = conf;
    } else {
      if (lift > this.boost[i]) this.boost[i] = lift; // evidence only: context for later calls, no answer
      entry.evidence = true;
    }
    entry.boost = this.boost[i];
    this.traces?.[i]?.push(entry);
    this.endTurn(i);
  }

  private submit(i: number): void {
    const J = this.nTools;
    const s = this.stepIdx[i];
    const selfSolved = this.stepAttempts[i] === 0;
    const pSelf = selfSolved ? this.selfProbability(i) : 0;
    const sameGeneration = selfSolved && this.driver.answersAtOnce === true && this.spokeAlone[i] === 1;
    const own = sameGeneration ? { inTokens: this.context[i], cost: 0, latencyMs: 0 } : this.driverTurn(i, selfSolved ? this.driver.answerTokens : this.driver.turnTokens);
    if (selfSolved) this.spokeAlone[i] = 1;
    const correct = selfSolved ? this.draw(this.keys[i], s, J, 0, CH_SUCCESS) < pSelf : this.bestCorrect[i] === 1;
    this.stepCorrect[i * MAX_STEPS + s] = correct ? 1 : 0;
    this.traces?.[i]?.push({
      turn: this.turn[i], step: s, action: 'submit', inTokens: own.inTokens, cost: own.cost, latencyMs: own.latencyMs,
      committedCorrect: correct, selfSolved,
    });
    this.stepIdx[i] = s + 1;
    this.stepAttempts[i] = 0;
    this.boost[i] = 0;
    this.bestConf[i] = -1;
    this.bestCorrect[i] = 0;
    this.lastConf[i] = -1;
    this.stepCalls.fill(0, i * J, (i + 1) * J);
    if (s + 1 === this.nSteps[i]) {
      this.answered[i] = 1;
      this.done[i] = 1;
      this.outcome[i] = this.judge(i) ? 1 : 0;
      this.turn[i]++;
    } else this.endTurn(i);
  }

  private endTurn(i: number): void {
    this.turn[i]++;
    if (this.turn[i] >= this.sim.maxTurns) {
      this.done[i] = 1; // out of turns before the last submit: no answer, outcome 0
      this.outcome[i] = 0;
    }
  }

  /** Agentic tasks: final store = golden store. Others: every committed step result correct. */
  private judge(i: number): boolean {
    const task = this.tasks[i] as Task;
    if (task.store && task.golden.store) return storesEqual(this.finalStore(i) ?? [], task.golden.store);
    for (let s = 0; s < this.nSteps[i]; s++) if (!this.stepCorrect[i * MAX_STEPS + s]) return false;
    return true;
  }

  /** The slot's record store after its committed `act` steps (a failed act, or one built on a failed lookup, writes the wrong value). */
  finalStore(i: number): StoreRecord[] | undefined {
    const task = this.tasks[i];
    if (!task?.store) return undefined;
    return storeAfterSteps(task.store, task.steps, this.answered[i] ? this.nSteps[i] : this.stepIdx[i], (s) => this.stepCorrect[i * MAX_STEPS + s] === 1);
  }
}
