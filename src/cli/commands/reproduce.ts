// `reproduce [--quick] [--pretrained] --out DIR [--json]`: the paper's tables in one command.
// Trains what it needs (the headline policy at P = outcome 1, cost 0.5 and a random-preference
// policy, with the README's recipe) or, with --pretrained, uses the shipped policy for both; then
// writes DIR/REPRODUCTION.md (and the policies it trained, DIR/headline and DIR/random) and prints
// one JSON object with table1 … table4, table15, figure6. It refuses a DIR that already holds any of them.

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_PREFERENCE } from '../../core/eval/preferenceFollowing';
import { reproduce, reproductionMarkdown } from '../../core/eval/reproduce';
import { DEFAULT_TRAIN, linearDecay, type TrainConfig } from '../../core/grpo/config';
import { GrpoTrainer } from '../../core/grpo/trainer';
import { exportArtifact } from '../../core/io/artifact';
import { learnedPolicy } from '../../core/policy/act';
import type { PolicyNetwork } from '../../core/policy/network';
import { DEFAULT_SIM } from '../../core/sim/callModel';
import { generateTasks } from '../../core/sim/tasks';
import { checkKnown, CliError, intOpt, stringOpt, type Args } from '../args';
import { checkOutputDir, loadCatalog, writeArtifactPair, writeFilesAtomically } from '../io';
import { loadPolicyFile } from '../policyFile';
import { initNodeBackend } from '../tfBackend';
import { TABLE1_BASELINES } from './calibrate';

const SHIPPED = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'public', 'pretrained', 'orchestrator.json');
/** The README's recipe: Dr. GRPO advantage, lr 1.5e-3, entropy 0.03, the learning rate falling linearly to 0 over the run (LR_DECAY_FRACTION of it); the random-preference policy also takes the success-first reward. */
const LR_DECAY_FRACTION = 1;
const RECIPE: Partial<TrainConfig> = { learningRate: 0.0015, entropyCoef: 0.03, advantage: { ...DEFAULT_TRAIN.advantage, normalizeStd: false } };

/** Trains one of the two policies and saves it in `dir` as `train --out` would (so it can be evaluated, resumed with --init, or opened in the lab). */
async function train(config: TrainConfig, iterations: number, dir: string, log: (s: string) => void): Promise<PolicyNetwork> {
  const catalog = loadCatalog('toolorchestra');
  const pool = generateTasks(catalog, { seed: config.seed, count: config.poolSize, availability: config.availability, sim: config.sim }).tasks;
  const trainer = new GrpoTrainer(catalog, config, pool);
  for (let i = 0; i < iterations; i++) {
    const m = await trainer.step();
    if ((i + 1) % 100 === 0) log(`  it ${i + 1}: accuracy ${(100 * m.accuracy).toFixed(1)}%`);
  }
  trainer.dispose(true);
  const { json, weights } = await exportArtifact(trainer.net, catalog, { training: { ...config, iterations, backend: 'wasm' } });
  writeArtifactPair(dir, json, weights);
  log(`  saved ${join(dir, 'orchestrator.json')}`);
  return trainer.net;
}

/** What reproduce writes into --out; any of them already there is refused before any work. */
const OUTPUTS = ['REPRODUCTION.md', join('headline', 'orchestrator.json'), join('random', 'orchestrator.json')];

export async function reproduceCommand(a: Args): Promise<void> {
  checkKnown(a, ['out', 'quick', 'pretrained', 'json', 'count', 'iterations', 'seed']);
  const out = stringOpt(a, 'out');
  checkOutputDir(out, '--out'); // before the runs: a long reproduction never ends unable to save
  const clash = OUTPUTS.filter((f) => existsSync(join(out, f)));
  if (clash.length) throw new CliError(`--out ${out} already holds ${clash.join(', ')}: give another --out, or move ${clash.length > 1 ? 'them' : 'it'} first; nothing was run`);
  const quick = a.flags.has('quick');
  if (a.flags.has('pretrained') && a.options.has('iterations')) throw new CliError('--pretrained trains nothing (every table uses the shipped policy): leave out --iterations');
  const count = intOpt(a, 'count', quick ? 300 : 1000, 10, 100_000);
  // As the README's commands: the headline policy 1000 iterations, the random-preference one 800 (`--iterations` sets both).
  const given = a.options.has('iterations') ? intOpt(a, 'iterations', 800, 1, 100_000) : null;
  const iterations = { headline: given ?? (quick ? 150 : 1000), random: given ?? (quick ? 150 : 800) };
  const seed = intOpt(a, 'seed', 1000, 0, 2 ** 31);
  const log = (s: string) => process.stderr.write(`${s}\n`);
  const catalog = loadCatalog('toolorchestra');
  await initNodeBackend('wasm');
  const t0 = performance.now();
  let headline: PolicyNetwork, random: PolicyNetwork, source: string;
  if (a.flags.has('pretrained')) {
    headline = random = loadPolicyFile(SHIPPED).net;
    source = 'the shipped policy (public/pretrained, trained with random preferences and the success-first reward) for every table';
  } else {
    log(`training the headline policy (P = outcome 1, cost 0.5), ${iterations.headline} iterations`);
    // The same runs as the README's commands (`train --seed S` also seeds the network with S).
    headline = await train({ ...DEFAULT_TRAIN, ...RECIPE, lrDecay: linearDecay(iterations.headline, LR_DECAY_FRACTION), seed: 1, policy: { ...DEFAULT_TRAIN.policy, seed: 1 }, preferenceMode: 'fixed', preference: DEFAULT_PREFERENCE }, iterations.headline, join(out, 'headline'), log);
    log(`training the random-preference policy, ${iterations.random} iterations`);
    random = await train({ ...DEFAULT_TRAIN, ...RECIPE, reward: 'success-first', lrDecay: linearDecay(iterations.random, LR_DECAY_FRACTION), seed: 2, policy: { ...DEFAULT_TRAIN.policy, seed: 2 }, preferenceMode: 'random' }, iterations.random, join(out, 'random'), log);
    source = `policies trained here and saved in DIR/headline and DIR/random (headline: seed 1, P = outcome 1, cost 0.5, ${iterations.headline} iterations with the learning rate decaying to 0 over the run; Table 3: seed 2, random preferences and the success-first reward, ${iterations.random} iterations with the learning rate decaying to 0)`;
  }
  const r = await reproduce({
    catalog, sim: DEFAULT_SIM, seed, count, preference: DEFAULT_PREFERENCE, baselines: TABLE1_BASELINES, maxTurns: [4, 8, 12, 20],
    headline: (c, p, name) => learnedPolicy(headline, c, p, name),
    random: (c, p, name) => learnedPolicy(random, c, p, name),
  }, log);
  const wallS = (performance.now() - t0) / 1000;
  const header = `# Reproduction of the ToolOrchestra paper's tables\n\n\`npm run cli -- reproduce ${quick ? '--quick ' : ''}${a.flags.has('pretrained') ? '--pretrained ' : ''}${['count', 'iterations', 'seed'].filter((o) => a.options.has(o)).map((o) => `--${o} ${a.options.get(o) as string} `).join('')}--out DIR\`: ${count} tasks per suite (seed ${seed}), ${source}; ${wallS.toFixed(0)} s on this machine. Each cell is lab / paper; — where the paper has no number.`;
  writeFilesAtomically([{ path: join(out, 'REPRODUCTION.md'), data: reproductionMarkdown(r, header) }]);
  log(`wrote ${join(out, 'REPRODUCTION.md')} in ${wallS.toFixed(1)} s`);
  process.stdout.write((a.flags.has('json') ? JSON.stringify(r) : reproductionMarkdown(r, header)) + '\n');
}
