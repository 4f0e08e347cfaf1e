// `reproduce --seeds N [--samples S] --out DIR`: the paper's tables as claims over training seeds and
// held-out task samples. Trains the shipped recipe with seeds 1…N (each a `train` run of its own, as
// many at once as the machine has cores), tunes the greedy rule once on training tasks, runs the
// single-policy `reproduce` for every (seed, test sample), again in parallel, and reports each cell as
// a mean with a 95% interval (core/eval/overSeeds.ts) and the paper's claims checked on them
// (claims.ts). The samples nothing was chosen on are core/eval/samples.ts's TEST_SAMPLES; the policy a
// run would ship is the seed nearest the median on VALIDATION_SAMPLE. DIR/REPRODUCTION.md is generated
// whole from the run; DIR/runs.json keeps every run's tables.

import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { checkClaims, claimsMarkdown } from '../../core/eval/claims';
import { overSeeds, spreadTableMarkdown, type SeedRun } from '../../core/eval/overSeeds';
import { DEPARTURES } from '../../core/eval/paperTable1';
import type { Reproduction } from '../../core/eval/reproduce';
import { CALIBRATION_SAMPLE, nearestMedian, TEST_SAMPLES, VALIDATION_SAMPLE } from '../../core/eval/samples';
import { evaluateOnSuites, suiteTasks } from '../../core/eval/suiteTable';
import { RECIPE_OPTIONS, SHIPPED_RECIPE } from '../../core/grpo/recipe';
import { learnedPolicy } from '../../core/policy/act';
import { DEFAULT_PREFERENCE } from '../../core/preference';
import { DEFAULT_SIM } from '../../core/sim/callModel';
import { checkKnown, CliError, intOpt, stringOpt, type Args } from '../args';
import { checkOutputDir, loadCatalog, writeFilesAtomically } from '../io';
import { loadPolicyFile } from '../policyFile';
import { initNodeBackend } from '../tfBackend';
import { ruleFor } from '../ruleOption';

/** The children running now: stopped when one of them fails, so none outlives the command. */
const running = new Set<ChildProcess>();

/** Runs this CLI with `args` as a child process; its stdout is returned, its stderr goes to `logFile`. */
function runCli(args: readonly string[], logFile: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, process.argv[1] as string, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    child.on('close', () => running.delete(child));
    const log = createWriteStream(logFile);
    const out: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.pipe(log);
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out).toString('utf8'))
      : reject(new CliError(`${args[0] ?? ''} ${args.join(' ')} failed (exit ${code}); its log: ${logFile}`))));
  });
}

/** Runs the jobs, at most `width` at once, in order of their results; the first failure stops the rest and the children running. */
async function inParallel<T>(jobs: readonly (() => Promise<T>)[], width: number): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0, failed = false;
  const lane = async () => {
    while (next < jobs.length && !failed) {
      const k = next++;
      try {
        results[k] = await (jobs[k] as () => Promise<T>)();
      } catch (e) {
        failed = true;
        for (const child of running) child.kill('SIGTERM');
        throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, jobs.length) }, lane));
  return results;
}

/** Every table over the runs, with the claims first. */
function seedsMarkdown(runs: readonly SeedRun[], header: string): string {
  const t = overSeeds(runs);
  const tables: [string, keyof Reproduction][] = [
    ['Table 1 — three suites (accuracy %, cost ¢ and latency min over HLE and FRAMES)', 'table1'],
    ['Table 2 — every model replaced by models never seen in training', 'table2'],
    ['Reading descriptors — a copy of a known model at a tenth of its price', 'copy'],
    ['Table 3 — preference following, per preset (accuracy %, the paper’s reward ×100, cost ¢, latency min, API share %)', 'table3'],
    ['Table 3, the paper’s metric per system', 'table3Systems'],
    ['Table 4 — another provider’s prices', 'table4'],
    ['Table 15 — calls per task (mean of the three suites; FRAMES’s searches and programs)', 'table15'],
    ['Figure 6 — HLE accuracy and cost as the turn budget varies', 'figure6'],
    ['The greedy rule — its λ per preference, tuned on training tasks', 'rule'],
    ['The greedy rule at every λ, default P (its frontier)', 'ruleFrontier'],
    ['Routing metrics on HLE (AIQ, APGR, CPT(50%), CPT(80%); the orchestrator swept over P)', 'routing'],
  ];
  return [header, '', claimsMarkdown(checkClaims(t, runs)),
    '**Departures from the paper, in every number below:** ' + DEPARTURES.join('; ') + '.', '',
    ...tables.map(([title, k]) => spreadTableMarkdown(title, t[k]))].join('\n');
}

export async function reproduceSeeds(a: Args): Promise<void> {
  checkKnown(a, ['out', 'quick', 'seeds', 'samples', 'count', 'iterations', 'json', 'rule']);
  const out = stringOpt(a, 'out');
  checkOutputDir(out, '--out');
  for (const f of ['REPRODUCTION.md', 'runs.json', 'seeds']) {
    if (existsSync(join(out, f))) throw new CliError(`--out ${out} already holds ${f}: give another --out, or move it first; nothing was run`);
  }
  const quick = a.flags.has('quick');
  const nSeeds = intOpt(a, 'seeds', 5, 1, 64);
  const samples = TEST_SAMPLES.slice(0, intOpt(a, 'samples', 3, 1, TEST_SAMPLES.length));
  const count = intOpt(a, 'count', quick ? 100 : 1000, 10, 100_000);
  const iterations = intOpt(a, 'iterations', quick ? 40 : SHIPPED_RECIPE.iterations, 1, 100_000);
  const seeds = Array.from({ length: nSeeds }, (_, k) => k + 1);
  const width = Math.max(1, availableParallelism());
  const log = (s: string) => process.stderr.write(`${s}\n`);
  const t0 = performance.now();
  const catalog = loadCatalog('toolorchestra');
  const rule = await ruleFor(a, catalog, quick, log); // first: a bad --rule is refused before any training
  for (const d of ['seeds', 'logs', 'runs']) mkdirSync(join(out, d), { recursive: true });

  log(`training the recipe with seeds ${seeds.join(', ')} (${iterations} iterations each, ${Math.min(width, nSeeds)} at once)`);
  await inParallel(seeds.map((seed) => async () => {
    await runCli(['train', '--catalog', 'toolorchestra', '--seed', String(seed), '--iterations', String(iterations),
      ...RECIPE_OPTIONS.split(' '), '--out', join(out, 'seeds', `seed-${seed}`)], join(out, 'logs', `train-seed-${seed}.log`));
    log(`  seed ${seed} trained`);
  }), width);
  const trainedS = (performance.now() - t0) / 1000;

  const ruleFile = join(out, 'rule.json');
  writeFilesAtomically([{ path: ruleFile, data: JSON.stringify({ tunedOn: 'the shipped recipe\'s training pool', byPreset: rule.byPreset }, null, 1) }]);

  log(`reproducing every table for ${nSeeds} seeds × ${samples.length} held-out samples (${samples.join(', ')})`);
  const pairs = seeds.flatMap((seed) => samples.map((sample) => ({ seed, sample })));
  const runs: SeedRun[] = await inParallel(pairs.map(({ seed, sample }) => async () => {
    const name = `seed-${seed}-sample-${sample}`;
    const json = await runCli(['reproduce', '--policy', join(out, 'seeds', `seed-${seed}`, 'orchestrator.json'), '--seed', String(sample),
      '--count', String(count), '--rule', ruleFile, '--json', '--out', join(out, 'runs', name)], join(out, 'logs', `${name}.log`));
    return { seed, sample, r: JSON.parse(json) as Reproduction };
  }), width);

  log(`choosing the seed to ship on the validation sample ${VALIDATION_SAMPLE}`);
  await initNodeBackend('wasm');
  const validation = suiteTasks(catalog, DEFAULT_SIM, VALIDATION_SAMPLE, count);
  const means: number[] = [];
  for (const seed of seeds) {
    const { net } = loadPolicyFile(join(out, 'seeds', `seed-${seed}`, 'orchestrator.json'));
    const [row] = await evaluateOnSuites([learnedPolicy(net, catalog, DEFAULT_PREFERENCE, `seed ${seed}`)], validation, catalog, DEFAULT_SIM,
      VALIDATION_SAMPLE);
    net.dispose();
    means.push(100 * (row?.accuracy ?? Number.NaN));
  }
  const ship = seeds[nearestMedian(means)] as number;
  const wallS = (performance.now() - t0) / 1000;
  const header = `# Reproduction of the ToolOrchestra paper's tables, over seeds and held-out samples\n\n` +
    `\`npm run cli -- reproduce --seeds ${nSeeds} --samples ${samples.length}${quick ? ' --quick' : ''}` +
    `${['count', 'iterations'].filter((o) => a.options.has(o)).map((o) => ` --${o} ${a.options.get(o) as string}`).join('')} --out DIR\`: ` +
    `the shipped recipe (\`train ${RECIPE_OPTIONS}\`, ${iterations} iterations) trained with seeds ${seeds.join(', ')}; every table on ` +
    `${count} tasks per suite of each held-out test sample (${samples.join(', ')}: samples nothing was chosen on; the world's calibration, ` +
    `the recipe and the shipped seed were chosen on sample ${CALIBRATION_SAMPLE}). Each cell is the mean over the ${pairs.length} runs ± the ` +
    `half-width of its 95% interval over seeds and samples / the paper's number. The greedy rule's λ were tuned on the recipe's ` +
    `training tasks. ${wallS.toFixed(0)} s on this machine (${width} cores; ${trainedS.toFixed(0)} s of it training).\n\n` +
    `**The policy to ship** is the seed nearest the median of the seeds' Table 1 mean accuracy on the validation sample ` +
    `${VALIDATION_SAMPLE}: seed ${ship} (${seeds.map((s, k) => `seed ${s} ${(means[k] as number).toFixed(1)}%`).join(', ')}).`;
  const md = seedsMarkdown(runs, header);
  writeFilesAtomically([{ path: join(out, 'REPRODUCTION.md'), data: md },
    { path: join(out, 'runs.json'), data: JSON.stringify({ seeds, samples, validation: { sample: VALIDATION_SAMPLE, means, ship }, runs }) }]);
  log(`wrote ${join(out, 'REPRODUCTION.md')} in ${wallS.toFixed(1)} s`);
  process.stdout.write((a.flags.has('json') ? JSON.stringify({ ...overSeeds(runs), claims: checkClaims(overSeeds(runs), runs), ship })
    : md) + '\n');
}
