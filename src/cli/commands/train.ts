// `train …`: GRPO from Node on the wasm (or cpu) backend. Checks --out before any work; writes
// DIR/orchestrator.json and its weights (orchestrator.weights.<fingerprint>.bin), and appends to
// DIR/metrics.jsonl, at the end, at every --checkpoint-every iterations and on Ctrl-C (a reader
// always sees a whole pair: io.ts, runMetrics.ts); `--resume DIR` continues such a run, at its
// checkpoint interval. A write that fails says what the folder kept and how to go on. Prints a
// progress line every few iterations on stderr and the final metrics as JSON on stdout.

import { errorMessage } from '../../core/errorMessage';
import { join, resolve } from 'node:path';
import { DEFAULT_TRAIN, linearDecay, trainingRecord, type TrainConfig } from '../../core/grpo/config';
import type { IterationMetrics } from '../../core/grpo/metrics';
import { groupOfOneNote, normalisesOverGroup, PREFERENCE_PART, REWARD_MODES, type RewardMode } from '../../core/grpo/rewardModes';
import { preferenceVector } from '../../core/preference';
import { GrpoTrainer } from '../../core/grpo/trainer';
import { exportArtifact } from '../../core/io/artifact';
import { WEIGHTS_FILE_NAME } from '../../core/io/artifactCheck';
import { formatCost, type Catalog } from '../../core/sim/catalog';
import type { Task } from '../../core/sim/tasks';
import { POOL_CAP, trainingPool } from '../../core/grpo/trainingPool';
import { RECIPE_OPTIONS, SHIPPED_RECIPE } from '../../core/grpo/recipe';
import { checkKnown, CliError, intOpt, numberOpt, stringOpt, type Args } from '../args';
import { boundedFromArgs, MAX_ITERATIONS, refuseSettingsOnResume, storedTrainConfig } from '../trainSettings';
import { checkOutputDir, loadCatalog, loadPreference, readJson, writeArtifactPair } from '../io';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { lockRunFolder } from '../runLock';
import { loadPolicyFile } from '../policyFile';
import { initNodeBackend } from '../tfBackend';
import { divergedText } from '../../store/workerText';
import { appendPending, METRICS_FILE, PENDING_FILE, pendingFile, recoverMetrics } from '../runMetrics';

/** The files a run writes into its --out folder, or removes there (weights no manifest names any more: io.ts). */
const isRunFile = (f: string): boolean => f === 'orchestrator.json' || f === METRICS_FILE || f === PENDING_FILE
  || WEIGHTS_FILE_NAME.test(f);

/** How often a run saves, unless it says otherwise (and a run whose file records no interval). */
const CHECKPOINT_EVERY = 100;

const TRAIN_OPTIONS = ['catalog', 'seed', 'iterations', 'out', 'preference', 'random-preferences', 'backend', 'json',
  'batch', 'group', 'lr', 'epochs', 'width', 'depth', 'beta', 'entropy', 'reward', 'aggregation', 'max-turns', 'pool',
  'progress-every', 'init', 'advantage', 'dual-clip', 'checkpoint-every', 'resume', 'lr-decay'];

/** The scalar part of an iteration's metrics (what metrics.jsonl and the summary hold). */
export function scalarMetrics(m: IterationMetrics): Omit<IterationMetrics, 'group' | 'advantageHistogram'> & { advantageHistogram: number[] } {
  const { group: _g, advantageHistogram, ...rest } = m;
  return { ...rest, advantageHistogram: advantageHistogram.counts };
}

/** The run's configuration from its options (before --random-preferences, --preference and --lr-decay). */
export function configFromArgs(a: Args): TrainConfig {
  const reward = stringOpt(a, 'reward', DEFAULT_TRAIN.reward);
  if (!(REWARD_MODES as readonly string[]).includes(reward)) throw new CliError(`--reward must be one of ${REWARD_MODES.join(', ')}`);
  const aggregation = stringOpt(a, 'aggregation', DEFAULT_TRAIN.aggregation);
  if (aggregation !== 'token-mean' && aggregation !== 'seq-mean-token-mean') throw new CliError('--aggregation must be token-mean or seq-mean-token-mean');
  const advantage = stringOpt(a, 'advantage', DEFAULT_TRAIN.advantage.normalizeStd ? 'std' : 'mean');
  if (advantage !== 'std' && advantage !== 'mean') throw new CliError('--advantage must be std (GRPO: (R − mean)/std) or mean (Dr. GRPO: R − mean)');
  return {
    ...boundedFromArgs(a, { ...DEFAULT_TRAIN }),
    dualClip: a.options.has('dual-clip') ? numberOpt(a, 'dual-clip', 3, 1.000001, 1000) : null,
    reward: reward as RewardMode,
    aggregation,
    advantage: { ...DEFAULT_TRAIN.advantage, normalizeStd: advantage === 'std' },
  };
}

/** The pool a run trains on: trainingPool's, the lab's for the same settings (its refusal as the CLI's). */
export function runPool(catalog: Catalog, config: TrainConfig): Task[] {
  try {
    return trainingPool(catalog, config);
  } catch (e) {
    throw new CliError(errorMessage(e));
  }
}

/** What --resume reads back from DIR: the policy, the run's configuration (checked: trainSettings.ts), how far it got, its checkpoint interval. */
function readRun(dir: string): { net: ReturnType<typeof loadPolicyFile>['net']; config: TrainConfig; done: number; catalog: Catalog;
  checkpointEvery: number | null } {
  const path = join(dir, 'orchestrator.json');
  const { net, catalog } = loadPolicyFile(path); // the artifact's catalog, validated by its import
  const meta = (readJson(path, 'run to resume') as { userDefinedMetadata?: { training?: Record<string, unknown> } }).userDefinedMetadata;
  const t = meta?.training;
  if (!t || typeof t !== 'object' || !('iterations' in t)) throw new CliError(`${path}: not a training run this CLI wrote (its training metadata is missing)`);
  const stored = storedTrainConfig(t, catalog);
  if ('error' in stored) throw new CliError(`${path}: userDefinedMetadata.training: ${stored.error}`);
  const { config, done, preferencePart, checkpointEvery } = stored;
  if (config.reward === 'success-first' && preferencePart !== PREFERENCE_PART) {
    // A constant of the formula, not a setting: say so when the run was trained under another weight (or an unrecorded one).
    process.stderr.write(`notice: ${preferencePart === null
      ? `${path} does not record the weight of the success-first reward's preference part (1 in runs written before ` +
        `2026-12-06 11:41 UTC, ${PREFERENCE_PART} since)`
      : `${path} was trained with the success-first reward's preference part weighing ${preferencePart}`}; ` +
      `the run goes on under ${PREFERENCE_PART}, this version's weight\n`);
  }
  return { net, config, done, catalog, checkpointEvery };
}

/**
 * The metrics of iterations 1…done, as metrics.jsonl holds them after recoverMetrics (every readable
 * line of an iteration in order is kept: a damaged or missing line drops that line only); what is
 * missing is said.
 */
function recoverRunMetrics(dir: string, done: number): void {
  const path = join(dir, METRICS_FILE);
  const existed = existsSync(path) || existsSync(join(dir, PENDING_FILE));
  const kept = recoverMetrics(dir, done);
  if (kept < done) {
    process.stderr.write(`warning: ${existed
      ? `${path} lacks the metrics of ${done - kept} of its ${done} iterations ` +
        `(unreadable, out of order or missing lines); the resumed file keeps the ${kept} it has`
      : `${path} is missing; the resumed file holds only the new iterations' metrics`}\n`);
  }
}

/** The checkpoint interval of a resumed run: its own, unless --checkpoint-every changes it (said). */
function resumedInterval(a: Args, dir: string, stored: number | null): number {
  const given = a.options.has('checkpoint-every') ? intOpt(a, 'checkpoint-every', CHECKPOINT_EVERY, 1, 1_000_000) : null;
  if (given !== null && stored !== null && given !== stored) {
    process.stderr.write(`notice: --checkpoint-every ${given}: this run now saves every ${given} iterations (it was ` +
      `started saving every ${stored})\n`);
  }
  if (given === null && stored === null) {
    process.stderr.write(`notice: ${join(dir, 'orchestrator.json')} does not record how often the run saves (runs ` +
      `written before this version); it saves every ${CHECKPOINT_EVERY} iterations (--checkpoint-every changes that)\n`);
  }
  return given ?? stored ?? CHECKPOINT_EVERY;
}

/**
 * Weights files of a run folder that its orchestrator.json does not name: left by a checkpoint that
 * failed before this version cleaned up after one (or a kill between its renames). Removed before a
 * resumed run goes on, so they take no space its checkpoints need.
 */
function removeUnnamedWeights(dir: string): void {
  type Names = { weightsManifest?: { paths?: unknown[] }[] };
  const manifest = readJson(join(dir, 'orchestrator.json'), 'run to resume') as Names;
  const named = manifest.weightsManifest?.[0]?.paths?.[0];
  for (const f of readdirSync(dir)) {
    if (f === named || !WEIGHTS_FILE_NAME.test(f)) continue;
    rmSync(join(dir, f), { force: true });
    process.stderr.write(`notice: removed ${join(dir, f)}, a weights file that ${join(dir, 'orchestrator.json')} `
      + 'does not name (left by a checkpoint that did not complete)\n');
  }
}

export async function trainCommand(a: Args): Promise<void> {
  checkKnown(a, TRAIN_OPTIONS);
  const resume = a.options.has('resume') ? stringOpt(a, 'resume') : null;
  const out = resume ?? stringOpt(a, 'out');
  if (resume && a.options.has('out')
    && resolve(stringOpt(a, 'out')) !== resolve(resume)) throw new CliError('--resume DIR writes back to DIR; leave ' +
      'out --out (or give the same directory)');
  const option = resume ? '--resume' : '--out';
  checkOutputDir(out, option); // before any work: a run never trains and then fails to save
  // One run per folder, from before its files are looked at until it exits (runLock.ts).
  const command = `train ${process.argv.slice(3).join(' ')}`.trim();
  const release = lockRunFolder(out, option, command, (line) => process.stderr.write(`${line}\n`));
  try {
    await trainLocked(a, out, resume);
  } finally {
    release();
  }
}

/** The usual exit status of a process ended by `signal`: 128 + its number (SIGINT 130, SIGTERM 143, SIGHUP 129). */
export const signalStatus = (signal: NodeJS.Signals): number => 128 + (osConstants.signals[signal] ?? 0);

/** The signals that end a run the way Ctrl-C does: it saves a whole pair after the iteration in flight. */
const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

async function trainLocked(a: Args, out: string, resume: string | null): Promise<void> {
  const clash = !resume && existsSync(out) ? readdirSync(out).filter(isRunFile) : [];
  if (clash.includes('orchestrator.json')) {
    throw new CliError(`--out ${out} already holds a run (orchestrator.json): go on with it (--resume ${out}), or ` +
      `give another --out, or remove that folder first; nothing was written`);
  }
  if (clash.length) throw new CliError(`--out ${out} already holds ${clash.join(', ')}, which a run writes or ` +
    `replaces: give another --out, or move them first; nothing was written`);
  const every = intOpt(a, 'progress-every', 10, 1, 1_000_000);
  const backend = await initNodeBackend(stringOpt(a, 'backend', 'wasm'));
  const previous = resume ? readRun(resume) : null;
  const checkpointEvery = previous ? resumedInterval(a, out, previous.checkpointEvery)
    : intOpt(a, 'checkpoint-every', CHECKPOINT_EVERY, 1, 1_000_000);
  // A resumed run goes on to the end its schedule names; one at a constant rate stores no target, so it asks.
  const target = previous?.config.lrDecay?.end;
  if (previous && !a.options.has('iterations') && target === undefined) throw new CliError(`--resume ${out}: give ` +
    `--iterations N, the total to reach (this run has done ${previous.done})`);
  const iterations = a.options.has('iterations') || target === undefined
    ? intOpt(a, 'iterations', 300, 1, MAX_ITERATIONS)
    : target;
  if (previous) {
    if (a.options.has('lr-decay')) throw new CliError('--lr-decay: a resumed run keeps the schedule it was started with');
    refuseSettingsOnResume(a, out);
  }
  const catalog = previous ? previous.catalog : loadCatalog(stringOpt(a, 'catalog', 'toolorchestra'));
  let config = previous ? previous.config : configFromArgs(a);
  if (!previous) {
    if (a.flags.has('random-preferences') && a.options.has('preference')) throw new CliError('give either --preference or --random-preferences, not both');
    if (a.flags.has('random-preferences')) config = { ...config, preferenceMode: 'random' };
    if (a.options.has('preference')) config = { ...config, preferenceMode: 'fixed', preference: loadPreference(stringOpt(a, 'preference'), catalog) };
  }
  // --lr-decay F: the learning rate falls linearly to 0 over the last F of the iterations (config.ts).
  if (a.options.has('lr-decay')) {
    const fraction = numberOpt(a, 'lr-decay', 0, 0, 1);
    config = { ...config, lrDecay: linearDecay(iterations, fraction) };
    if (fraction > 0 && !config.lrDecay) throw new CliError(`--lr-decay ${fraction} of ${iterations} iterations ` +
      `rounds to no iteration; give more than ${(0.5 / iterations).toPrecision(2)} (or 0 for a constant rate)`);
  }
  const done = previous?.done ?? 0;
  const end = config.lrDecay?.end;
  if (end !== undefined && (iterations > end || done >= end)) {
    const where = done >= end ? `reached 0 at iteration ${end}, where this run stopped` : `reaches 0 at iteration ${end}`;
    throw new CliError(`this run's learning rate ${where}: more iterations would not change the weights (go on as a ` +
      `new run from it: --init ${join(out, 'orchestrator.json')})`);
  }
  if (done >= MAX_ITERATIONS) {
    throw new CliError(`${out} has ${done} iterations already, the most a run may have (--iterations is at most `
      + `${MAX_ITERATIONS}); go on as a new run from it: --init ${join(out, 'orchestrator.json')}`);
  }
  if (done >= iterations) {
    throw new CliError(`${out} has ${done} iterations already; `
      + `give --iterations above ${done} (at most ${MAX_ITERATIONS}) to go on`);
  }
  if (config.poolSize > POOL_CAP) {
    process.stderr.write(`notice: --pool ${config.poolSize}: a training pool holds at most ${POOL_CAP} tasks (the lab's `
      + `too); this run trains on ${POOL_CAP}\n`);
    config = { ...config, poolSize: POOL_CAP }; // and its files say so
  }
  const pool = runPool(catalog, config);
  // --init: continue from a trained policy (its width and depth replace --width/--depth); --resume: this run's own.
  if (a.options.has('init') && (a.options.has('width') || a.options.has('depth'))) throw new CliError('--init goes ' +
    'on from a trained policy, with its width and depth: leave out --width and --depth');
  const init = previous ? previous.net : a.options.has('init') ? loadPolicyFile(stringOpt(a, 'init'), catalog).net : undefined;
  if (init) config = { ...config, policy: { ...config.policy, width: init.config.width, depth: init.config.depth } };
  if (!previous && config.preferenceMode === 'random' && config.reward === 'toolorchestra') {
    // As the lab's note beside "random P per task": measured in docs/REPRODUCTION.md, "One policy, any preference".
    process.stderr.write(`notice: --random-preferences under the paper's reward: one policy trained for every P can ` +
      `give up answers for the presets that weigh tools or cost. The shipped policy's recipe is --seed ` +
      `${SHIPPED_RECIPE.seed} --iterations ${SHIPPED_RECIPE.iterations} ${RECIPE_OPTIONS} (docs/REPRODUCTION.md, ` +
      `"One policy, any preference").\n`);
  }
  if (config.groupSize === 1) {
    const why = `--group 1: ${groupOfOneNote(config.reward).replace(/^G = 1: /, '')}`;
    if (normalisesOverGroup(config.reward)) throw new CliError(why);
    process.stderr.write(`notice: ${why}\n`);
  }
  if (config.preferenceMode === 'fixed' && normalisesOverGroup(config.reward) && preferenceVector(config.preference, catalog).every((w) => w === 0)) {
    throw new CliError('--preference: every weight of P is 0, so under the paper\'s reward (M_norm · P) every reward ' +
      'is 0 and nothing would be learned; give some weight (e.g. "outcome": 1)');
  }
  let trainer: GrpoTrainer;
  try {
    trainer = new GrpoTrainer(catalog, config, pool, init);
  } catch (e) {
    throw new CliError(errorMessage(e));
  }
  trainer.iteration = done; // the iteration number seeds each iteration's draws: a resumed run goes on where it stopped
  if (resume) {
    removeUnnamedWeights(resume);
    recoverRunMetrics(resume, done);
  }
  /** The metrics lines since the last checkpoint (the earlier ones are in metrics.jsonl). */
  const lines: string[] = [];
  /** The iteration the folder holds a whole pair of (null: none yet). */
  let kept: number | null = previous ? done : null;
  const t0 = performance.now();
  let last: IterationMetrics | null = null;
  let interrupted: NodeJS.Signals | null = null, interruptedAt = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    // SIGTERM and SIGHUP end a run as Ctrl-C does. A terminal's Ctrl-C reaches this process twice at
    // once: from the terminal (the whole process group) and relayed again by npm (the `cli` script
    // runs node itself, with tsx as a loader: tsx's own launcher would SIGKILL a child whose event
    // loop is busy). Only a second signal, a moment later, stops at once.
    if (interrupted) {
      if (performance.now() - interruptedAt > 500) process.exit(signalStatus(signal));
      return;
    }
    interrupted = signal;
    interruptedAt = performance.now();
    // A hung-up terminal may refuse writes: that must not stop the save.
    process.stderr.on('error', () => undefined);
    process.stdout.on('error', () => undefined);
    const which = signal === 'SIGINT' ? '' : ` (${signal})`;
    process.stderr.write(`\ninterrupted${which}: saving after this iteration (Ctrl-C again to stop without saving)\n`);
  };
  for (const sig of STOP_SIGNALS) process.on(sig, onSignal);
  const goOn = `go on with: npm run cli -- train --resume ${out} --iterations ${iterations}`;
  /** What the folder holds after a failed write, and what to do, as Ctrl-C says it. */
  const keptText = (reached: number): string => {
    const from = kept ?? done;
    const lost = reached <= from ? '' : reached === from + 1 ? `iteration ${reached} is lost`
      : `iterations ${from + 1}–${reached} are lost`;
    if (kept === null) return `nothing of this run was saved${lost ? ` (${lost})` : ''}; make room and start it again`;
    return `${out} keeps iteration ${kept}${lost ? ` (${lost})` : ', where the run stopped'}; ${goOn}`;
  };
  const save = async (reached: number, final: object | null) => {
    const { json, weights } = await exportArtifact(trainer.net, catalog, { training: { ...trainingRecord(config,
      reached, backend), checkpointEvery }, ...(final ? { metrics: final } : {}) });
    try {
      writeArtifactPair(out, json, weights, [pendingFile(out, lines)]);
    } catch (e) {
      // A journal that landed without its manifest: in a new run's folder it would block starting again.
      if (kept === null) rmSync(join(out, PENDING_FILE), { force: true });
      throw e instanceof CliError ? new CliError(`${e.message}. ${keptText(reached)}`) : e;
    }
    kept = reached;
    lines.length = 0;
    try {
      appendPending(out);
    } catch (e) {
      throw new CliError(`could not append to "${join(out, METRICS_FILE)}": ${(e as NodeJS.ErrnoException).code ?? errorMessage(e)}; ` +
        `${out} keeps iteration ${reached}, whose newest metrics wait in ${PENDING_FILE} (--resume appends them); ${goOn}`);
    }
  };
  try {
    for (let i = done; i < iterations && !interrupted; i++) {
      last = await trainer.step();
      lines.push(JSON.stringify(scalarMetrics(last)));
      if (last.diverged) process.stderr.write(`warning: ${divergedText(last.diverged)}\n`);
      if ((i + 1) % every === 0 || i === iterations - 1) {
        const s = (performance.now() - t0) / 1000;
        process.stderr.write(`it ${String(last.iteration).padStart(4)}  reward ${last.meanReward.toFixed(3)}  ` +
          `acc ${(100 * last.accuracy).toFixed(1)}%  cost ${formatCost(catalog, last.meanCostUSD)}  ` +
          `entropy ${last.decisions.trained ? last.entropy.toFixed(3) : '—'}` +
          `${config.lrDecay ? `  lr ${last.learningRate.toPrecision(3)}` : ''}  |A| ${last.meanAbsAdvantage.toFixed(2)}  ` +
          `${((i + 1 - done) / s).toFixed(2)} it/s` +
          `${last.decisions.trained ? '' : '  (no update: every group was filtered, all its tries scored alike)'}\n`);
      }
      if ((i + 1) % checkpointEvery === 0 && i + 1 < iterations) await save(i + 1, null);
      // On wasm every await resolves as a microtask: yield to the event loop once an iteration so a Ctrl-C is seen.
      await new Promise<void>((r) => setImmediate(r));
    }
    const reached = trainer.iteration;
    const wallS = (performance.now() - t0) / 1000;
    const final = { ...scalarMetrics(last as IterationMetrics), currency: catalog.currency, iterations: reached, wallS,
      iterationsPerS: (reached - done) / wallS, backend, catalog: catalog.name, out };
    await save(reached, final);
    if (interrupted) {
      process.stderr.write(`saved ${out} at iteration ${reached} of ${iterations}; ${goOn}\n`);
      process.exitCode = signalStatus(interrupted);
      return;
    }
    process.stderr.write(`trained ${iterations - done} iterations${done ? ` (from ${done})`
      : ''} in ${wallS.toFixed(1)} s on ${backend}; wrote ${out}/orchestrator.json, its weights and metrics.jsonl\n`);
    process.stdout.write((a.flags.has('json') ? JSON.stringify(final) : `last training batch: accuracy ` +
      `${(100 * final.accuracy).toFixed(1)}%, cost ${formatCost(catalog, final.meanCostUSD)} a task, ` +
      `${wallS.toFixed(1)} s (an evaluation on held-out tasks: eval or calibrate --policy ` +
      `${join(out, 'orchestrator.json')})`) + '\n');
  } finally {
    // After a signal they stay, so the same press's second delivery is still ignored.
    if (!interrupted) for (const sig of STOP_SIGNALS) process.off(sig, onSignal);
    trainer.dispose();
  }
}
