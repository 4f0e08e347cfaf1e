// The lab session inside the worker: one catalog, one configuration, one policy and its GRPO
// trainer, the held-out set the trade-off view is measured on, and the operations the page asks
// for (configure, step, evaluate, export, import, switch backend). Every tfjs operation runs
// through `exclusive`, one at a time, so an evaluation never interleaves with an update.

import { errorMessage } from '../core/errorMessage';
import { slotsOf } from '../core/sim/slots';
import { isIterationCount, MAX_ITERATIONS, trainingRecord, trainsAlike, type TrainConfig } from '../core/grpo/config';
import type { IterationMetrics } from '../core/grpo/metrics';
import { BrokenBackendError, GrpoTrainer } from '../core/grpo/trainer';
import { trainingPool } from '../core/grpo/trainingPool';
import { PHASE_NAMES, runNextPhase, updated, type IterationState } from '../core/grpo/phases';
import { phaseReport, type PhaseReport } from '../core/lab/phaseReport';
import { exportArtifact, importArtifact } from '../core/io/artifact';
import { learnedPolicy } from '../core/policy/act';
import { PolicyNetwork } from '../core/policy/network';
import { probeFinite, probeProbabilities } from '../core/policy/probe';
import type { Preference } from '../core/preference';
import type { Catalog } from '../core/sim/catalog';
import { generateTasks, type Task } from '../core/sim/tasks';
import { chooseBackend, initBackend } from './backend';
import { clearKeeper, PolicyKeeper } from './policyKeeper';
import { backendAlive, networkFromFlat, recreateActiveBackend } from '../core/runtime/backendRecovery';
import { checkIterationSize } from '../core/grpo/memoryEstimate';
import * as tf from '@tensorflow/tfjs-core';
import { LIVE_BASELINES, table1Rows } from '../core/eval/reproduce';
import type { BackendInfo, BackendName, BackendProbeReport, KeptPolicy, LabSettings, ProbeSize, PaperRow, Replacement,
  Tradeoff, UndoLabel } from './protocol';
import { BackendRebuilt, BrokenPolicyError } from './runStops';
import { baselineView, tradeoffAt, type BaselineView } from './tradeoffView';

export class LabSession {
  backend: BackendInfo | null = null;
  settings: LabSettings | null = null;
  private trainer: GrpoTrainer | null = null;
  private pool: Task[] = [];
  private evalTasks: Task[] = [];
  private baselines: BaselineView | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly keeper = new PolicyKeeper();
  private iterationOffset = 0;
  /** The policy is a network made from the seed (Reset, a new network), not an import or an Undo's. */
  private freshNetwork = false;

  /** Runs `f` after every operation queued before it. */
  exclusive<T>(f: () => Promise<T>): Promise<T> {
    const run = this.queue.then(f, f);
    this.queue = run.catch(() => undefined);
    return run;
  }

  get iteration(): number { return this.iterationOffset + (this.trainer?.iteration ?? 0); }

  /** Starts tfjs: on `backend` when forced, else on the backend the speed probe finds fastest (or the cached choice). */
  async init(backend: BackendName | undefined, size: ProbeSize, cached?: BackendProbeReport): Promise<BackendInfo> {
    return (this.backend = backend ? await initBackend(backend) : await chooseBackend(size, cached));
  }

  private requireSettings(): LabSettings {
    if (this.settings) return this.settings;
    throw new Error('the lab is not configured yet');
  }

  /**
   * Applies new settings; keeps the policy unless its shape or seed changed (a trained policy so
   * replaced is kept for Undo: 'undo' among the changes). Returns what changed.
   * All or nothing: sizes past the memory bound, or a catalog no task can be made with, throw
   * before anything is replaced, and the run goes on with the settings it had.
   */
  configure(next: LabSettings): string[] {
    const prev = this.settings;
    const changed: string[] = [];
    const sizeError = checkIterationSize(this.trainConfig(next), slotsOf(next.catalog).length);
    if (sizeError) throw new Error(sizeError);
    const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
    const catalogChanged = !prev || !same(prev.catalog, next.catalog);
    const poolChanged = catalogChanged || prev.train.seed !== next.train.seed
      || prev.train.poolSize !== next.train.poolSize || prev.train.availability !== next.train.availability
      || !same(prev.train.sim, next.train.sim);
    const evalChanged = poolChanged || prev.evalTasks !== next.evalTasks || prev.evalSuite !== next.evalSuite;
    const netChanged = !prev || !same(prev.train.policy, next.train.policy);
    const trainChanged = !prev || !trainsAlike(prev.train, next.train);
    // Everything that can fail first, into locals.
    const pool = poolChanged ? trainingPool(next.catalog, next.train) : this.pool;
    const suite = next.evalSuite === 'toolscale' ? {} : { suite: next.evalSuite };
    const evalTasks = evalChanged ? generateTasks(next.catalog, { seed: next.train.seed + 1000, count: next.evalTasks,
      availability: 1, sim: next.train.sim, ...suite }).tasks : this.evalTasks;
    if (poolChanged) {
      this.pool = pool;
      changed.push('tasks');
    }
    this.evalTasks = evalTasks;
    if (catalogChanged || evalChanged) {
      this.baselines = null;
      changed.push('baselines');
    }
    this.settings = next;
    if ((netChanged || trainChanged || poolChanged) && this.slowMotionPhase > 0) {
      this.closedMetrics = this.closeSlowMotion();
      changed.push('phases');
    }
    if (trainChanged && !netChanged && !poolChanged && this.trainer?.reconfigure(this.trainConfig(next))) {
      changed.push('settings'); // same network, same Adam state
    } else if (netChanged || trainChanged || poolChanged || !this.trainer) {
      const keep = !netChanged && this.trainer ? this.trainer.net : undefined;
      // A new network (seed, width, depth) replaces the policy: Undo can bring it back.
      if (!keep && prev && this.keepForUndo('newNetwork', prev)) changed.push('undo');
      // A new network counts from 0 (also when a failed switch left no trainer).
      this.replacePolicy(keep, keep ? { at: this.iteration, keepNet: true } : { at: 0, fresh: true, newRun: true });
      changed.push(keep ? 'trainer' : 'policy');
    }
    return changed;
  }

  /**
   * The one place a policy takes the trainer's place: the lab's count goes on from `at` (the new
   * trainer's schedule is shifted to it), a new run of the best-policy guard where the policy is
   * another (`newRun`), and whether it is a fresh network from the seed (undefined: as it was).
   * `net` undefined: a new network from the settings. `keepNet`: the old trainer's network goes on.
   */
  private replacePolicy(net: PolicyNetwork | undefined, o: { at: number; fresh?: boolean; newRun?: boolean; keepNet?: boolean }): void {
    const s = this.requireSettings();
    this.trainer?.dispose(o.keepNet ?? false);
    this.trainer = null;
    this.iterationOffset = o.at;
    if (o.newRun) this.keeper.newRun();
    this.trainer = new GrpoTrainer(s.catalog, this.trainConfig(s), this.pool, net);
    if (o.fresh !== undefined) this.freshNetwork = o.fresh;
  }

  /** The trainer's config: its lr schedule shifted by the lab's iterations before it (a trainer counts from 0). */
  private trainConfig(s: LabSettings): TrainConfig {
    const d = s.train.lrDecay, shift = this.iterationOffset;
    return { ...s.train, lrDecay: d ? { start: d.start - shift, end: d.end - shift } : null };
  }

  /** Whether the learning-rate schedule has reached 0: a further iteration would not change the weights. */
  scheduleEnded(): boolean {
    const d = this.settings?.train.lrDecay;
    return !!d && this.iteration >= d.end;
  }

  private requireTrainer(): GrpoTrainer {
    if (!this.trainer) throw new Error('the lab is not configured yet');
    return this.trainer;
  }

  /** One iteration; with `wanted`, skipped (null) if by its turn in the queue it is no longer wanted. */
  step(wanted?: () => boolean): Promise<IterationMetrics | null> {
    return this.exclusive(async () => {
      if (wanted && !wanted()) return null;
      this.closeSlowMotion();
      const trainer = this.requireTrainer();
      let m: IterationMetrics;
      try {
        m = await trainer.step({ keepStart: true });
      } catch (e) {
        if (e instanceof BrokenBackendError || !(await backendAlive())) {
          throw new BackendRebuilt(await this.recover(trainer, e as Error), e);
        }
        throw e;
      }
      return this.afterIteration(trainer, m);
    });
  }

  /** After an iteration: the collapse guard sees the weights its rollouts played (kept when they scored best); the
   * counter and a divergence's iteration as the page counts them (a trainer counts from 0 after an import or a restore). */
  private afterIteration(trainer: GrpoTrainer, m: IterationMetrics): IterationMetrics {
    const before = trainer.takeStartWeights() as tf.NamedTensorMap;
    const diverged = m.diverged && { ...m.diverged, iteration: this.iteration };
    const collapsed = diverged ? (tf.dispose(Object.values(before)), undefined) : this.keeper.observe(before,
      trainer.net.config, this.iteration, m.meanReward, m.entropy);
    return { ...m, iteration: this.iteration, ...(diverged ? { diverged } : {}), ...(collapsed ? { collapsed } : {}) };
  }

  /** The iteration run phase by phase for slow motion, open between two "Next phase" requests. */
  private slow: { state: IterationState; trainer: GrpoTrainer } | null = null;

  /** A slow-motion iteration that configure closed after its update: its metrics, for the worker to post once. */
  private closedMetrics: IterationMetrics | null = null;

  takeClosedMetrics(): IterationMetrics | null {
    const m = this.closedMetrics;
    this.closedMetrics = null;
    return m;
  }

  /** Phases done of the open slow-motion iteration (0: none open). */
  get slowMotionPhase(): number { return this.slow?.state.next ?? 0; }

  /**
   * Slow motion: runs the next phase of the open iteration (opening one if none is), with the same
   * phase functions the trainer runs back to back. Returns the phase's report, and the iteration's
   * metrics once its last phase has run.
   */
  nextPhase(): Promise<{ report: PhaseReport; metrics: IterationMetrics | null }> {
    return this.exclusive(async () => {
      const trainer = this.requireTrainer();
      if (!this.slow || this.slow.trainer !== trainer) this.slow = { state: trainer.begin({ keepStart: true, observe: true }), trainer };
      const s = this.slow.state;
      try {
        await runNextPhase(s);
      } catch (e) {
        this.closeSlowMotion();
        throw e;
      }
      const report = phaseReport(s, this.iterationOffset);
      if (s.next < PHASE_NAMES.length) return { report, metrics: null };
      this.slow = null;
      return { report, metrics: this.afterIteration(trainer, trainer.finish(s)) };
    });
  }

  /**
   * Closes an open slow-motion iteration before anything else uses the trainer: finished (its
   * metrics returned) when its update has run, else dropped with the weights untouched.
   */
  closeSlowMotion(): IterationMetrics | null {
    const open = this.slow;
    this.slow = null;
    if (!open || open.trainer !== this.trainer) return null;
    if (updated(open.state)) return this.afterIteration(open.trainer, open.trainer.finish(open.state));
    open.trainer.abandon(open.state);
    return null;
  }

  /**
   * After a failure that broke the backend itself: a fresh backend of the same kind, and the
   * policy rebuilt from the last weights the trainer copied to the CPU. Returns what happened.
   */
  private async recover(trainer: GrpoTrainer, cause: Error): Promise<BackendRebuilt['stop']> {
    const s = this.requireSettings();
    const saved = trainer.lastGood;
    const offset = this.iterationOffset;
    this.trainer = null;
    clearKeeper(this.keeper);
    const name = await recreateActiveBackend();
    const net = saved ? networkFromFlat(trainer.net.config, saved.weights) : new PolicyNetwork(s.train.policy);
    this.replacePolicy(net, { at: saved ? offset + saved.iteration : 0, fresh: !saved });
    return { code: 'backendRebuilt', cause: cause.message, backend: name,
      restoredIteration: saved ? offset + saved.iteration : null };
  }

  /**
   * Keeps the current policy for Undo before something replaces it, unless it is an untrained fresh network
   * (Reset makes it again), which never takes the one slot from a trained policy (Reset twice, or a shared
   * lab's new network then its policy, lost it) — but a file imported by hand always undoes. Returns whether it was kept.
   */
  private keepForUndo(replacedBy: Replacement, settings: LabSettings): boolean {
    if (!this.trainer || (this.freshNetwork && this.iteration === 0 && replacedBy !== 'import')) return false;
    // The policy's seed in the settings: after an Undo it is the one that policy came with, before the page's configure sets train.seed too.
    this.keeper.saveUndo(this.trainer.net, this.iteration, replacedBy, settings.train.policy.seed);
    return true;
  }

  /** A fresh policy from the configured seed (iteration 0); the one it replaces can be brought back once (undo), unless it was fresh too. */
  reset(): Promise<{ kept: boolean }> {
    return this.exclusive(async () => {
      this.closeSlowMotion();
      const s = this.requireSettings();
      const kept = this.keepForUndo('reset', s);
      this.replacePolicy(new PolicyNetwork(s.train.policy), { at: 0, fresh: true, newRun: true });
      return { kept };
    });
  }

  /**
   * Puts back the best policy of this run (the collapse guard's snapshot); the counter goes on. The
   * policy it replaces is kept for Undo, which brings it back at the iteration it had.
   */
  restoreBest(): Promise<{ restored: KeptPolicy; width: number; depth: number; kept: boolean }> {
    return this.exclusive(async () => {
      this.closeSlowMotion();
      const best = this.keeper.bestSnapshot();
      if (!best) throw new Error('no best policy is kept yet: train a few iterations first');
      const trainer = this.requireTrainer();
      const kept = this.keepForUndo('restoreBest', this.requireSettings());
      trainer.net.assign(best.weights);
      trainer.resetOptimizer();
      return { restored: best.label, width: best.policy.width, depth: best.policy.depth, kept };
    });
  }

  /**
   * Brings back the policy that the last Reset, import or new network replaced, with its network
   * settings (its seed too: the page then brings the data seed back with a configure).
   */
  undo(): Promise<{ restored: UndoLabel; width: number; depth: number; seed: number }> {
    return this.exclusive(async () => {
      this.closeSlowMotion();
      const s = this.requireSettings();
      const u = this.keeper.takeUndo();
      if (!u) throw new Error('there is nothing to undo');
      try {
        this.keepForUndo('undo', s);
        const seed = u.labSeed ?? s.train.policy.seed;
        this.settings = { ...s, train: { ...s.train, policy: { ...s.train.policy, width: u.policy.width, depth: u.policy.depth, seed } } };
        this.replacePolicy(new PolicyNetwork(u.policy, u.weights), { at: u.iteration, fresh: false, newRun: true });
        return { restored: u.label, width: u.policy.width, depth: u.policy.depth, seed };
      } finally {
        tf.dispose(Object.values(u.weights));
      }
    });
  }

  /** The best iteration kept and what Undo would bring back (for the page's buttons). */
  get safety(): { bestIteration: number | null; undo: UndoLabel | null } {
    return { bestIteration: this.keeper.bestIteration, undo: this.keeper.undoLabel };
  }

  /** The policy at P (and, with `sweep`, over the whole preference sweep) next to the baselines. */
  evaluate(preference: Preference, sweep: boolean, previous: Tradeoff | null): Promise<Tradeoff> {
    return this.exclusive(async () => {
      const s = this.requireSettings();
      this.baselines ??= await baselineView(this.evalTasks, s);
      return tradeoffAt(this.requireTrainer().net, s, this.evalTasks, this.baselines, { preference, sweep, previous, iteration: this.iteration });
    });
  }

  exportWeights(): Promise<{ json: object; weights: ArrayBuffer }> {
    return this.exclusive(async () => {
      const s = this.requireSettings();
      const net = this.requireTrainer().net;
      // Only a policy that still computes finite probabilities is written out.
      const broken = await probeFinite(net, slotsOf(s.catalog).length);
      if (broken) throw new BrokenPolicyError(broken);
      // The schedule as the lab counts it (the trainer's is shifted), beside the lab's iteration count.
      const { json, weights } = await exportArtifact(net, s.catalog, { training: trainingRecord(s.train, this.iteration) });
      return { json, weights: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength) as ArrayBuffer };
    });
  }

  /** Validates first; on any problem throws, leaving the policy running. `resumeAt`: the iteration it goes on from. */
  importWeights(json: unknown, weights: ArrayBuffer, replacedBy: Replacement = 'import',
    resumeAt = 0): Promise<{ catalog: Catalog; width: number; depth: number; kept: boolean; recordedIterations: number | null }> {
    return this.exclusive(async () => {
      const s = this.requireSettings();
      if (!isIterationCount(resumeAt)) throw new Error(`its iteration ${resumeAt} is not a whole number from 0 to ${MAX_ITERATIONS}`);
      const loaded = importArtifact(json, weights);
      if (!loaded.ok) throw new Error(loaded.error);
      // A forward on the probe batch before the swap: a policy whose logits overflow never replaces the current one.
      const broken = await probeFinite(loaded.net, slotsOf(s.catalog).length).catch((e: unknown) => errorMessage(e));
      if (broken) {
        loaded.net.dispose();
        throw new Error(`invalid orchestrator artifact: ${broken}`);
      }
      this.closeSlowMotion();
      const kept = this.keepForUndo(replacedBy, s);
      // Adopt the imported shape; keep the lab's seed (it only seeds a fresh network on reset).
      const policy = { ...s.train.policy, width: loaded.net.config.width, depth: loaded.net.config.depth };
      this.settings = { ...s, train: { ...s.train, policy } };
      this.replacePolicy(loaded.net, { at: resumeAt, fresh: false, newRun: true });
      // The iterations its file records (a CLI or lab export writes them): said in the import's notice, while the lab
      // counts this policy's own from 0.
      const done = (loaded.metadata.training as { iterations?: unknown } | undefined)?.iterations;
      return { catalog: loaded.catalog, width: policy.width, depth: policy.depth, kept, recordedIterations: isIterationCount(done) ? done : null };
    });
  }

  /** The paper's Table 1 beside the current policy at P and the baselines, on `count` tasks of each suite. */
  paperTable(preference: Preference, count: number): Promise<PaperRow[]> {
    return this.exclusive(async () => {
      const s = this.requireSettings();
      const policy = learnedPolicy(this.requireTrainer().net, s.catalog, preference, 'orchestrator');
      return table1Rows(policy, LIVE_BASELINES, s.catalog, s.train.sim, 1000, count);
    });
  }

  /** Action probabilities on the fixed probe batch (see probe.ts). */
  probe(): Promise<number[]> {
    return this.exclusive(async () => probeProbabilities(this.requireTrainer().net, slotsOf(this.requireSettings().catalog).length));
  }

  /** Moves the policy to another backend (forced), or to the fastest measured one (`auto`): weights out, backend switched, weights back in. */
  switchBackend(target: BackendName | { auto: ProbeSize; cached?: BackendProbeReport }): Promise<BackendInfo> {
    return this.exclusive(async () => {
      this.closeSlowMotion();
      const s = this.requireSettings();
      const iterations = this.iteration;
      const { json, weights } = await exportArtifact(this.requireTrainer().net, s.catalog);
      const kept = await this.keeper.toHost(); // Restore best and Undo outlive the switch, failed or not
      try {
        // The count moves to the offset before the trainer goes: a status posted while the backend
        // starts (a run's last one, after a Pause) reads the policy's iteration, not 0.
        this.iterationOffset = iterations; // and the new trainer's schedule counts from here
        this.trainer?.dispose();
        this.trainer = null;
        this.backend = typeof target === 'string' ? await initBackend(target) : await chooseBackend(target.auto, target.cached);
        const loaded = importArtifact(JSON.parse(JSON.stringify(json)), weights);
        if (!loaded.ok) throw new Error(loaded.error);
        this.replacePolicy(loaded.net, { at: iterations });
      } finally {
        this.keeper.fromHost(kept);
      }
      return this.backend;
    });
  }
}
