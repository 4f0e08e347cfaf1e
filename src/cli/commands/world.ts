// Options every world-facing command shares (--catalog, --suite, --seed, --count, --availability,
// --max-turns) and the held-out task set they describe: a benchmark suite (hle, frames, tau2),
// or with no --suite the training distribution.

import { errorMessage } from '../../core/errorMessage';
import type { Catalog } from '../../core/sim/catalog';
import { DEFAULT_SIM, type SimConfig } from '../../core/sim/callModel';
import { generateTasks, type GenerateStats, type Task } from '../../core/sim/tasks';
import { CliError, intOpt, numberOpt, stringOpt, type Args } from '../args';
import { loadCatalog } from '../io';

export const WORLD_OPTIONS = ['catalog', 'suite', 'seed', 'count', 'availability', 'max-turns'];

export interface World {
  catalog: Catalog;
  sim: SimConfig;
  seed: number;
  /** The benchmark suite, or 'toolscale' (the training distribution) when none was named. */
  suite: string;
  tasks: Task[];
  stats: GenerateStats;
}

/** Builds the task set the options describe; `availability` defaults differ (training vs evaluation). */
export function worldFromArgs(a: Args, defaults: { seed: number; count: number; availability: number }): World {
  const catalog = loadCatalog(stringOpt(a, 'catalog', 'toolorchestra'));
  const seed = intOpt(a, 'seed', defaults.seed, 0, 2 ** 31);
  const count = intOpt(a, 'count', defaults.count, 1, 1_000_000);
  const availability = numberOpt(a, 'availability', defaults.availability, 0.01, 1);
  const sim: SimConfig = { ...DEFAULT_SIM, maxTurns: intOpt(a, 'max-turns', DEFAULT_SIM.maxTurns, 2, 100) };
  const suite = a.options.get('suite');
  try {
    const { tasks, stats } = generateTasks(catalog, { seed, count, availability, sim, ...(suite !== undefined ? { suite } : {}) });
    return { catalog, sim, seed, suite: suite ?? 'toolscale', tasks, stats };
  } catch (e) {
    throw new CliError(errorMessage(e));
  }
}
