// `calibrate`: the paper's Table 1 baselines on the three suites, lab beside paper — the check
// that the world is calibrated (docs/SIMULATION.md). `--policy DIR/orchestrator.json` adds a
// trained orchestrator (at --preference, else the P it was trained with).

import { errorMessage } from '../../core/errorMessage';
import { baselineFromName } from '../../core/eval/baselines';
import type { BatchPolicy } from '../../core/eval/policy';
import { callsTableMarkdown, evaluateOnSuites, suiteTableMarkdown, suiteTasks } from '../../core/eval/suiteTable';
import { learnedPolicy } from '../../core/policy/act';
import { DEFAULT_PREFERENCE } from '../../core/preference';
import { DEFAULT_SIM } from '../../core/sim/callModel';
import { checkKnown, CliError, intOpt, stringOpt, type Args } from '../args';
import { loadCatalog, loadPreference } from '../io';
import { loadPolicyFile } from '../policyFile';
import { checkBackendName, initNodeBackend } from '../tfBackend';

export const TABLE1_BASELINES = ['tools+gpt-5', 'notools:gpt-5', 'prompted:gpt-5', 'tools+claude-opus-4.1',
  'prompted:claude-opus-4.1', 'notools:claude-opus-4.1', 'prompted:qwen3-8b', 'notools:llama-3.3-70b',
  'repeat:gpt-5-mini:3', 'cascade:0.8', 'hindsight'];

export async function calibrateCommand(a: Args): Promise<void> {
  checkKnown(a, ['catalog', 'seed', 'count', 'policy', 'preference', 'baselines', 'backend', 'json']);
  checkBackendName(a.options.get('backend'));
  if (!a.options.has('policy') && a.options.has('preference')) {
    throw new CliError('--preference sets the P of a trained policy: give it with --policy');
  }
  const catalog = loadCatalog(stringOpt(a, 'catalog', 'toolorchestra'));
  const seed = intOpt(a, 'seed', 1000, 0, 2 ** 31);
  const count = intOpt(a, 'count', 1000, 1, 100_000);
  const sim = DEFAULT_SIM;
  const given = a.options.has('baselines');
  const names = given ? stringOpt(a, 'baselines').split(',') : TABLE1_BASELINES;
  const twice = names.find((n, i) => n.trim() !== '' && names.indexOf(n) !== i);
  if (twice) throw new CliError(`--baselines names "${twice}" twice; give each once`);
  const policies: BatchPolicy[] = names.map((n) => {
    try {
      if (n.trim() === '') throw new Error('an empty name (two commas, or one at an end)');
      return baselineFromName(n, catalog, sim);
    } catch (e) {
      const why = errorMessage(e);
      throw new CliError(given ? `--baselines: ` +
        `${why.replace('; or a trained orchestrator.json', '; a trained orchestrator.json goes in --policy')}`
        : `the default baselines are the paper's Table 1 (${TABLE1_BASELINES.join(', ')}) ` +
          `and catalog "${catalog.name}" cannot play them (${why}); give --baselines`);
    }
  });
  if (a.options.has('policy')) {
    await initNodeBackend(stringOpt(a, 'backend', 'wasm'));
    const { net, trainedPreference } = loadPolicyFile(stringOpt(a, 'policy'), catalog);
    const pref = a.options.has('preference') ? loadPreference(stringOpt(a, 'preference'), catalog)
      : trainedPreference ?? DEFAULT_PREFERENCE;
    policies.unshift(learnedPolicy(net, catalog, pref, 'orchestrator'));
  }
  const rows = await evaluateOnSuites(policies, suiteTasks(catalog, sim, seed, count), catalog, sim, seed);
  if (a.flags.has('json')) {
    process.stdout.write(JSON.stringify({ catalog: catalog.name, seed, count, rows: rows.map((r) => ({ ...r,
      bySuite: Object.fromEntries(Object.entries(r.bySuite).map(([k, v]) => [k, { accuracy: v.accuracy,
      meanCostUSD: v.meanCostUSD, meanLatencyS: v.meanLatencyS, callsPerTask: v.callsPerTask }])) })) }) + '\n');
  } else process.stdout.write(`${suiteTableMarkdown(rows, catalog.currency)}\n\nCalls per task (mean over the three ` +
    `suites) beside the paper's Table 15:\n\n${callsTableMarkdown(rows)}\n`);
}
