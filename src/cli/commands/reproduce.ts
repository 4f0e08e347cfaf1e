// `reproduce [--quick] [--pretrained] --out DIR [--json]`: the paper's tables in one command.
// Trains one policy with the shipped recipe (core/grpo/recipe.ts) or, with --pretrained, uses the
// shipped policy (with --policy FILE, any trained policy); tunes the greedy rule's λ on the recipe's
// training tasks (or reads them, --rule FILE); then writes DIR/REPRODUCTION.md (and the policy it
// trained, DIR/policy) and prints one JSON object with every table. It refuses a DIR that already holds
// any of them. With --seeds N it trains N seeds and reports over them and held-out samples (reproduceSeeds.ts).

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_PREFERENCE } from '../../core/preference';
import { FIGURE6_BUDGETS, reproduce, reproductionMarkdown } from '../../core/eval/reproduce';
import { trainingRecord, type TrainConfig } from '../../core/grpo/config';
import { recipeConfig, RECIPE_OPTIONS, SHIPPED_RECIPE } from '../../core/grpo/recipe';
import { GrpoTrainer } from '../../core/grpo/trainer';
import { exportArtifact } from '../../core/io/artifact';
import { learnedPolicy } from '../../core/policy/act';
import type { PolicyNetwork } from '../../core/policy/network';
import { DEFAULT_SIM } from '../../core/sim/callModel';
import { checkKnown, CliError, intOpt, stringOpt, type Args } from '../args';
import { checkOutputDir, loadCatalog, writeArtifactPair, writeFilesAtomically } from '../io';
import { loadPolicyFile } from '../policyFile';
import { initNodeBackend } from '../tfBackend';
import { TABLE1_BASELINES } from './calibrate';
import { runPool } from './train';
import { ruleFor } from '../ruleOption';
import { reproduceSeeds } from './reproduceSeeds';

const SHIPPED = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'public', 'pretrained', 'orchestrator.json');

/** Trains the recipe's policy and saves it in `dir` as `train --out` would (so it can be evaluated, resumed with --init, or opened in the lab). */
async function train(config: TrainConfig, iterations: number, dir: string, log: (s: string) => void): Promise<PolicyNetwork> {
  const catalog = loadCatalog('toolorchestra');
  const trainer = new GrpoTrainer(catalog, config, runPool(catalog, config));
  for (let i = 0; i < iterations; i++) {
    const m = await trainer.step();
    if ((i + 1) % 100 === 0) log(`  it ${i + 1}: accuracy ${(100 * m.accuracy).toFixed(1)}%`);
  }
  trainer.dispose(true);
  const { json, weights } = await exportArtifact(trainer.net, catalog, { training: trainingRecord(config, iterations, 'wasm') });
  writeArtifactPair(dir, json, weights);
  log(`  saved ${join(dir, 'orchestrator.json')}`);
  return trainer.net;
}

/** What reproduce writes into --out; any of them already there is refused before any work. */
const OUTPUTS = ['REPRODUCTION.md', join('policy', 'orchestrator.json')];

export async function reproduceCommand(a: Args): Promise<void> {
  if (a.options.has('seeds')) return reproduceSeeds(a);
  checkKnown(a, ['out', 'quick', 'pretrained', 'policy', 'json', 'count', 'iterations', 'seed', 'rule']);
  const out = stringOpt(a, 'out');
  checkOutputDir(out, '--out'); // before the runs: a long reproduction never ends unable to save
  const clash = OUTPUTS.filter((f) => existsSync(join(out, f)));
  if (clash.length) throw new CliError(`--out ${out} already holds ${clash.join(', ')}: give another --out, or move ` +
    `${clash.length > 1 ? 'them' : 'it'} first; nothing was run`);
  const quick = a.flags.has('quick');
  const given = a.flags.has('pretrained') ? SHIPPED : a.options.has('policy') ? stringOpt(a, 'policy') : null;
  if (a.flags.has('pretrained') && a.options.has('policy')) throw new CliError('give --pretrained (the shipped policy) or --policy FILE, not both');
  if (given && a.options.has('iterations')) throw new CliError(`${a.flags.has('pretrained') ? '--pretrained'
    : '--policy'} trains nothing (every table uses that policy): leave out --iterations`);
  const count = intOpt(a, 'count', quick ? 300 : 1000, 10, 100_000);
  const iterations = a.options.has('iterations') ? intOpt(a, 'iterations', SHIPPED_RECIPE.iterations, 1, 100_000) : quick ? 150 : SHIPPED_RECIPE.iterations;
  const seed = intOpt(a, 'seed', 1000, 0, 2 ** 31);
  const log = (s: string) => process.stderr.write(`${s}\n`);
  const catalog = loadCatalog('toolorchestra');
  await initNodeBackend('wasm');
  const t0 = performance.now();
  const rule = await ruleFor(a, catalog, quick, log); // first: a bad --rule is refused before any training
  const tTrain = performance.now();
  let net: PolicyNetwork, source: string;
  if (given) {
    net = loadPolicyFile(given).net;
    source = a.flags.has('pretrained') ? 'the shipped policy (public/pretrained) for every table' : `the policy ${given} for every table`;
  } else {
    log(`training the shipped recipe's policy (seed ${SHIPPED_RECIPE.seed}, ${iterations} iterations: train --seed ` +
      `${SHIPPED_RECIPE.seed} --iterations ${iterations} ${RECIPE_OPTIONS})`);
    net = await train(recipeConfig(iterations), iterations, join(out, 'policy'), log);
    source = `a policy trained here with the shipped recipe and saved in DIR/policy (seed ${SHIPPED_RECIPE.seed}, ` +
      `${iterations} iterations, \`train ${RECIPE_OPTIONS}\`), the one policy of every table`;
  }
  const trainedS = (performance.now() - tTrain) / 1000;
  const r = await reproduce({ rule,
    catalog, sim: DEFAULT_SIM, seed, count, preference: DEFAULT_PREFERENCE, baselines: TABLE1_BASELINES, maxTurns: FIGURE6_BUDGETS,
    orchestrator: (c, p, name) => learnedPolicy(net, c, p, name),
  }, log);
  const wallS = (performance.now() - t0) / 1000;
  const header = `# Reproduction of the ToolOrchestra paper's tables\n\n` +
    `\`npm run cli -- reproduce ${quick ? '--quick ' : ''}${a.flags.has('pretrained') ? '--pretrained ' : ''}` +
    `${['count', 'iterations', 'seed'].filter((o) => a.options.has(o)).map((o) => `--${o} ${a.options.get(o) as string} `).join('')}` +
    `--out DIR\`: ${count} tasks per suite (seed ${seed}), ${source}; the greedy rule's λ ${a.options.has('rule')
      ? `read from ${stringOpt(a, 'rule')}` : 'tuned on the recipe\'s training tasks'}; ${wallS.toFixed(0)} s on this machine` +
    `${given ? '' : ` (${trainedS.toFixed(0)} s of it training)`}. Each cell is lab / paper; — where the paper has no number.`;
  writeFilesAtomically([{ path: join(out, 'REPRODUCTION.md'), data: reproductionMarkdown(r, header) }]);
  log(`wrote ${join(out, 'REPRODUCTION.md')} in ${wallS.toFixed(1)} s`);
  process.stdout.write((a.flags.has('json') ? JSON.stringify(r) : reproductionMarkdown(r, header)) + '\n');
}
