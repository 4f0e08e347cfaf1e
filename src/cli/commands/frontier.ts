// `frontier …`: every baseline family's (cost, accuracy) points, AIQ, and RouteLLM's APGR and
// CPT(50%), CPT(80%) between the cheapest baseline and the most accurate one (frontier.ts);
// --markdown prints them as a table instead.

import { formatCost } from '../../core/sim/catalog';
import { PREFERENCE_SWEEP, preferenceLabel, sweepBaselines } from '../../core/eval/sweep';
import { learnedPolicy } from '../../core/policy/act';
import { checkKnown, CliError, stringOpt, type Args } from '../args';
import { loadPolicyFile } from '../policyFile';
import { checkBackendName, initNodeBackend } from '../tfBackend';
import { EVAL_DEFAULTS } from './eval';
import { WORLD_OPTIONS, worldFromArgs } from './world';

export async function frontierCommand(a: Args): Promise<void> {
  checkKnown(a, [...WORLD_OPTIONS, 'json', 'markdown', 'policy', 'backend']);
  if (a.flags.has('json') && a.flags.has('markdown')) throw new CliError('give either --json or --markdown, not both');
  checkBackendName(a.options.get('backend'));
  const w = worldFromArgs(a, EVAL_DEFAULTS);
  const extra = [];
  if (a.options.has('policy')) {
    // A trained policy, swept over the preference vectors of PREFERENCE_SWEEP.
    await initNodeBackend(stringOpt(a, 'backend', 'wasm'));
    const { net } = loadPolicyFile(stringOpt(a, 'policy'), w.catalog);
    extra.push({ family: 'orchestrator',
      policies: PREFERENCE_SWEEP.map((p) => learnedPolicy(net, w.catalog, p, `orchestrator ${preferenceLabel(p)}`)) });
  }
  const { families, cMin, cMax, references } = await sweepBaselines(w.tasks, w.catalog, w.sim, w.seed, extra);
  const share = (x: number | null) => (x === null ? '—' : `${(100 * x).toFixed(0)}%`);
  const num = (x: number | null) => (x === null ? '—' : x.toFixed(3));
  if (a.flags.has('markdown')) {
    const lines = ['| policy | accuracy | mean cost | mean latency | turns |', '|---|---:|---:|---:|---:|'];
    for (const f of families) {
      for (const r of f.results) {
        lines.push(`| \`${r.policy}\` | ${(100 * r.accuracy).toFixed(1)}% | ${formatCost(w.catalog, r.meanCostUSD)} ` +
          `| ${r.meanLatencyS.toFixed(1)} s | ${r.meanTurns.toFixed(2)} |`);
      }
    }
    lines.push('', '| family | AIQ | APGR | CPT(50%) | CPT(80%) |', '|---|---:|---:|---:|---:|', ...families.map((f) =>
      `| ${f.family} | ${f.aiq.toFixed(3)} | ${num(f.routing.apgr)} | ${share(f.routing.cpt50)} | ${share(f.routing.cpt80)} |`));
    if (references) lines.push('', `APGR and CPT between \`${references.weak.label}\` (weak) and \`${references.strong.label}\` ` +
      '(strong); CPT is the share of the way from the weak one\'s cost to the strong one\'s (docs/CLI.md).');
    process.stdout.write(lines.join('\n') + '\n');
    return;
  }
  const out = {
    catalog: w.catalog.name,
    currency: w.catalog.currency,
    suite: w.suite,
    seed: w.seed,
    n: w.tasks.length,
    range: { cMin, cMax },
    routingReferences: references && { weak: { policy: references.weak.label, cost: references.weak.cost,
      accuracy: references.weak.accuracy }, strong: { policy: references.strong.label, cost: references.strong.cost,
      accuracy: references.strong.accuracy } },
    families: families.map((f) => ({
      family: f.family,
      aiq: f.aiq,
      apgr: f.routing.apgr,
      cpt50: f.routing.cpt50,
      cpt80: f.routing.cpt80,
      points: f.results.map((r) => ({
        policy: r.policy, cost: r.meanCostUSD, accuracy: r.accuracy, latencyS: r.meanLatencyS,
      })),
    })),
  };
  if (a.flags.has('json')) process.stdout.write(JSON.stringify(out) + '\n');
  else for (const f of out.families) {
    process.stdout.write(`${f.family.padEnd(12)} AIQ ${f.aiq.toFixed(3)}  APGR ${num(f.apgr)}  CPT(50%) ${share(f.cpt50)}  ` +
      `CPT(80%) ${share(f.cpt80)}  ` +
      `${f.points.map((p) => `${p.policy} ${(100 * p.accuracy).toFixed(1)}%@${formatCost(w.catalog, p.cost)}`).join('  ')}\n`);
  }
}
