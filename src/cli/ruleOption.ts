// The greedy rule's λ for a run of `reproduce`: tuned per preference on the shipped recipe's training
// tasks (core/eval/greedyRule.ts), or read from `--rule FILE` (as a run over seeds writes them once
// and hands them to each of its runs, so the rule is tuned once and is the same in every run).

import { presetNames, ruleLambdas, tuneForPresets, type RuleLambdas } from '../core/eval/greedyRule';
import { recipeConfig } from '../core/grpo/recipe';
import { trainingPool } from '../core/grpo/trainingPool';
import { DEFAULT_SIM } from '../core/sim/callModel';
import type { Catalog } from '../core/sim/catalog';
import { CliError, stringOpt, type Args } from './args';
import { readJson } from './io';

/** Where the rule's λ are tuned: the shipped recipe's training pool (at most `count` of its tasks), with this evaluation seed. */
const RULE_TUNING_SEED = 1;

/** The greedy rule's λ per preference: tuned on the recipe's training tasks, or read from `--rule FILE`. */
export async function ruleFor(a: Args, catalog: Catalog, quick: boolean, log: (s: string) => void): Promise<RuleLambdas> {
  if (a.options.has('rule')) {
    const file = stringOpt(a, 'rule');
    const byPreset = (readJson(file, '--rule') as { byPreset?: unknown } | null)?.byPreset;
    const entry = (x: unknown): x is RuleLambdas['byPreset'][number] => typeof x === 'object' && x !== null
      && typeof (x as { preset?: unknown }).preset === 'string' && Number.isFinite((x as { lambda?: unknown }).lambda)
      && ((x as { lambda: number }).lambda) >= 0 && Number.isFinite((x as { score?: unknown }).score);
    if (!Array.isArray(byPreset) || !byPreset.every(entry)) {
      throw new CliError(`--rule ${file}: expected {"byPreset": [{"preset": name, "lambda": λ ≥ 0, "score": s}, …]}`);
    }
    const missing = presetNames(catalog).filter((name) => !byPreset.some((x) => x.preset === name));
    if (missing.length) throw new CliError(`--rule ${file}: no λ for ${missing.map((m) => `"${m}"`).join(', ')} (a run over seeds writes one for every preset)`);
    return ruleLambdas(catalog, byPreset);
  }
  log('tuning the greedy rule\'s λ on the recipe\'s training tasks');
  const pool = trainingPool(catalog, recipeConfig());
  return tuneForPresets(catalog, DEFAULT_SIM, quick ? pool.slice(0, 400) : pool, RULE_TUNING_SEED);
}
