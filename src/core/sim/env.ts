// The batched environment: N orchestrator episodes advanced in lockstep (DESIGN.md §2, §5).
// State is struct-of-arrays (one slot per episode) in typed arrays; each turn the caller hands
// one action per slot — call(tool j) = j, submit = nTools — and the env accounts outcome, cost
// (token-priced, context growing with the turn, plus the orchestrator's own turns), latency and
// calls per tool. All randomness is a counter-based draw keyed by (episode key, step, tool,
// attempt, channel), so episodes are reproducible and comparable across policies.

import {
  orchestratorTurnCost,
  orchestratorTurnLatencyMs,
  type Catalog,
} from './catalog';
import { confidence, contextTokens, sampleCall, successProbability, type SimConfig } from './callModel';
import { applyWrites, storesEqual, type StoreRecord } from './recordStore';
import { counterUniform } from './rng';
import { DOMAIN_INDEX, STEP_TYPE_INDEX, STEP_TYPES, type StepType } from './stepTypes';
import type { Task } from './tasks';

/** Draw channels of the counter-based generator. */
export const CH_SUCCESS = 0;
export const CH_CONFIDENCE = 1;
export const CH_TOKENS = 2;
export const CH_LATENCY = 3;

/** u(key, step, tool, attempt, channel) in (0, 1); tool = nTools stands for the orchestrator itself. */
export type DrawFn = (key: number, step: number, tool: number, attempt: number, channel: number) => number;

/** Longest task the env holds. */
export const MAX_STEPS = 5;

export interface TraceEntry {
  turn: number;
  step: number;
  action: 'call' | 'submit';
  tool?: string;
  inTokens: number;
  outTokens?: number;
  /** Cost of this turn: the call (if any) plus the orchestrator's own turn. */
  cost: number;
  latencyMs: number;
  correct?: boolean;
  confidence?: number;
  /** For a submit: whether the committed result of the step is right, and whether the orchestrator solved it alone. */
  committedCorrect?: boolean;
  selfSolved?: boolean;
}

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
  readonly pSelf: Float32Array;
  /** [(slot·MAX_STEPS + s)·nTools + j]: success probability, 0 where the tool cannot act. */
  readonly pTool: Float32Array;
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
  readonly stepAttempts: Int32Array;
  /** Highest confidence among the current step's attempts (−1: none yet) and whether it is right. */
  readonly bestConf: Float32Array;
  readonly bestCorrect: Uint8Array;
  readonly lastConf: Float32Array;
  /** [slot·MAX_STEPS + s] committed correctness of each submitted step. */
  readonly stepCorrect: Uint8Array;
  traces: TraceEntry[][] | null = null;

  private readonly canAct: Uint8Array; // [j·STEP_TYPES.length + type]

  constructor(
    readonly catalog: Catalog,
    readonly sim: SimConfig,
    capacity: number,
    readonly draw: DrawFn = counterUniform,
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
    this.pSelf = new Float32Array(NS);
    this.pTool = new Float32Array(NS * J);
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
    this.bestConf = new Float32Array(capacity);
    this.bestCorrect = new Uint8Array(capacity);
    this.lastConf = new Float32Array(capacity);
    this.stepCorrect = new Uint8Array(NS);
    this.canAct = new Uint8Array(J * STEP_TYPES.length);
    catalog.tools.forEach((t, j) => {
      STEP_TYPES.forEach((type, k) => {
        this.canAct[j * STEP_TYPES.length + k] = t.enabled && t.skill[type] !== undefined ? 1 : 0;
      });
    });
  }

  /**
   * Starts one episode per task in slots 0…tasks.length−1; `keys` seed each episode's draws.
   * `trace`: true records a turn-by-turn trace of every slot, a number k of the first k slots.
   */
  reset(tasks: readonly Task[], keys: ArrayLike<number>, opts: { trace?: boolean | number } = {}): void {
    if (tasks.length > this.capacity) throw new Error(`${tasks.length} tasks exceed the env capacity ${this.capacity}`);
    const J = this.nTools;
    const a = this.sim.discrimination;
    this.size = tasks.length;
    const traced = opts.trace === true ? tasks.length : opts.trace ? Math.min(opts.trace, tasks.length) : 0;
    this.traces = traced > 0 ? Array.from({ length: traced }, () => []) : null;
    this.done.fill(1);
    this.stepCalls.fill(0);
    this.calls.fill(0);
    this.stepCorrect.fill(0);
    this.pTool.fill(0);
    for (let i = 0; i < tasks.length; i++) {
      const task = tasks[i] as Task;
      if (task.steps.length > MAX_STEPS) throw new Error(`task ${task.id} has ${task.steps.length} steps (max ${MAX_STEPS})`);
      this.tasks[i] = task;
      this.keys[i] = (keys[i] ?? 0) >>> 0;
      this.nSteps[i] = task.steps.length;
      this.domain[i] = DOMAIN_INDEX[task.domain];
      this.promptTokens[i] = task.promptTokens;
      for (let j = 0; j < J; j++) {
        const t = this.catalog.tools[j];
        this.available[i * J + j] = t && t.enabled && task.available.includes(t.id) ? 1 : 0;
      }
      task.steps.forEach((s, k) => {
        const idx = i * MAX_STEPS + k;
        this.stepType[idx] = STEP_TYPE_INDEX[s.type];
        this.difficulty[idx] = s.difficulty;
        this.hint[idx] = s.hint;
        this.pSelf[idx] = successProbability(this.catalog.orchestrator.skill[s.type], s.difficulty, a);
        for (let j = 0; j < J; j++) {
          if (!this.available[i * J + j]) continue;
          this.pTool[idx * J + j] = successProbability(this.catalog.tools[j]?.skill[s.type], s.difficulty, a);
        }
      });
      this.stepIdx[i] = 0;
      this.turn[i] = 0;
      this.done[i] = 0;
      this.answered[i] = 0;
      this.outcome[i] = 0;
      this.cost[i] = 0;
      this.latencyMs[i] = 0;
      this.tokens[i] = 0;
      this.stepAttempts[i] = 0;
      this.bestConf[i] = -1;
      this.bestCorrect[i] = 0;
      this.lastConf[i] = -1;
    }
    for (let i = tasks.length; i < this.capacity; i++) this.tasks[i] = null;
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

  private orchestratorTurn(i: number): { inTokens: number; cost: number; latencyMs: number } {
    const inTokens = contextTokens(this.promptTokens[i], this.turn[i], this.sim);
    const cost = orchestratorTurnCost(this.catalog.orchestrator, inTokens);
    const latencyMs = orchestratorTurnLatencyMs(this.catalog.orchestrator);
    this.cost[i] += cost;
    this.latencyMs[i] += latencyMs;
    return { inTokens, cost, latencyMs };
  }

  private call(i: number, j: number): void {
    const J = this.nTools;
    const s = this.stepIdx[i];
    const key = this.keys[i];
    const tool = this.catalog.tools[j];
    const own = this.orchestratorTurn(i);
    const attempt = this.stepCalls[i * J + j];
    const correct = this.draw(key, s, j, attempt, CH_SUCCESS) < this.pTool[(i * MAX_STEPS + s) * J + j];
    const conf = confidence(correct, tool.calibration, this.draw(key, s, j, attempt, CH_CONFIDENCE));
    const d = sampleCall(tool, own.inTokens, this.draw(key, s, j, attempt, CH_TOKENS), this.draw(key, s, j, attempt, CH_LATENCY));
    this.cost[i] += d.cost;
    this.latencyMs[i] += d.latencyMs;
    this.tokens[i] += own.inTokens + d.outTokens;
    this.calls[i * J + j]++;
    this.stepCalls[i * J + j]++;
    this.stepAttempts[i]++;
    if (conf > this.bestConf[i]) {
      this.bestConf[i] = conf;
      this.bestCorrect[i] = correct ? 1 : 0;
    }
    this.lastConf[i] = conf;
    this.traces?.[i]?.push({
      turn: this.turn[i], step: s, action: 'call', tool: tool.id, inTokens: own.inTokens, outTokens: d.outTokens,
      cost: d.cost + own.cost, latencyMs: d.latencyMs + own.latencyMs, correct, confidence: conf,
    });
    this.endTurn(i);
  }

  private submit(i: number): void {
    const J = this.nTools;
    const s = this.stepIdx[i];
    const own = this.orchestratorTurn(i);
    const selfSolved = this.stepAttempts[i] === 0;
    const correct = selfSolved
      ? this.draw(this.keys[i], s, J, 0, CH_SUCCESS) < this.pSelf[i * MAX_STEPS + s]
      : this.bestCorrect[i] === 1;
    this.stepCorrect[i * MAX_STEPS + s] = correct ? 1 : 0;
    this.traces?.[i]?.push({
      turn: this.turn[i], step: s, action: 'submit', inTokens: own.inTokens, cost: own.cost, latencyMs: own.latencyMs,
      committedCorrect: correct, selfSolved,
    });
    this.stepIdx[i] = s + 1;
    this.stepAttempts[i] = 0;
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
    const submitted = this.answered[i] ? this.nSteps[i] : this.stepIdx[i];
    const writes = [];
    for (let s = 0; s < submitted; s++) {
      const step = task.steps[s];
      if (!step.write) continue;
      const ok = this.stepCorrect[i * MAX_STEPS + s] === 1 && (step.uses ?? []).every((u) => this.stepCorrect[i * MAX_STEPS + u] === 1);
      writes.push({ record: step.write.record, field: step.write.field, value: ok ? step.write.value : step.write.wrong });
    }
    return applyWrites(task.store, writes);
  }
}
