// The CLI as the tests run it: one command's exit code, stdout and stderr, from the bundle that
// cliBundle.ts builds before the tests (node on one file), and a scratch folder per test file.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const TSX = join(process.cwd(), 'node_modules', '.bin', 'tsx');
/** Three folders deep, as src/cli/commands/ is: the CLI finds public/ from its own file's place. */
export const CLI_BUNDLE = join(process.cwd(), 'node_modules', '.cache', 'orchestra-cli', 'main.mjs');
/** node's arguments that run the CLI with `args`. */
export const cliArgs = (...args: string[]): string[] => [CLI_BUNDLE, ...args];

export const cli = (...args: string[]): { code: number | null; out: string; err: string } => {
  const r = spawnSync(process.execPath, cliArgs(...args), { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

export const scratchDir = (): string => mkdtempSync(join(tmpdir(), 'orchestra-cli-'));
