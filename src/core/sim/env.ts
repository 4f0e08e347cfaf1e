// The batched environment: N orchestrator episodes advanced in lockstep (docs/DESIGN.md §2, §5),
// with the paper's harness as its actions (slots.ts): a model writes a query or a program that a basic
// tool runs (evidence for a step of the current unit), a model answers the unit in one committed call,
// or the driver answers it itself (submit). State is struct-of-arrays per episode (envState.ts).
// Every random draw is counter-based, keyed by (episode key, step, hashed id, attempt, channel), so
// episodes are reproducible and comparable across policies; item latents depend on the task only.
import { driverTurnCost, driverTurnLatencyMs, orchestratorDriver, writeTokens, type Catalog, type Driver, type ToolSpec, type WriterRole } from './catalog';
import { answerLogit, briefTokens, confidence, evidenceLift, latentKey, sampleCall, sigmoid, stepLatent, writerKey, type SimConfig } from './callModel';
import { storeAfterSteps, storesEqual, type StoreRecord } from './recordStore';
import { counterUniform, hashString } from './rng';
import { SELF, slotsOf, writerRoleOf, type Slot } from './slots';
import { DOMAIN_INDEX, STEP_TYPES } from './stepTypes';
import { ROLES, TaskTables } from './taskTables';
import type { Task } from './tasks';
import { EpisodeState } from './envState';
import { describe, describeDriver } from './descriptors';
import { evidenceEstimate, liftAt } from './estimates';
import { findPosterior, type PublicView } from './observation';
import {
  CH_CONFIDENCE, CH_HIT, CH_LATENCY, CH_SUCCESS, CH_TOKENS, CH_TOOL_LATENCY, CH_TOOL_TOKENS, CH_WRITE, MAX_STEPS,
  type DrawFn, type LatentFn,
} from './episode';

const K = STEP_TYPES.length;

export class BatchEnv extends EpisodeState implements PublicView {
  readonly nActions: number;
  readonly submitAction: number;
  /** The task tables (taskTables.ts): units, availability and prices, steps, every item logit; exposed by name below. */
  private readonly rows: TaskTables;
  readonly nUnits: Int32Array;
  readonly unitStart: Int8Array;
  readonly unitLen: Int8Array;
  readonly available: Uint8Array;
  readonly priceScale: Float32Array;
  readonly stepType: Int32Array;
  readonly difficulty: Float32Array;
  readonly hint: Float32Array;
  readonly needsTool: Uint8Array;
  readonly needsPrior: Float32Array;
  readonly selfItem: Float32Array;
  readonly answerItem: Float32Array;
  readonly hitItem: Float32Array;
  readonly writeItem: Float32Array;
  readonly selfWriteItem: Float32Array;

  /** Who writes the turns and answers units submitted to it (reset may change it). */
  driver: Driver;
  private driverKey = 0;
  private readonly modelKey: number[];
  private readonly slotKey: number[];
  private readonly slotRole: Int8Array;
  /** [j·K + type]: tool j's first lift on a step of the type (0 = none). */
  readonly lift: Float64Array;
  /** The public descriptors (descriptors.ts): [j·K + type] skills, [j·2 + role] writing; the driver's set at reset. */
  readonly describedSkill: Float64Array;
  readonly describedWrites: Float64Array;
  readonly driverSkill = new Float64Array(K);
  readonly driverWrites = new Float64Array(2);

  constructor(
    readonly catalog: Catalog,
    readonly sim: SimConfig,
    capacity: number,
    readonly draw: DrawFn = counterUniform,
    readonly latent: LatentFn = (key, step, who, rho) => stepLatent(key, step, who, rho ?? sim.sharedFactor),
  ) {
    super(capacity, catalog.tools.length, slotsOf(catalog));
    const J = this.nTools;
    this.nActions = this.nSlots + 1;
    this.submitAction = this.nSlots;
    const rows = new TaskTables(catalog, sim, capacity, latent);
    this.rows = rows;
    ({ nUnits: this.nUnits, unitStart: this.unitStart, unitLen: this.unitLen, available: this.available, priceScale: this.priceScale, stepType: this.stepType,
      difficulty: this.difficulty, hint: this.hint, needsTool: this.needsTool, needsPrior: this.needsPrior, selfItem: this.selfItem, answerItem: this.answerItem, hitItem: this.hitItem,
      writeItem: this.writeItem, selfWriteItem: this.selfWriteItem } = rows);
    this.modelKey = catalog.tools.map((t) => latentKey(t.id));
    this.slotKey = this.slots.map((s) => hashString(s.id));
    this.slotRole = Int8Array.from(this.slots, (s) => { const r = writerRoleOf(s.role); return r === null ? -1 : ROLES.indexOf(r); });
    this.lift = new Float64Array(J * K);
    catalog.tools.forEach((t, j) => STEP_TYPES.forEach((type, k) => { this.lift[j * K + k] = evidenceLift(t, type, 0, sim); }));
    this.describedSkill = new Float64Array(J * K).fill(NaN);
    this.describedWrites = new Float64Array(J * 2).fill(NaN);
    catalog.tools.forEach((t, j) => {
      const d = describe(t, sim);
      STEP_TYPES.forEach((type, k) => { this.describedSkill[j * K + k] = d.skill[type] ?? NaN; });
      ROLES.forEach((role, r) => { this.describedWrites[j * 2 + r] = d.writes?.[role] ?? NaN; });
    });
    this.driver = orchestratorDriver(catalog.orchestrator);
    this.describeDriver();
  }

  private describedDriver = '';

  /** The driver's descriptor, read again only when another model drives. */
  private describeDriver(): void {
    if (this.describedDriver === this.driver.id) return;
    this.describedDriver = this.driver.id;
    const d = describeDriver(this.driver, this.sim);
    STEP_TYPES.forEach((type, k) => { this.driverSkill[k] = d.skill[type] ?? NaN; });
    ROLES.forEach((role, r) => { this.driverWrites[r] = d.writes?.[role] ?? NaN; });
  }

  /**
   * Starts one episode per task in slots 0…tasks.length−1; `keys` seed each episode's draws.
   * `trace`: true records a turn-by-turn trace of every slot, a number k of the first k slots.
   * `driver`: who drives these episodes (default: the catalog's orchestrator).
   */
  reset(tasks: readonly Task[], keys: ArrayLike<number>, opts: { trace?: boolean | number; driver?: Driver } = {}): void {
    if (tasks.length > this.capacity) throw new Error(`${tasks.length} tasks exceed the env capacity ${this.capacity}`);
    this.driver = opts.driver ?? orchestratorDriver(this.catalog.orchestrator);
    this.describeDriver();
    this.driverKey = latentKey(this.driver.id);
    this.size = tasks.length;
    const traced = opts.trace === true ? tasks.length : opts.trace ? Math.min(opts.trace, tasks.length) : 0;
    this.traces = traced > 0 ? Array.from({ length: traced }, () => []) : null;
    this.done.fill(1);
    this.calls.fill(0);
    this.slotCalls.fill(0);
    this.stepCorrect.fill(0);
    this.evidence.fill(0);
    this.hits.fill(0);
    this.tries.fill(0);
    this.beliefEvidence.fill(0);
    this.beliefFinds.fill(0);
    this.noFind.fill(1);
    for (let i = 0; i < tasks.length; i++) {
      const task = tasks[i] as Task;
      if (task.steps.length > MAX_STEPS) throw new Error(`task ${task.id} has ${task.steps.length} steps (max ${MAX_STEPS})`);
      this.tasks[i] = task;
      this.keys[i] = (keys[i] ?? 0) >>> 0;
      this.nSteps[i] = task.steps.length;
      this.domain[i] = DOMAIN_INDEX[task.domain];
      this.promptTokens[i] = task.promptTokens;
      this.budget[i] = task.maxTurns ?? this.sim.maxTurns;
      // A group's rollouts hold the same task, whose rows depend on its key only: computed once.
      if (i > 0 && tasks[i - 1] === task) this.rows.copy(i - 1, i);
      else this.rows.fill(i, task, this.driver);
      this.unitIdx[i] = 0;
      this.turn[i] = 0;
      this.done[i] = this.budget[i] > 0 ? 0 : 1;
      this.answered[i] = 0;
      this.outcome[i] = 0;
      this.cost[i] = 0;
      this.latencyMs[i] = 0;
      this.tokens[i] = 0;
      this.context[i] = task.promptTokens;
      this.spokeAlone[i] = 0;
      this.resetUnit(i);
    }
    for (let i = tasks.length; i < this.capacity; i++) this.tasks[i] = null;
  }

  private resetUnit(i: number): void {
    this.slotCalls.fill(0, i * this.nSlots, (i + 1) * this.nSlots);
    this.unitCalls[i] = 0;
    this.bestSignal[i] = -1;
    this.lastSignal[i] = -1;
  }

  /** The first step and the length of the episode's current unit. */
  unitRange(i: number): [number, number] {
    const u = i * MAX_STEPS + this.unitIdx[i];
    return [this.unitStart[u] as number, this.unitLen[u] as number];
  }

  /** The driver's (or model j's) item logit on step k of episode i; NaN / −∞ where it cannot answer. */
  itemOf(i: number, k: number, j: number): number {
    const idx = i * MAX_STEPS + k;
    return j === SELF ? (this.selfItem[idx] as number) : (this.answerItem[idx * this.nTools + j] as number);
  }

  /** The writer item logit of slot s on step k (its model's, or the driver's own). */
  writerItemOf(i: number, k: number, s: number): number {
    const slot = this.slots[s] as Slot, r = this.slotRole[s] as number, idx = i * MAX_STEPS + k;
    return slot.model === SELF ? (this.selfWriteItem[idx * 2 + r] as number) : (this.writeItem[(idx * 2 + r) * this.nTools + slot.model] as number);
  }

  /**
   * The step of the current unit that slot s's evidence would go to, as the orchestrator would pick it
   * from what it knows: among the steps its tool reaches (lift > 0), the one it believes the least
   * found so far (the next open question), then the likeliest to need a tool, then the largest lift,
   * then the earliest; −1 when its tool reaches none.
   */
  target(i: number, s: number): number {
    const slot = this.slots[s] as Slot;
    if (slot.tool < 0) return -1;
    const [start, len] = this.unitRange(i);
    let best = -1, bestScore = -Infinity;
    for (let k = start; k < start + len; k++) {
      const idx = i * MAX_STEPS + k;
      const lift = this.lift[slot.tool * K + (this.stepType[idx] as number)] as number;
      if (lift <= 0) continue;
      const score = -1000 * Math.round(4 * (this.beliefFinds[idx] as number)) + 100 * (this.needsPrior[idx] as number) + lift;
      if (score > bestScore) { best = k; bestScore = score; }
    }
    return best;
  }

  /** Whether action s may be taken now by episode i (evidence only while a turn is left for every commit still owed). */
  allowed(i: number, s: number): boolean {
    if (this.done[i]) return false;
    if (s === this.submitAction) return true;
    const slot = this.slots[s] as Slot, J = this.nTools;
    if (slot.role === 'answer') {
      if (!this.available[i * J + slot.model]) return false;
      const [start, len] = this.unitRange(i);
      for (let k = start; k < start + len; k++) if (Number.isNaN(this.itemOf(i, k, slot.model))) return false;
      return true;
    }
    if (!this.available[i * J + slot.tool]) return false;
    // The harness asks for the answers when the turns left are only enough to commit the units still owed.
    if ((this.budget[i] as number) - (this.turn[i] as number) <= (this.nUnits[i] as number) - (this.unitIdx[i] as number)) return false;
    // slotsOf only pairs a tool with models that write for its role; the driver writes only where it says so.
    if (slot.model === SELF
      ? this.driver.writes?.[ROLES[this.slotRole[s] as number] as WriterRole] === undefined
      : !this.available[i * J + slot.model]) return false;
    return this.target(i, s) >= 0;
  }

  /** Writes the action mask, [slot·nActions + a] = 1 when allowed; finished slots get all zeros. */
  writeMask(out: Uint8Array): void {
    const A = this.nActions;
    for (let i = 0; i < this.capacity; i++) {
      const live = i < this.size && !this.done[i];
      for (let s = 0; s < this.nSlots; s++) out[i * A + s] = live && this.allowed(i, s) ? 1 : 0;
      out[i * A + this.submitAction] = live ? 1 : 0;
    }
  }

  allDone(): boolean {
    for (let i = 0; i < this.size; i++) if (!this.done[i]) return false;
    return true;
  }

  /** Advances every live slot by one turn. `actions[slot]` is a slot index or `submitAction`. */
  step(actions: ArrayLike<number>): void {
    for (let i = 0; i < this.size; i++) {
      if (this.done[i]) continue;
      const act = actions[i] as number;
      if (act === this.submitAction) this.commit(i, SELF, null);
      else if (act >= 0 && act < this.nSlots && this.allowed(i, act)) {
        if ((this.slots[act] as Slot).role === 'answer') this.commit(i, (this.slots[act] as Slot).model, act);
        else this.evidenceCall(i, act);
      } else throw new Error(`episode ${i}: action ${act} is not allowed now (${act < this.nSlots ? (this.slots[act] as Slot).id : 'no such action'})`);
    }
  }

  /** One driver turn: reads the context, writes `outTokens` (which join the context). */
  private driverTurn(i: number, outTokens: number): { inTokens: number; cost: number; latencyMs: number } {
    const inTokens = this.context[i] as number;
    const cost = driverTurnCost(this.driver, inTokens, outTokens);
    const latencyMs = driverTurnLatencyMs(this.driver, outTokens);
    this.cost[i] += cost;
    this.latencyMs[i] += latencyMs;
    this.context[i] += outTokens;
    return { inTokens, cost, latencyMs };
  }

  /** Slot s writes a query or program for its target step and its tool runs it. */
  private evidenceCall(i: number, s: number): void {
    const J = this.nTools, slot = this.slots[s] as Slot, key = this.keys[i] as number;
    const k = this.target(i, s), idx = i * MAX_STEPS + k, attempt = this.slotCalls[i * this.nSlots + s] as number;
    const tool = this.catalog.tools[slot.tool] as ToolSpec;
    const prior = evidenceEstimate(this, i, s, k), publicLift = liftAt(this, slot.tool, idx); // what it expected, before the call
    const own = this.driverTurn(i, slot.model === SELF ? this.driver.turnTokens : this.driver.delegateTokens);
    let cost = own.cost, latency = own.latencyMs, inTokens = 0;
    if (slot.model !== SELF) {
      const m = this.catalog.tools[slot.model] as ToolSpec;
      const wKey = writerKey(m.id, ROLES[this.slotRole[s] as number] as string);
      inTokens = briefTokens(this.promptTokens[i] as number, this.turn[i] as number, this.sim);
      const w = sampleCall(m, inTokens, this.draw(key, k, wKey, attempt, CH_TOKENS),
        this.draw(key, k, wKey, attempt, CH_LATENCY), {
        priceScale: this.priceScale[i * J + slot.model] as number, outMean: writeTokens(m, this.sim.writerTokenShare),
      });
      cost += w.cost; latency += w.latencyMs;
      this.cost[i] += w.cost; this.latencyMs[i] += w.latencyMs; this.tokens[i] += inTokens + w.outTokens;
      this.calls[i * J + slot.model]++;
    }
    const toolKey = this.modelKey[slot.tool] as number;
    const t = sampleCall(tool, 0, this.draw(key, k, toolKey, attempt, CH_TOOL_TOKENS),
      this.draw(key, k, toolKey, attempt, CH_TOOL_LATENCY), { priceScale: this.priceScale[i * J + slot.tool] as number });
    cost += t.cost; latency += t.latencyMs;
    this.cost[i] += t.cost; this.latencyMs[i] += t.latencyMs; this.tokens[i] += t.outTokens;
    this.context[i] += t.outTokens;
    this.calls[i * J + slot.tool]++;
    this.slotCalls[i * this.nSlots + s]++;
    const sk = this.slotKey[s] as number;
    const written = this.draw(key, k, sk, attempt, CH_WRITE) < sigmoid(this.writerItemOf(i, k, s));
    const found = this.draw(key, k, sk, attempt, CH_HIT) < sigmoid(this.hitItem[idx * J + slot.tool] as number);
    const success = written && found;
    if (success) {
      this.evidence[idx] += (this.lift[slot.tool * K + (this.stepType[idx] as number)] as number) * this.sim.evidenceDecay ** (this.hits[idx] as number);
      this.hits[idx]++;
    }
    this.unitCalls[i]++;
    this.tries[idx]++;
    const signal = confidence(success, tool.calibration, this.draw(key, k, sk, attempt, CH_CONFIDENCE));
    const believed = findPosterior(prior, signal, tool.calibration);
    this.beliefEvidence[idx] += believed * publicLift;
    this.beliefFinds[idx] += believed;
    this.noFind[idx] *= 1 - believed;
    if (signal > (this.bestSignal[i] as number)) this.bestSignal[i] = signal;
    this.lastSignal[i] = signal;
    this.traces?.[i]?.push({
      turn: this.turn[i] as number, unit: this.unitIdx[i] as number, step: k, action: slot.role as 'search' | 'code', slot: slot.id,
      model: slot.model === SELF ? this.driver.id : (this.catalog.tools[slot.model] as ToolSpec).id, tool: tool.id,
      inTokens, outTokens: t.outTokens, cost, latencyMs: latency, success, signal, evidence: this.evidence[idx] as number,
    });
    this.endTurn(i);
  }

  /** Commits the current unit: model j answers it in one call (slot s), or the driver itself (j = SELF, s = null). */
  private commit(i: number, j: number, s: number | null): void {
    const J = this.nTools, key = this.keys[i] as number;
    const [start, len] = this.unitRange(i);
    let cost: number, latency: number, inTokens: number, outTokens: number | undefined, who: number;
    if (j === SELF) {
      const sameGeneration = this.driver.answersAtOnce === true && this.spokeAlone[i] === 1;
      const own = sameGeneration ? { inTokens: this.context[i] as number, cost: 0, latencyMs: 0 } : this.driverTurn(i, this.driver.answerTokens);
      this.spokeAlone[i] = 1;
      cost = own.cost; latency = own.latencyMs; inTokens = own.inTokens; who = this.driverKey;
    } else {
      const m = this.catalog.tools[j] as ToolSpec;
      who = this.modelKey[j] as number;
      const own = this.driverTurn(i, this.driver.delegateTokens);
      inTokens = this.context[i] as number; // the answerer reads everything gathered
      const c = sampleCall(m, inTokens, this.draw(key, start, who, 0, CH_TOKENS), this.draw(key, start, who, 0, CH_LATENCY),
        { priceScale: this.priceScale[i * J + j] as number });
      this.cost[i] += c.cost; this.latencyMs[i] += c.latencyMs; this.tokens[i] += inTokens + c.outTokens;
      this.context[i] += c.outTokens;
      this.calls[i * J + j]++;
      cost = own.cost + c.cost; latency = own.latencyMs + c.latencyMs; outTokens = c.outTokens;
    }
    const stepsRight: boolean[] = [];
    let missing = false;
    for (let k = start; k < start + len; k++) {
      const idx = i * MAX_STEPS + k, has = (this.hits[idx] as number) > 0;
      if (this.needsTool[idx] && !has) missing = true;
      const p = sigmoid(answerLogit(this.itemOf(i, k, j), this.evidence[idx] as number, this.needsTool[idx] === 1, has, this.sim));
      const right = this.draw(key, k, who, 0, CH_SUCCESS) < p;
      this.stepCorrect[idx] = right ? 1 : 0;
      stepsRight.push(right);
    }
    this.traces?.[i]?.push({
      turn: this.turn[i] as number, unit: this.unitIdx[i] as number, step: start, action: j === SELF ? 'submit' : 'answer',
      ...(s !== null ? { slot: (this.slots[s] as Slot).id } : {}), model: j === SELF ? this.driver.id : (this.catalog.tools[j] as ToolSpec).id,
      inTokens, ...(outTokens !== undefined ? { outTokens } : {}), cost, latencyMs: latency,
      committedCorrect: stepsRight.every(Boolean), stepsRight, missingEvidence: missing,
    });
    this.unitIdx[i]++;
    this.resetUnit(i);
    if (this.unitIdx[i] === this.nUnits[i]) {
      this.answered[i] = 1;
      this.done[i] = 1;
      this.outcome[i] = this.judge(i) ? 1 : 0;
      this.turn[i]++;
    } else this.endTurn(i);
  }

  private endTurn(i: number): void {
    this.turn[i]++;
    if ((this.turn[i] as number) >= (this.budget[i] as number)) {
      this.done[i] = 1; // out of turns before the last commit: no answer, outcome 0
      this.outcome[i] = 0;
    }
  }

  /** The hindsight baseline only: whether slot s's next call would find what its target step needs (it reads the hidden draws). */
  peekFind(i: number, s: number): boolean {
    const k = this.target(i, s);
    if (k < 0) return false;
    const slot = this.slots[s] as Slot, key = this.keys[i] as number, sk = this.slotKey[s] as number;
    const attempt = this.slotCalls[i * this.nSlots + s] as number, idx = i * MAX_STEPS + k;
    return this.draw(key, k, sk, attempt, CH_WRITE) < sigmoid(this.writerItemOf(i, k, s))
      && this.draw(key, k, sk, attempt, CH_HIT) < sigmoid(this.hitItem[idx * this.nTools + slot.tool] as number);
  }

  /** The hindsight baseline only: whether model j (or the driver, SELF) would get step k right, with `extra` more evidence on it (a find). */
  peekRight(i: number, k: number, j: number, extra = 0): boolean {
    const idx = i * MAX_STEPS + k, who = j === SELF ? this.driverKey : (this.modelKey[j] as number);
    const has = (this.hits[idx] as number) > 0 || extra > 0;
    const p = sigmoid(answerLogit(this.itemOf(i, k, j), (this.evidence[idx] as number) + extra, this.needsTool[idx] === 1, has, this.sim));
    return this.draw(this.keys[i] as number, k, who, 0, CH_SUCCESS) < p;
  }

  /** Record-store tasks: final store = golden store. Others: every step of the answer right. */
  private judge(i: number): boolean {
    const task = this.tasks[i] as Task;
    if (task.store && task.golden.store) return storesEqual(this.finalStore(i) ?? [], task.golden.store);
    for (let k = 0; k < (this.nSteps[i] as number); k++) if (!this.stepCorrect[i * MAX_STEPS + k]) return false;
    return true;
  }

  /** The episode's record store after its committed `act` steps (a failed act, or one built on a failed lookup, writes the wrong value). */
  finalStore(i: number): StoreRecord[] | undefined {
    const task = this.tasks[i];
    if (!task?.store) return undefined;
    const committed = this.answered[i] ? (this.nSteps[i] as number) : (this.unitStart[i * MAX_STEPS + (this.unitIdx[i] as number)] as number);
    return storeAfterSteps(task.store, task.steps, committed, (k) => this.stepCorrect[i * MAX_STEPS + k] === 1);
  }
}
