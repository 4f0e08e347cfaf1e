// `train …`: GRPO from Node on the wasm (or cpu) backend. Writes DIR/orchestrator.json,
// DIR/orchestrator.weights.bin and DIR/metrics.jsonl (all at the end, atomically), prints a
// progress line every few iterations on stderr and the final metrics as JSON on stdout.

import { join } from 'node:path';
import { DEFAULT_TRAIN, type TrainConfig } from '../../core/grpo/config';
import type { IterationMetrics } from '../../core/grpo/metrics';
import { REWARD_MODES, type RewardMode } from '../../core/grpo/reward';
import { GrpoTrainer } from '../../core/grpo/trainer';
import { exportArtifact, WEIGHTS_FILE } from '../../core/io/artifact';
import { generateTasks } from '../../core/sim/tasks';
import { checkKnown, CliError, intOpt, numberOpt, stringOpt, type Args } from '../args';
import { loadCatalog, loadPreference, writeFilesAtomically } from '../io';
import { loadPolicyFile } from '../policyFile';
import { initNodeBackend } from '../tfBackend';

const TRAIN_OPTIONS = ['catalog', 'seed', 'iterations', 'out', 'preference', 'random-preferences', 'backend', 'json', 'batch', 'group', 'lr', 'epochs', 'width', 'depth', 'beta', 'entropy', 'reward', 'aggregation', 'max-turns', 'pool', 'progress-every', 'init', 'advantage', 'dual-clip'];

/** The scalar part of an iteration's metrics (what metrics.jsonl and the summary hold). */
export function scalarMetrics(m: IterationMetrics): Omit<IterationMetrics, 'group' | 'advantageHistogram'> & { advantageHistogram: number[] } {
  const { group: _g, advantageHistogram, ...rest } = m;
  return { ...rest, advantageHistogram: advantageHistogram.counts };
}

function configFromArgs(a: Args): TrainConfig {
  const reward = stringOpt(a, 'reward', DEFAULT_TRAIN.reward);
  if (!(REWARD_MODES as readonly string[]).includes(reward)) throw new CliError(`--reward must be one of ${REWARD_MODES.join(', ')}`);
  const aggregation = stringOpt(a, 'aggregation', DEFAULT_TRAIN.aggregation);
  if (aggregation !== 'token-mean' && aggregation !== 'seq-mean-token-mean') throw new CliError('--aggregation must be token-mean or seq-mean-token-mean');
  const seed = intOpt(a, 'seed', DEFAULT_TRAIN.seed, 0, 2 ** 31);
  const advantage = stringOpt(a, 'advantage', DEFAULT_TRAIN.advantage.normalizeStd ? 'std' : 'mean');
  if (advantage !== 'std' && advantage !== 'mean') throw new CliError('--advantage must be std (GRPO: (R − mean)/std) or mean (Dr. GRPO: R − mean)');
  return {
    ...DEFAULT_TRAIN,
    seed,
    batchTasks: intOpt(a, 'batch', DEFAULT_TRAIN.batchTasks, 1, 1024),
    groupSize: intOpt(a, 'group', DEFAULT_TRAIN.groupSize, 1, 64),
    learningRate: numberOpt(a, 'lr', DEFAULT_TRAIN.learningRate, 0, 1),
    epochs: intOpt(a, 'epochs', DEFAULT_TRAIN.epochs, 1, 32),
    beta: numberOpt(a, 'beta', DEFAULT_TRAIN.beta, 0, 10),
    entropyCoef: numberOpt(a, 'entropy', DEFAULT_TRAIN.entropyCoef, 0, 10),
    dualClip: a.options.has('dual-clip') ? numberOpt(a, 'dual-clip', 3, 1.000001, 1000) : null,
    reward: reward as RewardMode,
    aggregation,
    advantage: { ...DEFAULT_TRAIN.advantage, normalizeStd: advantage === 'std' },
    policy: { width: intOpt(a, 'width', DEFAULT_TRAIN.policy.width, 1, 1024), depth: intOpt(a, 'depth', DEFAULT_TRAIN.policy.depth, 1, 16), seed },
    sim: { ...DEFAULT_TRAIN.sim, maxTurns: intOpt(a, 'max-turns', DEFAULT_TRAIN.sim.maxTurns, 2, 100) },
    poolSize: intOpt(a, 'pool', DEFAULT_TRAIN.poolSize, 1, 1_000_000),
  };
}

export async function trainCommand(a: Args): Promise<void> {
  checkKnown(a, TRAIN_OPTIONS);
  const out = stringOpt(a, 'out');
  const iterations = intOpt(a, 'iterations', 300, 1, 1_000_000);
  const every = intOpt(a, 'progress-every', 10, 1, 1_000_000);
  const catalog = loadCatalog(stringOpt(a, 'catalog', 'toolorchestra'));
  let config = configFromArgs(a);
  if (a.flags.has('random-preferences') && a.options.has('preference')) throw new CliError('give either --preference or --random-preferences, not both');
  if (a.flags.has('random-preferences')) config = { ...config, preferenceMode: 'random' };
  if (a.options.has('preference')) config = { ...config, preferenceMode: 'fixed', preference: loadPreference(stringOpt(a, 'preference'), catalog) };
  const backend = await initNodeBackend(stringOpt(a, 'backend', 'wasm'));
  let pool;
  try {
    pool = generateTasks(catalog, { seed: config.seed, count: config.poolSize, availability: config.availability, sim: config.sim }).tasks;
  } catch (e) {
    throw new CliError((e as Error).message);
  }
  // --init: continue from a trained policy (its width and depth replace --width/--depth).
  const init = a.options.has('init') ? loadPolicyFile(stringOpt(a, 'init')).net : undefined;
  if (init) config = { ...config, policy: { ...config.policy, width: init.config.width, depth: init.config.depth } };
  if (config.groupSize === 1) process.stderr.write('notice: --group 1: a group of one has no baseline; its advantage is r/(1 + 1e-6) as in veRL, so GRPO degenerates to REINFORCE without a baseline.\n');
  const trainer = new GrpoTrainer(catalog, config, pool, init);
  const lines: string[] = [];
  const t0 = performance.now();
  let last: IterationMetrics | null = null;
  for (let i = 0; i < iterations; i++) {
    last = await trainer.step();
    lines.push(JSON.stringify(scalarMetrics(last)));
    if (last.diverged) process.stderr.write(`warning: ${last.diverged}\n`);
    if ((i + 1) % every === 0 || i === iterations - 1) {
      const s = (performance.now() - t0) / 1000;
      process.stderr.write(`it ${String(last.iteration).padStart(4)}  reward ${last.meanReward.toFixed(3)}  acc ${(100 * last.accuracy).toFixed(1)}%  cost ${last.meanCostUSD.toFixed(4)}  entropy ${last.entropy.toFixed(3)}  |A| ${last.meanAbsAdvantage.toFixed(2)}  ${((i + 1) / s).toFixed(2)} it/s\n`);
    }
  }
  const wallS = (performance.now() - t0) / 1000;
  const final = { ...scalarMetrics(last as IterationMetrics), iterations, wallS, iterationsPerS: iterations / wallS, backend, catalog: catalog.name, out };
  const { json, weights } = await exportArtifact(trainer.net, catalog, { training: { ...config, iterations, backend }, metrics: final });
  writeFilesAtomically([
    { path: join(out, 'orchestrator.json'), data: JSON.stringify(json) },
    { path: join(out, WEIGHTS_FILE), data: weights },
    { path: join(out, 'metrics.jsonl'), data: lines.join('\n') + '\n' },
  ]);
  trainer.dispose();
  process.stderr.write(`trained ${iterations} iterations in ${wallS.toFixed(1)} s on ${backend}; wrote ${out}/orchestrator.json, ${WEIGHTS_FILE}, metrics.jsonl\n`);
  process.stdout.write((a.flags.has('json') ? JSON.stringify(final) : `final: accuracy ${(100 * final.accuracy).toFixed(1)}%, cost ${final.meanCostUSD.toFixed(4)}, ${wallS.toFixed(1)} s`) + '\n');
}
