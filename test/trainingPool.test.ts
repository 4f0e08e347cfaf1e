// One training pool for the same settings, wherever training runs: the pool `train` builds from its
// options is, task for task, the pool the lab's worker builds from a link with the same settings, and
// every command or worker that trains gets its pool from core/grpo/trainingPool.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseArgs } from '../src/cli/args';
import { configFromArgs, runPool } from '../src/cli/commands/train';
import { POOL_CAP } from '../src/core/grpo/trainingPool';
import type { Task } from '../src/core/sim/tasks';
import { readUrl } from '../src/store/urlState';
import { LabSession } from '../src/worker/session';
import { useCpu } from './tfSetup';

beforeAll(async () => { await useCpu(); });

describe('the training pool', () => {
  it('train --seed 5 and the lab at ?seed=5 train on the same tasks', () => {
    const cliConfig = configFromArgs(parseArgs(['train', '--seed', '5'], new Set()));
    const { config } = readUrl('?seed=5');
    const session = new LabSession();
    session.configure({
      catalog: config.catalog, train: config.train, delayMs: 0, evalTasks: 20, evalSuite: config.evalSuite,
    });
    // The session keeps its pool private; this test reads it to compare the two.
    const workerPool = (session as unknown as { pool: Task[] }).pool;
    const cliPool = runPool(config.catalog, cliConfig);
    // The lab's pool size is its default (2000), which is also the most a pool holds.
    expect(workerPool).toHaveLength(2000);
    expect(POOL_CAP).toBe(2000);
    expect(cliPool.map((t) => t.id)).toEqual(workerPool.map((t) => t.id));
    expect(cliPool).toEqual(workerPool);
  }, 120_000);

  it('every place that trains takes its pool from trainingPool', () => {
    const src = join(import.meta.dirname, '..', 'src');
    for (const [file, call] of [
      ['worker/session.ts', 'trainingPool(next.catalog, next.train)'],
      ['core/lab/pairedRuns.ts', 'trainingPool(catalog, a)'],
      ['cli/commands/train.ts', 'trainingPool(catalog, config)'],
      ['cli/commands/train.ts', 'runPool(catalog, config)'],
      ['cli/commands/reproduce.ts', 'runPool(catalog, config)'],
    ] as const) expect(readFileSync(join(src, file), 'utf8'), file).toContain(call);
  });
});
