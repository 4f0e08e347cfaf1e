// The CLI as the tests run it: one command's exit code, stdout and stderr (through tsx, as a
// loader would), and a scratch folder per test file.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const TSX = join(process.cwd(), 'node_modules', '.bin', 'tsx');

export const cli = (...args: string[]): { code: number | null; out: string; err: string } => {
  const r = spawnSync(TSX, ['src/cli/main.ts', ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

export const scratchDir = (): string => mkdtempSync(join(tmpdir(), 'orchestra-cli-'));
