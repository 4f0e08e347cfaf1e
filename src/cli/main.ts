// The command-line entry (`npm run cli -- <command>`): the same core as the lab, driven from Node.
// Every failure ends with one clear line on stderr and a non-zero exit; nothing is half-written.

import { existsSync } from 'node:fs';
import { CliError, parseArgs } from './args';
import { ownGet } from '../core/names';
import { benchEnvCommand } from './commands/benchEnv';
import { catalogCommand } from './commands/catalog';
import { evalCommand } from './commands/eval';
import { frontierCommand } from './commands/frontier';
import { generateCommand } from './commands/generate';
import { trainCommand } from './commands/train';
import { rewardCommand } from './commands/reward';
import { benchTrainCommand } from './commands/benchTrain';
import { REWARD_MODES } from '../core/grpo/rewardModes';
import { MAX_ITERATIONS, MIN_LEARNING_RATE } from '../core/grpo/config';
import { errorMessage } from '../core/errorMessage';
import { calibrateCommand } from './commands/calibrate';
import { preferencesCommand } from './commands/preferences';
import { reproduceCommand } from './commands/reproduce';
import { exportCommand } from './commands/exportPolicy';

const FLAGS = new Set(['json', 'markdown', 'random-preferences', 'help', 'quick', 'pretrained']);

const COMMANDS: Record<string, { run: (a: ReturnType<typeof parseArgs>) => void | Promise<void>; usage: string }> = {
  catalog: { run: catalogCommand, usage: 'catalog --preset <toolorchestra|seed-004>' },
  generate: { run: generateCommand, usage: 'generate --catalog <preset|file> --seed S --count N --out tasks.jsonl [--availability p] [--json]' },
  eval: { run: evalCommand, usage: 'eval --policy <baseline|DIR|DIR/orchestrator.json> --catalog <preset|file> ' +
    '[--suite hle|frames|tau2] --seed S --count N [--preference P.json] [--availability p] [--max-turns T] ' +
    '[--backend wasm|cpu] [--json]' },
  frontier: { run: frontierCommand, usage: 'frontier --catalog <preset|file> [--suite hle|frames|tau2] --seed S ' +
    '--count N [--policy DIR/orchestrator.json] [--backend wasm|cpu] [--json | --markdown]' },
  train: { run: trainCommand, usage: `train --catalog <preset|file> --seed S --iterations K --out DIR [--preference ` +
    `P.json | --random-preferences] [--init DIR/orchestrator.json] [--lr 0.0015] [--lr-decay F] [--advantage ` +
    `std|mean] [--entropy c] [--beta b] [--batch B] [--group G] [--epochs μ] [--width W] [--depth D] [--reward ` +
    `${REWARD_MODES.join('|')}] [--aggregation token-mean|seq-mean-token-mean] [--dual-clip c (> 1)] [--max-turns T] ` +
    `[--pool N] [--checkpoint-every K] [--progress-every K] [--backend wasm|cpu] [--json]\n         train --resume ` +
    `DIR [--iterations K] [--checkpoint-every K]  (go on with a saved run, at its checkpoint interval)\n` +
    `  --iterations: at most ${MAX_ITERATIONS} (2^32 - 1: each iteration's draws are seeded from its number as a ` +
    `32-bit integer); nothing else bounds a run but its disk: each checkpoint appends its iterations to ` +
    `metrics.jsonl, about 1 KB an iteration\n  --lr: from ${MIN_LEARNING_RATE} to 1 (below it no weight could change)` },
  calibrate: { run: calibrateCommand, usage: 'calibrate [--catalog <preset|file>] [--count 1000] [--seed 1000] ' +
    '[--policy DIR/orchestrator.json [--preference P.json]] [--baselines a,b,…] [--backend wasm|cpu] [--json]' },
  preferences: { run: preferencesCommand, usage: 'preferences --policy DIR/orchestrator.json [--count 1000] [--seed 1000] [--json]' },
  reproduce: { run: reproduceCommand, usage: 'reproduce [--quick] [--pretrained | --policy FILE] --out DIR [--count N] [--iterations K] ' +
    '[--seed S] [--rule rule.json] [--json]\n' +
    '  reproduce --seeds N [--samples S] [--quick] --out DIR [--count N] [--iterations K] [--json]: N recipe seeds, every table on S ' +
    'held-out samples, each cell a mean with its 95% interval, the paper\'s claims checked\n' +
    '  --rule: the greedy rule\'s λ per preset (as DIR/rule.json of a --seeds run) instead of tuning them on training tasks' },
  export: { run: exportCommand, usage: 'export --policy DIR/orchestrator.json --out DIR2 [--json]: the policy for other tools — ' +
    'orchestrator.safetensors, input-spec.json (what each input and weight means) and forward.py (its forward pass in plain Python)' },
  reward: { run: rewardCommand, usage: 'reward --input group.json [--json]' },
  'bench-env': { run: benchEnvCommand, usage: 'bench-env [--episodes 1024] [--turns 12] [--backend wasm|cpu] [--json]' },
  'bench-train': { run: benchTrainCommand, usage: 'bench-train [--iterations 20] [--backend wasm|cpu] [--kernels on|off] [--json]' },
};

function usage(): string {
  return ['usage: npm run cli -- <command> [options]', ...Object.values(COMMANDS).map((c) => `  ${c.usage}`)].join('\n');
}

async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === 'help' || argv[0] === '--help') {
    process.stdout.write(usage() + '\n');
    return 0;
  }
  const cmd = ownGet(COMMANDS, argv[0] as string); // a command's own entry: "constructor" is no command
  if (!cmd) throw new CliError(`unknown command "${argv[0]}"\n${usage()}`);
  if (argv.includes('--help')) {
    process.stdout.write(`usage: npm run cli -- ${cmd.usage}\n`);
    return 0;
  }
  await cmd.run(parseArgs(argv, FLAGS));
  return 0;
}

/** Exits once stdout has taken what was written: output that could not be written (a full disk, a closed pipe) is a failure, not a success. */
function exitAfterOutput(code: number): void {
  process.stdout.write('', (e) => {
    if (e) process.stderr.write(`error: the output could not be written (${(e as NodeJS.ErrnoException).code ?? e.message})\n`);
    // And stderr too: to a pipe read slowly, its last lines (a run's "saved … go on with") wait in a
    // queue that exit would drop.
    process.stderr.write('', () => process.exit(e ? 1 : code));
  });
}

/**
 * `npm run cli` runs the CLI from the package's folder, wherever the user typed it; npm keeps the
 * folder they typed it in as INIT_CWD. Relative paths (--out, --policy, --preference, a catalog
 * file) are the user's, so they resolve from there. Only under `npm run cli` itself: a test that
 * starts this file in a folder of its own inherits INIT_CWD from an outer npm.
 */
function workFromInvokingFolder(): void {
  const from = process.env.INIT_CWD;
  if (process.env.npm_lifecycle_event === 'cli' && from && existsSync(from)) process.chdir(from);
}

workFromInvokingFolder();
main(process.argv.slice(2)).then(
  (code) => exitAfterOutput(typeof process.exitCode === 'number' && process.exitCode !== 0 ? process.exitCode : code), // e.g. 130 after a saved Ctrl-C
  (e: unknown) => {
    // One line, whatever failed; the stack only on request (a stack is for a bug report, not for a user).
    const msg = e instanceof CliError ? e.message : `unexpected error: ${errorMessage(e)}${process.env.ORCHESTRA_DEBUG ? `\n${(e as Error)?.stack}`
      : ' (ORCHESTRA_DEBUG=1 shows the stack)'}`;
    process.stderr.write(`error: ${msg}\n`);
    process.exit(e instanceof CliError ? 2 : 1);
  },
);
