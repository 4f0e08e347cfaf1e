// `eval --policy <baseline|orchestrator.json> …`: one JSON object with accuracy, mean cost,
// mean latency and calls per task per tool on a held-out task set.

import { errorMessage } from '../../core/errorMessage';
import { baselineFromName } from '../../core/eval/baselines';
import { evaluatePolicy } from '../../core/eval/evaluate';
import type { BatchPolicy } from '../../core/eval/policy';
import { learnedPolicy } from '../../core/policy/act';
import { ACCURACY_FIRST, describePreference, type Preference } from '../../core/preference';
import { formatCost } from '../../core/sim/catalog';
import { checkKnown, CliError, stringOpt, type Args } from '../args';
import { loadPreference } from '../io';
import { loadPolicyFile, policyPath } from '../policyFile';
import { checkBackendName, initNodeBackend } from '../tfBackend';
import { WORLD_OPTIONS, worldFromArgs } from './world';

export const EVAL_DEFAULTS = { seed: 1000, count: 1000, availability: 1 };

export async function evalCommand(a: Args): Promise<void> {
  checkKnown(a, [...WORLD_OPTIONS, 'policy', 'preference', 'json', 'backend']);
  const name = stringOpt(a, 'policy');
  checkBackendName(a.options.get('backend'));
  const w = worldFromArgs(a, EVAL_DEFAULTS);
  const preference = a.options.has('preference') ? loadPreference(stringOpt(a, 'preference'), w.catalog) : undefined;
  let policy: BatchPolicy;
  let used: Preference | undefined;
  if (policyPath(name)) {
    // A trained policy: P is --preference, else the P it was trained with, else accuracy first.
    await initNodeBackend(stringOpt(a, 'backend', 'wasm'));
    const { net, trainedPreference } = loadPolicyFile(name, w.catalog);
    used = preference ?? trainedPreference ?? ACCURACY_FIRST;
    policy = learnedPolicy(net, w.catalog, used, name);
  } else {
    try {
      policy = baselineFromName(name, w.catalog, w.sim);
    } catch (e) {
      throw new CliError(errorMessage(e));
    }
  }
  const r = await evaluatePolicy(policy, w.tasks, w.catalog, w.sim,
    { seed: w.seed, ...(preference ? { preference } : {}) });
  // meanCostUSD is in the catalog's currency (`currency`: USD, or the abstract units of seed-004).
  const out = {
    ...r, currency: w.catalog.currency, catalog: w.catalog.name, suite: w.suite, seed: w.seed,
    ...(used ? { preferenceUsed: used } : {}),
  };
  if (a.flags.has('json')) process.stdout.write(JSON.stringify(out) + '\n');
  else {
    process.stdout.write(
      `${r.policy}: accuracy ${(100 * r.accuracy).toFixed(1)}%, mean cost ${formatCost(w.catalog, r.meanCostUSD)}, ` +
      `mean latency ${r.meanLatencyS.toFixed(1)} s` +
      `${r.score !== undefined ? `, preference score ${r.score.toFixed(3)}` : ''} over ${r.n} ${w.suite} tasks` +
      `${used ? ` (greedy, at P = ${describePreference(used)})` : ''}\n`);
  }
}
