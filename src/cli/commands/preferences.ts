// `preferences --policy DIR/orchestrator.json`: preference following on the three suites (the
// paper's Table 3): accuracy, cost and the share of calls to paid APIs at the default P and at
// every instruction preset.

import { preferenceFollowing, preferenceTableMarkdown } from '../../core/eval/preferenceFollowing';
import { suiteTasks } from '../../core/eval/suiteTable';
import { learnedPolicy } from '../../core/policy/act';
import { DEFAULT_SIM } from '../../core/sim/callModel';
import { checkKnown, intOpt, stringOpt, type Args } from '../args';
import { loadCatalog } from '../io';
import { loadPolicyFile } from '../policyFile';
import { initNodeBackend } from '../tfBackend';

export async function preferencesCommand(a: Args): Promise<void> {
  checkKnown(a, ['catalog', 'seed', 'count', 'policy', 'backend', 'json']);
  const catalog = loadCatalog(stringOpt(a, 'catalog', 'toolorchestra'));
  const seed = intOpt(a, 'seed', 1000, 0, 2 ** 31);
  const count = intOpt(a, 'count', 1000, 1, 100_000);
  await initNodeBackend(stringOpt(a, 'backend', 'wasm'));
  const { net } = loadPolicyFile(stringOpt(a, 'policy'), catalog);
  const rows = await preferenceFollowing((p, name) => learnedPolicy(net, catalog, p, name),
    suiteTasks(catalog, DEFAULT_SIM, seed, count), catalog, DEFAULT_SIM, seed, { failures: true });
  if (a.flags.has('json')) {
    process.stdout.write(JSON.stringify({ catalog: catalog.name, seed, count, rows: rows.map((r) => ({ preset: r.preset,
      preference: r.preference, bySuite: Object.fromEntries(Object.entries(r.bySuite).map(([k, v]) => [k,
      { accuracy: v.accuracy, meanCostUSD: v.meanCostUSD, meanLatencyS: v.meanLatencyS, apiShare: v.apiShare,
      callsPerTask: v.callsPerTask, failures: v.failures }])) })) }) + '\n');
  } else process.stdout.write(preferenceTableMarkdown(rows, catalog) + '\n');
}
