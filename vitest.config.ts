import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    pool: 'forks',
    // Two test files at a time on a 2-core machine (vitest's default is one fewer than the cores, so one):
    // most of the time goes to CLI child processes, and the unit phase takes about two thirds as long.
    maxWorkers: 2,
    globalSetup: ['test/cliBundle.ts'],
  },
});
