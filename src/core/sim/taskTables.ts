// The per-episode task tables of the batched env (env.ts): what an episode's task fixes before its
// first turn — which tools it may use and at what price multiplier, its commit units, its steps, and
// every item logit of every model, writer and tool on every step (the hidden latents included). A
// group's rollouts hold the same task, so a row is computed once and copied to its neighbours.

import type { Catalog, Driver, ToolSpec, WriterRole } from './catalog';
import { itemLogit, latentKey, spreadOf, toolReaches, writerKey, writerLogit, type SimConfig } from './callModel';
import { MAX_STEPS, type LatentFn } from './episode';
import { STEP_TYPE_INDEX } from './stepTypes';
import { needsToolRate, priceScaleOf, taskUnits, type Task } from './tasks';

/** The writer roles in the tables' order (0 query, 1 code). */
export const ROLES: readonly WriterRole[] = ['query', 'code'];

export class TaskTables {
  readonly nUnits: Int32Array;
  /** [i·MAX_STEPS + u]: first step and length of unit u. */
  readonly unitStart: Int8Array;
  readonly unitLen: Int8Array;
  /** [i·nTools + j]: the tool is available to this task and enabled; its price multiplier there. */
  readonly available: Uint8Array;
  readonly priceScale: Float32Array;
  /** [i·MAX_STEPS + k] */
  readonly stepType: Int32Array;
  readonly difficulty: Float32Array;
  readonly hint: Float32Array;
  readonly needsTool: Uint8Array;
  /** How often a step of its type needs a tool in its suite and domain: what the orchestrator may know of needsTool. */
  readonly needsPrior: Float32Array;
  /** The driver's item logit of answering step k (−∞ where it cannot). */
  readonly selfItem: Float32Array;
  /** [(i·MAX_STEPS + k)·nTools + j]: model j's answer item logit, or tool j's hit item logit; NaN where it cannot. */
  readonly answerItem: Float32Array;
  readonly hitItem: Float32Array;
  /** [((i·MAX_STEPS + k)·2 + role)·nTools + j]: model j's writer item logit for a role; NaN where it cannot. */
  readonly writeItem: Float32Array;
  /** [(i·MAX_STEPS + k)·2 + role]: the driver's own writer item logit; NaN where it does not write. */
  readonly selfWriteItem: Float32Array;
  private readonly modelKey: number[];

  constructor(private readonly catalog: Catalog, private readonly sim: SimConfig, capacity: number, private readonly latent: LatentFn) {
    const J = catalog.tools.length, NS = capacity * MAX_STEPS;
    this.nUnits = new Int32Array(capacity);
    this.unitStart = new Int8Array(NS);
    this.unitLen = new Int8Array(NS);
    this.available = new Uint8Array(capacity * J);
    this.priceScale = new Float32Array(capacity * J);
    this.stepType = new Int32Array(NS);
    this.difficulty = new Float32Array(NS);
    this.hint = new Float32Array(NS);
    this.needsTool = new Uint8Array(NS);
    this.needsPrior = new Float32Array(NS);
    this.selfItem = new Float32Array(NS);
    this.answerItem = new Float32Array(NS * J);
    this.hitItem = new Float32Array(NS * J);
    this.writeItem = new Float32Array(NS * 2 * J);
    this.selfWriteItem = new Float32Array(NS * 2);
    this.modelKey = catalog.tools.map((t) => latentKey(t.id));
  }

  /** Episode i's rows for `task` driven by `driver`: availability and prices, units, the steps and every item logit. */
  fill(i: number, task: Task, driver: Driver): void {
    const tools = this.catalog.tools, J = tools.length, sim = this.sim, driverKey = latentKey(driver.id);
    for (let j = 0; j < J; j++) {
      const t = tools[j] as ToolSpec;
      this.available[i * J + j] = t.enabled && task.available.includes(t.id) ? 1 : 0;
      this.priceScale[i * J + j] = priceScaleOf(task, t.id);
    }
    const units = taskUnits(task);
    this.nUnits[i] = units.length;
    units.forEach((u, n) => { this.unitStart[i * MAX_STEPS + n] = u[0] as number; this.unitLen[i * MAX_STEPS + n] = u.length; });
    task.steps.forEach((s, k) => {
      const idx = i * MAX_STEPS + k;
      this.stepType[idx] = STEP_TYPE_INDEX[s.type];
      this.difficulty[idx] = s.difficulty;
      this.hint[idx] = s.hint;
      this.needsTool[idx] = s.needsTool ? 1 : 0;
      this.needsPrior[idx] = needsToolRate(task.suite, task.domain, s.type);
      const self = driver.skill[s.type];
      this.selfItem[idx] = self === undefined ? -Infinity : itemLogit(self, s.difficulty, sim.spread[s.type],
        this.latent(task.key, k, driverKey), sim.discrimination);
      ROLES.forEach((role, r) => {
        const w = driver.writes?.[role];
        this.selfWriteItem[idx * 2 + r] = w === undefined ? NaN : writerLogit(w, s.difficulty, this.latent(task.key, k, writerKey(driver.id, role)), sim);
      });
      for (let j = 0; j < J; j++) {
        const t = tools[j] as ToolSpec, skill = t.skill[s.type], basic = t.kind === 'basic', key = this.modelKey[j] as number;
        this.answerItem[idx * J + j] = !basic && skill !== undefined ? itemLogit(skill, s.difficulty,
          spreadOf(t.kind, s.type, sim), this.latent(task.key, k, key), sim.discrimination) : NaN;
        this.hitItem[idx * J + j] = basic && toolReaches(t, s.type, s.needsTool) ? itemLogit(skill as number,
          s.difficulty, sim.basicSpread, this.latent(task.key, k, key, 0), sim.discrimination) : NaN;
        ROLES.forEach((role, r) => {
          const w = basic ? undefined : t.writes?.[role];
          this.writeItem[(idx * 2 + r) * J + j] = w === undefined ? NaN : writerLogit(w, s.difficulty, this.latent(task.key, k, writerKey(t.id, role)), sim);
        });
      }
    });
  }

  /** Episode `to` gets the rows of episode `from`, which holds the same task (and driver). */
  copy(from: number, to: number): void {
    const J = this.catalog.tools.length, a = from * MAX_STEPS, b = to * MAX_STEPS;
    this.available.copyWithin(to * J, from * J, (from + 1) * J);
    this.priceScale.copyWithin(to * J, from * J, (from + 1) * J);
    this.nUnits[to] = this.nUnits[from] as number;
    for (const x of [this.unitStart, this.unitLen, this.stepType, this.difficulty, this.hint, this.needsTool, this.needsPrior, this.selfItem]) x.copyWithin(b, a, a + MAX_STEPS);
    for (const x of [this.answerItem, this.hitItem]) x.copyWithin(b * J, a * J, (a + MAX_STEPS) * J);
    this.writeItem.copyWithin(b * 2 * J, a * 2 * J, (a + MAX_STEPS) * 2 * J);
    this.selfWriteItem.copyWithin(b * 2, a * 2, (a + MAX_STEPS) * 2);
  }
}
