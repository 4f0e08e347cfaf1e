// The training pool of a configuration (ToolScale-lite, filtered; at most POOL_CAP tasks, each with
// its own tool subset, prices and turn budget): the lab session, the side-by-side runs and the CLI
// train on the same pool for the same settings.

import type { Catalog } from '../sim/catalog';
import { generateTasks, type Task } from '../sim/tasks';
import type { TrainConfig } from './config';

/** Most tasks a pool holds, whatever poolSize asks for. */
export const POOL_CAP = 2000;

/** The pool `train` trains on; throws when the catalog can make no task. */
export function trainingPool(catalog: Catalog, train: Pick<TrainConfig, 'seed' | 'poolSize' | 'availability' | 'sim' | 'priceSpread' | 'turnBudgets'>): Task[] {
  const pool = generateTasks(catalog, {
    seed: train.seed, count: Math.min(train.poolSize, POOL_CAP), availability: train.availability, sim: train.sim,
    priceSpread: train.priceSpread, ...(train.turnBudgets ? { turnBudgets: [train.turnBudgets.min, train.turnBudgets.max] as const } : {}),
  }).tasks;
  if (pool.length === 0) throw new Error(`no training task can be made with catalog "${catalog.name}" (are the tools that answer steps all disabled?)`);
  return pool;
}
