// Vitest's global setup: the CLI bundled once (esbuild, packages left to node_modules), so that each
// of the CLI tests' many runs starts node on one file instead of transpiling every module through
// tsx again. The bundle sits as deep as src/cli/commands/, so paths the CLI finds from its own
// file (the shipped policy in public/) resolve as they do from the source; one test still runs
// the source through tsx, as `npm run cli` does.
import { build } from 'esbuild';
import { CLI_BUNDLE } from './cliHelpers';

export default async function setup(): Promise<void> {
  await build({
    entryPoints: ['src/cli/main.ts'], outfile: CLI_BUNDLE, bundle: true, platform: 'node', format: 'esm',
    packages: 'external', target: 'node20', logLevel: 'warning',
  });
}
